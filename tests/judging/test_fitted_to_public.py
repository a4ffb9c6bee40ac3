"""Points come from values: answers right only on tests whose inputs a student can know are fitted
(docs/SECURITY.md, "Invariant: points come from values"; `mark_fitted_to_public`).

Generated students of both labs, step by step, no sandbox: right (or anything) on the tests whose
inputs can be known (the public ones, and hidden ones that repeat their calls), and on every other
test an outcome drawn from every kind the judge knows (wrong values, wrong shape, another type,
nan, ±1.7e308, an error with any message, numpy's words for a declared mistake included, a refused
stand-in, a timeout, a crash, a test not run, a call never made). Such a step earns nothing. The
controls: the same students right on one test whose inputs they could not know, or making one
declared mistake there, get exactly what the judge gives without the rule.
"""
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.core import judge, rubric
from autograder.core.causes import CODE_CAUSES, _known_inputs, _tells_formulas_apart, mark_fitted_to_public
from autograder.core.compare import matches
from autograder.grading.plan import Plan
from autograder.core.judge import judge_step
from autograder.core.child.codec import Opaque
from autograder.sandbox.runner import CallOutcome
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB as SELF
from conftest import ROOT

PLANS = {lab.name: Plan.build(lab) for lab in (SELF, MASKED)}
STEPS = [(lab, step) for lab in (SELF, MASKED) for step in lab.steps]
IDS = [f"{lab.name}-{step.name}" for lab, step in STEPS]
RARE_ERRORS = ("ValueError", "TypeError", "IndexError", "KeyError", "ZeroDivisionError", "RuntimeError",
               "numpy.linalg.LinAlgError", "SystemExit", "RecursionError", "MemoryError", "Exception")
FAILURE_KINDS = ("wrong_values", "wrong_shape", "none", "text", "number", "opaque", "nested", "nan", "huge",
                 "raised", "numpy_words", "stand_in_refused", "timeout", "crashed", "not_run", "never_called")


def answer(probe):
    return tuple(probe.expected) if len(probe.expected) > 1 else probe.expected[0]


def returned(probe, value):
    after = [None] * len(probe.args)
    return CallOutcome("returned", value=value, args_after=after)


def each_output(probe, change):
    """The right answer with `change` applied to each output's value."""
    values = [change(output, value) for output, value in zip(probe.step.outputs, probe.expected)]
    return tuple(values) if len(values) > 1 else values[0]


def _table(output, value, fill):
    if output.kind == "mapping":
        return {key: f"{fill}" for key in dict(value)}
    return np.full(np.shape(value), fill, dtype=float)


def failing(probe, kind, draw):
    """An outcome of `kind` for `probe`, never its right answer."""
    if kind == "wrong_values":
        offset = draw(st.floats(min_value=0.5, max_value=50.0))
        return returned(probe, each_output(probe, lambda o, v: {k: f"{x}!" for k, x in dict(v).items()}
                                           if o.kind == "mapping" else np.asarray(v, dtype=float) * 0 + offset))
    if kind == "wrong_shape":
        return returned(probe, each_output(probe, lambda o, v: {} if o.kind == "mapping"
                                           else np.zeros(tuple(s + 1 for s in np.shape(v)) or (2,))))
    if kind == "none":
        return returned(probe, None)
    if kind == "text":
        return returned(probe, draw(st.text(max_size=20)))
    if kind == "number":
        return returned(probe, draw(st.one_of(st.integers(), st.floats(allow_nan=True, allow_infinity=True))))
    if kind == "opaque":
        return returned(probe, Opaque(draw(st.sampled_from(["Tensor", "generator", "malformed"]))))
    if kind == "nested":
        return returned(probe, [[None, "x"], {"a": [1.0]}])
    if kind == "nan":
        return returned(probe, each_output(probe, lambda o, v: _table(o, v, float("nan"))))
    if kind == "huge":
        sign = draw(st.sampled_from([1.0, -1.0]))
        return returned(probe, each_output(probe, lambda o, v: _table(o, v, sign * 1.7e308)))
    if kind == "raised":
        return CallOutcome("raised", error={"type": draw(st.sampled_from(RARE_ERRORS)),
                                            "message": draw(st.text(max_size=40)), "frames": []})
    if kind == "numpy_words":  # the message numpy would write for a declared mistake, forged
        messages = [m for mistake in probe.step.error_mistakes for m in _messages(mistake, probe)]
        message = draw(st.sampled_from(messages)) if messages else "matmul: Input operand 1 has a mismatch"
        return CallOutcome("raised", error={"type": "ValueError", "message": message, "frames": []})
    if kind == "stand_in_refused":
        return CallOutcome("raised", error={"type": "LookupError", "message": "refused", "frames": []},
                           refused=[{"helper": "softmax", "reason": "arguments"}])
    if kind in ("timeout", "crashed", "not_run"):
        return CallOutcome(kind)
    assert kind == "never_called"
    return None


