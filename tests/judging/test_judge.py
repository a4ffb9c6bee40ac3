"""Verdicts from plain outcomes, no sandbox: detectors, explanation choice, scoring and status."""
import numpy as np
import pytest

from autograder.core.compare import matches
from autograder.core.predictions import named_mistakes, predicts
from labs.self_attention.cases import page_case, random_case
from autograder.grading.plan import Plan
from autograder.core.judge import judge_step
from autograder.sandbox.runner import CallOutcome
from labs.self_attention.steps import STEPS, STEPS_BY_NAME
from labs.self_attention import LAB


def answer(probe):
    """The right return value, shaped as the function returns it."""
    return probe.expected if len(probe.expected) > 1 else probe.expected[0]


def returned(probe, value, args_after=None):
    if isinstance(value, tuple) and len(probe.step.outputs) == 1:
        (value,) = value
    after = args_after if args_after is not None else [
        a.copy() if isinstance(a, np.ndarray) else a for a in probe.args]
    return CallOutcome("returned", value=value, args_after=after)


def raised(kind="ValueError", message="boom", frames=()):
    return CallOutcome("raised", error={"type": kind, "message": message, "frames": list(frames)})


def verdict(plan, step_name, outcome_of, is_stub=False):
    step = STEPS_BY_NAME[step_name]
    probes = plan.probes[step_name]
    return judge_step(step, probes, [outcome_of(p) for p in probes], "function", is_stub)


def distinct(probe, mistake):
    """The mistake's predictions that differ from the right answer."""
    return [c for c in mistake.candidates(probe)
            if not matches(probe.step.outputs, list(probe.expected), c)]


# The right answer --------------------------------------------------------------------------

@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
def test_right_answer_passes_with_no_codes(plan, step):
    result = verdict(plan, step.name, lambda p: returned(p, answer(p)))
    assert (result.status, result.score, result.mistakes) == ("passed", step.points, [])


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
def test_a_prediction_equal_to_the_answer_is_never_a_mistake(plan, step):
    """For n = 1 and for the page's d_model = d_k several predictions equal the answer."""
    coinciding = 0
    for probe in plan.probes[step.name]:
        assert named_mistakes(probe, list(probe.expected)) == []
        coinciding += sum(len(list(m.candidates(probe))) - len(distinct(probe, m)) for m in step.mistakes)
    if step.name in ("softmax", "self_attention", "mix"):
        assert coinciding > 0  # the guard above is exercised, not vacuous


# Each declared mistake, played by a simulated student -------------------------------------

def simulated_students():
    """(step, code, variant) for every way each mistake can be made on at least one case."""
    plan = Plan.build(LAB)
    params = []
    for step in STEPS:
        for mistake in step.mistakes:
            if mistake.size > 1:
                continue  # pairs: see test_a_pair_of_mistakes_gets_an_explanation_true_on_every_case
            ways = max(len(distinct(p, mistake)) for p in plan.probes[step.name])
            params += [pytest.param(step.name, mistake.code, variant,
                                    id=f"{step.name}-{mistake.code}-{variant}") for variant in range(ways)]
    return params


def simulated_pairs():
    return [pytest.param(step.name, index, id=f"{step.name}-{mistake.code}")
            for step in STEPS for index, mistake in enumerate(step.mistakes) if mistake.size > 1]


@pytest.mark.parametrize("step_name, index", simulated_pairs())
def test_a_pair_of_mistakes_gets_an_explanation_true_on_every_case(plan, step_name, index):
    """Two changes at once (the error model's pairs): the code named is the smallest one whose
    predictions reproduce the student's values on every failed case, not one true on some."""
    step = STEPS_BY_NAME[step_name]
    mistake = step.mistakes[index]
    predictions = {id(p): distinct(p, mistake) for p in plan.probes[step_name]}
    if not any(predictions.values()):
        pytest.skip("the pair changes nothing on these cases")

    def outcome(probe):
        options = predictions[id(probe)]
        return returned(probe, options[0] if options else answer(probe))
    result = verdict(plan, step_name, outcome)
    assert result.status != "passed"
    named = result.mistakes[0]
    assert named in {m.code for m in step.mistakes}, result.mistakes
    chosen = [m for m in step.mistakes if m.code == named]
    assert min(m.size for m in chosen) <= mistake.size
    for probe, case in zip(plan.probes[step_name], result.cases):
        if not case.passed:
            value = outcome(probe).value
            values = list(value) if len(step.outputs) > 1 else [value]
            assert any(predicts(probe, m, values) for m in chosen), (case.case, named)


