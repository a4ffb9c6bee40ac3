"""What a failed test carries (autograder/core/case_detail.py): typed, frozen, keyword-only records.

- Each record's `as_data` is read back by `case_detail_from_data` as the very same record (a hidden
  test's error as `HiddenRaised`), over generated records of every kind.
- The reader refuses what no record writes: a key added or taken away, a value of another type,
  a word outside a closed set (`ValueError`, so a saved result holding it is graded again).
- `HiddenRaised` keeps no message and no frames: it cannot be made with them.
- The judge gives each kind of failure its record (a returned value of the wrong type, of another
  shape, of other values, an error, a changed input).
"""
import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from autograder.core.case_detail import (COLUMNS, CONTAINERS, REFUSAL_REASONS, Cell, HiddenRaised, MappingValues,
                                         MutatedInput, NotFinite, Raised, RaisedError, Refusal, Tables, Worst, WrongCount,
                                         WrongShape, WrongType, WrongValues, case_detail_from_data, detail_data)

texts = st.text(max_size=12)
words = st.lists(texts, max_size=4).map(tuple)
numbers = st.floats(allow_nan=False, allow_infinity=False)
counts = st.integers(0, 10**6)
shapes = st.lists(st.integers(0, 50), max_size=4).map(tuple)
changed = st.none() | st.sampled_from(["X", "scores", "weights"])
outputs = st.sampled_from(["Q", "weights", "out"])

cells = st.builds(Cell, row=st.none() | texts, column=st.none() | texts | st.integers(0, 20),
                  column_is_word=st.booleans(), index=st.lists(st.integers(0, 20), max_size=3).map(tuple),
                  blocks=st.lists(st.integers(0, 4), max_size=2).map(tuple))
table_values = numbers | st.sampled_from(["nan", "inf", "-inf"])


@st.composite
def tables_of(draw):
    rows, columns = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    stack = draw(st.none() | st.integers(1, 3))

    def table():
        return tuple(tuple(draw(table_values) for _ in range(columns)) for _ in range(rows))
    return table() if stack is None else tuple(table() for _ in range(stack))


tables = st.builds(Tables, got=tables_of(), expected=tables_of(), words=words, columns=st.sampled_from(COLUMNS),
                   rows_sum_to_one=st.booleans())
frames = st.tuples(texts, st.none() | st.integers(0, 999), texts, texts)
errors = st.builds(RaisedError, type=texts, message=texts, frames=st.lists(frames, max_size=3).map(tuple))
refusals = st.builds(Refusal, helper=texts, reason=st.sampled_from(REFUSAL_REASONS))

wrong_types = st.builds(WrongType, got=texts, no_return=st.none() | st.booleans(), output=outputs,
                        changed_input=changed)
wrong_counts = st.builds(WrongCount, got=texts, expected_count=st.integers(2, 4), names=words, changed_input=changed)
wrong_shapes = st.builds(WrongShape, rtol=numbers, atol=numbers, got_shape=shapes, expected_shape=shapes,
                         got_preview=texts, expected_preview=texts, tables=st.none() | tables, output=outputs,
                         changed_input=changed)
wrong_values = st.builds(WrongValues, rtol=numbers, atol=numbers, shape=shapes, mismatched=counts, total=counts,
                         got_preview=texts, expected_preview=texts,
                         not_finite=st.none() | st.builds(NotFinite, count=counts, where=cells),
                         worst=st.none() | st.builds(Worst, cell=cells, got=numbers | st.booleans(),
                                                     expected=numbers | st.booleans(), difference=numbers),
                         row_sums=st.none() | texts, container=st.sampled_from(CONTAINERS),
                         tables=st.none() | tables, output=outputs, changed_input=changed)
mapping_values = st.builds(MappingValues, mismatched=counts, total=counts, other_form=st.booleans(),
                           first=st.none() | st.tuples(texts, texts, texts), first_missing=st.booleans(),
                           extra_keys=st.lists(texts, max_size=5).map(tuple), got_preview=texts,
                           expected_preview=texts, output=outputs, changed_input=changed)
raised = st.builds(Raised, error=errors, refused=st.none() | refusals)
hidden_raised = st.builds(HiddenRaised, error=st.builds(RaisedError, type=texts, message=st.just("")),
                          refused=st.none() | refusals)
mutated = st.builds(MutatedInput, argument=texts, reshaped=st.booleans())
public_details = wrong_types | wrong_counts | wrong_shapes | wrong_values | mapping_values | raised | mutated


@st.composite
def case_details(draw, hidden):
    """A detail a test of that visibility can carry once judged (a hidden test's, reduced)."""
    return draw(st.none() | (hidden_raised if hidden else public_details))


