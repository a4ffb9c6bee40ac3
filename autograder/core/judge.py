"""Judging a step: plain outcomes of calls in, verdict data out. No I/O, no language, no formatting.

Each call's outcome is a test's result (`judge_call`): its value compared with the expected one
(autograder.core.compare: type → shape → finite → values, as in PrairieLearn's checks), then with what
each declared mistake of the step would have returned (autograder.core.predictions). The step's
verdict (`judge_step`) then reads what the calls show together (autograder.core.causes), counts the
points (autograder.core.rubric) and hands the failures no mistake names to the explainer
(autograder.core.explain).
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from . import rubric
from .case_detail import MutatedInput, Raised, RaisedError, Refusal, WrongCount
from .causes import (UNEXPLAINED, caused_by_code, choose_explanations, errors_refuted, mark_fitted_to_public,
                     mark_hardcoded, mark_observed, written_in_refuted)
from .compare import (as_array, check_array, check_mapping, container_name, describe_type, is_right,
                      matches_prepared, prepared_candidate, prepared_values, values_of)
from .explain.computes import first_known
from .explain.quantities import argument_variants, case_quantities, case_sizes, case_variants
from .explain.records import Explanation, Sample, Vocabulary, close
from .explain.search import explain, failing_kind
from .predictions import declared_mistakes_on, named_mistakes
from .tolerance import ATOL, RTOL
from .child.codec import Labelled
from .guard import piece
from .verdict import ArgumentShapes, CaseResult, Outcome, StepResult, StepStatus

if TYPE_CHECKING:
    from .case_detail import WrongValue
    from .explain.computes import Arguments, Known
    from .declaration import Case, Probe, Step

# Codes that say the function did not return a value at all.
RAISED = {"exception", "crashed", "not_implemented", "not_run"}
# Generic codes whose values the explainer reads (autograder.core.explain) when no mistake names them.
EXPLAINABLE = UNEXPLAINED | {"wrong_type", "not_finite", "fails_off_page", "fails_off_seen", "extra_unit_axes"}


def judge_step(step: Step, probes: Sequence[Probe], outcomes: Sequence[Outcome | None], defined: str, is_stub: bool,
               syntax_suspect: bool = False, page: str = "page", vocabulary: Vocabulary | None = None,
               evidence: Mapping[str, Any] | None = None,
               computes: Callable[[list[CaseResult]], bool] | None = None) -> StepResult:
    """Verdict for one step from its probes and what each call did (None: never called).

    `page` names the case whose numbers the lab page prints (answers fitted to it are told apart).
    `vocabulary` (autograder.core.explain.records.Vocabulary, the lab's) lets the explainer read failures no
    mistake names; its finding goes into the step's `explained` and changes no points.
    `evidence`: what the child says the function's code reads (protocol.plain_evidence); with the
    state each call showed (CallOutcome.state) it chooses the words of a cause, after the points
    are counted (`caused_by_code`), so it never changes them.
    `computes(cases)`: whether the student's function is shown to compute its values from its
    inputs (the grader's repair search: grading.repairs.computes), asked only where the answers
    would otherwise be taken as fitted to the page or to the public tests (causes.mark_hardcoded,
    causes.mark_fitted_to_public), once.
    """
    if defined != "function":
        mistakes = ["missing"] + (["syntax_error"] if syntax_suspect else [])
        cases = [CaseResult(case=p.case.name, hidden=p.case.hidden, label=p.label, passed=False, code="missing")
                 for p in probes]
        return StepResult(name=step.name, score=0.0, max_score=step.points, status="missing", mistakes=mistakes,
                          cases=cases, page_step=step.page_step, defined_as=defined)
    cases = [judge_call(p, o, is_stub) for p, o in zip(probes, outcomes)]
    cases = errors_refuted(step, probes, cases)
    cases = choose_explanations(step, probes, cases, outcomes)
    shown: list[bool] = []  # computes(...), once asked
    judged = cases

    def computed() -> bool:
        if not shown:
            shown.append(computes is not None and computes(judged))
        return shown[0]
    cases = written_in_refuted(cases, computed)  # a prediction of the page's numbers matched by chance
    cases = mark_hardcoded(probes, cases, page, computed)  # right on the page only: fitted to it, first
    # right only where the inputs can be known, and no computation shown elsewhere: fitted
    cases = mark_fitted_to_public(step, probes, cases, lambda: _computes_throughout(
        step, probes, cases, outcomes, vocabulary.known if vocabulary is not None else ()) or computed())
    cases = [replace(c, degenerate=True) if rubric.is_degenerate(p.case) else c for p, c in zip(probes, cases)]
    cases, ignored = mark_observed(step, probes, cases, outcomes)
    points, rule = rubric.score(step.points, cases, step.named_codes(), (),
                                step.rubric or rubric.DEFAULT)
    cases, rule, ignored, names = caused_by_code(step, probes, cases, outcomes, evidence or {}, page, rule, ignored)
    # What the values show is words about the verdict: a value no reading was written for costs
    # those words, never the verdict (an exception there is the grader's, never the student's).
    explained = (piece("what the values show", explanations, step, probes, cases, outcomes, vocabulary, page).value
                 or []) if vocabulary is not None else []
    return StepResult(name=step.name, score=points, max_score=step.points, status=_status(step, cases),
                      mistakes=mistakes_in_order(cases), cases=cases, page_step=step.page_step, rubric=rule,
                      ignored=tuple(ignored), code_evidence=None if names is None else tuple(names),
                      explained=tuple(explained),
                      argument_shapes=piece("the arguments' shapes", argument_shapes, step, probes, cases, page).value
                      or {})


def _computes_throughout(step: Step, probes: Sequence[Probe], cases: Sequence[CaseResult],
                         outcomes: Sequence[Outcome | None], known: Sequence[Known]) -> bool:
    """Whether, for every output that fails somewhere, one known function of the calls' own array
    arguments (autograder.core.explain.computes) gives the student's value on every test: the value
    returned where the test fails, the expected one where it passes. A function looked up where the
    inputs are known and computed elsewhere is no one function throughout; nor is a value that is a
    guess (one number, or whole numbers only, on every failing test)."""
    failing = [(p, c, o) for p, c, o in zip(probes, cases, outcomes) if not c.passed]
    if not failing or any(o is None or o.kind != "returned" for _, _, o in failing):
        return False
    calls = [tuple((name, value) for name, value in zip(step.params, p.args) if isinstance(value, np.ndarray))
             for p in probes]
    # Per test, the expected values and what the student's values are read as (the expected ones
    # where the test passed), once for every output.
    expected_values, got_values = [], []
    for probe, case, outcome in zip(probes, cases, outcomes):
        expected = prepared_values(step.outputs, list(probe.expected))
        if expected is None:
            return False
        returned = [] if case.passed else values_of(probe, outcome.value if outcome is not None else None)
        got = expected if case.passed else \
            prepared_values(step.outputs, returned) if len(returned) == len(step.outputs) else None
        if got is None:
            return False
        expected_values.append(expected)
        got_values.append(got)
    told = False
    for index in range(len(step.outputs)):
        wrong: list[tuple[Arguments, Any]] = []
        right: list[tuple[Arguments, Any]] = []
        for call, expected, got in zip(calls, expected_values, got_values):
            mine, theirs = got[index], expected[index]
            if mine is theirs or (isinstance(mine, np.ndarray) and isinstance(theirs, np.ndarray) and close(mine, theirs)):
                right.append((call, theirs))  # passed, or this output is right here and another one failed
            else:
                wrong.append((call, mine))
        if not wrong:
            continue
        if not any(isinstance(v, np.ndarray) and v.size > 1 and np.isfinite(v).all() and not np.all(v == np.round(v))
                   for _, v in wrong):
            return False
        with np.errstate(all="ignore"):
            if first_known(wrong, right, known) is None:
                return False
        told = True
    return told


def argument_shapes(step: Step, probes: Sequence[Probe], cases: Sequence[CaseResult], page: str) -> ArgumentShapes:
    """{hidden case: [the arguments' shapes of its first failing call (else its first call), as
    text; the arguments shaped unlike the page's call of the same kind]}: what a student may learn
    of a hidden test of this step (the arguments this step's function receives, from the
    reference's own probes; never their values)."""
    def shapes(probe: Probe) -> dict[str, tuple[int, ...]]:
        return {name: tuple(np.shape(value)) for name, value in zip(step.params, probe.args)
                if isinstance(value, np.ndarray)}
    page_shapes: dict[str, dict[str, tuple[int, ...]]] = {}
    for probe in probes:
        if probe.case.name == page:
            page_shapes.setdefault(probe.label, shapes(probe))
    chosen: dict[str, tuple[Probe, bool]] = {}
    for probe, case in zip(probes, cases):
        if probe.case.hidden and (probe.case.name not in chosen or (not case.passed and chosen[probe.case.name][1])):
            chosen[probe.case.name] = (probe, case.passed)
    found: ArgumentShapes = {}
    for name, (probe, _) in chosen.items():
        mine, page_mine = shapes(probe), page_shapes.get(probe.label) or next(iter(page_shapes.values()), {})
        found[name] = (", ".join(f"{key} {shape}" for key, shape in mine.items()),
                       tuple(key for key, shape in mine.items() if page_mine.get(key) != shape))
    return found


def step_score(points: float, cases: Sequence[CaseResult]) -> float:
    """points × tests passed / tests, exact (rubric.score with no mistake named).

    Not rounded: the total sums exact step scores and is rounded once (see SubmissionResult.score).
    """
    return rubric.score(points, cases, named=())[0]


def mistakes_in_order(cases: Iterable[CaseResult]) -> list[str]:
    """Codes in the order a student should read them: public cases first."""
    mistakes: list[str] = []
    for result in sorted(cases, key=lambda r: r.hidden):
        if not result.passed and result.code is not None and result.code != "not_run" and result.code not in mistakes:
            mistakes.append(result.code)
    return mistakes


def _status(step: Step, cases: Sequence[CaseResult]) -> StepStatus:
    failing = [c for c in cases if not c.passed]
    if not failing:
        return "passed"
    codes = {c.code for c in failing}
    if "timeout" in codes:
        return "timeout"
    only_stubs = "not_implemented" in codes and codes <= {"not_implemented", "not_run"}
    if only_stubs and not any(c.passed for c in cases):
        return "not_implemented"
    if codes & RAISED or any(isinstance(c.detail, Raised) for c in failing):
        return "error"  # a call raised (a mistake told by its error too), not only returned wrong values
    return "failed"


def judge_call(probe: Probe, outcome: Outcome | None, is_stub: bool, *, brief: bool = False) -> CaseResult:
    """A test's outcome. `brief`: whether it passed, and for a value that is wrong only the code
    "wrong_values", with no detail and no declared mistake matched (all a repair candidate's
    judgement needs: a failing search tries hundreds)."""
    base: dict[str, Any] = dict(case=probe.case.name, hidden=probe.case.hidden, label=probe.label)
    if outcome is None or outcome.kind == "not_run":
        return CaseResult(**base, passed=False, code="not_run")
    if outcome.kind in ("timeout", "crashed"):
        return CaseResult(**base, passed=False, code=outcome.kind, raised=True)
    refused = getattr(outcome, "refused", None)
    if outcome.kind == "raised" and refused:
        # The grader's own record: a stand-in was asked something the reference never asks it.
        return CaseResult(**base, passed=False, code="stand_in_refused", raised=True,
                          detail=Raised(error=RaisedError.of_call(outcome.error),
                                        refused=Refusal.from_data(refused[0])))
    if outcome.kind == "raised":
        return CaseResult(**base, passed=False, code=_code_for_error(probe, outcome.error), raised=True,
                          detail=Raised(error=RaisedError.of_call(outcome.error)))
    if outcome.value is None and is_stub:
        return CaseResult(**base, passed=False, code="not_implemented")
    passed, code, detail, matched = check_value(probe, outcome.value, brief=brief)
    if passed:
        mutated = _mutated_argument(probe, outcome.args_after)
        if mutated is not None:
            name, reshaped = mutated
            return CaseResult(**base, passed=False, code="mutates_input",
                              detail=MutatedInput(argument=name, reshaped=reshaped))
        return CaseResult(**base, passed=True)
    if brief:
        return CaseResult(**base, passed=False, code=code)
    mutated = _mutated_argument(probe, outcome.args_after)
    if mutated is not None and detail is not None:  # an input overwritten on the way: later lines read it changed
        detail = replace(detail, changed_input=mutated[0])
    return CaseResult(**base, passed=False, code=matched[0] if matched else code, detail=detail,
                      matched=matched, fallback=code, answer=answer_digest(outcome.value))


ANSWER_DECIMALS = 9  # wrong answers equal to 1e-9 are one answer


def answer_digest(value: object) -> str | None:
    """A short hash of a returned value (numbers rounded to 1e-9, -0.0 as 0.0): equal for equal
    answers, and saying nothing about the value itself. None when the value cannot be read."""
    import hashlib

    def canonical(item: object, depth: int = 0) -> object:
        if depth > 8:
            return "deep"
        if isinstance(item, Labelled):
            return ["labelled", item.kind, canonical(item.values, depth + 1), canonical(item.index, depth + 1),
                    canonical(item.columns, depth + 1)]
        if isinstance(item, (bool, str, type(None))):
            return item
        array = as_array(item) if not isinstance(item, dict) else None
        if array is not None:
            rounded = np.round(array, ANSWER_DECIMALS) + 0.0
            return ["array", list(array.shape), hashlib.sha256(np.ascontiguousarray(rounded).tobytes()).hexdigest()]
        if isinstance(item, dict):
            return ["dict", sorted((repr(canonical(k, depth + 1)), canonical(v, depth + 1)) for k, v in item.items())]
        if isinstance(item, (list, tuple)):
            return [type(item).__name__, [canonical(x, depth + 1) for x in item]]
        if isinstance(item, np.ndarray):
            return ["ndarray", str(item.dtype), repr(item.tolist())[:10000]]
        return type(item).__name__

    try:
        with np.errstate(all="ignore"):
            text = repr(canonical(value))
    except Exception:  # noqa: BLE001 (a value this cannot read has no digest)
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _code_for_error(probe: Probe, error: object) -> str:
    kind = error.get("type") if isinstance(error, dict) else None
    if kind == "NotImplementedError":
        return "not_implemented"
    message = error.get("message") if isinstance(error, dict) else None
    if isinstance(message, str) and declared_mistakes_on():
        for mistake in probe.step.error_mistakes:
            if any(kind == type_name and re.search(pattern, message)
                   for type_name, pattern in mistake.messages(probe)):
                return mistake.code
    return "exception"


def check_value(probe: Probe, value: object, *, brief: bool = False
                ) -> tuple[bool, str | None, WrongValue | None, list[str]]:
    """(passed, generic code, detail, named mistakes the value matches); `brief`: see judge_call."""
    outputs = probe.step.outputs
    if len(outputs) > 1:
        if not isinstance(value, (tuple, list)) or len(value) != len(outputs):
            return False, "wrong_type", WrongCount(got=describe_type(value), expected_count=len(outputs),
                                                   names=tuple(o.name for o in outputs)), []
        values = list(value)
    else:
        values = [value]
    if brief:
        right = all(is_right(output, got, expected) for output, got, expected in zip(outputs, values, probe.expected))
        return right, None if right else "wrong_values", None, []
    failures: list[tuple[str | None, WrongValue | None]] = []
    for output, got, expected in zip(outputs, values, probe.expected):
        check = check_mapping if output.kind == "mapping" else check_array
        ok, code, detail = check(probe, output, got, expected)
        if not ok:
            failures.append((code, detail))  # each check names the output in its detail
    if not failures:
        return True, None, None, []
    code, detail = failures[0]
    return False, code, detail, named_mistakes(probe, values)


def _mutated_argument(probe: Probe, args_after: Sequence[object] | None) -> tuple[str, bool] | None:
    """(name, reshaped) of the first argument the call changed, `reshaped` when an array kept its
    numbers in their order and only its shape changed (`M.shape = ...`, `M.resize`); None when
    none changed. None in `args_after` stands for "left as it was"."""
    for name, before, after in zip(probe.step.params, probe.args, args_after or []):
        if after is None:
            continue
        if isinstance(before, np.ndarray):
            after = as_array(after)
            if after is None or after.shape != before.shape or not np.array_equal(after, before, equal_nan=True):
                reshaped = after is not None and after.shape != before.shape and after.size == before.size \
                    and np.array_equal(after.reshape(-1), before.reshape(-1), equal_nan=True)
                return name, bool(reshaped)
        elif isinstance(before, (list, tuple)):  # the words
            if not isinstance(after, (list, tuple)) or len(after) != len(before) \
                    or any(type(a) is not str or a != b for a, b in zip(after, before)):
                return name, False
    return None


def explanations(step: Step, probes: Sequence[Probe], cases: Sequence[CaseResult], outcomes: Sequence[Outcome | None],
                 vocabulary: Vocabulary, page: str | None = None) -> list[dict[str, Any]]:
    """What the values of a step's unnamed failures show (autograder.core.explain), per output, as plain
    data: [] when no failure is left to a generic code, or nothing is found.

    Only failures whose code is generic are read (a named mistake keeps its words), beside every
    passing call (they rule formulas out). Nothing here changes a code, so points stay as judged.
    """
    if not any(not c.passed and c.code in EXPLAINABLE for c in cases):
        return []
    # Kinds are told per call: the case's kinds, and the call's label ("1-D") as one more.
    failed = {_call_key(p) for p, c in zip(probes, cases) if not c.passed}
    kinds: dict[str, tuple[str, ...]] = {}
    for probe in probes:
        try:
            declared = tuple(vocabulary.kinds(probe.case)) if vocabulary.kinds is not None else ()
        except Exception:  # a lab's faulty declaration names nothing; it must never cost a grade
            declared = ()
        kinds[_call_key(probe)] = declared + ((probe.label,) if probe.label else ())
    kind = failing_kind(failed, set(kinds), kinds) or _failing_label(probes, cases)
    public_failed = [c for p, c in zip(probes, cases)
                     if not c.passed and not p.case.hidden and not rubric.is_degenerate(p.case)]
    if public_failed and all(c.raised for c in public_failed):
        # The student sees an error on every public test that fails: that error is the thing to
        # fix, and values a hidden test returned by chance (np.split cutting other sizes evenly)
        # would read as a cause of their own. Only the kind of test that fails is told.
        return [dataclasses.asdict(Explanation(output=step.outputs[0].name, relation="kind_only",
                                                       params={"kind": kind}))] if kind else []
    samples: dict[int, list[Sample]] = {index: [] for index in range(len(step.outputs))}
    page_case = next((p.case for p in probes if p.case.name == page), None)
    for probe, result, outcome in zip(probes, cases, outcomes):
        if not result.passed and (result.code not in EXPLAINABLE or outcome is None or outcome.kind != "returned"):
            continue
        _add_samples(samples, probe, result, outcome, vocabulary, page_case)
    if len(step.outputs) > 1 and _cut_elsewhere([samples[i] for i in range(len(step.outputs))]):
        params: dict[str, Any] = {"kind": kind} if kind else {}
        return [dataclasses.asdict(Explanation(
            output=", ".join(o.name for o in step.outputs), relation="cut_elsewhere", params=params))]
    found = []
    reference = (vocabulary.functions or {}).get(step.name)
    for index, output in enumerate(step.outputs):
        try:
            with np.errstate(all="ignore"):
                explanation = explain(output.name, samples[index], kind, vocabulary.known, reference, index)
        except Exception:  # values no relation can read name nothing; never a crash in judging
            explanation = None
        if explanation is not None:
            found.append(dataclasses.asdict(explanation))
    return found


def _cut_elsewhere(per_output: Sequence[Sequence[Sample]]) -> bool:
    """Whether, on every failing call, a step's array outputs joined along their last axis are the
    expected ones joined so, with other widths: the right numbers cut at other places (three equal
    parts where the widths differ)."""
    failing = [k for k, sample in enumerate(per_output[0]) if not sample.passed]
    if not failing:
        return False
    for k in failing:
        got = [samples[k].got for samples in per_output]
        expected = [samples[k].expected for samples in per_output]
        if not all(isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.ndim == b.ndim >= 1
                   and a.shape[:-1] == b.shape[:-1] for a, b in zip(got, expected)) \
                or len({a.ndim for a in (*got, *expected)}) != 1 or len({a.shape[:-1] for a in got}) != 1:
            return False  # (outputs of other numbers of axes, or rows, are not one table cut in parts)
        if [a.shape for a in got] == [b.shape for b in expected]:
            return False
        joined, want = np.concatenate(got, axis=-1), np.concatenate(expected, axis=-1)
        if joined.shape != want.shape or not np.allclose(joined, want, rtol=RTOL, atol=ATOL):
            return False
    return True


def _failing_label(probes: Sequence[Probe], cases: Sequence[CaseResult]) -> str | None:
    """The one call label ("1-D") every failing call has, when calls of other labels all pass
    (some calls of that label may pass too: a one-word input is right either way); else, when the
    failing calls are all those whose first array argument has one number of axes, that ("3-D"):
    every call of that number of axes fails but those the lab declares too small to tell (a
    number of axes that only some failing inputs need is no cause: a mask that is not causal,
    tried in 3-D only, is the cause there)."""
    labels = {p.label for p, c in zip(probes, cases) if not c.passed}
    if len(labels) == 1 and None not in labels and "" not in labels:
        return labels.pop() if any(c.passed and p.label not in labels for p, c in zip(probes, cases)) else None
    ndims = {_first_array_ndim(p) for p, c in zip(probes, cases) if not c.passed}
    if len(ndims) != 1 or None in ndims:
        return None
    ndim = ndims.pop()
    if all(c.passed for p, c in zip(probes, cases) if _first_array_ndim(p) != ndim) and \
            any(c.passed for p, c in zip(probes, cases) if _first_array_ndim(p) != ndim) and \
            not any(c.passed and not rubric.is_degenerate(p.case) for p, c in zip(probes, cases)
                    if _first_array_ndim(p) == ndim):
        return f"{ndim}-D"
    return None


def _first_array_ndim(probe: Probe) -> int | None:
    return next((a.ndim for a in probe.args if isinstance(a, np.ndarray)), None)


def _add_samples(samples: dict[int, list[Sample]], probe: Probe, result: CaseResult, outcome: Outcome | None,
                 vocabulary: Vocabulary, page_case: Case | None = None) -> None:
    """One Sample per output of a call (passing calls as passing samples)."""
    outputs = probe.step.outputs
    expected = prepared_values(outputs, list(probe.expected))
    if result.passed:
        values, got = list(probe.expected), expected
    else:
        # A failed call is read only when it returned (see explanations); a dict's keys are no outputs.
        values = values_of(probe, outcome.value if outcome is not None else None)
        if len(values) != len(outputs):
            return  # not as many values as outputs: told by "wrong_count", nothing to read
        got = prepared_values(outputs, values)
    if got is None or expected is None:
        return  # a probe without one expected value per output: nothing to read
    quantities = case_quantities(probe.case, probe.trace, vocabulary, zip(probe.step.params, probe.args))
    sizes = case_sizes(probe.case, probe.trace, vocabulary)
    variants = case_variants(probe.case, page_case, vocabulary)
    variants = {**variants, **argument_variants(probe.step.name, probe.step.params, probe.args,
                                                        [o.name for o in outputs], expected, vocabulary,
                                                        probe.case, probe.label)}
    arguments = tuple(zip(probe.step.params, probe.args))
    for index, output in enumerate(outputs):
        passed = result.passed or matches_prepared(
            [output], [got[index]], prepared_candidate([output], [probe.expected[index]]))
        samples[index].append(Sample(
            case=_call_key(probe), hidden=probe.case.hidden,
            passed=passed, got=got[index], got_type=container_name(values[index]),
            expected=expected[index], quantities=quantities, sizes=sizes, labels=tuple(probe.case.words),
            variants=variants, arguments=arguments))


def _call_key(probe: Probe) -> str:
    return probe.case.name + (f"/{probe.label}" if probe.label else "")
