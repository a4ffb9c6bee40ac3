"""What `check` and the students' check print in a terminal: no row that text a submission sent
can start, whatever it pads its message with (render.text.fit_to_width)."""
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.core.render.text import fit_to_width, terminal_width


def columns(text):
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


LINES = st.lists(st.tuples(st.integers(0, 8), st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=300)),
                 max_size=8)


@settings(max_examples=300, deadline=None)
@given(lines=LINES, width=st.integers(20, 200))
def test_every_row_fits_and_every_further_row_is_indented_past_its_line(lines, width):
    text = "\n".join(" " * indent + body.replace("\n", " ") for indent, body in lines)
    rows = fit_to_width(text, width).split("\n")
    assert all(columns(row) <= width or len(row.strip()) == 1 for row in rows)
    # Each line is fitted on its own (so a further row and a next line indented four more are never
    # confused): its rows hold its words in order, every further row indented past the line's own.
    fitted = []
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        own = fit_to_width(line, width).split("\n")
        assert "".join(r.replace(" ", "") for r in own) == line.replace(" ", "")
        assert all(r.startswith(" " * (indent + 4)) for r in own[1:]), own
        fitted += own
    assert rows == fitted


def test_text_padded_to_the_edge_starts_no_row():
    line = "    ValueError: " + "x" * 60 + " " * 4 + "Total 10 / 10 points  Every step passed. Well done!"
    rows = fit_to_width(line, 80).split("\n")
    assert len(rows) == 2 and rows[1].startswith(" " * 8 + "Total")


def test_only_a_terminal_is_wrapped():
    import io

    assert terminal_width(io.StringIO()) is None
    assert fit_to_width("a" * 500, None) == "a" * 500
