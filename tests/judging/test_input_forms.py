"""Every input form the notebook promises has a public test, and reaches the student's function in
that form.

Promised forms (the notebooks' docstrings and the lab 2 page): softmax takes integer scores, scores far
below zero, scores that give very small weights and a table of one column; most_attended picks the
first of tied words (idxmax); masked_softmax takes a 0/1 integer mask, treats
a visible score of exactly 0 as any other, gives masked cells 0 whatever the visible scores, and
applies the mask it is given, causal or not, however few cells it shows.
Each is a labelled call on one public case (labs/*/cases.py FORMS_CASE), so a file that breaks
only that promise fails a test its author can run, and loses points in that step only.
"""
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from autograder import registry
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.child import codec
from autograder.sandbox.runner import Limits
from labs.masked_attention import cases as masked_cases
from labs.self_attention import cases as self_cases
from solutions import masked_attention as masked_solution
from solutions import self_attention as self_solution
from conftest import CORPORA

FORMS = {"self_attention": {"softmax": {"int", "negative", "small_weights", "one_column"}, "most_attended": {"ties"}},
         "masked_attention": {"masked_softmax": {"0/1", "zeros", "negative", "other_mask", "few_visible"}}}


@pytest.fixture(scope="module")
def plans():
    return {name: Plan.build(registry.load(name)) for name in FORMS}


SHAPES = ("", "1-D", "2-D", "3-D", "fewer_rows")  # the input's shape, not a form the docstring names


def _labelled(plan, step):
    return {p.label: p for p in plan.probes[step] if p.label not in SHAPES}


def test_softmax_meets_a_table_of_fewer_rows_than_columns_on_every_hidden_case_of_several_words(plans):
    """Every other 2-D input of softmax is a square table of scores: a bound or a sum read from
    the wrong axis is right on those alone."""
    probes = plans["self_attention"].probes["softmax"]
    hidden = {p.case.name for p in probes if p.case.hidden and p.label == "2-D" and p.args[0].shape[0] > 1}
    fewer = [p for p in probes if p.label == "fewer_rows"]
    assert hidden and {p.case.name for p in fewer} == hidden
    for probe in fewer:
        rows, columns = probe.args[0].shape
        assert probe.case.hidden and rows < columns
        assert np.allclose(probe.expected[0].sum(axis=-1), 1.0)


@pytest.mark.parametrize("lab_name", sorted(FORMS))
def test_each_promised_form_is_one_public_call_named_in_both_languages(plans, lab_name):
    lab = registry.load(lab_name)
    for step, labels in FORMS[lab_name].items():
        probes = _labelled(plans[lab_name], step)
        assert set(probes) == labels
        assert all(not p.case.hidden for p in probes.values())
        for lang in ("ko", "en"):
            table = lab.catalog(lang)
            assert labels <= set(table["label"]) and labels <= set(table["kind"])


def test_softmax_meets_rows_far_below_zero_and_rows_with_very_small_weights(plans):
    """Softmax is promised for any scores: far below zero an exp underflows unless the row's own
    maximum is subtracted, and a row spanning 9 gives weights of about 1e-4, which rounding or
    dropping small weights changes. Whole numbers, exact in float32."""
    forms = _labelled(plans["self_attention"], "softmax")
    (far,) = forms["negative"].args
    assert np.all(far <= -self_cases.FAR_BELOW + 10) and np.array_equal(far, np.rint(far))
    with np.errstate(all="ignore"):
        assert np.isnan(np.exp(far) / np.exp(far).sum(axis=-1, keepdims=True)).all()
    (spread,) = forms["small_weights"].args
    assert np.all(spread.max(axis=-1) == 0) and np.all(spread.min(axis=-1) == -9)
    smallest = forms["small_weights"].expected[0].min(axis=-1)
    assert np.all((1e-5 < smallest) & (smallest < 1e-3))


def test_integer_scores_are_integers_and_their_weights_tie(plans):
    softmax = _labelled(plans["self_attention"], "softmax")["int"]
    (scores,) = softmax.args
    assert scores.dtype.kind == "i"
    most = _labelled(plans["self_attention"], "most_attended")["ties"]
    weights, words = most.args
    tied_rows = [i for i, row in enumerate(weights) if np.sum(row == row.max()) > 1]
    assert tied_rows, "the ties call must have a row whose largest weight is shared"
    for i in tied_rows:  # idxmax: the first of the tied words
        assert most.expected[0][words[i]] == words[int(np.argmax(weights[i]))]


