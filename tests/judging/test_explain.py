"""The explainer (autograder/core/explain/): relations between a wrong value and the reference's own
computation of the case, searched with no lab's knowledge.

Generated traces: each relation applied to make `got` is named; an unrelated `got` never gets a
relation. Real files: what `autograder check` and `autograder grade` say, and that the words are
all that changes (points, codes and statuses are the judge's, with or without the explainer).
"""
import csv
import dataclasses
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from autograder.core.explain.formulas import factors, predict
from autograder.core.explain.quantities import case_quantities
from autograder.core.explain.records import Sample, Vocabulary, close
from autograder.core.explain.search import RELATIONS_SWITCH, explain, failing_kind
from autograder.grading import grade_file
from autograder.grading.plan import Plan
from autograder.core.judge import judge_call, judge_step
from autograder.core.predictions import DECLARED_MISTAKES_SWITCH
from autograder.core.render.explained import explained_text
from autograder.core.render.feedback import as_text
from autograder.sandbox.runner import CallOutcome
from conftest import CORPORA, ROOT
from labs.self_attention import LAB


@pytest.fixture(scope="module", autouse=True)
def _explainer_alone():
    """What the values show (autograder.core.explain) is told when no repair of the student's own code is
    found (autograder.repair names most of these files first: tests/judging/test_repair.py); read alone here."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOGRADER_REPAIR", "off")
        yield

FIELD2 = CORPORA / "corpus_field2"
QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----- generated traces ---------------------------------------------------------------------

def _trace(rng, n, d, m):
    """A reference-like trace of one case: A (n, d) and B (d, m) with expected = A @ B, and
    unrelated quantities of the expected's shape and of its transpose's."""
    A = np.round(rng.normal(size=(n, d)), 1)
    B = np.round(rng.normal(size=(d, m)), 1)
    quantities = {"A": A, "B": B, "C": rng.normal(size=(n, m)) + 3.0, "D": rng.normal(size=(m, n)) - 3.0,
                  "E": rng.normal(size=(n, m)) * 2.0}
    return A @ B, quantities


SHAPES = st.tuples(st.integers(2, 6), st.integers(2, 7), st.integers(2, 6)).filter(lambda s: s[0] != s[2])


def _samples(seed, shapes, make_got, passing_shapes=None):
    """Samples of several cases, `make_got(expected, quantities, sizes)` giving each failing one's
    values; one more case passes when `passing_shapes` is given."""
    rng = np.random.default_rng(seed)
    samples = []
    for index, (n, d, m) in enumerate(shapes):
        expected, quantities = _trace(rng, n, d, m)
        sizes = {"n": n, "d": d, "m": m}
        got = make_got(expected, quantities, sizes)
        samples.append(Sample(case=f"case-{index}", hidden=index % 2 == 1, passed=False, got=got,
                              got_type="ndarray", expected=expected, quantities=quantities, sizes=sizes,
                              labels=tuple(f"w{i}" for i in range(n))))
    if passing_shapes:
        n, d, m = passing_shapes
        expected, quantities = _trace(rng, n, d, m)
        samples.append(Sample(case="passing", hidden=False, passed=True, got=expected, got_type="ndarray",
                              expected=expected, quantities=quantities, sizes={"n": n, "d": d, "m": m}))
    return samples


def _predicted_everywhere(explanation, samples):
    return all(close(predict(s, explanation.parts), s.got) for s in samples if not s.passed)


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4),
       name=st.sampled_from(["C", "E"]))
def test_a_quantity_returned_instead_is_named(seed, shapes, name):
    samples = _samples(seed, shapes, lambda e, q, s: q[name])
    found = explain("out", samples)
    assert found.relation == "formula" and found.parts == (("base", name),), found


def test_the_relations_switch_leaves_only_the_kind_of_test_that_fails(monkeypatch):
    samples = _samples(7, [(3, 4, 2), (4, 5, 3)], lambda e, q, s: q["D"].T)
    assert explain("out", samples).relation == "formula"
    monkeypatch.setenv(RELATIONS_SWITCH, "off")
    assert explain("out", samples) is None
    assert explain("out", samples, kind="2-D").relation == "kind_only"


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4))
def test_a_quantity_transposed_is_named(seed, shapes):
    samples = _samples(seed, shapes, lambda e, q, s: q["D"].T)
    found = explain("out", samples)
    assert found.parts == (("base", "D"), ("order", (1, 0))), found


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4),
       size=st.sampled_from(["n", "d", "m"]), root=st.booleans(), kind=st.sampled_from(["times", "divided"]))
def test_a_constant_ratio_is_named_by_the_size_it_matches(seed, shapes, size, root, kind):
    def scaled(expected, quantities, sizes):
        factor = np.sqrt(sizes[size]) if root else sizes[size]
        return expected * factor if kind == "times" else expected / factor
    samples = _samples(seed, shapes, scaled)
    assume(all(np.abs(s.expected).max() > 1e-3 for s in samples))
    found = explain("out", samples)
    assert found.relation == "formula" and found.parts[-1][0] == kind, found
    assert _predicted_everywhere(found, samples)
    # The name is one whose value is the factor applied on every case (sizes may coincide).
    (_, factor), = [p for p in found.parts if p[0] == kind]
    for sample in samples:
        applied = np.sqrt(sample.sizes[size]) if root else sample.sizes[size]
        assert np.isclose(factors(sample.sizes)[factor], applied)


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4),
       name=st.sampled_from(["C", "E"]), sign=st.sampled_from(["plus", "minus"]))
def test_a_residual_added_or_taken_is_named(seed, shapes, name, sign):
    samples = _samples(seed, shapes, lambda e, q, s: e + q[name] if sign == "plus" else e - q[name])
    found = explain("out", samples)
    assert found.parts == (("base", "expected"), (sign, name)), found


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4),
       decimals=st.sampled_from([0, 1, 2]))
def test_rounding_is_named_with_its_decimals(seed, shapes, decimals):
    samples = _samples(seed, shapes, lambda e, q, s: np.round(e * 7.31, decimals))
    samples = [Sample(**{**s.__dict__, "expected": s.expected * 7.31}) for s in samples]
    assume(all(not np.allclose(np.round(s.expected, decimals), s.expected, rtol=1e-4, atol=1e-5) for s in samples))
    found = explain("out", samples)
    assert found.relation == "formula" and found.parts[-1][0] in ("round", "trunc") or found.relation == "whole_numbers"
    if found.relation == "formula":
        assert _predicted_everywhere(found, samples)


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4),
       end=st.sampled_from(["first", "last"]))
def test_a_term_of_a_contraction_left_out_is_named(seed, shapes, end):
    def dropped(expected, quantities, sizes):
        A, B = quantities["A"], quantities["B"]
        keep = slice(1, None) if end == "first" else slice(None, -1)
        return A[:, keep] @ B[keep, :]
    samples = _samples(seed, shapes, dropped)
    found = explain("out", samples)
    assert found.relation == "formula" and found.parts[0][0] == "product", found
    assert _predicted_everywhere(found, samples)


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4))
def test_rows_all_alike_are_named(seed, shapes):
    rng = np.random.default_rng(seed + 1)
    samples = _samples(seed, shapes, lambda e, q, s: np.broadcast_to(rng.normal(size=(1, e.shape[1])), e.shape))
    found = explain("out", samples)
    assert found.relation == "rows_identical", found


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4))
def test_whole_numbers_where_expected_has_decimals_are_named(seed, shapes):
    rng = np.random.default_rng(seed + 2)
    samples = _samples(seed, shapes, lambda e, q, s: rng.integers(-9, 9, size=e.shape).astype(float))
    found = explain("out", samples)
    assert found.relation == "whole_numbers", found


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4))
def test_normalised_along_the_other_axis_is_named(seed, shapes):
    def normalised(axis):
        def make(expected, quantities, sizes):
            positive = np.exp(quantities["C"])
            return positive / positive.sum(axis=axis, keepdims=True)
        return make
    samples = _samples(seed, shapes, normalised(0))
    samples = [Sample(**{**s.__dict__, "expected": np.exp(s.quantities["C"]) / np.exp(s.quantities["C"]).sum(1, keepdims=True)})
               for s in samples]
    found = explain("out", samples)
    assert found.relation == "normalised_axis" and found.params == {"axis": 0, "expected_axis": 1}, found


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4))
def test_a_passing_case_rules_a_formula_out(seed, shapes):
    """Dividing by 2 on every failing case, while a passing case (where 2 would change the
    values too) passed: no size explains it, so no formula with 2 is named."""
    samples = _samples(seed, shapes, lambda e, q, s: e / 2, passing_shapes=(3, 3, 4))
    found = explain("out", samples)
    assert found is None or found.relation != "formula" or ("divided", "2") not in found.parts


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4))
def test_unrelated_values_get_no_relation(seed, shapes):
    rng = np.random.default_rng(seed + 3)
    samples = _samples(seed, shapes, lambda e, q, s: rng.normal(size=e.shape) * 5 + 0.123)
    found = explain("out", samples)
    assert found is None or found.relation in ("observed", "kind_only"), found


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=3, max_size=5), which=st.integers(0, 4))
def test_the_failing_kind_is_told_when_the_failing_cases_are_exactly_one_kind(seed, shapes, which):
    names = [f"case-{i}" for i in range(len(shapes))]
    failing = {names[which % len(names)]}
    kinds = {name: (("odd",) if name in failing else ()) + ("all",) for name in names}
    assert failing_kind(failing, set(names), kinds) == "odd"
    assert failing_kind(set(names), set(names), kinds) is None  # everything fails: no kind
    kinds[names[(which + 1) % len(names)]] += ("odd",)
    assert failing_kind(failing, set(names), kinds) is None  # a passing case of the kind


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=3, max_size=5), which=st.integers(0, 4))
def test_two_kinds_that_are_each_exactly_the_failing_cases_name_neither(seed, shapes, which):
    """3-D scores and a mask that is not causal, each exactly the failing tests: the tests cannot tell
    which is the cause, and naming one would send the student to the wrong one."""
    names = [f"case-{i}" for i in range(len(shapes))]
    failing = {names[which % len(names)]}
    kinds = {name: (("odd", "three_d") if name in failing else ()) + ("all",) for name in names}
    assert failing_kind(failing, set(names), kinds) is None


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4),
       quiet=st.lists(st.sampled_from(["one_cell", "constant_expected"]), min_size=1, max_size=3))
def test_all_zeros_is_told_however_many_failing_tests_cannot_tell_it(seed, shapes, quiet):
    """Nothing but 0 returned: a test of one cell, or whose expected value is one number itself,
    agrees with it and never turns it into a formula read off the other values (the expected minus
    a quantity that equals it)."""
    samples = _samples(seed, shapes, lambda e, q, s: np.zeros_like(e))
    for index, what in enumerate(quiet):
        expected = np.full((1, 1), 0.7) if what == "one_cell" else np.full((3, 3), 0.25)
        samples.append(Sample(case=f"quiet-{index}", hidden=True, passed=False, got=np.zeros_like(expected),
                              got_type="ndarray", expected=expected, quantities={"expected": expected},
                              sizes={"n": expected.shape[0], "d": 1, "m": 1}))
    found = explain("out", samples)
    assert found is not None and found.relation == "all_zeros", found
    samples[-1] = dataclasses.replace(samples[-1], got=np.full_like(samples[-1].expected, 0.5))
    found = explain("out", samples)  # one that is not 0 where the others are: no longer all zeros
    assert found is None or found.relation != "all_zeros", found


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4),
       ratio=st.floats(1.1, 9.0).filter(lambda r: all(abs(r - v) > 1e-2 for v in (2, 3, 4, 5, 6, 7))))
def test_a_hidden_case_never_gives_a_number_to_a_sentence(seed, shapes, ratio):
    """An unnamed constant ratio is shown only when every failing case is public: on a hidden
    case it is a number the student's code chose from hidden inputs."""
    samples = _samples(seed, shapes, lambda e, q, s: e * ratio)
    assume(not any(any(np.isclose(ratio, v) for v in factors(s.sizes).values()) for s in samples))
    found = explain("out", samples)
    assert found.relation == "ratio_constant"
    assert "value" not in found.params  # case-1 is hidden, and fails too
    public = [Sample(**{**s.__dict__, "hidden": False}) for s in samples]
    assert np.isclose(explain("out", public).params["value"], ratio)