@pytest.mark.parametrize("step_name, code, variant", simulated_students())
def test_each_mistake_is_named_alone(plan, step_name, code, variant):
    """A student making one mistake everywhere it can be made gets that code and no other."""
    step = STEPS_BY_NAME[step_name]
    mistake = next(m for m in step.mistakes if m.code == code)
    predictions = {id(p): distinct(p, mistake) for p in plan.probes[step_name]}

    def outcome(probe):
        options = predictions[id(probe)]
        return returned(probe, options[min(variant, len(options) - 1)] if options else answer(probe))
    result = verdict(plan, step_name, outcome)
    assert result.mistakes == [code]
    assert result.status == "failed" and result.score < step.points


def test_dividing_by_two_is_hardcoded_even_where_d_k_is_two(plan):
    """On a case with d_k = 2, ÷2 is also ÷d_k; the page passing rules that reading out."""
    step = STEPS_BY_NAME["self_attention"]
    probes = plan.probes["self_attention"]
    assert any(p.case.W_K.shape[1] == 2 for p in probes)

    def outcome(probe):
        weights = _softmax(probe.trace.scores / 2.0)
        return returned(probe, (weights @ probe.trace.V, weights))
    result = judge_step(step, probes, [outcome(p) for p in probes], "function", False)
    assert result.mistakes == ["hardcoded"]
    by_case = {c.case: c for c in result.cases}
    small = next(p.case.name for p in probes if p.case.W_K.shape[1] == 2)
    assert set(by_case[small].matched) >= {"scale_by_dk", "hardcoded"} or by_case[small].passed


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_column_softmax_without_max_names_both_mistakes(plan):
    def outcome(probe):
        (x,) = probe.args
        with np.errstate(all="ignore"):
            e = np.exp(x)
            return returned(probe, e / e.sum(axis=0, keepdims=True))
    result = verdict(plan, "softmax", outcome)
    # One explanation true on every case (the error model's pair), not two true in parts.
    assert result.mistakes == ["wrong_axis+unstable"]


def test_mistake_contradicted_by_a_passing_case_is_not_named(plan):
    """A value that happens to equal scale_by_dk's prediction on one case only, while cases where
    scale_by_dk would have failed passed, keeps its generic code."""
    step = STEPS_BY_NAME["self_attention"]
    probes = plan.probes["self_attention"]
    target = next(p for p in probes if p.case.name == "wide")
    mimic = next(c for m in step.mistakes if m.code == "scale_by_dk" for c in distinct(target, m))

    def outcome(probe):
        if probe is target:
            return returned(probe, mimic)
        if probe.case.name == "page":  # wrong too, so the hardcoded rule stays out of it
            output, weights = answer(probe)
            return returned(probe, (output + 1, weights))
        return returned(probe, answer(probe))
    outcomes = [outcome(p) for p in probes]
    result = judge_step(step, probes, outcomes, "function", False)
    assert result.mistakes == ["wrong_values"]


# Generic layers ---------------------------------------------------------------------------

def test_square_table_read_the_other_way_is_transposed(plan):
    result = verdict(plan, "scores", lambda p: returned(p, answer(p).T))
    assert result.mistakes == ["transposed"]


def test_non_finite_values_are_counted_and_located(plan):
    def outcome(probe):
        value = answer(probe).copy()
        value.flat[0] = np.nan
        return returned(probe, value)
    result = verdict(plan, "mix", outcome)
    assert result.mistakes == ["not_finite"]
    page = next(c for c in result.cases if c.case == "page")
    assert page.detail.not_finite.count == 1
    assert page.detail.not_finite.where.row == "나는"


def test_worst_cell_is_the_worst_wrong_cell_named_by_words(plan):
    def outcome(probe):
        value = answer(probe).copy()
        if probe.case.name == "page":
            value[1, 0] += 0.5
            value[2, 2] += 0.1
        return returned(probe, value)
    result = verdict(plan, "scores", outcome)
    page = next(c for c in result.cases if c.case == "page")
    assert page.detail.worst.cell.row == "사과를" and page.detail.worst.cell.column == "나는"
    assert page.detail.worst.difference == pytest.approx(0.5)
    assert (page.detail.mismatched, page.detail.total) == (2, 9)


def test_none_without_return_is_wrong_type_but_stub_is_not_implemented(plan):
    assert verdict(plan, "mix", lambda p: returned(p, None)).mistakes == ["wrong_type"]
    stub = verdict(plan, "mix", lambda p: returned(p, None), is_stub=True)
    assert (stub.status, stub.mistakes) == ("not_implemented", ["not_implemented"])