def through_json(data):
    """`data` as a results file gives it back (batch.saved writes a detail with its types kept)."""
    from autograder.batch.saved import _read, _value
    return _read(json.loads(json.dumps(_value(data))))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_record_is_read_back_as_written(data):
    hidden = data.draw(st.booleans())
    detail = data.draw(case_details(hidden))
    written = through_json(detail_data(detail))
    assert case_detail_from_data(written, hidden=hidden) == detail
    assert detail_data(case_detail_from_data(written, hidden=hidden)) == detail_data(detail)


def _paths(data, path=()):
    """Every (path, value) of a mapping `as_data` wrote, nested mappings and lists included."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*path, key), value
            yield from _paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield (*path, index), value
            yield from _paths(value, (*path, index))


def _at(data, path):
    for step in path:
        data = data[step]
    return data


# Keys a record leaves out when it has nothing to say there (read back as their default).
OPTIONAL = {"no_return", "changed_input", "values", "not_finite", "row_sums", "refused", "reshaped", "blocks", "other_form"}


def _strange(path, value):
    """A value of a type no record writes at `path` (a str for a number, a number for a str...)."""
    if path[-1] == "column":
        return 1.5  # a column is a word or a position
    if isinstance(value, bool):
        return 1
    if isinstance(value, (int, float)):
        return str(value)
    return True if value in ("nan", "inf", "-inf") else 7


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_key_or_a_type_no_record_writes_is_refused(data):
    hidden = data.draw(st.booleans())
    detail = data.draw(hidden_raised if hidden else public_details)
    written = through_json(detail.as_data())
    found = list(_paths(written))
    change = data.draw(st.sampled_from(["add", "drop", "retype"]))
    if change == "add":
        where = data.draw(st.sampled_from([()] + [path for path, value in found if isinstance(value, dict)]))
        _at(written, where)[data.draw(st.sampled_from(["what_a_newer_grader_knows", "detail", "values2"]))] = 1
    elif change == "drop":
        keys = [path for path, _ in found if isinstance(path[-1], str) and path[-1] not in OPTIONAL]
        if not keys:
            return
        path = data.draw(st.sampled_from(keys))
        del _at(written, path[:-1])[path[-1]]
        if not written:
            return  # nothing left: a test that carries no detail
    else:
        leaves = [(path, value) for path, value in found if not isinstance(value, (dict, list, tuple)) and value is not None]
        if not leaves:
            return
        path, value = data.draw(st.sampled_from(leaves))
        _at(written, path[:-1])[path[-1]] = _strange(path, value)
    with pytest.raises(ValueError):
        case_detail_from_data(written, hidden=hidden)


@pytest.mark.parametrize("data", [
    [], "error", {"error": {"type": "E", "message": "m", "frames": []}, "extra": 1},
    {"error": {"type": "E", "message": "m"}},
    {"error": {"type": "E", "message": "m", "frames": [["f.py", "3", "g", "x"]]}},
    {"error": {"type": "E", "message": "", "frames": []}, "refused": {"helper": "softmax", "reason": "unknown"}},
    {"argument": "x", "reshaped": False},
    {"got": "str", "no_return": 1, "output": "Q"},
    {"mismatched": 1, "total": 2, "first": ["a", "b"], "first_missing": False, "extra_keys": [],
     "got_preview": "", "expected_preview": "", "output": "o"},
    {"rtol": 1e-4, "atol": 1e-6, "shape": [3, 3], "mismatched": 1, "total": 9, "got_preview": "",
     "expected_preview": "", "container": "ndarray", "output": "o"},  # a shape written as a list
    {"rtol": 1e-4, "atol": 1e-6, "shape": (3, 3), "mismatched": 1, "total": 9, "got_preview": "",
     "expected_preview": "", "container": "set", "output": "o"},  # a container outside the closed set
    {"rtol": 1e-4, "atol": 1e-6, "shape": (3, 3), "mismatched": 1, "total": 9, "got_preview": "",
     "expected_preview": "", "container": "ndarray", "output": "o", "max_abs": 1.0},  # a worst cell in part
])
def test_shapes_no_record_writes_are_refused(data):
    with pytest.raises(ValueError):
        case_detail_from_data(data, hidden=False)


def test_a_hidden_tests_error_has_a_message_or_frames_only_when_public():
    public = {"error": {"type": "ValueError", "message": "index 6", "frames": [["f.py", 3, "mix", "x[6]"]]}}
    assert case_detail_from_data(public, hidden=False) == Raised(
        error=RaisedError(type="ValueError", message="index 6", frames=(("f.py", 3, "mix", "x[6]"),)))
    with pytest.raises(ValueError):
        case_detail_from_data(public, hidden=True)
    with pytest.raises(ValueError):
        HiddenRaised(error=RaisedError(type="ValueError", message="index 6"))
    reduced = {"refused": {"helper": "", "reason": "arguments"}, "error": {"type": "LookupError", "message": "",
                                                                          "frames": []}}
    read = case_detail_from_data(reduced, hidden=True)
    assert isinstance(read, HiddenRaised) and list(read.as_data()) == ["refused", "error"]


def test_the_records_are_frozen_and_keyword_only():
    record = MutatedInput(argument="x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.__setattr__("argument", "y")
    with pytest.raises(TypeError):
        MutatedInput("x")  # type: ignore[misc]


def test_an_outcomes_error_of_another_shape_is_read_for_what_it_holds():
    assert RaisedError.of_call({"type": "KeyError", "message": 3, "frames": [["f.py", 2, "g", "y"], ["bad"]]}) == \
        RaisedError(type="KeyError", message="", frames=(("f.py", 2, "g", "y"),))
    assert RaisedError.of_call(None) == RaisedError(type="Exception", message="")


# The judge gives each failure its record ------------------------------------------------------------

def test_each_failure_of_a_returned_value_gets_its_record(plan):
    from test_judge import answer, returned, verdict

    def page(step, make):
        result = verdict(plan, step, make)
        return next(c for c in result.cases if c.case == "page")

    assert isinstance(page("scores", lambda p: returned(p, None)).detail, WrongType)
    assert page("scores", lambda p: returned(p, None)).detail.no_return is True
    assert page("scores", lambda p: returned(p, "text")).detail.no_return is None
    shape = page("scores", lambda p: returned(p, answer(p).ravel())).detail
    assert isinstance(shape, WrongShape) and shape.got_shape == (9,) and shape.expected_shape == (3, 3)
    values = page("scores", lambda p: returned(p, answer(p) + 1.0)).detail
    assert isinstance(values, WrongValues) and values.container == "ndarray" and values.worst is not None
    assert values.tables is not None and np.asarray(values.tables.expected, dtype=float).shape == (3, 3)
    assert isinstance(page("self_attention", lambda p: returned(p, answer(p)[0])).detail, WrongCount)
    mapping = page("most_attended", lambda p: returned(p, {"나는": "zzz"})).detail
    assert isinstance(mapping, MappingValues) and mapping.output == "most_attended"


def test_a_true_false_output_is_shown_as_true_and_false_not_as_one_and_zero():
    from autograder.core.judge import judge_step
    from autograder.core.render.step import step_feedback
    from autograder.grading.plan import Plan
    from autograder.registry import load

    from test_judge import returned

    lab = load("masked_attention")
    step = next(s for s in lab.steps if s.name == "causal_mask")
    probes = Plan.build(lab).probes["causal_mask"]
    result = judge_step(step, probes, [returned(p, p.expected[0].T.copy()) for p in probes], "function", False)
    page = next(c for c in result.cases if c.case == "page")
    detail = page.detail
    assert isinstance(detail, WrongValues) and detail.worst is not None
    assert isinstance(detail.worst.got, bool) and isinstance(detail.worst.expected, bool)
    assert "True" in detail.got_preview and "1." not in detail.expected_preview
    numbers = judge_step(step, probes, [returned(p, p.expected[0].T.astype(float)) for p in probes], "function", False)
    as_numbers = next(c for c in numbers.cases if c.case == "page").detail
    assert isinstance(as_numbers, WrongValues) and as_numbers.worst is not None
    assert type(as_numbers.worst.got) is float and isinstance(as_numbers.worst.expected, bool)
    assert "True" not in as_numbers.got_preview and "True" in as_numbers.expected_preview
    assert case_detail_from_data(through_json(detail_data(detail)), hidden=False) == detail
    told = {lang: step_feedback(result, lab, lang) for lang in ("ko", "en")}
    assert "— 내 값 True, 기대 값 False." in told["ko"] and "— got True, expected False." in told["en"]
    assert "차이: 1" not in told["ko"] and "difference: 1" not in told["en"]


def test_words_in_another_unicode_form_are_told_so_since_they_print_alike(plan):
    import unicodedata

    from autograder.core.render.step import step_feedback
    from test_judge import answer, returned, verdict
    from conftest import LAB

    def decomposed(p):
        return {unicodedata.normalize("NFD", k): unicodedata.normalize("NFD", v) for k, v in answer(p).items()}

    result = verdict(plan, "most_attended", lambda p: returned(p, decomposed(p)))
    page = next(c for c in result.cases if c.case == "page")
    assert isinstance(page.detail, MappingValues) and page.detail.other_form
    assert case_detail_from_data(through_json(detail_data(page.detail)), hidden=False) == page.detail
    told = {lang: step_feedback(result, LAB, lang) for lang in ("ko", "en")}
    assert "NFD" in told["ko"] and "NFD" in told["en"]
    wrong = verdict(plan, "most_attended", lambda p: returned(p, {k: k for k in answer(p)}))
    wrong_page = next(c for c in wrong.cases if c.case == "page")
    assert isinstance(wrong_page.detail, MappingValues) and not wrong_page.detail.other_form
    assert "NFD" not in step_feedback(wrong, LAB, "en")