def test_observed_rows_come_from_public_cases_only():
    rng = np.random.default_rng(0)
    expected, quantities = _trace(rng, 4, 3, 5)
    got = expected.copy()
    got[2] += rng.normal(size=5)
    sample = Sample(case="c", hidden=True, passed=False, got=got, got_type="ndarray", expected=expected,
                    quantities=quantities, sizes={"n": 4}, labels=("a", "b", "c", "d"))
    assert explain("out", [sample]) is None
    found = explain("out", [Sample(**{**sample.__dict__, "hidden": False})])
    assert found.relation == "observed" and found.params["labels"] == ["c"]


def test_containers_are_named_from_a_closed_set():
    sample = Sample(case="c", hidden=True, passed=False, got=None, got_type="MySecret_3.14", expected={"a": "b"},
                    quantities={}, sizes={})
    found = explain("out", [sample])
    assert found.params == {"got": "other", "expected": "dict"}


# ----- the judge: words only ----------------------------------------------------------------

@pytest.fixture(scope="module")
def self_plan():
    return Plan.build(LAB)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


STUDENTS = {
    "scores": [lambda p: p.expected[0] / p.case.W_K.shape[1], lambda p: p.expected[0] * 2.5,
               lambda p: np.round(p.expected[0]), lambda p: p.trace.Q @ p.trace.Q.T],
    "softmax": [lambda p: _softmax(p.args[0], 0), lambda p: np.ones_like(p.expected[0]),
                lambda p: p.args[0]],
    "mix": [lambda p: p.expected[0] / len(p.case.words), lambda p: p.expected[0] + 1.0],
    "self_attention": [lambda p: (p.expected[0], p.trace.scaled), lambda p: (p.trace.V, p.expected[1])],
}