@pytest.mark.parametrize("step", [s for s in STEPS if len(s.outputs) > 1], ids=lambda s: s.name)
@pytest.mark.parametrize("value", [None, 3, 2.5, True, np.array(0.0)], ids=repr)
def test_a_step_of_several_outputs_given_no_container_of_them_is_a_wrong_type(plan, step, value):
    """A forgotten `return` in make_qkv (None), or one number, where the values are read the way the
    grader reads them (explanations, on the lab's vocabulary): wrong_type on those calls, never an
    exception; the calls that returned a mistake's values still name it."""
    probes = plan.probes[step.name]
    mistake = step.mistakes[0]

    def outcome(probe):
        if probe.case.name == LAB.page_case:
            return returned(probe, value)
        options = distinct(probe, mistake)
        return returned(probe, tuple(options[0]) if options else answer(probe))
    result = judge_step(step, probes, [outcome(p) for p in probes], "function", False, page=LAB.page_case,
                        vocabulary=LAB.vocabulary)
    page = [c for c in result.cases if c.case == LAB.page_case]
    assert page and all(c.code == "wrong_type" for c in page)
    assert result.status == "failed" and result.score < result.max_score
    everywhere = judge_step(step, probes, [returned(p, value) for p in probes], "function", False,
                            page=LAB.page_case, vocabulary=LAB.vocabulary)
    assert everywhere.mistakes == ["wrong_type"] and everywhere.score == 0


def test_several_outputs_stacked_in_one_array_are_a_wrong_type_on_every_reading(plan):
    """check_value reads the outputs of a step of several only from a tuple or a list; the
    explainer and the search for mistakes read them so too: the page's call returning make_qkv's
    mistaken Q, K and V stacked in one array stays a wrong type, never credited as the mistake
    the other calls' tuples show."""
    step = STEPS_BY_NAME["make_qkv"]
    probes = plan.probes[step.name]
    mistake = next(m for m in step.mistakes if all(distinct(p, m) for p in probes))

    def outcome(probe):
        predicted = tuple(distinct(probe, mistake)[0])
        return returned(probe, np.stack(predicted) if probe.case.name == LAB.page_case else predicted)
    result = judge_step(step, probes, [outcome(p) for p in probes], "function", False, page=LAB.page_case,
                        vocabulary=LAB.vocabulary)
    page = [c for c in result.cases if c.case == LAB.page_case]
    assert page and all(c.code == "wrong_type" and c.matched == [] for c in page)
    assert mistake.code in result.mistakes


def test_changing_an_input_in_place_fails_even_with_the_right_value(plan):
    def outcome(probe):
        after = [a * 0 if isinstance(a, np.ndarray) else a for a in probe.args]
        return returned(probe, answer(probe), args_after=after)
    result = verdict(plan, "softmax", outcome)
    assert result.mistakes == ["mutates_input"] and 0 < result.score < result.max_score  # every value right: most points kept


def test_missing_function_and_syntax_error():
    step = STEPS_BY_NAME["mix"]
    result = judge_step(step, [], [], "absent", False, syntax_suspect=True)
    assert (result.status, result.mistakes, result.score) == ("missing", ["missing", "syntax_error"], 0.0)
    assert judge_step(step, [], [], "int", False).defined_as == "int"


# Errors -----------------------------------------------------------------------------------

def numpy_error(action):
    try:
        action()
    except ValueError as error:
        return str(error)
    raise AssertionError("expected numpy to refuse")


@pytest.mark.parametrize("product", [np.matmul, np.dot], ids=["matmul", "dot"])
def test_untransposed_k_is_recognised_from_numpys_words(plan, product):
    def outcome(probe):
        Q, K = probe.args
        return raised(message=numpy_error(lambda: product(Q, K)))
    assert verdict(plan, "scores", outcome).mistakes == ["missing_transpose"]


def test_other_shape_errors_in_scores_stay_exceptions(plan):
    def outcome(probe):
        Q, K = probe.args
        return raised(message=numpy_error(lambda: np.matmul(Q.T, K.T)) if Q.shape[0] != Q.shape[1] else "x")
    result = verdict(plan, "scores", outcome)
    assert result.mistakes == ["exception"] and result.status == "error"


def test_not_implemented_error_counts_as_not_implemented(plan):
    result = verdict(plan, "mix", lambda p: raised("NotImplementedError", ""))
    assert (result.status, result.mistakes) == ("not_implemented", ["not_implemented"])


# Scoring and status -----------------------------------------------------------------------

