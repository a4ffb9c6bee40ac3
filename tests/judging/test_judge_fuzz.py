"""No value a submission can send makes the judge or the renderer raise.

Values of every kind reach judge_step for every step (arrays of any dtype, nested containers,
NaN, huge ints, subclasses of str and dict, bytes, pandas look-alikes, forged errors): the result
is always a verdict, and feedback renders in both languages.
"""
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.core.judge import judge_step
from autograder.core.verdict import StepResult, SubmissionResult
from autograder.core.render.feedback import as_dict, as_text
from autograder.core.child.codec import Labelled, Opaque
from autograder.core.child.protocol import CallOutcome, plain_error
from labs.self_attention.steps import STEPS, STEPS_BY_NAME
from labs.self_attention import LAB

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Word(str):
    def __eq__(self, other):
        raise RuntimeError("a str subclass that refuses to be compared")

    __hash__ = str.__hash__


class Table(dict):
    def items(self):
        raise RuntimeError("a dict subclass that refuses to list its items")


scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63, max_value=10**400)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
           | st.sampled_from(["나는", "사과를", "먹었다", "\x1b[31m나는", "1"]) | st.binary(max_size=8)
           | st.builds(Opaque, st.text(max_size=10)))
dtypes = st.sampled_from([np.float64, np.float32, np.int64, np.bool_, np.complex128, object, "U3", "M8[s]"])
shapes = st.lists(st.integers(min_value=0, max_value=7), min_size=0, max_size=3).map(tuple)


@st.composite
def arrays(draw):
    shape, dtype = draw(shapes), draw(dtypes)
    size = int(np.prod(shape))
    if dtype is object:
        items = draw(st.lists(scalars, min_size=size, max_size=size))
        array = np.empty(size, dtype=object)
        for i, item in enumerate(items):
            array[i] = item if i % 3 else np.zeros(2, dtype=object)
        return array.reshape(shape)
    raw = draw(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=32), min_size=size, max_size=size))
    if isinstance(dtype, str):
        return np.zeros(shape, dtype=dtype)
    with np.errstate(all="ignore"):
        return np.array(raw, dtype=float).reshape(shape).astype(dtype)


def labelled(inner):
    return st.builds(lambda kind, values, index, columns: Labelled(kind, values, index, columns),
                     st.sampled_from(["Series", "DataFrame", "Other"]), arrays() | inner,
                     st.lists(scalars, max_size=7), st.none() | st.lists(scalars, max_size=4))


def mappings(inner):
    keys = st.text(max_size=8) | st.integers() | st.floats() | st.sampled_from(["나는", "사과를", "먹었다"]) \
        | st.tuples(st.integers())
    return st.dictionaries(keys, inner, max_size=6)


values = st.recursive(scalars | arrays(),
                      lambda inner: (st.lists(inner, max_size=5) | st.lists(inner, max_size=3).map(tuple)
                                     | mappings(inner) | labelled(inner)),
                      max_leaves=10)
# Errors reach the judge as the grader takes them in from the child's (untrusted) event.
errors = st.fixed_dictionaries({}, optional={"type": scalars, "message": scalars,
                                             "frames": st.lists(st.lists(scalars, max_size=4), max_size=3)}
                               ).map(plain_error)


def outcomes(arg_count):
    returned = st.builds(lambda v, a: CallOutcome("returned", value=v, args_after=a), values,
                         st.none() | st.lists(st.none() | values, min_size=arg_count, max_size=arg_count))
    raised = st.builds(lambda e: CallOutcome("raised", error=e), errors)
    other = st.sampled_from(["timeout", "crashed", "not_run"]).map(CallOutcome)
    return st.none() | returned | raised | other