@pytest.mark.parametrize("step_name, index", [(s, i) for s, makers in STUDENTS.items() for i in range(len(makers))])
def test_the_explainer_changes_words_never_points(self_plan, step_name, index):
    step = LAB.steps_by_name[step_name]
    probes = self_plan.probes[step_name]
    with np.errstate(all="ignore"):
        outcomes = [CallOutcome("returned", value=STUDENTS[step_name][index](p), args_after=[None] * len(p.args))
                    for p in probes]
    plain = judge_step(step, probes, outcomes, "function", False, page=LAB.page_case)
    told = judge_step(step, probes, outcomes, "function", False, page=LAB.page_case, vocabulary=LAB.vocabulary)
    assert (told.score, told.status, told.mistakes, [c.code for c in told.cases]) == \
        (plain.score, plain.status, plain.mistakes, [c.code for c in plain.cases])
    assert not plain.explained
    assert dataclasses.replace(told, explained=()) == plain


def test_a_lab_without_a_vocabulary_is_judged_as_before(self_plan):
    step = LAB.steps_by_name["scores"]
    probes = self_plan.probes["scores"]
    outcomes = [CallOutcome("returned", value=p.expected[0] / 7.0, args_after=[None, None]) for p in probes]
    assert not judge_step(step, probes, outcomes, "function", False).explained