def _messages(mistake, probe):
    try:
        return [m for m in mistake.messages(probe) if isinstance(m, str)]
    except Exception:  # noqa: BLE001 (a declaration that says nothing here)
        return []


def distinct(probe, mistake):
    """The mistake's predictions on `probe` that differ from the right answer, as returned."""
    try:
        candidates = list(mistake.candidates(probe))
    except Exception:  # noqa: BLE001 (a declaration that predicts nothing here)
        return []
    found = []
    for candidate in candidates:
        if candidate is not None and not matches(probe.step.outputs, list(probe.expected), candidate):
            found.append(tuple(candidate) if len(candidate) > 1 else candidate[0])
    return found


def named_value(probe, mistakes=None):
    """A declared mistake's prediction on `probe` that the judge names from the value, or None."""
    for mistake in mistakes or probe.step.mistakes:
        for got in distinct(probe, mistake):
            case = judge.judge_call(probe, returned(probe, got), False)
            if not case.passed and mistake.code in case.matched:
                return got
    return None


def known_and_counted(plan, step):
    probes = plan.probes[step.name]
    known = _known_inputs(probes)
    # A test counts when it can tell formulas apart: not a one-word test, not a softmax saturated
    # to 0 and 1 (a hard maximum passes it too)
    counted = [not rubric.is_degenerate(p.case) and _tells_formulas_apart(p) for p in probes]
    return probes, known, counted


def verdict(step, probes, outcomes, rule=True):
    if not rule:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(judge, "mark_fitted_to_public", lambda step, probes, cases, computed=None: cases)
            return judge_step(step, probes, outcomes, "function", False)
    return judge_step(step, probes, outcomes, "function", False)