def assert_renders(result):
    submission = SubmissionResult(submission="fuzz.py", steps=[result])
    for lang in ("ko", "en"):
        json.dumps(as_dict(submission, LAB, lang), ensure_ascii=False)
        assert isinstance(as_text(submission, LAB, lang), str)


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
@FUZZ
@given(data=st.data())
def test_any_values_give_a_verdict_never_an_exception(plan, step, data):
    probes = plan.probes[step.name]
    results = [data.draw(outcomes(len(p.args))) for p in probes]
    result = judge_step(step, probes, results, "function", data.draw(st.booleans()))
    assert isinstance(result, StepResult) and 0 <= result.score <= result.max_score
    assert_renders(result)


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
@FUZZ
@given(data=st.data())
def test_any_values_give_a_verdict_as_the_grader_judges_them(plan, step, data):
    """As the grader and the students' kit call judge_step: with the page's case and the lab's
    vocabulary, so the explainer reads every failure left to a generic code."""
    probes = plan.probes[step.name]
    results = [data.draw(outcomes(len(p.args))) for p in probes]
    result = judge_step(step, probes, results, "function", data.draw(st.booleans()), page=LAB.page_case,
                        vocabulary=LAB.vocabulary)
    assert isinstance(result, StepResult) and 0 <= result.score <= result.max_score
    assert_renders(result)


@pytest.mark.parametrize("value", [
    {"나는": np.array(["먹었다"], dtype=object), "사과를": np.array([1, 2], dtype=object)},
    {"나는": np.array([np.nan]), "사과를": [1, 2], "먹었다": {"x": 1}},
    {Word("나는"): Word("먹었다"), "사과를": Word("나는")},
    Table({"나는": "먹었다"}),
    [Table({"나는": "먹었다"})],
    {"나는": 10**400, "사과를": float("nan"), "먹었다": b"\xff"},
    Labelled("Series", np.array([np.zeros(2), "x"], dtype=object), ["나는", "사과를"], None),
])
def test_mappings_of_strange_values_are_wrong_answers(plan, value):
    step = STEPS_BY_NAME["most_attended"]
    probes = plan.probes[step.name]
    outcome = CallOutcome("returned", value=value, args_after=[None, None])
    result = judge_step(step, probes, [outcome] * len(probes), "function", False)
    assert result.status == "failed" and result.score == 0
    assert_renders(result)


def test_a_right_mapping_of_numpy_strings_and_a_series_still_passes(plan):
    step = STEPS_BY_NAME["most_attended"]
    probes = plan.probes[step.name]
    as_series = [CallOutcome("returned", value=Labelled("Series", np.array(list(p.expected[0].values()), dtype=object),
                                                       list(p.expected[0]), None), args_after=[None, None])
                 for p in probes]
    assert judge_step(step, probes, as_series, "function", False).status == "passed"


def test_control_characters_of_a_returned_key_never_reach_feedback(plan):
    step = STEPS_BY_NAME["most_attended"]
    probes = plan.probes[step.name]
    value = {"\x1b[2J\x1b[31m나는": "먹었다", "\x9b31m": "x"}
    result = judge_step(step, probes, [CallOutcome("returned", value=value, args_after=[None, None])] * len(probes),
                        "function", False)
    text = as_text(SubmissionResult(submission="x.py", steps=[result]), LAB, "en") + json.dumps(as_dict(SubmissionResult(submission="x.py", steps=[result]), LAB))
    assert "\x1b" not in text and "\x9b" not in text


def test_a_grader_fault_exits_2_never_1(monkeypatch, capsys):
    """Exit 1 means "lost points": a grader exception must never read as the student's grade."""
    from autograder import cli
    from autograder.grading import plan as grading_plan
    from conftest import ROOT

    def broken_judge(*args, **kwargs):
        raise ValueError("The truth value of an array with more than one element is ambiguous")

    monkeypatch.setattr(grading_plan, "judge_step", broken_judge)
    assert cli.main(["check", str(ROOT / "solutions" / "self_attention.py"), "--lang", "en"]) == cli.EXIT_CANNOT_RUN
    assert "internal error" in capsys.readouterr().err
    assert cli.main(["check", str(ROOT / "solutions" / "self_attention.py")]) == cli.EXIT_CANNOT_RUN
    assert "채점기 내부 오류입니다" in capsys.readouterr().err