def test_the_switch_turns_the_declared_mistakes_off_and_nothing_else(self_plan, monkeypatch):
    step = LAB.steps_by_name["scores"]
    probe = self_plan.probes["scores"][1]  # "wide": scores with many decimals
    rounded = CallOutcome("returned", value=np.round(probe.expected[0], 1), args_after=[None, None])
    assert judge_call(probe, rounded, False).code == "rounded"
    monkeypatch.setenv(DECLARED_MISTAKES_SWITCH, "off")
    assert judge_call(probe, rounded, False).code == "wrong_values"
    assert step.mistakes  # the declaration itself is untouched


# ----- real files, through every face -------------------------------------------------------

EXPECTED_WORDS = {
    # file: (step, Korean words, English words) the feedback says about the values
    "scores__divided_by_dk.py": ("scores", "기대 값의 1/d_k", "the expected value divided by d_k"),
    "mix__mean_instead_of_sum.py": ("mix", "기대 값의 1/n", "the expected value divided by n"),
    "self_attention__returns_scaled_scores.py": ("self_attention", "√d_k로 나눈 점수표",
                                                  "the scores divided by √d_k"),
    "make_qkv__int_zeros_buffer.py": ("make_qkv", "소수 부분을 버린", "fractional part cut off"),
    "mix__forgot_return.py": ("mix", "종류는 None", "is a None"),
}


