"""The rubric: how points follow from a verdict, declared as data beside the steps."""
import numpy as np
import pytest

from autograder.core import rubric
from autograder.core.verdict import CaseResult
from labs.self_attention.steps import STEPS, STEPS_BY_NAME
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB as SELF_ATTENTION
from test_judge import answer, distinct, returned, verdict


def making(code):
    """Outcome of a student who makes `code` wherever it shows, and is right elsewhere."""
    def outcome(probe):
        mistake = next(m for m in probe.step.mistakes if m.code == code)
        wrong = distinct(probe, mistake)
        return returned(probe, wrong[0] if wrong else answer(probe))
    return outcome


def test_page_fitted_scale_never_scores_above_a_principled_near_miss(plan):
    fitted = verdict(plan, "self_attention", making("hardcoded"))
    near_misses = [verdict(plan, "self_attention", making(code))
                   for code in ("scale_by_dk", "scale_after_softmax", "missing_scale")]
    assert fitted.mistakes == ["hardcoded"] and fitted.score == 0
    for near in near_misses:
        assert near.score > 0 and fitted.score <= near.score, near.mistakes


def test_wrong_formulas_score_alike_however_many_cases_they_happen_to_pass(plan):
    """Dividing by d_k is right where d_k = 1 and the hard-coded /2 where d_k = 4: neither buys points."""
    scores = {verdict(plan, "self_attention", making(code)).score
              for code in ("scale_by_dk", "scale_after_softmax", "missing_scale")}
    assert len(scores) == 1


def test_mutating_an_input_keeps_most_points(plan):
    def outcome(probe):
        after = [a * 0 if isinstance(a, np.ndarray) else a for a in probe.args]
        return returned(probe, answer(probe), args_after=after)
    result = verdict(plan, "mix", outcome)
    assert result.mistakes == ["mutates_input"]
    assert result.max_score / 2 < result.score < result.max_score
    assert result.rubric["rule"] == "mistake"


def test_a_degenerate_case_alone_earns_no_credit(plan):
    """mix returning V is right on the one-word case: that alone is worth nothing."""
    def outcome(probe):
        return returned(probe, answer(probe) if len(probe.case.words) == 1 else answer(probe) * 3)
    result = verdict(plan, "mix", outcome)
    assert result.score == 0
    assert result.rubric["rule"] == "cases"


def test_every_lab_step_is_graded_by_the_rubric(plan):
    for step in STEPS:
        result = verdict(plan, step.name, lambda p: returned(p, answer(p)))
        assert result.score == step.points and result.rubric == {"rule": "passed"}


def case(name, passed, code=None):
    return CaseResult(case=name, hidden=False, label="", passed=passed, code=code)


def test_unknown_failure_scores_the_share_of_non_degenerate_cases_passed():
    cases = [case("a", True), case("b", False, "wrong_values"), case("one", True), case("c", True)]
    points, rule = rubric.score(3, cases, degenerate={"one"})
    assert points == 2 and rule == {"rule": "cases", "passed": 2, "total": 3, "uncounted": 1}


def test_a_failed_degenerate_case_costs_its_share():
    """(x).squeeze() is wrong on one word only: it loses that case's share, not nothing."""
    cases = [case("a", True), case("b", True), case("one", False, "wrong_shape")]
    points, rule = rubric.score(3, cases, degenerate={"one"})
    assert points == 2 and rule == {"rule": "cases", "passed": 2, "total": 3}


def test_a_named_mistake_takes_its_declared_share_and_the_harshest_wins():
    cases = [case("a", False, "mutates_input"), case("b", False, "scale_by_dk")]
    points, rule = rubric.score(4, cases, named={"mutates_input", "scale_by_dk"})
    assert points == 4 * rubric.FORMULA_SHARE and rule["code"] == "scale_by_dk"


def test_a_named_mistake_beside_an_unexplained_failure_is_graded_by_cases():
    cases = [case("a", False, "unstable"), case("b", False, "wrong_values"), case("c", True)]
    points, rule = rubric.score(2, cases, named={"unstable"})
    assert (points, rule["rule"]) == (2 / 3, "cases")


def test_an_instructor_declared_share_overrides_the_default():
    stingy = rubric.Rubric(shares={"unstable": 0.1}, formula=0.5)
    cases = [case("a", False, "unstable")]
    assert rubric.score(10, cases, named={"unstable"}, rubric=stingy)[0] == 1
    assert rubric.score(10, [case("a", False, "other")], named={"other"}, rubric=stingy)[0] == 5


@pytest.mark.parametrize("step", list(SELF_ATTENTION.steps) + list(MASKED.steps), ids=lambda s: s.name)
def test_defaults_order_the_shares_as_declared(step):
    """Every step of a lab is graded by the lab's rubric (or its own), which gives the lab's codes their shares."""
    r = step.rubric
    assert r.share_of("hardcoded") == 0 < r.share_of("some_formula") < r.share_of("unstable") < r.share_of("mutates_input") < 1


def test_the_engines_defaults_hold_no_labs_codes():
    """A lab's own mistakes get their shares from the lab: the engine's defaults name only its own codes."""
    assert set(rubric.DEFAULT_SHARES) <= rubric.ALWAYS_NAMED
    assert rubric.DEFAULT.share_of("unstable") == rubric.FORMULA_SHARE


def test_only_a_case_the_lab_marks_is_degenerate():
    """One word is the attention labs' degenerate case, declared by them; the engine counts no words."""
    from autograder.core.declaration import Case

    assert not rubric.is_degenerate(Case(name="one", words=("w",), inputs={}))
    assert rubric.is_degenerate(Case(name="one", words=("w",), inputs={}, degenerate=True))
    for lab in (SELF_ATTENTION, MASKED):
        for case in lab.all_cases():
            # one word, or (lab 1's hidden-7) every word the same vector: what the lab marks
            assert rubric.is_degenerate(case) == case.degenerate, (lab.name, case.name)
            assert case.degenerate == (len(case.words) == 1 or len({row.tobytes() for row in case.X}) == 1)


@pytest.mark.parametrize("lang, words", [("ko", "채점 기준"), ("en", "Grading rule")])
def test_feedback_states_the_rule_applied(plan, lang, words):
    from autograder.core.render.step import step_feedback
    from labs.self_attention import LAB

    def outcome(probe):
        after = [a * 0 if isinstance(a, np.ndarray) else a for a in probe.args]
        return returned(probe, answer(probe), args_after=after)
    named = step_feedback(verdict(plan, "mix", outcome), LAB, lang)
    assert words in named and "80%" in named
    unknown = step_feedback(verdict(plan, "mix", lambda p: returned(p, answer(p) * 3)), LAB, lang)
    assert words in unknown and "0" in unknown.splitlines()[-1]
    passed = step_feedback(verdict(plan, "mix", lambda p: returned(p, answer(p))), LAB, lang)
    assert words not in passed


def test_the_public_view_states_the_rule_on_public_tests_only(plan):
    from autograder.grading.plan import PUBLIC
    from autograder.core.judge import judge_step

    def outcome(probe):
        return returned(probe, answer(probe) if probe.case.hidden else answer(probe) * 3)
    result = verdict(plan, "mix", outcome)
    probes = [plan.calls[1][i] for i in plan.call_ids("mix", PUBLIC)]
    public = judge_step(STEPS_BY_NAME["mix"], probes, [outcome(p) for p in probes], "function", False)
    assert result.rubric["total"] > public.rubric["total"]
    assert public.rubric["passed"] == 0 and public.score == 0