def test_mask_and_score_forms_of_masked_softmax(plans):
    probes = _labelled(plans["masked_attention"], "masked_softmax")
    scores, mask = probes["0/1"].args
    assert mask.dtype.kind == "i" and set(np.unique(mask)) == {0, 1}
    np.testing.assert_array_equal(probes["0/1"].expected[0], probes["0/1"].trace.weights)
    zeros, mask = probes["zeros"].args
    visible = np.broadcast_to(mask, zeros.shape)
    assert np.sum(zeros[visible] == 0) > 0
    assert not np.signbit(zeros).any() or np.all(zeros[np.signbit(zeros)] < 0)  # no -0.0
    negative, mask = probes["negative"].args
    visible = np.broadcast_to(mask, negative.shape)
    assert negative[visible].max() < -10_000 - 50  # a -10000 fill would outweigh every visible score
    # whole numbers this size are exact in float32: the call says nothing about float32 work
    np.testing.assert_array_equal(negative.astype(np.float32).astype(np.float64), negative)
    np.testing.assert_allclose(probes["negative"].expected[0], probes["zeros"].expected[0], atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(hnp.arrays(np.int64, hnp.array_shapes(max_dims=3, max_side=5),
                  elements=st.integers(-2**40, 2**40)))
def test_an_integer_array_keeps_its_dtype_and_values_through_the_codec(array):
    back = codec.decode(codec.loads(codec.dumps(codec.encode(array))))
    assert back.dtype == np.int64
    np.testing.assert_array_equal(back, array)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(0, 2**31 - 1), st.integers(-100_000, 100_000))
def test_the_references_keep_the_promises_the_forms_test(n, seed, shift):
    rng = np.random.default_rng(seed)
    scores = np.rint(rng.normal(size=(2, n, n)) * 3)
    mask = np.tril(np.ones((n, n), dtype=bool))
    weights = masked_solution.masked_softmax(scores, mask)
    np.testing.assert_array_equal(masked_solution.masked_softmax(scores, mask.astype(np.int64)), weights)
    np.testing.assert_allclose(masked_solution.masked_softmax(scores + shift, mask), weights, atol=1e-12)
    assert np.all(weights[:, ~mask] == 0)
    integers = scores[0].astype(np.int64)
    np.testing.assert_allclose(self_solution.softmax(integers), self_solution.softmax(scores[0]), atol=1e-15)
    words = [f"w{i}" for i in range(n)]
    tied = self_solution.softmax(integers)
    assert self_solution.most_attended(tied, words) == {w: words[int(np.argmax(r))] for w, r in zip(words, tied)}


SHOWN_BY_A_FORM = {
    ("self_attention", "corpus_blind/lab1/lab1__softmax__zeros_like_int.py"): ("softmax", "int"),
    ("self_attention", "corpus_blind/lab1/lab1__most_attended__tie_last.py"): ("most_attended", "ties"),
    # the shift max(row, 0): every exp of a row far below zero underflows, 0/0
    ("self_attention", "corpus_blind17/lab1/lab1__softmax__max_initial_zero.py"): ("softmax", "negative"),
    # weights under 1e-3 set to 0
    ("self_attention", "corpus_blind17/lab1/lab1__softmax__thresholds_small_probs.py"): ("softmax", "small_weights"),
    # `x.size == len(x)` taken for "1-D": a table of one column is softmaxed down its column
    ("self_attention", "corpus_blind10/lab1/lab1__softmax__size_equals_len_as_1d_test.py"): ("softmax", "one_column"),
    ("masked_attention", "corpus_blind/lab2/lab2__masked_softmax__zero_score_masked.py"): ("masked_softmax", "zeros"),
    ("masked_attention", "corpus_blind/lab2/lab2__masked_softmax__fill_minus_1e4.py"): ("masked_softmax", "negative"),
}


@pytest.fixture(scope="module")
def grade(zygote, plans):
    def run(lab_name, source, name="submission.py"):
        return grade_bytes(name, source.encode("utf-8"), zygote, plans[lab_name],
                           Limits(step_seconds=5, load_seconds=5))
    return run


@pytest.mark.parametrize("key", sorted(SHOWN_BY_A_FORM), ids=lambda k: k[1])
def test_a_file_breaking_one_form_fails_that_public_call_and_nothing_else(grade, key):
    lab_name, path = key
    step, label = SHOWN_BY_A_FORM[key]
    result = grade(lab_name, (CORPORA / path).read_text("utf-8"), pathlib.Path(path).name)
    lost = {s.name: s for s in result.steps if s.score < s.max_score}
    assert list(lost) == [step]
    # Of the public tests, that form's call alone fails (a hidden test may hold the same form: a
    # word of zeros gives visible scores of exactly 0, words alike give ties).
    failing = [c for c in lost[step].cases if not c.passed and not c.hidden]
    assert {c.label for c in failing} == {label}


INVERTED_MASK = '''
import numpy as np


def masked_softmax(scores, mask):
    """Right with a True/False mask; with a 1/0 mask `~mask` is -2/-1, true everywhere."""
    blocked = np.where(~mask, -np.inf, scores)
    shifted = np.exp(blocked - blocked.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
'''


def test_a_mask_inverted_with_tilde_fails_the_public_0_1_call_only(grade):
    result = grade("masked_attention", INVERTED_MASK)
    step = next(s for s in result.steps if s.name == "masked_softmax")
    failing = [c for c in step.cases if not c.passed]
    assert failing and {(c.case, c.label) for c in failing} == {(masked_cases.FORMS_CASE, "0/1")}
    assert 0 < step.score < step.max_score


def test_the_page_case_is_untouched_by_the_forms(plans):
    """The page's numbers are facts students check against the lab page: no labelled call there."""
    for name, steps in FORMS.items():
        for step in steps:
            assert all(p.label in ("", "1-D", "2-D", "3-D") for p in plans[name].probes[step] if p.case.name == "page")
    assert self_cases.FORMS_CASE != "page" and masked_cases.FORMS_CASE != "page"