@pytest.fixture(scope="module")
def field2(zygote, self_plan):
    return {name: grade_file(FIELD2 / name, zygote, self_plan) for name in EXPECTED_WORDS}


@pytest.mark.parametrize("name", sorted(EXPECTED_WORDS))
def test_a_field_file_the_catalog_does_not_name_gets_what_its_values_show(field2, name):
    step_name, korean, english = EXPECTED_WORDS[name]
    result = field2[name]
    step = next(s for s in result.steps if s.name == step_name)
    assert step.explained, step
    assert korean in as_text(result, LAB, "ko")
    assert english in as_text(result, LAB, "en")


def test_the_public_view_is_explained_from_public_tests_alone(field2):
    result = field2["scores__divided_by_dk.py"]
    public = next(s for s in result.public_steps if s.name == "scores")
    assert tuple(public.explained[0]["parts"][-1]) == ("divided", "d_k")


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "autograder", *map(str, args)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


def test_autograder_check_tells_the_relation_in_both_languages():
    path = FIELD2 / "scores__divided_by_dk.py"
    korean = _cli("check", path, "--lab", "self_attention")
    assert "틀린 테스트마다 반환한 scores의 값이 기대 값의 1/d_k입니다." in korean.stdout, korean.stdout
    english = _cli("check", path, "--lab", "self_attention", "--lang", "en", "--json")
    steps = {s["name"]: s for s in json.loads(english.stdout)["steps"]}
    assert "On every failing test your scores equals the expected value divided by d_k." in steps["scores"]["feedback"]


def test_autograder_grade_tells_the_relation_and_keeps_the_grades(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("scores__divided_by_dk.py", "mix__mean_instead_of_sum.py"):
        (folder / name).write_bytes((FIELD2 / name).read_bytes())
    runs = {}
    for switch in ("on", "off"):
        out = tmp_path / f"out-{switch}"
        process = _cli("grade", folder, "--out", out, "--lab", "self_attention", "--jobs", "1",
                       env={DECLARED_MISTAKES_SWITCH: switch})
        assert process.returncode == 0, process.stderr
        with open(out / "grades.csv", encoding="utf-8-sig") as handle:
            runs[switch] = {row["file"]: row for row in csv.DictReader(handle)}
        feedback = "\n".join(p.read_text("utf-8") for p in (out / "feedback").glob("*.md"))
        assert "기대 값의 1/d_k" in feedback and "기대 값의 1/n" in feedback
    # Neither file is named by a declared mistake: the grades are the same either way.
    for name, row in runs["on"].items():
        assert row["total"] == runs["off"][name]["total"]


def test_the_explained_text_is_empty_without_an_explanation():
    from autograder.core.verdict import StepResult
    from autograder.core.render.messages import Messages
    result = StepResult(name="scores", score=0.0, max_score=1.0, status="failed", mistakes=["wrong_values"], cases=[])
    assert explained_text(Messages("ko", LAB), result) == ""


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4))
def test_the_expected_numbers_in_other_places_are_named(seed, shapes):
    rng = np.random.default_rng(seed + 4)
    samples = _samples(seed, shapes, lambda e, q, s: rng.permutation(e.ravel()).reshape(e.shape[::-1]))
    found = explain("out", samples)
    # Several axes of other lengths: both shapes are named by the sizes, with the numbers all there.
    assert found.relation in ("same_values_elsewhere", "formula", "shape_named_same_values"), found
    if found.relation == "formula":  # a permutation that happens to be the transpose
        assert _predicted_everywhere(found, samples)


@QUICK
@given(seed=st.integers(0, 2**32 - 1), shapes=st.lists(SHAPES, min_size=2, max_size=4),
       kind=st.sampled_from(["negated", "complement"]))
def test_a_sign_or_a_truth_turned_over_is_named(seed, shapes, kind):
    samples = _samples(seed, shapes, lambda e, q, s: -e if kind == "negated" else 1.0 - e)
    found = explain("out", samples)
    assert found.parts == (("base", "expected"), (kind,)), found


