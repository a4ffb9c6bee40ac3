"""Where a student's values part from the reference's (autograder/repair/values.py): a line told
only when the values before it are the reference's and the right value there makes the rest right;
never another line than the one the mistake is on."""
import ast
import copy

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from autograder.core.render.step import step_feedback
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.repair.edits import single_edits
from autograder.repair.grafts import reference_function
from autograder.repair.values import (locate, numpy_name, reference_values, reporting, sites, substituted)
from conftest import CORPORA
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB

SOFTMAX = LAB.vocabulary.functions["softmax"]
SOFTMAX_TREE = reference_function(LAB.solution, "softmax")
MASKED_SOFTMAX = MASKED.vocabulary.functions["masked_softmax"]
MASKED_SOFTMAX_TREE = reference_function(MASKED.solution, "masked_softmax")

# A student's masked softmax written line by line, right: every single edit of it that is wrong
# somewhere is the "student" of the property below.
LINE_BY_LINE = (
    "def masked_softmax(scores, mask):\n"
    "    allowed = np.asarray(mask, dtype=bool)\n"
    "    hidden = np.where(allowed, scores, -np.inf)\n"
    "    top = hidden.max(axis=-1, keepdims=True)\n"
    "    e = np.exp(hidden - top)\n"
    "    total = e.sum(axis=-1, keepdims=True)\n"
    "    return e / total\n")


# Lab 1's composed step written line by line, its helpers the reference's (as a student's that pass).
ATTENTION_LINE_BY_LINE = (
    "def self_attention(X, W_Q, W_K, W_V):\n"
    "    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
    "    table = scores(Q, K)\n"
    "    d_k = K.shape[1]\n"
    "    scaled = table / np.sqrt(d_k)\n"
    "    weights = softmax(scaled)\n"
    "    out = mix(weights, V)\n"
    "    return out, weights\n")
HELPERS = {name: function for name, function in LAB.vocabulary.functions.items() if name != "self_attention"}


def _function(source):
    node = ast.parse(source).body[-1]
    assert isinstance(node, ast.FunctionDef)
    return node


def _run(source, name, args):
    namespace = {"np": np, **HELPERS}
    exec(compile(source, "<student>", "exec"), namespace)
    with np.errstate(all="ignore"):
        return namespace[name](*copy.deepcopy(list(args)))


def _same(a, b):
    if isinstance(b, tuple):
        return isinstance(a, tuple) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, equal_nan=True))


def _located(function, tests, reference, tree):
    """locate, with the student's function run here (the grader runs it in the sandbox)."""
    computed = [reference_values(tree, reference, args) for args in tests]
    assert all(one is not None for one in computed)
    references, returned = [one.values for one in computed], [one.returned for one in computed]
    source = reporting(function, sites(function))
    reported = []
    for args in tests:
        try:
            reported.append(list(_run(source, function.name, args)))
        except Exception:
            reported.append(None)

    def right_with(site, values):
        for number, value in values.items():
            rows = [references[0][number], *(reference.get(number) for reference in references[1:])]
            if any(row is None for row in rows):
                continue
            try:
                if all(_same(_run(substituted(function, site, row, "np"), function.name, args), out)
                       for row, args, out in zip(rows, tests, returned)):
                    return number
            except Exception:
                continue
        return None

    return locate(function, reported, computed, right_with)


def _tests(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 5))
    mask = np.tril(np.ones((n, n), dtype=bool))
    return [(rng.normal(size=(n, n)) * 3, mask), (rng.normal(size=(2, n, n)) - 1000.0, mask)]


def _attention_tests(seed):
    rng = np.random.default_rng(seed)
    n, d_model, d_k, d_v = (int(size) for size in rng.integers(2, 6, size=4))
    return [tuple(rng.normal(size=shape) for shape in ((n, d_model), (d_model, d_k), (d_model, d_k), (d_model, d_v)))
            for _ in range(2)]


STUDENTS = {
    "masked_softmax": (LINE_BY_LINE, _tests, MASKED_SOFTMAX, MASKED_SOFTMAX_TREE),
    "self_attention": (ATTENTION_LINE_BY_LINE, _attention_tests, LAB.vocabulary.functions["self_attention"],
                       reference_function(LAB.solution, "self_attention")),
}


def test_the_line_whose_value_is_wrong_is_told_when_the_right_value_there_makes_the_rest_right():
    student = LINE_BY_LINE.replace("top = hidden.max(axis=-1, keepdims=True)", "top = (scores * allowed).max(axis=-1, keepdims=True)")
    located = _located(_function(student), _tests(0), MASKED_SOFTMAX, MASKED_SOFTMAX_TREE)
    assert located is not None and located.claim == "first_wrong_value" and located.line == 4


def test_a_return_computed_otherwise_from_right_values_is_the_place():
    student = LINE_BY_LINE.replace("return e / total", "return e / total.max()")
    located = _located(_function(student), _tests(1), MASKED_SOFTMAX, MASKED_SOFTMAX_TREE)
    assert located is not None and located.claim == "wrong_return" and located.line == 7


