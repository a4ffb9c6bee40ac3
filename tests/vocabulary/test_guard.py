"""The one guard between a submission and the grader's own work (autograder/core/guard.py; docs/SECURITY.md,
"Invariant: one guard between a submission and the grader's own work").

- Texts and names: generated hostile texts (lone surrogates, control characters, huge lines) and
  names (undecodable bytes, surrogate-escaped names) come out as valid Unicode; only the guard
  makes a SafeText, and the reader, the sandbox's pipe and the results take nothing else.
- The grader's own work: generated hostile values (±1.7e308, nan, inf, huge ints, subnormals,
  mixed types) never stop a heat-map, a record, a feedback text or a fingerprint; a piece that
  fails anyway is told in its place, and costs nothing else.
The faces themselves (`check`, `grade`, `history`, the Gradescope entry point) are driven with
generated submissions in tests/vocabulary/slow/test_guard_faces.py.
"""
import ast
import json
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from autograder.core import guard, pictures
from autograder.batch import fingerprints
from autograder.batch.outputs import feedback_sections, record_of, write_outputs
from autograder.core.guard import piece, safe_name, safe_text
from autograder.core.judge import judge_step
from autograder.sandbox.runner import CallOutcome
from autograder.core.reading.budget import BUDGET
from autograder.core.reading.submission import read_submission
from labs.self_attention import LAB
from labs.self_attention.steps import STEPS_BY_NAME
from conftest import ROOT

CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")
FUNCTIONS = tuple(LAB.function_names)

# Hostile values a step may return (the sandbox's codec gives floats, ints below 2**63, text, lists,
# dicts, arrays): each a function of the right answer's shape.
HOSTILE_NUMBERS = [1.7e308, -1.7e308, float("nan"), float("inf"), float("-inf"), 5e-324, -5e-324, 2.0 ** 1023,
                   2 ** 62, -(2 ** 62), 0.0, -0.0, 1e-300]
HUGE_INTS = [10 ** 30, -(10 ** 40), 2 ** 200]


def hostile_values():
    numbers = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.floats(allow_nan=True, allow_infinity=True))
    return st.one_of(
        numbers.map(lambda v: ("fill", v)),
        st.lists(numbers, min_size=1, max_size=4).map(lambda vs: ("cycle", vs)),
        st.sampled_from(HUGE_INTS).map(lambda v: ("object", v)),
        st.just(("mixed", [1, "a", None, [2.0, float("nan")], {"k": 1.7e308}])),
        st.text(max_size=30).map(lambda t: ("text", t)),
    )


def shaped(kind, value, shape):
    """A returned value of `kind` for a right answer of `shape`."""
    size = int(np.prod(shape)) if shape else 1
    if kind == "fill":
        return np.full(shape, value, dtype=float)
    if kind == "cycle":
        return np.resize(np.array(value, dtype=float), size).reshape(shape)
    if kind == "object":
        return np.full(shape, value, dtype=object).tolist()  # ints no float holds
    return value


def returned(probe, value):
    return CallOutcome("returned", value=value, args_after=[None] * len(probe.args))


# Texts and names ------------------------------------------------------------------------------------

TEXTS = st.one_of(st.text(), st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
                  st.lists(st.sampled_from(["\ud800", "\udfff", "\x1b[2J", "\x00", "\u202e", "가", "\n", "x" * 5000]),
                           max_size=8).map("".join))


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_safe_text_is_valid_unicode_and_changes_nothing_else(text):
    made = safe_text(text)
    made.encode("utf-8")  # never raises
    assert not guard.SURROGATE.search(made)
    if not guard.SURROGATE.search(text):
        assert made == text
    else:  # a lone surrogate is U+FFFD; a pair written as two halves is its character
        assert made == text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b), min_size=1, max_size=3))
def test_a_file_names_bytes_read_as_text_part_by_part(parts):
    raw = b"/".join(parts)
    name = safe_name(__import__("os").fsdecode(raw))  # as os.listdir gives it
    name.encode("utf-8")
    assert name == safe_name(raw) and name.count("/") == raw.count(b"/")
    for part, shown in zip(parts, name.split("/")):
        try:
            assert shown == part.decode("utf-8")
        except UnicodeDecodeError:
            try:
                assert shown == part.decode("cp949")
            except UnicodeDecodeError:
                assert shown == part.decode("utf-8", "backslashreplace")