def test_score_is_points_times_passed_tests_over_tests(plan):
    """softmax has two calls per case; a test is one call, so one failed call costs that test only.

    Nothing names the failure, so the score is the share of tests passed, one-word ones passed uncounted."""
    def outcome(probe):
        if probe.case.name == "page" and probe.label == "1-D":
            return returned(probe, answer(probe) * 2)
        return returned(probe, answer(probe))
    result = verdict(plan, "softmax", outcome)
    tests = len([p for p in plan.probes["softmax"] if not p.case.degenerate])
    one_word = len(plan.probes["softmax"]) - tests  # one word, or every word the same vector
    assert result.mistakes == ["wrong_values"]
    assert result.score == 2 * (tests - 1) / tests  # exact: the total is rounded once, not each step
    assert result.rubric == {"rule": "cases", "passed": tests - 1, "total": tests, "uncounted": one_word}


def test_status_precedence(plan):
    probes = plan.probes["mix"]
    first, second = probes[0], probes[1]

    def status(outcome_of):
        return verdict(plan, "mix", outcome_of).status

    def only(probe, outcome):
        return lambda p: outcome if p is probe else returned(p, answer(p))

    assert status(only(first, CallOutcome("timeout"))) == "timeout"
    assert status(only(first, CallOutcome("crashed"))) == "error"
    assert status(only(first, raised())) == "error"
    assert status(only(first, returned(first, answer(first) + 1))) == "failed"
    # A timeout outranks an error elsewhere in the step.
    mixed = lambda p: CallOutcome("timeout") if p is first else raised() if p is second else returned(p, answer(p))
    assert status(mixed) == "timeout"
    # NotImplementedError on some cases while others pass is an error, not "not implemented".
    assert status(only(first, raised("NotImplementedError", ""))) == "error"
    assert status(lambda p: CallOutcome("not_run")) == "error"


def test_hardcoded_needs_the_page_right_and_another_size_wrong(plan):
    page_answer = answer(next(p for p in plan.probes["mix"] if p.case.name == "page"))

    def fitted(probe):
        return returned(probe, page_answer)  # the page's answer written in, whatever the input
    assert verdict(plan, "mix", fitted).mistakes == ["hardcoded"]

    # Values that follow the inputs, right on the page only: told as seen, never "hard-coded";
    # the points are those of "hard-coded" all the same.
    def off_page(probe):
        return returned(probe, answer(probe) if probe.case.name == "page" else answer(probe) + 1)
    told = verdict(plan, "mix", off_page)
    assert told.mistakes == ["fails_off_page"] and told.score == verdict(plan, "mix", fitted).score == 0

    def page_wrong(probe):
        return returned(probe, answer(probe) + 1)
    assert verdict(plan, "mix", page_wrong).mistakes == ["wrong_values"]

    # Right on a public test other than the page and wrong on the page and the hidden tests, values
    # that follow the inputs: never told "right on the page's example".
    others = [p.case.name for p in plan.probes["mix"] if not p.case.hidden and p.case.name != "page"]
    assert others, "a public test beside the page"

    def off_seen(probe):
        return returned(probe, answer(probe) if probe.case.name == others[0] else answer(probe) + 1)
    assert verdict(plan, "mix", off_seen).mistakes == ["fails_off_seen"]

    same_sizes = {p.case.name for p in plan.probes["mix"]
                  if p.case.sizes() == plan.probes["mix"][0].case.sizes()} - {"page"}
    assert same_sizes, "a hidden case with the page's sizes"

    def wrong_on_same_sizes_only(probe):
        return returned(probe, answer(probe) + 1 if probe.case.name in same_sizes else answer(probe))
    assert verdict(plan, "mix", wrong_on_same_sizes_only).mistakes == ["wrong_values"]


def test_public_codes_come_before_hidden_ones(plan):
    def outcome(probe):  # transposed on a hidden test too: computed, so not fitted to the public tests
        if probe.case.hidden and probe.case.name != "hidden-2":
            return raised()
        return returned(probe, answer(probe).T) if probe.case.name != "page" else returned(probe, answer(probe))
    result = verdict(plan, "mix", outcome)
    assert result.mistakes == ["transposed", "exception"]


def test_untransposed_k_that_happens_to_multiply_is_recognised_from_its_value():
    """With as many words as key columns Q @ K runs; its value still names the mistake."""
    square = random_case("square", seed=5, n=4, d_model=3, d_k=4, hidden=False)
    probes = Plan.build(LAB, [page_case(), square]).probes["scores"]
    outcomes = [returned(p, p.args[0] @ p.args[1]) if p.case.name == "square" else raised(
        message=numpy_error(lambda: p.args[0] @ p.args[1])) for p in probes]
    result = judge_step(STEPS_BY_NAME["scores"], probes, outcomes, "function", False)
    assert result.mistakes == ["missing_transpose"]