def test_nothing_is_told_past_a_statement_whose_values_are_not_read():
    student = LINE_BY_LINE.replace("    top = hidden", "    np.fill_diagonal(hidden, -np.inf)\n    top = hidden")
    assert _located(_function(student), _tests(2), MASKED_SOFTMAX, MASKED_SOFTMAX_TREE) is None


def test_nothing_is_told_when_no_value_of_the_reference_makes_the_rest_right():
    student = ("def masked_softmax(scores, mask):\n    e = np.exp(scores) * mask\n"
               "    return e / e.sum(axis=-1, keepdims=True) + 1\n")
    assert _located(_function(student), _tests(3), MASKED_SOFTMAX, MASKED_SOFTMAX_TREE) is None


@settings(max_examples=40, deadline=None)
@given(student=st.sampled_from(sorted(STUDENTS)), seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_a_told_line_is_the_line_of_the_mistake(student, seed, pick):
    """Every single edit of a right function written line by line that is wrong on the tests: if a
    place is told, it is the statement the edit changed (an edit of two statements: not before the
    first of them)."""
    source, tests_of, reference, tree = STUDENTS[student]
    original = _function(source)
    tests = tests_of(seed)
    edits = [edit for edit in single_edits(original) if edit.source]
    edit = edits[pick % len(edits)]
    function = _function(edit.source)
    try:
        wrong = any(not _same(_run(edit.source, student, args), reference(*copy.deepcopy(list(args))))
                    for args in tests)
    except Exception:
        wrong = True
    if not wrong or len(function.body) != len(original.body):
        return
    changed = [k for k, (a, b) in enumerate(zip(original.body, function.body))
               if ast.dump(a, include_attributes=False) != ast.dump(b, include_attributes=False)]
    located = _located(function, tests, reference, tree)
    if located is not None:
        told = function.body.index(located.statement)
        if len(changed) == 1:
            assert told == changed[0], (edit.kind, edit.after, located)
        else:  # values exchanged between two lines: told where they are first used wrongly, never before
            assert told >= min(changed), (edit.kind, edit.after, located)


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**6, 10**6), st.booleans(),
                 st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=1, max_size=12)))
def test_a_value_written_into_the_function_reads_back_exactly(value):
    if isinstance(value, list):
        value = np.array(value, dtype=np.float64).reshape(-1, 1)
    function = _function("def f(x):\n    y = x + 1\n    return y\n")
    source = substituted(function, sites(function)[0], value, "np")
    got = _run(source, "f", [0])
    if isinstance(value, np.ndarray):
        assert got.dtype == value.dtype and np.array_equal(got, value, equal_nan=True)
    else:
        assert type(got) is type(value) and (got == value or (got != got and value != value))


def test_the_reference_keeps_each_value_it_computes_by_one_number_on_every_input():
    first = reference_values(SOFTMAX_TREE, SOFTMAX, (np.arange(6.0).reshape(2, 3),))
    second = reference_values(SOFTMAX_TREE, SOFTMAX, (np.arange(12.0).reshape(3, 4),))
    assert first is not None and second is not None
    assert set(first.values) == set(second.values) and len(first.values) >= 3
    assert _same(first.returned, SOFTMAX(np.arange(6.0).reshape(2, 3)))
    assert first.names and first.names == second.names  # each local by the number of its value


def test_the_reporting_copy_returns_each_lines_values_as_made():
    function = _function("def f(x):\n    y = x + 1\n    y += 1\n    a, b = y, -y\n    return a\n")
    got = _run(reporting(function, sites(function)), "f", [np.zeros(2)])
    assert [len(row) for row in got] == [1, 1, 2]
    assert _same(got[0][0], np.ones(2)) and _same(got[1][0], np.full(2, 2.0))  # copied before `+=`


def test_numpy_is_found_by_the_name_it_is_imported_as():
    assert numpy_name([ast.parse("import numpy as xp\nimport pandas as pd\n")]) == "xp"
    assert numpy_name([ast.parse("import numpy\n")]) == "numpy"
    assert numpy_name([ast.parse("import math\n")]) is None


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_blind_files_place_is_told_on_its_line(zygote, lang):
    """tests/corpora/corpus_blind17 (masked_softmax, shift_from_zero_filled_scores): the shift read
    from `scores * mask`, where hidden cells are 0, not from the visible cells; no small edit repairs it."""
    path = CORPORA / "corpus_blind17" / "lab2" / "lab2__masked_softmax__shift_from_zero_filled_scores.py"
    result = grade_bytes(path.name, path.read_bytes(), zygote, Plan.build(MASKED))
    step = next(s for s in result.steps if s.name == "masked_softmax")
    assert step.repair is not None and [(p.kind, p.line) for p in step.repair.parts] == [("first_wrong_value", 192)]
    text = step_feedback(step, MASKED, lang)
    assert "192" in text and "shift = (scores * m).max(axis=-1, keepdims=True)" in text
    assert ("public test and on randomly generated" not in text) and ("무작위로 만든 입력" not in text)