def test_names_that_are_text_stay_as_written():
    for name in ("과제 1.py", "kim/attention.ipynb", "a\\b.py", "\u202e.py"):
        assert safe_name(name) == name
    assert safe_name("a\ud800b.py") == "a\ufffdb.py"  # a surrogate no byte stands for


def test_only_the_guard_makes_a_safe_text():
    """SafeText(...) is called in autograder/core/guard.py only: every other module gets one from
    safe_text or safe_name, so no path skips the rule (mypy refuses a str where SafeText is taken)."""
    makers = []
    for path in sorted((ROOT / "autograder").rglob("*.py")):
        if path.name == "guard.py" and path.parent.name == "core":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "SafeText":
                makers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert makers == []


def test_the_reader_the_pipe_and_the_results_take_safe_text_only():
    """The types the rest of the code cannot bypass: what the reader gives, what the sandbox's
    command pipe takes and the name every result and page carries are SafeText."""
    import typing

    from autograder.core import cells, verdict
    from autograder.core.reading import submission
    from autograder.sandbox import driver

    assert typing.get_type_hints(cells.Cell) == {"source": guard.SafeText, "filename": guard.SafeText}
    hints = typing.get_type_hints(submission.Submission)
    assert hints["name"] is guard.SafeText and hints["cells"] == list[cells.Cell]
    assert typing.get_type_hints(verdict.SubmissionResult)["submission"] is guard.SafeText
    assert "Sequence[Cell]" in str(driver.run.__annotations__["cells"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TEXTS, min_size=1, max_size=4), TEXTS)
def test_every_text_and_name_the_reader_gives_is_valid_unicode(sources, name):
    """A notebook's JSON may escape lone surrogates anywhere; its file name may be anything."""
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": s}
                          for s in sources], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    read = read_submission(name + ".ipynb", json.dumps(notebook).encode("ascii"))
    read.name.encode("utf-8")
    for cell in read.cells:
        (cell["source"] + cell["filename"]).encode("utf-8")


# The grader's own work on values ---------------------------------------------------------------------

def test_piece_turns_any_exception_into_a_named_failure(capsys):
    assert piece("a sum", sum, [1, 2]).value == 3
    for error in (ValueError("x"), RecursionError(), OverflowError(), KeyError("k"), np.linalg.LinAlgError()):
        def fails(error=error):
            raise error
        made = piece("a picture", fails)
        assert not made.made and made.value is None and made.failure == guard.error_name(error)
    assert "a picture not made (numpy.linalg.LinAlgError)" in capsys.readouterr().err


def judged_with(plan, step_name, values_of):
    step = STEPS_BY_NAME[step_name]
    probes = plan.probes[step_name]
    return judge_step(step, probes, [returned(p, values_of(p)) for p in probes], "function", False)


@pytest.mark.parametrize("step_name", ["scores", "softmax", "mix"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(value=hostile_values())
@example(value=("cycle", [1.7e308, -1.7e308]))
def test_hostile_values_never_stop_a_picture_a_record_or_a_page(plan, step_name, value, tmp_path):
    kind, raw = value
    result = judged_with(plan, step_name, lambda p: shaped(kind, raw, np.shape(p.expected[0])))
    maps = pictures.step_maps(result, "ko", LAB.page_case)  # drawn, never raised
    if kind in ("fill", "cycle"):
        assert "<svg" in maps
    pictures.wrong_cells(result, LAB.page_case)
    from autograder.core.verdict import SubmissionResult

    submission = SubmissionResult(submission=safe_name("hostile.py"), steps=[result])
    html = feedback_sections(submission, LAB, "en")
    assert f'id="step-{step_name}"' in html


def test_a_picture_that_cannot_be_drawn_is_told_in_its_place_and_the_record_stands(plan, tmp_path, monkeypatch):
    from autograder.core.verdict import SubmissionResult

    result = judged_with(plan, "softmax", lambda p: np.full(np.shape(p.expected[0]), 0.5))
    submission = SubmissionResult(submission=safe_name("s01.py"), steps=[result])

    def broken(*args, **kwargs):
        raise OverflowError("a student's value")
    monkeypatch.setattr(pictures, "step_maps", broken)
    monkeypatch.setattr(pictures, "wrong_cells", broken)
    html = feedback_sections(submission, LAB, "ko")
    assert "히트맵은 제출한 값으로 그릴 수 없어" in html and "OverflowError" in html
    record = record_of(submission, "s01", "s01.py", "key", [], "graded", LAB)
    assert record["status"] == "graded" and record["steps"]["softmax"]["wrong_cells"] is None
    for folder in ("feedback", "results"):
        (tmp_path / folder).mkdir()
    write_outputs(str(tmp_path), submission, record, LAB, "en")
    assert (tmp_path / "results" / "s01.json").exists()
    assert "could not be drawn from your values (OverflowError)" in (tmp_path / "feedback" / "s01.html").read_text()


def test_a_feedback_text_that_cannot_be_written_is_told_and_the_points_stand(plan, monkeypatch):
    from autograder.core.render import feedback, step
    from autograder.core.verdict import SubmissionResult

    result = judged_with(plan, "softmax", lambda p: np.full(np.shape(p.expected[0]), 0.5))

    def broken(*args, **kwargs):
        raise TypeError("a value the renderer did not expect")
    monkeypatch.setattr(step, "step_feedback", broken)
    text = feedback.as_text(SubmissionResult(submission=safe_name("s01.py"), steps=[result]), LAB, "en")
    assert "could not write this step's detailed feedback (TypeError)" in text
    assert f"{result.score:g}" in text or "0/2" in text


# The grader's own work on code: fingerprints ----------------------------------------------------------

DEEP = "_ = " + "-" * 3100 + "1"  # Python's own parser gives up building its tree (RecursionError)


def notebook(*sources):
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
             for s in sources]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([DEEP, "x = (" * 150 + "1" + ")" * 150, "def f(:\n    pass", "\ud800 = 1",
                                 "y = [" + ", ".join(["1"] * 3000) + "]", "# " + "가" * 5000, "z: int",
                                 "import sys\nsys.setrecursionlimit(10**6)"]), max_size=4),
       st.integers(0, 4))