def student(plan, step, draw, right_unknown=None, named_unknown=None):
    """Outcomes of a generated student: right on the known tests (one at least among those that
    count), a failure of any kind on every other test; `right_unknown` / `named_unknown`: the index
    of an unknown test answered right / with a declared mistake's values instead."""
    probes, known, counted = known_and_counted(plan, step)
    right_known = [i for i, (k, c) in enumerate(zip(known, counted)) if k and c]
    keep = draw(st.sets(st.sampled_from(right_known), min_size=1)) if right_known else set()
    outcomes = []
    for i, probe in enumerate(probes):
        if i == right_unknown:
            outcomes.append(returned(probe, answer(probe)))
        elif i == named_unknown:
            outcomes.append(returned(probe, named_value(probe)))
        elif known[i] and (i in keep or draw(st.booleans())):
            outcomes.append(returned(probe, answer(probe)))
        elif not counted[i] and draw(st.booleans()):
            outcomes.append(returned(probe, answer(probe)))  # a one-word test: right by chance shows nothing
        else:
            outcomes.append(failing(probe, draw(st.sampled_from(FAILURE_KINDS)), draw))
    return probes, outcomes


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("lab, step", STEPS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_right_only_where_the_inputs_can_be_known_earns_nothing_whatever_the_failures(lab, step, data):
    plan = PLANS[lab.name]
    probes, known, counted = known_and_counted(plan, step)
    if not any(k and c for k, c in zip(known, counted)) or all(k or not c for k, c in zip(known, counted)):
        pytest.skip("no test both counted and known, or none both counted and unknown")
    probes, outcomes = student(plan, step, data.draw)
    result = verdict(step, probes, outcomes)
    assert result.score == 0, (result.score, result.rubric)
    unknown = [c for c, k, n in zip(result.cases, known, counted) if not k and n]
    if result.rubric["rule"] == "fitted":
        assert all(c.fitted for c in unknown)
        # The words: the grader's own observations stay; words the submission chose are "hard-coded".
        assert all(c.code in rubric.UNANSWERED | CODE_CAUSES | {"hardcoded"} for c in unknown), \
            [c.code for c in unknown]
        # The rule's sentence says when no other test gave a value at all.
        fitted = [c for c in result.cases if not c.passed and c.fitted]
        assert result.rubric["unanswered"] == all(c.code in rubric.UNANSWERED for c in fitted)
    else:  # told first by a rule that says the same (the page's numbers written in)
        assert result.rubric["rule"] == "mistake" and result.rubric["percent"] == 0


@pytest.mark.parametrize("lab, step", STEPS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_a_step_whose_own_code_is_shown_to_compute_is_never_told_fitted(lab, step, data):
    """The same students, their function shown to compute (its smallest repair keeps what it
    computes: grading.repairs.computes, judge_step's `computes`): no test is fitted or told as the
    page's numbers written in, the question is asked once at most, and where the answer is no,
    the verdict is the one given without asking."""
    plan = PLANS[lab.name]
    probes, known, counted = known_and_counted(plan, step)
    if not any(k and c for k, c in zip(known, counted)) or all(k or not c for k, c in zip(known, counted)):
        pytest.skip("no test both counted and known, or none both counted and unknown")
    probes, outcomes = student(plan, step, data.draw)
    asked = []

    def shown(answer):
        def computes(cases):
            asked.append(len(cases))
            return answer
        return computes
    result = judge_step(step, probes, outcomes, "function", False, computes=shown(True))
    assert len(asked) <= 1
    assert not any(c.fitted for c in result.cases)
    assert not any(not c.passed and c.code in ("hardcoded", "fails_off_page", "fails_off_seen") for c in result.cases)
    assert result.rubric["rule"] != "fitted" and result.rubric.get("code") != "hardcoded"
    assert judge_step(step, probes, outcomes, "function", False, computes=shown(False)) == verdict(step, probes, outcomes)


def computes(step, probes, known, free):
    """The opposite question, asked of the verdict without the rule: a counted test whose inputs
    cannot be known is right, or failed with values the judge names as a mistake."""
    named = step.named_codes() - rubric.NOTHING_COMPUTED
    return any(not k and not rubric.is_degenerate(p.case) and _tells_formulas_apart(p)
               and (c.passed or c.code == "mutates_input" or (not c.raised and c.code in named))
               for p, k, c in zip(probes, known, free.cases))


@pytest.mark.parametrize("lab, step", STEPS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_the_rule_takes_points_exactly_where_nothing_shows_a_computation(lab, step, data):
    """Students right, or making a declared mistake, on one test whose inputs they could not know
    (or on none), failing every other such test in any way: where that one test shows a
    computation, the verdict is what the judge gives without the rule; where it does not, 0."""
    plan = PLANS[lab.name]
    probes, known, counted = known_and_counted(plan, step)
    unknown = [i for i, (k, c) in enumerate(zip(known, counted)) if not k and c]
    if not unknown:
        pytest.skip("no counted test whose inputs cannot be known")
    index = data.draw(st.sampled_from(unknown))
    how = data.draw(st.sampled_from(["right", "named", "neither"]))
    probes, outcomes = student(plan, step, data.draw, right_unknown=index if how == "right" else None,
                               named_unknown=index if how == "named" and named_value(probes[index]) is not None else None)
    free, ruled = verdict(step, probes, outcomes, rule=False), verdict(step, probes, outcomes)
    if computes(step, probes, known, free):
        assert ruled == free
    else:
        assert ruled.score == 0, (ruled.score, free.score, [c.code for c in ruled.cases])


@pytest.mark.parametrize("lab, step", STEPS, ids=IDS)
def test_one_declared_mistake_everywhere_it_shows_is_judged_as_without_the_rule(lab, step):
    """The honest file the rule must not reach: right wherever its one mistake does not change the
    answer, the mistake's values wherever it does (on the public tests, or only on hidden ones)."""
    plan = PLANS[lab.name]
    probes = plan.probes[step.name]
    tried = 0
    for mistake in (m for m in step.mistakes if m.size == 1):
        values = [distinct(probe, mistake) for probe in probes]
        if not any(values):
            continue  # the mistake changes nothing on these tests
        tried += 1
        outcomes = [returned(p, v[0] if v else answer(p)) for p, v in zip(probes, values)]
        assert verdict(step, probes, outcomes) == verdict(step, probes, outcomes, rule=False), mistake.code
    assert tried or not step.mistakes


def test_a_hidden_test_that_repeats_a_public_call_is_known_call_by_call():
    """Known inputs are told per call: the page's case repeated among the hidden tests, and any
    hidden call whose arguments equal a public call's."""
    plan = PLANS["self_attention"]
    probes = plan.probes["softmax"]
    known = _known_inputs(probes)
    assert all(k for p, k in zip(probes, known) if not p.case.hidden)
    repeated = [p.case.name for p, k in zip(probes, known) if p.case.hidden and k]
    assert "hidden-6" in repeated and "hidden-2" not in repeated


LOOPS_ON_ROWS = (ROOT / "solutions" / "self_attention.py").read_text("utf-8").replace(
    "def softmax(x):\n", "def softmax(x):\n    while np.ndim(x) == 1:\n        pass\n")


def test_a_step_that_loops_on_one_public_input_has_its_hidden_tests_looked_at_and_says_why_it_earns_nothing(zygote):
    """A softmax that never ends on a single row: its public tests stop at the first row (the step's
    time is spent), and its hidden tests get their second look (driver.Clock), in which the first
    hidden table is answered. That one is a one-word test, which tells no formula apart, so nothing
    shows a computation and the step earns nothing; the rule's words say the other tests did not
    answer, never that the values were looked up."""
    from autograder.grading import grade_bytes
    from autograder.core.render.step import step_feedback
    from autograder.sandbox.limits import Limits

    assert "while np.ndim(x) == 1" in LOOPS_ON_ROWS
    limits = Limits(step_seconds=1.0, load_seconds=5.0)
    result = grade_bytes("loops.py", LOOPS_ON_ROWS.encode(), zygote, PLANS["self_attention"], limits)
    softmax = next(step for step in result.steps if step.name == "softmax")
    kinds = {(c.case, c.label): (c.passed, c.code) for c in softmax.cases}
    assert kinds[("page", "2-D")] == (True, None) and kinds[("page", "1-D")][1] == "timeout"
    assert kinds[("hidden-1", "2-D")][0]  # answered in the second look
    assert softmax.score == 0 and softmax.rubric == {"rule": "fitted", "unanswered": True}
    text = step_feedback(softmax, SELF, "ko")
    assert "시간 안에 끝나지 않았거나 실행되지 않아" in text and "hardcoded" not in text
    assert "시간 안에 끝나지 않았거나" not in step_feedback(
        next(step for step in result.steps if step.name == "scores"), SELF, "ko")
    assert all(step.status == "passed" for step in result.steps if step.name in ("make_qkv", "scores", "mix"))


def test_an_honest_step_that_raises_on_the_page_and_is_right_on_one_public_test_by_chance_is_not_told_as_written_in(zygote):
    """A score buffer made with the query heads' shape (`np.zeros_like(Qh)`): numpy raises on every
    test but the public one where d_head equals the number of words. Right only where the inputs are
    known, the step earns nothing (the fitted rule); but its own example raised too, so the errors
    are not the page's sizes written in: the words say what is seen, never "an answer that only fits
    the page" with the page's √2 as its cause (corpus_blind20)."""
    from autograder.grading import grade_bytes
    from autograder.core.render.step import step_feedback

    path = ROOT / "tests" / "corpora" / "corpus_blind20" / "lab2" / \
        "lab2__multi_head_attention__score_buffer_like_query_heads.py"
    result = grade_bytes(path.name, path.read_bytes(), zygote, PLANS["masked_attention"])
    step = next(step for step in result.steps if step.name == "multi_head_attention")
    assert step.score == 0 and "hardcoded" not in step.mistakes
    assert any(c.passed and not c.hidden for c in step.cases)
    assert not any(c.passed and c.case == "page" for c in step.cases)
    for language, written_in in (("ko", "페이지 예제를 따른 값"), ("en", "follow the page's example")):
        text = step_feedback(step, MASKED, language)
        assert written_in not in text and "√2" not in text.split("Hint")[0].split("힌트")[0], text
    assert all(other.score == other.max_score for other in result.steps if other is not step)
