"""The one rule for the numbers a TA writes (batch.ta_numbers), and overrides.csv read through it:
over generated cells and rows, a number is read only as the TA meant it or refused with its line
and reason; a decimal comma never becomes a grade."""
import csv
import io

import pytest
from hypothesis import given, settings, strategies as st

from autograder.batch.overrides import OverridesRefused, parse_overrides
from autograder.batch.ta_numbers import Unreadable, read_number, split_number

STEPS = {"make_qkv": 2.0, "scores": 1.0, "softmax": 2.0, "mix": 1.0}
IDS = ["s01", "s02", "kim", "김민수"]
digits = st.text(alphabet="0123456789", min_size=1, max_size=6)


@st.composite
def plain_decimals(draw):
    """A number as a TA writes it with a dot: "2", "1.5", ".5", "-0.25", " 1 "."""
    sign = draw(st.sampled_from(["", "+", "-"]))
    whole = draw(st.one_of(st.just(""), digits))
    fraction = draw(digits if not whole else st.one_of(st.just(""), digits))
    dot = "." if fraction or draw(st.booleans()) else ""
    text = f"{sign}{whole}{dot}{fraction}" if whole or fraction else f"{sign}0"
    return draw(st.sampled_from(["", " "])) + text + draw(st.sampled_from(["", " ", "\t"]))


@settings(max_examples=500, deadline=None)
@given(plain_decimals())
def test_a_plain_decimal_is_read_as_written(text):
    assert read_number(text) == float(text)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=12))
def test_anything_read_is_a_plain_decimal_and_the_rest_is_refused_with_a_reason(text):
    value = read_number(text)
    if isinstance(value, Unreadable):
        assert value.text == text and value.code
    else:
        stripped = text.strip()
        assert stripped.isascii() and set(stripped) <= set("+-.0123456789") and value == float(stripped)


@settings(max_examples=300, deadline=None)
@given(digits, digits, st.sampled_from(["", "-"]))
def test_a_decimal_comma_in_one_cell_is_refused_as_one(whole, fraction, sign):
    said = read_number(f"{sign}{whole},{fraction}")
    assert isinstance(said, Unreadable) and said.code == "decimal_comma"


@pytest.mark.parametrize("text, code", [
    ("1 000", "grouping"), ("1_000", "grouping"), ("1.000,5", "grouping"), ("1e1", "exponent"),
    ("2E-1", "exponent"), ("nan", "not_finite"), ("-inf", "not_finite"), ("１.５", "not_ascii"), ("½", "not_ascii"),
    ("two", "not_a_number"), ("", "empty"), ("0x10", "not_a_number"), ("1.5.2", "not_a_number"),
])
def test_what_float_would_take_but_a_ta_does_not_mean_is_refused(text, code):
    said = read_number(text)
    assert isinstance(said, Unreadable) and said.code == code


def test_a_split_number_is_found_after_or_before_its_column_and_two_numbers_are_two():
    row = ["s01", "softmax", "1", "5", "kim"]
    assert split_number(row, {2}, {3, 4}) is not None  # points 1, comment "5"
    assert split_number(["s01", "softmax", "0", "1", "kim"], {3}, {2, 4}) is not None  # comment "0", points 1
    assert split_number(row, {2, 3}, {4}) is None  # points 1, automatic 5: two numbers
    assert split_number(["10231", "1", "softmax", "ok", "kim"], {1}, {3, 4}) is None  # an id of digits is no word
    assert split_number(["s01", "softmax", "1", "ok", "kim"], {2}, {3, 4}) is None
    assert split_number(["s01", "softmax", "1.5", "5", "kim"], {2}, {3, 4}) is None  # a decimal before: not split


# overrides.csv, generated ------------------------------------------------------------------------

COLUMNS = ("id", "step", "points", "comment", "by", "automatic")