def test_a_fingerprint_survives_any_other_cell_and_says_what_it_left_unread(extra, place):
    """The copied code's step fingerprints stay the same beside any other cells (deep, huge, not
    Python, surrogates); what the budget or Python's parser left unread is counted, never dropped
    silently, and nothing raises."""
    plain = fingerprints.code_prints("a.ipynb", notebook(CORRECT), FUNCTIONS)
    sources = list(extra)
    sources.insert(min(place, len(sources)), CORRECT)
    prints = fingerprints.code_prints("b.ipynb", notebook(*sources), FUNCTIONS)
    assert prints["steps"] == plain["steps"], prints
    if DEEP in extra and not parses(DEEP):  # the depth Python's parser takes follows the recursion limit
        assert prints.get("unread", 0) >= 1


def parses(source):
    try:
        ast.parse(source)
    except (RecursionError, MemoryError, SyntaxError):
        return False
    return True


def test_a_deep_line_inside_a_py_costs_its_own_part_only():
    plain = fingerprints.code_prints("a.py", CORRECT.encode(), FUNCTIONS)
    deep = fingerprints.code_prints("b.py", (CORRECT + "\n" + DEEP + "\n").encode(), FUNCTIONS)
    assert not parses(DEEP)
    assert deep["steps"] == plain["steps"] and deep["file"] == plain["file"] and deep["unread"] == 1


def test_fingerprints_parse_within_the_reading_budget(monkeypatch):
    """Counted by a spy on ast.parse, never timed: the fingerprints are one reading under the
    reader's Budget, at most its characters per text and in all however much code a file holds;
    past it, the cells are counted as unread."""
    from autograder.core.reading.budget import untrusted

    cell = "x = 1\n" * (BUDGET.parse_chars // 6 - 10)
    submission = read_submission("big.ipynb", notebook(CORRECT, *[cell] * 8))
    parsed = []
    real = ast.parse

    def spy(source, *args, **kwargs):
        parsed.append(len(source))
        return real(source, *args, **kwargs)
    monkeypatch.setattr(ast, "parse", spy)
    read = untrusted(fingerprints._prints, submission.cells, FUNCTIONS)
    prints = read.value
    assert max(parsed) <= BUDGET.parse_chars and sum(parsed) <= BUDGET.parsed_chars
    assert read.reading.parsed_chars == sum(parsed)
    assert prints["unread"] >= 4 and set(prints["steps"]) == set(FUNCTIONS)


def test_a_fingerprint_the_budget_stops_is_marked_not_computed(monkeypatch):
    from autograder.core.reading import budget, problems

    def spent(self, source):
        raise budget.OverBudget(problems.detail("reading_time", seconds=self.budget.seconds))
    monkeypatch.setattr(budget.Reading, "parse_flat", spent)
    prints = fingerprints.code_prints("a.py", CORRECT.encode(), FUNCTIONS)
    assert set(prints) == {"not_computed"} and "10" in prints["not_computed"]