def _near(expected, shift, form):
    """The expected value moved by `shift` and given another form (a list, axes of length 1, transposed)."""
    if isinstance(expected, dict):
        return dict(expected) if form == 0 else {**expected, "?": shift}
    moved = np.asarray(expected, dtype=float) + shift
    return [moved, moved.tolist(), moved[None], moved.T, moved.astype(np.float32)][form]


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
@FUZZ
@given(data=st.data())
def test_a_repair_candidates_brief_verdict_is_the_judges(plan, step, data):
    """A repair candidate is judged briefly (no detail, no declared mistake matched): whether it
    passed is always what the full judgement says."""
    from autograder.core.judge import judge_call

    probe = data.draw(st.sampled_from(plan.probes[step.name]))
    expected = probe.expected[0] if len(probe.expected) == 1 else tuple(probe.expected)
    shifts = st.sampled_from([0.0, 1e-9, 1e-5, 1e-3, float("nan")])
    near = st.builds(lambda shift, form: _near(expected, shift, form), shifts, st.integers(0, 4)) \
        if len(probe.expected) == 1 else st.just(expected)
    value = data.draw(values | near)
    outcome = CallOutcome("returned", value=value, args_after=None)
    assert judge_call(probe, outcome, False, brief=True).passed == judge_call(probe, outcome, False).passed


def _reshaped(expected, change, amount):
    """One output near its expected value: other widths, another number of axes, transposed."""
    array = np.asarray(expected, dtype=float)
    if change == 0 and array.ndim >= 1:
        return np.concatenate([array] * (1 + amount % 3), axis=-1)  # wider (parts side by side)
    if change == 1 and array.ndim >= 1 and array.shape[-1] > 1:
        return array[..., : 1 + amount % array.shape[-1]]  # narrower
    if change == 2:
        return array[None]  # an axis more
    if change == 3 and array.ndim >= 2:
        return array.reshape(-1, array.shape[-1])  # an axis fewer
    if change == 4:
        return array.T
    return array + amount


def _multi_output_steps():
    from autograder.grading.plan import Plan
    from labs.masked_attention import LAB as MASKED

    found = []
    for lab in (LAB, MASKED):
        plan = Plan.build(lab)
        found += [(lab, plan, step) for step in lab.steps if len(step.outputs) > 1]
    return found


@pytest.mark.parametrize("lab, plan_of_lab, step", _multi_output_steps(), ids=lambda x: getattr(x, "name", ""))
@FUZZ
@given(data=st.data())
def test_outputs_near_their_expected_shapes_give_a_verdict(lab, plan_of_lab, step, data):
    """tests/corpora (blind set 18, multi_head_attention): an output of other width returned beside
    weights of another number of axes once made the judge raise. Outputs each near its expected
    value, in any mix of widths and numbers of axes, always give a verdict that renders."""
    probes = plan_of_lab.probes[step.name]
    results = []
    for probe in probes:
        outputs = tuple(_reshaped(expected, data.draw(st.integers(0, 5)), data.draw(st.integers(0, 6)))
                        for expected in probe.expected)
        results.append(CallOutcome("returned", value=outputs, args_after=[None] * len(probe.args)))
    result = judge_step(step, probes, results, "function", False, page=lab.page_case, vocabulary=lab.vocabulary)
    assert isinstance(result, StepResult) and 0 <= result.score <= result.max_score
    submission = SubmissionResult(submission="fuzz.py", steps=[result])
    for lang in ("ko", "en"):
        json.dumps(as_dict(submission, lab, lang), ensure_ascii=False)
        assert isinstance(as_text(submission, lab, lang), str)