@st.composite
def override_files(draw):
    """A file of valid rows in a generated column order; in one row the TA writes the points with a
    decimal comma (unquoted, so it splits the cell; or quoted, one cell), maybe forgetting a cell so
    that the row still fits the header."""
    order = list(draw(st.permutations(COLUMNS if draw(st.booleans()) else COLUMNS[:5])))
    keys = draw(st.lists(st.tuples(st.sampled_from(IDS), st.sampled_from(sorted(STEPS))), min_size=1, max_size=6,
                         unique=True))
    rows = []
    for student, step in keys:
        tenths = draw(st.integers(0, int(STEPS[step] * 10)))
        row = {"id": student, "step": step, "points": f"{tenths / 10:g}", "automatic": f"{STEPS[step]:g}",
               "comment": draw(st.sampled_from(["부분 점수", "hand-checked", "다시 봄: 식은 맞음"])),
               "by": draw(st.sampled_from(["김조교", "TA Lee"]))}
        rows.append(row)
    slip = draw(st.integers(0, len(rows) - 1))
    whole = draw(st.integers(0, 1))
    fraction = draw(st.sampled_from(["1", "2", "5", "25", "75"]))
    form = draw(st.sampled_from(["split", "split_and_forgot", "quoted"]))
    lines = [",".join(order)]
    for at, row in enumerate(rows):
        cells = [row[name] for name in order]
        if at == slip:
            where = order.index("points")
            if form == "quoted":
                cells[where] = f'"{whole},{fraction}"'
            else:
                cells[where] = f"{whole},{fraction}"
                if form == "split_and_forgot":  # the row fits the header again: a text cell forgotten
                    forgotten = draw(st.sampled_from([i for i, name in enumerate(order) if name in ("comment", "by")]))
                    del cells[forgotten]
        lines.append(",".join(cells))
    meant = {(row["id"], row["step"]): row["points"] for row in rows}
    meant[(rows[slip]["id"], rows[slip]["step"])] = f"{whole}.{fraction}"
    return "\n".join(lines) + "\n", slip + 2, meant, form


@settings(max_examples=300, deadline=None)
@given(override_files(), st.sampled_from(["ko", "en"]))
def test_a_decimal_comma_never_becomes_a_grade(generated, lang):
    text, line, meant, form = generated
    try:
        rows = parse_overrides(text, ids=IDS, steps=STEPS, lang=lang)
    except OverridesRefused as refused:
        where = at_line(line, lang)
        assert any(problem.startswith(where) for problem in refused.problems), refused.problems
        assert all(problem.startswith(where) for problem in refused.problems), refused.problems
        return
    # Accepted only when the split happened to land as a number the TA meant (never here): fail loudly.
    wrong = [(row.id, row.step, row.points) for row in rows if float(meant[(row.id, row.step)]) != row.points]
    raise AssertionError(f"accepted ({form}): {wrong}")


def test_the_reported_row_is_refused_with_its_line_and_reason():
    text = "id,step,points,comment,by\ns01,softmax,1,5,박조교\n"
    with pytest.raises(OverridesRefused) as refused:
        parse_overrides(text, ids=IDS, steps=STEPS, lang="en")
    assert refused.value.problems == [
        "line 2: the cells points,comment hold 1,5: a number split in two by a decimal comma, which would be read "
        "as points 1 and comment 5. Write the decimal point as a dot (1.5); a comment of digits only is read the "
        "same way, so say it in words"]
    with pytest.raises(OverridesRefused) as refused:
        parse_overrides(text, ids=IDS, steps=STEPS, lang="ko")
    assert refused.value.problems[0].startswith("2번째 줄: points, comment 칸의 값 1,5: 소수점을 쉼표로")


def at_line(line, lang):
    """How a refused row of overrides.csv is named, in the TA's language."""
    return f"line {line}:" if lang == "en" else f"{line}번째 줄:"


def _csv(rows):
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(IDS), st.sampled_from(sorted(STEPS))), min_size=1, max_size=5, unique=True),
       st.data())
def test_the_automatic_column_goes_through_the_same_rule(keys, data):
    rows = [["id", "step", "points", "comment", "by", "automatic"]]
    slip = data.draw(st.integers(0, len(keys) - 1))
    bad = data.draw(st.sampled_from(["1,5", "1e0", "nan", "１", "1 000"]))
    for at, (student, step) in enumerate(keys):
        rows.append([student, step, "0.5", "checked", "김조교", bad if at == slip else "1"])
    lang = data.draw(st.sampled_from(["ko", "en"]))
    with pytest.raises(OverridesRefused) as refused:
        parse_overrides(_csv(rows), ids=IDS, steps=STEPS, lang=lang)
    assert [problem.split(":")[0] + ":" for problem in refused.value.problems] == [at_line(slip + 2, lang)]
    assert "automatic" in refused.value.problems[0]