@pytest.mark.parametrize("lab_name", ["self_attention", "masked_attention"])
def test_every_quantity_a_trace_offers_has_a_name_in_both_languages(lab_name):
    from autograder import registry
    from autograder.core.render.messages import catalog
    lab = registry.load(lab_name)
    offered = set()
    for case in lab.all_cases():
        trace = lab.trace(case)
        for step in lab.steps:
            for probe in step.probes(case, trace):
                offered |= set(case_quantities(case, trace, lab.vocabulary, zip(step.params, probe.args)))
    for lang in ("ko", "en"):
        assert offered <= set(catalog(lang, lab)["quantity"]), (lang, offered - set(catalog(lang, lab)["quantity"]))
        kinds = {k for case in lab.all_cases() for k in lab.vocabulary.kinds(case)}
        kinds |= {p.label for s in lab.steps for c in lab.all_cases() for p in s.probes(c, lab.trace(c)) if p.label}
        assert kinds <= set(catalog(lang, lab)["kind"]), (lang, kinds - set(catalog(lang, lab)["kind"]))


_ANY_FLOAT = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(-10, 10),
                       st.sampled_from([0.0, -0.0, 1e-6, 1e-300, 3e38]))


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_close_is_numpys_allclose_at_the_judges_tolerance(data):
    """`close` compares finite float arrays without numpy's `isclose` set-up; on any arrays (NaN,
    infinities, float32 beside float64, empty, 0-d, nearly equal) it says what `np.allclose` says."""
    from autograder.core.tolerance import ATOL, RTOL

    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    kinds = [data.draw(st.sampled_from([np.float64, np.float32])) for _ in range(2)]
    with np.errstate(all="ignore"):
        b = np.asarray(data.draw(hnp.arrays(np.float64, shape, elements=_ANY_FLOAT)), dtype=kinds[1])
        way = data.draw(st.sampled_from(["same", "scaled", "shifted", "any"]))
        if way == "any":
            a = np.asarray(data.draw(hnp.arrays(np.float64, shape, elements=_ANY_FLOAT)), dtype=kinds[0])
        else:
            nudge = data.draw(st.floats(-3e-4, 3e-4))
            a = {"same": b, "scaled": b * (1 + nudge), "shifted": b + nudge / 10}[way].astype(kinds[0])
        finite = np.abs(b[np.isfinite(b)])
        atol = ATOL * max(1.0, float(finite.max()) if finite.size else 1.0)
        assert close(a, b) == bool(np.allclose(a, b, rtol=RTOL, atol=atol, equal_nan=True)), (a, b)
        # One tolerance: what the judge's own comparison says of the same two values.
        from autograder.core.compare import all_close

        assert close(a, b) == all_close(a, b), (a, b)


@QUICK
@given(calls=st.lists(st.tuples(st.sampled_from([2, 3]), st.booleans(), st.booleans()), min_size=2, max_size=12))
def test_a_number_of_axes_is_told_only_when_every_call_of_it_fails_that_can_tell(calls):
    """"Every failing test has a 3-D input" is told only when it is the cause the tests show: every
    call of that number of axes fails (but those too small to tell), every other call passes. A
    mask that is not causal, tried on 3-D input only, fails some 3-D calls and not the others: the
    number of axes is not its cause (a blind file was told so)."""
    from types import SimpleNamespace

    from autograder.core.judge import _failing_label

    probes = [SimpleNamespace(label="", args=(np.zeros((2,) * ndim),), case=SimpleNamespace(degenerate=small))
              for ndim, _, small in calls]
    cases = [SimpleNamespace(passed=passed) for _, passed, _ in calls]
    told = _failing_label(probes, cases)
    if told is None:
        return
    ndim = int(told.split("-")[0])
    for (axes, passed, small) in calls:
        if axes == ndim:
            assert not passed or small, calls
        else:
            assert passed, calls
    assert any(not passed for _, passed, _ in calls)


def test_a_mask_that_is_not_causal_failing_on_3d_input_only_is_not_told_as_3d():
    path = CORPORA / "corpus_blind22" / "lab2" / "lab2__masked_softmax__assumes_visible_prefix.py"
    text = subprocess.run([sys.executable, "-m", "autograder", "check", str(path), "--lang", "en"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300).stdout
    step = text.split("■ masked_softmax")[1].split("■")[0]
    assert "failed" in step and "Every failing test has" not in step, step
