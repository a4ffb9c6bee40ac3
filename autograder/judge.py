"""Judging: plain outcomes of calls in, verdict data out. No I/O, no language, no formatting.

Layers, as in PrairieLearn's checks: type → shape → finite → values. A failed value is then
compared with what each known mistake of the step would have returned; a mistake is named only
when the value matches its prediction and the prediction differs from the right answer.
"""
from __future__ import annotations

import dataclasses
import itertools
import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

from . import explain, rubric
from .sandbox.codec import Labelled, Opaque, clean_text
from .error_model import parts
from .guard import SafeText, safe_name
from .reading.problems import as_detail
from .verdict import (ArgumentShapes, CaseResult, FollowsOwnHelpers, HelperUse, Redefined, StepResult, StepStatus,
                      SubmissionResult)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from .declaration import Mistake, Output, Probe, Step
    from .lab import Case, Lab

    FloatArray = NDArray[np.float64]

RTOL = 1e-4  # loose enough for float32 work, tight enough for every mistake in the catalog
ATOL = 1e-6
PREVIEW = 6  # rows and columns shown of an array at most
PICTURE_SIDE, PICTURE_TABLES = 12, 4  # the largest public tables whose values a failure keeps
# Codes that say the function did not return a value at all.
RAISED = {"exception", "crashed", "not_implemented", "not_run"}
# Codes that only say "wrong" without naming why: the hardcoded rule may explain them.
UNEXPLAINED = {"wrong_values", "wrong_shape"}
# Generic codes whose values the explainer reads (autograder.explain) when no mistake names them.
EXPLAINABLE = UNEXPLAINED | {"wrong_type", "not_finite", "fails_off_page", "extra_unit_axes"}
# "off" turns every declared mistake (the labs' Mistakes and ErrorMistakes) off: only to measure
# what the explainer names alone (benchmarks/explain_corpora.py). Grades then differ; never grade so.
DECLARED_MISTAKES_SWITCH = "AUTOGRADER_DECLARED_MISTAKES"


class Outcome(Protocol):
    """What one call did, as the judge reads it: the sandbox's CallOutcome and the students' kit's
    own Outcome alike. Their records of stand-ins (`refused`, `stood_in`) and of state kept
    (`state`) are read with getattr: an outcome without them has none."""

    @property
    def kind(self) -> str: ...  # "returned" | "raised" | "timeout" | "crashed" | "not_run"

    @property
    def value(self) -> object: ...  # the decoded value it returned (sandbox.codec): untrusted

    @property
    def args_after(self) -> Sequence[object] | None: ...  # per argument: its value after the call, None if unchanged

    @property
    def error(self) -> object: ...  # what it raised (describe_exception's dict)


def declared_mistakes_on() -> bool:
    """Whether the labs' declared mistakes are searched: the one place the switch is read."""
    return os.environ.get(DECLARED_MISTAKES_SWITCH, "on").strip().lower() != "off"


def judge_step(step: Step, probes: Sequence[Probe], outcomes: Sequence[Outcome | None], defined: str, is_stub: bool,
               syntax_suspect: bool = False, page: str = "page", vocabulary: explain.Vocabulary | None = None,
               evidence: Mapping[str, Any] | None = None) -> StepResult:
    """Verdict for one step from its probes and what each call did (None: never called).

    `page` names the case whose numbers the lab page prints (answers fitted to it are told apart).
    `vocabulary` (autograder.explain.Vocabulary, the lab's) lets the explainer read failures no
    mistake names; its finding goes into the step's `explained` and changes no points.
    `evidence`: what the child says the function's code reads (protocol.plain_evidence); with the
    state each call showed (CallOutcome.state) it chooses the words of a cause, after the points
    are counted (`_caused_by_code`), so it never changes them.
    """
    if defined != "function":
        mistakes = ["missing"] + (["syntax_error"] if syntax_suspect else [])
        cases = [CaseResult(case=p.case.name, hidden=p.case.hidden, label=p.label, passed=False, code="missing")
                 for p in probes]
        return StepResult(name=step.name, score=0.0, max_score=step.points, status="missing", mistakes=mistakes,
                          cases=cases, page_step=step.page_step, defined_as=defined)
    cases = [judge_call(p, o, is_stub) for p, o in zip(probes, outcomes)]
    cases = _errors_refuted(step, probes, cases)
    cases = _choose_explanations(step, probes, cases, outcomes)
    cases = _mark_hardcoded(probes, cases, page)  # right on the page only: fitted to it, first
    cases = _mark_fitted_to_public(step, probes, cases)  # right only where the inputs can be known: fitted
    cases, ignored = _mark_observed(step, probes, cases, outcomes)
    cases = [replace(c, degenerate=True) if rubric.is_degenerate(p.case) else c for p, c in zip(probes, cases)]
    points, rule = rubric.score(step.points, cases, step.named_codes(), (),
                                step.rubric or rubric.DEFAULT)
    cases, rule, ignored, names = _caused_by_code(step, probes, cases, outcomes, evidence or {}, page, rule, ignored)
    explained = explanations(step, probes, cases, outcomes, vocabulary, page) if vocabulary is not None else []
    return StepResult(name=step.name, score=points, max_score=step.points, status=_status(step, cases),
                      mistakes=_mistakes(cases), cases=cases, page_step=step.page_step, rubric=rule,
                      ignored=tuple(ignored), code_evidence=None if names is None else tuple(names),
                      explained=tuple(explained), argument_shapes=argument_shapes(step, probes, cases, page))


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


def linked(step: Step, result: StepResult, others: Mapping[str, StepResult]) -> StepResult:
    """`result` of a composed step, its mistake renamed when it is the other half of a helper's
    (see declaration.Link); `others` maps step names to their results."""
    failing = [c for c in result.cases if not c.passed]
    for link in step.links:
        helper = others.get(link.helper)
        if helper is None or link.helper_code not in helper.mistakes:
            continue
        if failing and all(c.code == link.code for c in failing):
            return _failures_named(step, result, link.becomes)
    return result


def helpers_used(calls: Sequence[str], passing: Collection[str], outcomes: Iterable[Outcome | None] | None = None,
                 reachable: Iterable[str] = ()) -> HelperUse:
    """For a composed step's `helpers`: of the steps it `calls` (its declaration, each named once),
    which ran as the student wrote them (their steps pass: `own`), which the grader's
    stand-ins answered (`reference`), and which did not pass but were never called
    (`unused`); `nested_reference`: steps it reaches only through its callees
    that stand-ins answered inside the student's own. Asked means the calls' own record of it
    (`outcomes`); without outcomes, every callee that did not pass counts as answered."""
    asked = None if outcomes is None else {name for o in outcomes if o is not None
                                           for name in [*getattr(o, "stood_in", ()),
                                                        *(r["helper"] for r in getattr(o, "refused", ()))]}
    missed = [h for h in calls if h not in passing]
    return HelperUse(own=tuple(h for h in calls if h in passing),
                     reference=tuple(h for h in missed if asked is None or h in asked),
                     unused=tuple(h for h in missed if asked is not None and h not in asked),
                     nested_reference=tuple(h for h in reachable if h not in calls and h not in passing
                                            and asked is not None and h in asked))


def with_file_facts(result: StepResult, found: Mapping[str, Any]) -> StepResult:
    """`result` with what the file itself shows of the step's function (submission.file_detail:
    "under_main", "similar", "redefined"), as the verdict's typed fields."""
    if not found:
        return result
    place = found.get("redefined")
    redefined = Redefined(graded=(str(place["graded"][0]), int(place["graded"][1])),
                          others=tuple((str(name), int(line)) for name, line in place["others"])) if place else None
    return replace(result, under_main=bool(found.get("under_main")) or result.under_main,
                   similar=found.get("similar") or result.similar, redefined=redefined or result.redefined)


def fits_own_helpers(step: Step, result: StepResult, with_own: StepResult) -> StepResult:
    """`result` of a composed step that failed with the reference standing in for some helpers;
    `with_own`, the same step run with every helper the student's own. The step is graded on what
    it returns, whichever way earns more: calling the lab's own step functions never costs points,
    and a helper's own convention or mistake is charged once, in the helper's step.

    Right on every test only with its own helpers, the step passes; its verdict keeps what it
    follows (`follows_own_helpers`: a declared Link's name, else "fits_own_helpers", and the
    helpers) for the words. Better but not right that way, it is told as its own helpers made it.
    """
    if result.status in ("passed", "missing") or with_own.status == "missing" or with_own.score <= result.score:
        return result
    used, own_used = result.helpers or HelperUse(), with_own.helpers or HelperUse()
    helpers = replace(own_used, own=used.own + used.reference, reference=())
    if with_own.status == "passed":
        follows = next((link.becomes for link in step.links if link.becomes in result.mistakes), "fits_own_helpers")
        return replace(with_own, helpers=helpers, follows_own_helpers=FollowsOwnHelpers(code=follows,
                                                                                        helpers=used.reference))
    return replace(with_own, helpers=helpers)


def _failures_named(step: Step, result: StepResult, code: str) -> StepResult:
    """`result` with every failed case named `code`, and scored again by the step's rubric."""
    cases = [replace(c, code=code) if not c.passed else c for c in result.cases]
    points, rule = rubric.score(step.points, cases, step.named_codes(), (), step.rubric or rubric.DEFAULT)
    return replace(result, cases=cases, mistakes=_mistakes(cases), score=points, rubric=rule)


def step_score(points: float, cases: Sequence[CaseResult]) -> float:
    """points × tests passed / tests, exact (rubric.score with no mistake named).

    Not rounded: the total sums exact step scores and is rounded once (see SubmissionResult.score).
    """
    return rubric.score(points, cases, named=())[0]


def _mistakes(cases: Iterable[CaseResult]) -> list[str]:
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
    if codes & RAISED or any("error" in c.detail for c in failing):
        return "error"  # a call raised (a mistake told by its error too), not only returned wrong values
    return "failed"


def _choose_explanations(step: Step, probes: Sequence[Probe], cases: list[CaseResult],
                         outcomes: Sequence[Outcome | None] | None = None) -> list[CaseResult]:
    """Name each failed call's mistake from the predictions its value matched.

    A mistake is unlikely when a call that passed would have failed under it (the student got
    that case right, so they did not make it). Among the likely ones, the mistake explaining most
    failed calls wins, then the smaller one (a single change before a pair), then the order of
    the step's declaration; with none left, the generic code stays.
    """
    if not any(c.matched for c in cases):
        return cases
    if outcomes is not None:
        cases = _matched_everywhere(step, probes, cases, outcomes)
    order = list(dict.fromkeys(m.code for m in step.mistakes))
    size: dict[str, int] = {}
    for mistake in step.mistakes:
        size.setdefault(mistake.code, mistake.size)
    support = {code: sum(code in c.matched for c in cases) for code in order}
    passing = [p for p, c in zip(probes, cases) if c.passed]
    candidates = {code for c in cases for code in c.matched}
    # A code is unlikely when every way of making it fails a call that passed, or when it explains
    # only one-word tests while larger ones failed too (on one word, unlike formulas agree).
    unlikely = {code for code in candidates
                if all(any(_would_fail(p, m) for p in passing) for m in step.mistakes if m.code == code)}
    degenerate = [rubric.is_degenerate(p.case) for p in probes]
    if not all(d for d, c in zip(degenerate, cases) if not c.passed):
        unlikely |= {code for code in candidates
                     if not any(code in c.matched for d, c in zip(degenerate, cases) if not d)}
    # A code is refuted by a failed call of a public test that returned other wrong values than
    # every way of making it predicts there (it would have shown itself on that call, and did
    # not; hidden tests may show a second slip beside it): on the page's sizes
    # √2·√2 = √4 makes a divisor twice too large look like √d_model, while a wider test tells them apart.
    unlikely |= {code for code in candidates if any(
        _refutes(p, c, code, step) for p, c, d in zip(probes, cases, degenerate) if not d and not p.case.hidden)}
    # nan or inf a code predicts on one test is not its doing when a public test it gets right
    # shows nan or inf too (0 × -inf in a mask: every test has nan, only one also overflows).
    unlikely |= {code for code in candidates if any(
        not c.passed and not p.case.hidden and not d and c.code == "not_finite" and code not in c.matched
        and all(not _would_fail(p, m) for m in step.mistakes if m.code == code)
        for p, c, d in zip(probes, cases, degenerate))}
    chosen: list[CaseResult] = []
    for result in cases:
        if result.matched:
            likely = [code for code in result.matched if code not in unlikely]
            code = min(likely, key=lambda code: (-support[code], size[code], order.index(code))) \
                if likely else result.fallback
            result = replace(result, code=code)
        chosen.append(result)
    return chosen


def _errors_refuted(step: Step, probes: Sequence[Probe], cases: list[CaseResult]) -> list[CaseResult]:
    """Cases whose error message named a mistake (ErrorMistake), told as plain errors when a call
    of a public test (not a one-word one) raised another error where that mistake would have raised
    its own message: one slip raises alike on every test, and a message alike by chance (the same
    sizes in another product, on a hidden test's sizes) names nothing."""
    codes = {m.code: m for m in step.error_mistakes}
    told = {c.code for c in cases if c.code in codes}
    if not told:
        return cases
    refuted = set()
    for code in told:
        for probe, result in zip(probes, cases):
            if result.passed or result.code == code or "error" not in result.detail or probe.case.hidden \
                    or rubric.is_degenerate(probe.case):
                continue
            try:
                expected = list(codes[code].messages(probe))
            except Exception:  # a lab's faulty declaration names nothing
                expected = []
            if expected:
                refuted.add(code)
                break
    return [replace(c, code="exception") if c.code in refuted else c for c in cases]


def _refutes(probe: Probe, result: CaseResult, code: str, step: Step) -> bool:
    """Whether a failed call that returned wrong values (no error) rules `code` out: no match of
    it or of a pair holding it, and every mistake of that code predicts a wrong value there."""
    if result.passed or (result.fallback or result.code) not in UNEXPLAINED or "error" in result.detail or \
            any(code == matched or code in parts(matched) for matched in result.matched):
        return False
    mistakes = [m for m in step.mistakes if m.code == code]
    return bool(mistakes) and all(_would_fail(probe, m) for m in mistakes)


def _matched_everywhere(step: Step, probes: Sequence[Probe], cases: Sequence[CaseResult],
                        outcomes: Sequence[Outcome | None]) -> list[CaseResult]:
    """Each failed call's matches, completed so that codes compare on every failed call.

    Pairs are searched on a call only when no single change explains it. So a code found on one
    call is also tried on the others (√d_k = 1 hides a missing division on one case); and when
    no code explains every failed call (rounding everywhere, overflow on one case), the pairs
    are tried on all of them: one explanation true everywhere beats two true in parts.
    """
    failed = [(i, probe, _values_of(probe, outcome.value))
              for i, (probe, result, outcome) in enumerate(zip(probes, cases, outcomes))
              if not result.passed and outcome is not None and outcome.kind == "returned"]
    matched = {i: list(cases[i].matched) for i, _, _ in failed}
    found = list(dict.fromkeys(code for c in cases for code in c.matched))

    def explains_all(code: str, mistakes: Sequence[Mistake]) -> bool:
        return all(code in matched[i] or any(_predicts(probe, m, values) for m in mistakes)
                   for i, probe, values in failed)

    by_code: dict[str, list[Mistake]] = {}
    for mistake in step.mistakes:
        by_code.setdefault(mistake.code, []).append(mistake)
    for code in found:
        for i, probe, values in failed:
            if code not in matched[i] and any(_predicts(probe, m, values) for m in by_code[code]):
                matched[i].append(code)
    if not any(all(code in matched[i] for i, _, _ in failed) for code in found):
        for code, mistakes in by_code.items():
            if code not in found and mistakes[0].size > 1 and explains_all(code, mistakes):
                for i, _, _ in failed:
                    matched[i].append(code)
                break
    return [replace(c, matched=matched[i]) if i in matched and matched[i] != c.matched else c
            for i, c in enumerate(cases)]


def _predicts(probe: Probe, mistake: Mistake, values: Sequence[object]) -> bool:
    outputs, got = probe.step.outputs, _prepared(probe.step.outputs, values)
    return any(_matches_prepared(outputs, got, candidate) for candidate in predictions(probe, mistake)[0])


MAX_PREDICTIONS = 20_000  # (probe, mistake) pairs remembered; a plan holds a few thousand
_predictions: dict[tuple[int, int], tuple[Probe, Mistake, list[list[PreparedPrediction] | None], bool]] = {}


def predictions(probe: Probe, mistake: Mistake) -> tuple[list[list[PreparedPrediction] | None], bool]:
    """(the mistake's predictions on the probe that differ from the right answer, whether one
    equals it). They depend on the probe alone, never on the student: computed once per plan."""
    key = (id(probe), id(mistake))
    hit = _predictions.get(key)
    if hit is not None and hit[0] is probe and hit[1] is mistake:
        return hit[2], hit[3]
    outputs, expected = probe.step.outputs, _prepared(probe.step.outputs, list(probe.expected))
    differ: list[list[PreparedPrediction] | None] = []
    equal = False
    try:
        candidates = list(mistake.candidates(probe))
    except Exception:  # a lab's faulty prediction names nothing; it must never cost a grade
        candidates = []
    for candidate in candidates:
        if candidate is None:
            continue
        prepared = _prepared_candidate(outputs, candidate)
        if _matches_prepared(outputs, expected, prepared):
            equal = True
        else:
            differ.append(prepared)
    if len(_predictions) >= MAX_PREDICTIONS:
        _predictions.clear()
    _predictions[key] = (probe, mistake, differ, equal)  # the objects are held, so ids stay theirs
    return differ, equal


def _values_of(probe: Probe, value: object) -> list[object]:
    """The value of each output of a call, read as check_value reads it: a step of several outputs
    returns them in a tuple or a list. Anything else (None from a forgotten return, a number, an
    array, even a 0-d one) is one value, which never has as many values as outputs."""
    return list(value) if len(probe.step.outputs) > 1 and isinstance(value, (tuple, list)) else [value]


def _would_fail(probe: Probe, mistake: Mistake) -> bool:
    differ, equal = predictions(probe, mistake)
    return bool(differ) and not equal


def _mark_observed(step: Step, probes: Sequence[Probe], cases: list[CaseResult], outcomes: Sequence[Outcome | None]
                   ) -> tuple[list[CaseResult], list[str]]:
    """What two calls show together, where no mistake explains the values: the same arguments
    gave different values (random numbers), or other arguments gave the very same values while
    the right answers differ (the function does not use them). Returns (cases, arguments ignored).
    """
    returned = [(i, p, o.value) for i, (p, c, o) in enumerate(zip(probes, cases, outcomes))
                if o is not None and o.kind == "returned" and not c.passed]
    found: dict[int, str] = {}
    ignored: list[str] = []
    for (i, first, got_first), (j, second, got_second) in itertools.combinations(returned, 2):
        if first.label != second.label or not {cases[i].code, cases[j].code} <= UNEXPLAINED:
            continue
        if not (_comparable(step.outputs, _values_of(first, got_first))
                and _comparable(step.outputs, _values_of(second, got_second))):
            continue  # values the grader cannot compare (objects it only knows by type) show nothing
        differ = [name for name, a, b in zip(step.params, first.args, second.args) if not _same_argument(a, b)]
        same_values = _matches(step.outputs, _values_of(first, got_first), _values_of(second, got_second))
        if same_values and _maps_to_itself(got_first):
            continue  # every key mapped to itself: a relation of its own (autograder.explain), not an argument ignored
        if not differ and not same_values:
            found[i] = found[j] = "nondeterministic"
        elif differ and same_values and not _matches(step.outputs, list(first.expected), second.expected) \
                and not _follows(step, probes, cases, outcomes, differ):
            found.setdefault(i, "ignores_arguments")
            found.setdefault(j, "ignores_arguments")
            ignored = ignored or differ
    if not found:
        return cases, []
    # The evidence is about the function, not one case: it explains every unexplained failure.
    code = "nondeterministic" if "nondeterministic" in found.values() else "ignores_arguments"
    return [replace(c, code=code) if not c.passed and c.code in UNEXPLAINED else c for c in cases], \
        ignored if code == "ignores_arguments" else []


def _comparable(outputs: Sequence[Output], values: Sequence[object]) -> bool:
    """Whether two such values could tell "the same" from "other": a mapping holding objects the
    grader knows only by their type (_Other) equals nothing, even itself returned again."""
    prepared = _prepared(outputs, values)
    return prepared is not None and not any(
        isinstance(value, dict) and any(isinstance(item, _Other) for item in [*value, *value.values()])
        for value in prepared)


def _maps_to_itself(value: object) -> bool:
    """Whether `value` is a mapping of two keys or more, each to itself (the same values follow
    from the keys alone, whatever else the call was given)."""
    mapping = _as_mapping(value)  # plain strings and numbers only: comparing them never raises
    return mapping is not None and len(mapping) > 1 and all(
        isinstance(key, (str, int)) and type(key) is type(item) and key == item for key, item in mapping.items())


def _follows(step: Step, probes: Sequence[Probe], cases: Sequence[CaseResult], outcomes: Sequence[Outcome | None],
             names: Collection[str]) -> bool:
    """Whether two calls that returned (passed or not), their arguments differing in `names` only,
    returned different values: then the function does use those arguments (a softmax right on
    tables and wrong on 1-D input uses its argument, whatever its 1-D answers show)."""
    returned = [(p, o.value) for p, o in zip(probes, outcomes) if o is not None and o.kind == "returned"]
    for (first, got_first), (second, got_second) in itertools.combinations(returned, 2):
        differ = [name for name, a, b in zip(step.params, first.args, second.args) if not _same_argument(a, b)]
        if differ and set(differ) <= set(names) and \
                not _matches(step.outputs, _values_of(first, got_first), _values_of(second, got_second)):
            return True
    return False


# Codes a cause read from the code may reword: the rules' own guesses and the generic ones.
REWORDABLE = UNEXPLAINED | {"hardcoded", "ignores_arguments", "nondeterministic"}
# Causes read from the code (their words only: the points were counted before, from the codes they replace).
CODE_CAUSES = {"global_state", "mutable_default", "reads_global", "unused_argument", "fails_off_page"}


def _caused_by_code(step: Step, probes: Sequence[Probe], cases: list[CaseResult], outcomes: Sequence[Outcome | None],
                   evidence: Mapping[str, Any], page: str, rule: rubric.Rule, ignored: list[str]
                   ) -> tuple[list[CaseResult], rubric.Rule, list[str], list[str] | None]:
    """(cases, the rule, the arguments ignored, the names the cause points at or None) with the failures a rule or a generic code told renamed after what the code
    shows: state kept between calls (a module-level name or a default argument the calls change),
    the notebook's globals read in place of arguments, an argument never read; and "hard-coded"
    kept only when the failing calls returned the same values for other inputs, else said as what
    is seen (right on the page's example, wrong on the others).

    Called once the points are counted: the rubric's rule keeps its percent under the new name, so
    a forged report changes the words of a failure and never its points.
    """
    failing = [c for c in cases if not c.passed]
    rule_made = [c for c in failing if c.code in REWORDABLE and not c.matched]
    if not rule_made:
        return cases, rule, ignored, None
    state = _state_shown(outcomes)
    if any(c.code == "nondeterministic" for c in rule_made) and not (state["globals"] or state["defaults"]):
        return cases, rule, ignored, None  # other values on the same call, with no state seen: random numbers, as told
    page_right = any(c.passed for c in cases if c.case == page)
    fitted = any(c.code in ("hardcoded", "ignores_arguments", "nondeterministic") for c in rule_made)
    globals_read = list(evidence.get("globals") or ())
    unused = [name for name in evidence.get("unused") or () if name in step.params]
    hardcoded = any(c.code == "hardcoded" for c in rule_made)
    words: dict[str, list[str]]
    if state.get("globals"):
        code, words = "global_state", {"names": state["globals"]}
    elif state.get("defaults"):
        code, words = "mutable_default", {"names": state["defaults"]}
    elif globals_read and (fitted or page_right):
        code, words = "reads_global", {"names": globals_read}
    elif hardcoded and _same_answer_elsewhere(probes, cases, outcomes):
        return cases, rule, ignored, None  # the same answer for other inputs: written in, as told
    elif any(c.code == "ignores_arguments" for c in rule_made):
        return cases, rule, ignored, None  # the values already name the arguments
    elif unused and (hardcoded or page_right):
        code, words = "unused_argument", {"names": unused}
    elif hardcoded:
        code, words = "fails_off_page", {}
    else:
        return cases, rule, ignored, None
    renamed = [replace(c, code=code) if not c.passed and c.code in REWORDABLE and not c.matched else c
               for c in cases]
    renamed_rule = rubric.Rule(**rule)
    if renamed_rule.get("rule") == "mistake" and renamed_rule.get("code") in REWORDABLE:
        renamed_rule["code"] = code
    return renamed, renamed_rule, [], words.get("names", [])


def _state_shown(outcomes: Iterable[Outcome | None]) -> dict[str, Any]:
    """The state the calls say they changed: names of module-level data and of defaults, and
    whether a call made twice returned something else."""
    shown: dict[str, Any] = {"globals": [], "defaults": [], "repeat_differs": False}
    for outcome in outcomes:
        state = getattr(outcome, "state", None) or {}
        for key in ("globals", "defaults"):
            shown[key] += [name for name in state.get(key, ()) if name not in shown[key]]
        shown["repeat_differs"] |= state.get("repeat_differs") is True
    return shown


def _same_answer_elsewhere(probes: Sequence[Probe], cases: Sequence[CaseResult],
                           outcomes: Sequence[Outcome | None]) -> bool:
    """Whether each failing call that returned gave, in one of its outputs at least, the very
    values another call gave for other inputs (the page's table written in, returned whatever the
    input): evidence of "hard-coded"."""
    returned = [(p, c, o.value) for p, c, o in zip(probes, cases, outcomes)
                if o is not None and o.kind == "returned"]
    failing = [(p, got) for p, c, got in returned if not c.passed]
    if not failing:
        return True  # only errors on other sizes: the page's sizes written in, as told before

    def same_output(probe: Probe, got: object, other: Probe, value: object) -> bool:
        mine, theirs = _values_of(probe, got), _values_of(other, value)
        return len(mine) == len(theirs) == len(probe.step.outputs) and any(
            _matches([output], [a], [b]) for output, a, b in zip(probe.step.outputs, mine, theirs))
    return all(any(other is not probe and other.case.name != probe.case.name and same_output(probe, got, other, value)
                   for other, _, value in returned)
               for probe, got in failing)


def _same_argument(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape \
            and bool(np.array_equal(a, b, equal_nan=True))
    return a == b


def _mark_fitted_to_public(step: Step, probes: Sequence[Probe], cases: list[CaseResult]) -> list[CaseResult]:
    """Answers looked up, not computed: right only on tests whose inputs a student can know, and
    nothing else to show a computation. Its failures, whatever they are (wrong values, None,
    another type, an error with numpy's words or any other, a timeout, a crash, a test not run),
    are `fitted`, which takes the step's points (rubric.score), and those that carry words the
    submission chose (values, an error's name) are told as `hardcoded`, as answers fitted to the
    page are.

    A step computes, and keeps what the rubric gives it, when either shows: a test whose inputs
    the student could not know (`_known_inputs`) and large enough to tell formulas apart (not
    degenerate) is right (its values; a changed input does not matter), or such a test returned
    values the judge names (`_named_by_values`: a declared mistake's prediction, a transposed
    table: the formula computed, wrongly). A genuine mistake that only the public tests' sizes hide
    shows one of the two wherever the lab has a hidden test of the public sizes with other values,
    or declares the mistake."""
    known = _known_inputs(probes)
    if not any(c.passed for p, c, k in zip(probes, cases, known) if k and not rubric.is_degenerate(p.case)):
        return cases  # nothing right that counts: nothing to take back
    unknown = [c for p, c, k in zip(probes, cases, known) if not k and not rubric.is_degenerate(p.case)]
    named = step.named_codes()  # those that say nothing was computed cost every point already
    if not unknown or any(_values_right(c) or _named_by_values(c, named) for c in unknown):
        return cases
    return [replace(c, fitted=True, code=c.code if c.code in rubric.UNANSWERED else "hardcoded")
            if not k and not _values_right(c) else c for c, k in zip(cases, known)]



def _known_inputs(probes: Sequence[Probe]) -> list[bool]:
    """Per probe, whether a student can know its inputs: a public test's, or the very arguments of
    a public test's call (a hidden test that repeats a public one, or shares a call with one)."""
    public = [p.args for p in probes if not p.case.hidden]
    return [not p.case.hidden or any(_same_arguments(p.args, args) for args in public) for p in probes]


def _same_arguments(a: Sequence[object], b: Sequence[object]) -> bool:
    return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))


def _same_value(a: object, b: object) -> bool:
    """Equal values of the lab's own arguments (arrays, numbers, words and their containers)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _same_argument(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and _same_arguments(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _values_right(result: CaseResult) -> bool:
    """Right values: passed, or right with an input changed on the way (`mutates_input`)."""
    return result.passed or result.code == "mutates_input"


def _named_by_values(result: CaseResult, named: Collection[str]) -> bool:
    """A failed call whose returned value the judge names as a mistake (a declared mistake's
    prediction, a transposed table). An error's name is words only (its message is the
    submission's to write): never evidence."""
    return not result.passed and not result.raised and result.code in named


def _mark_hardcoded(probes: Sequence[Probe], cases: list[CaseResult], page: str) -> list[CaseResult]:
    """Right on the page's case, wrong with no better explanation on inputs of other sizes.

    A failure on a case of the page's own sizes alone (the large-valued hidden one) says nothing
    about fitted numbers, so it keeps its generic code. Once fitted numbers are shown, a plain
    error on inputs of other sizes (the page's sizes written in) is told as the same mistake.
    """
    on_page = [c for c in cases if c.case == page]
    if not on_page or not all(c.passed for c in on_page):
        return cases
    page_sizes = next(p.case.sizes() for p in probes if p.case.name == page)
    unexplained = [(p, c) for p, c in zip(probes, cases) if not c.passed and c.code in UNEXPLAINED]
    if not any(p.case.sizes() != page_sizes for p, _ in unexplained):
        return cases
    # Right on a test of other sizes (more than one word): the sizes are read, not written in;
    # the failure lies elsewhere (d_v ≠ d_k, say).
    if any(c.passed and p.case.sizes() != page_sizes and not rubric.is_degenerate(p.case)
           for p, c in zip(probes, cases)):
        return cases

    def fitted(probe: Probe, result: CaseResult) -> bool:
        return not result.passed and (result.code in UNEXPLAINED or (
            result.code == "exception" and probe.case.sizes() != page_sizes))
    return [replace(c, code="hardcoded") if fitted(p, c) else c for p, c in zip(probes, cases)]


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
                          detail={"error": outcome.error, "refused": dict(refused[0])})
    if outcome.kind == "raised":
        return CaseResult(**base, passed=False, code=_code_for_error(probe, outcome.error), raised=True,
                          detail={"error": outcome.error})
    if outcome.value is None and is_stub:
        return CaseResult(**base, passed=False, code="not_implemented")
    passed, code, detail, matched = check_value(probe, outcome.value, brief=brief)
    if passed:
        mutated = _mutated_argument(probe, outcome.args_after)
        if mutated is not None:
            name, reshaped = mutated
            return CaseResult(**base, passed=False, code="mutates_input",
                              detail={"argument": name, **({"reshaped": True} if reshaped else {})})
        return CaseResult(**base, passed=True)
    if brief:
        return CaseResult(**base, passed=False, code=code)
    mutated = _mutated_argument(probe, outcome.args_after)
    if mutated is not None:  # an input overwritten on the way: later lines read the changed values
        detail = {**detail, "changed_input": mutated[0]}
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
                ) -> tuple[bool, str | None, dict[str, Any], list[str]]:
    """(passed, generic code, detail, named mistakes the value matches); `brief`: see judge_call."""
    outputs = probe.step.outputs
    if len(outputs) > 1:
        if not isinstance(value, (tuple, list)) or len(value) != len(outputs):
            return False, "wrong_type", {"got": describe_type(value), "expected_count": len(outputs),
                                         "names": [o.name for o in outputs]}, []
        values = list(value)
    else:
        values = [value]
    if brief:
        right = all(_right(output, got, expected) for output, got, expected in zip(outputs, values, probe.expected))
        return right, None if right else "wrong_values", {}, []
    failures: list[tuple[str | None, dict[str, Any]]] = []
    for output, got, expected in zip(outputs, values, probe.expected):
        check = check_mapping if output.kind == "mapping" else check_array
        ok, code, detail = check(probe, output, got, expected)
        if not ok:
            failures.append((code, dict(detail, output=output.name)))
    if not failures:
        return True, None, {}, []
    code, detail = failures[0]
    return False, code, detail, _named(probe, values)


def _right(output: Output, got: object, expected: Any) -> bool:
    """Whether `got` passes: check_mapping's and check_array's verdict, without their detail."""
    if output.kind == "mapping":
        return bool(_as_mapping(got) == expected)
    array = as_array(got)
    return array is not None and array.shape == expected.shape and _close(array, expected)


def _named(probe: Probe, values: Sequence[object]) -> list[str]:
    """Codes of the step's mistakes whose prediction equals `values` and differs from the answer."""
    if not declared_mistakes_on():
        return []
    outputs = probe.step.outputs
    got = _prepared(outputs, values)
    matched: list[str] = []
    for mistake in sorted(probe.step.mistakes, key=lambda m: m.size):
        if mistake.size > 1 and matched:
            break  # the smallest explanation wins: pairs are searched only when no single change fits
        if mistake.code not in matched and any(_matches_prepared(outputs, got, candidate)
                                               for candidate in predictions(probe, mistake)[0]):
            matched.append(mistake.code)
    return matched


def describe_type(value: object) -> str:
    if isinstance(value, Labelled):
        return str(value.kind)[:20]
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        return f"ndarray of {value.dtype}"
    if isinstance(value, Opaque):
        return clean_text(value.type_name, 100) if isinstance(value.type_name, str) else "object"
    return clean_text(type(value).__name__, 100)


def as_array(value: object) -> FloatArray | None:
    """A float array for array-like values; None when the value is not array-like."""
    if isinstance(value, Labelled):
        value = value.values
    if isinstance(value, np.ndarray):
        return value.astype(float) if value.dtype.kind in "biuf" else None
    if isinstance(value, (list, tuple, int, float)) and not isinstance(value, bool):
        try:
            with np.errstate(all="ignore"):
                array = np.asarray(value, dtype=float)
        except (TypeError, ValueError, OverflowError, RecursionError, MemoryError):
            return None  # not numbers, ragged, nested too deeply, or an int no float can hold
        return array
    return None


def check_array(probe: Probe, output: Output, got: object, expected: Any) -> tuple[bool, str | None, dict[str, Any]]:
    passed, code, detail = _check_array(probe, output, got, expected)
    array = None if passed or code == "wrong_type" else as_array(got)
    if array is not None and not probe.case.hidden and all(
            a.ndim in (2, 3) and a.shape[-2] <= PICTURE_SIDE and a.shape[-1] <= PICTURE_SIDE
            and (a.ndim == 2 or a.shape[0] <= PICTURE_TABLES) for a in (array, expected)):
        # The whole tables, as plain lists ("nan", "inf", "-inf" for the rest), for the heat-maps.
        def plain(a: NDArray[Any]) -> Any:
            return np.vectorize(lambda x: float(x) if np.isfinite(x) else str(x), otypes=[object])(a).tolist()
        detail = dict(detail, values={"got": plain(array), "expected": plain(expected),
                                      "words": list(probe.case.words), "columns": output.columns,
                                      "rows_sum_to_one": output.rows_sum_to_one})
    return passed, code, detail


def _check_array(probe: Probe, output: Output, got: object, expected: FloatArray
                 ) -> tuple[bool, str | None, dict[str, Any]]:
    array = as_array(got)
    if array is None:
        detail: dict[str, Any] = {"got": describe_type(got)}
        if got is None:
            detail["no_return"] = True
        return False, "wrong_type", detail
    if array.shape != expected.shape:
        detail = {"rtol": RTOL, "atol": _atol(expected), "got_shape": array.shape,
                  "expected_shape": expected.shape, "got_preview": preview(array),
                  "expected_preview": preview(expected)}
        if array.T.shape == expected.shape and _close(array.T, expected):
            return False, "transposed", detail
        if _only_unit_axes_apart(array.shape, expected.shape) and _close(array.reshape(expected.shape), expected):
            return False, "extra_unit_axes", detail  # the right values, with axes of length 1 added or left out
        return False, "wrong_shape", detail
    if _close(array, expected):
        return True, None, {}
    detail = {**_mismatch(probe, output, array, expected), "container": _container_name(got)}
    if "not_finite" in detail:
        return False, "not_finite", detail
    if array.ndim == 2 and array.shape[0] == array.shape[1] and _close(array.T, expected):
        # A square table read the other way round: same shape, rows and columns swapped.
        return False, "transposed", detail
    return False, "wrong_values", detail


def _only_unit_axes_apart(got: tuple[int, ...], expected: tuple[int, ...]) -> bool:
    """Whether two shapes differ only by axes of length 1 ((1, n, n) for (n, n)); a single number
    in any shape ((1,) for (1, 1)) says nothing of which axes were meant."""
    sizes = [d for d in expected if d != 1]
    return got != expected and bool(sizes) and [d for d in got if d != 1] == sizes


def _close(a: NDArray[Any], b: NDArray[Any]) -> bool:
    if a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes():
        return True  # the common case for a right answer, and far cheaper than allclose
    with np.errstate(all="ignore"):
        return bool(np.allclose(a, b, rtol=RTOL, atol=_atol(b), equal_nan=True))


def _atol(expected: NDArray[Any]) -> float:
    finite = np.abs(expected[np.isfinite(expected)]) if np.size(expected) else np.zeros(1)
    return ATOL * max(1.0, float(finite.max()) if finite.size else 1.0)


def _mismatch(probe: Probe, output: Output, got: FloatArray, expected: FloatArray) -> dict[str, Any]:
    """The numbers a message needs, in assert_allclose's order: how many, how badly, which cell."""
    with np.errstate(all="ignore"):
        difference = np.abs(got - expected)
        bad = ~np.isclose(got, expected, rtol=RTOL, atol=_atol(expected), equal_nan=True)
    detail: dict[str, Any] = {"rtol": RTOL, "atol": _atol(expected), "shape": got.shape,
              "mismatched": int(bad.sum()), "total": int(got.size),
              "got_preview": preview(got), "expected_preview": preview(expected)}
    non_finite = ~np.isfinite(got) & np.isfinite(expected)
    if non_finite.any():
        detail["not_finite"] = {"count": int(non_finite.sum()),
                                "where": _cell(probe, output, tuple(np.argwhere(non_finite)[0]))}
    measurable = bad & np.isfinite(difference)
    if measurable.any():
        worst = np.unravel_index(int(np.argmax(np.where(measurable, difference, -1.0))), got.shape)
        detail.update(cell=_cell(probe, output, worst), got_value=float(got[worst]),
                      expected_value=float(expected[worst]), max_abs=float(difference[worst]))
    if output.rows_sum_to_one:
        with np.errstate(all="ignore"):
            detail["row_sums"] = preview(got.sum(axis=-1))
    return detail


def _cell(probe: Probe, output: Output, index: Sequence[Any]) -> dict[str, Any]:
    """Name a cell by its words: rows are always words; columns are words for the n×n tables."""
    words = list(probe.case.words)
    index = tuple(int(i) for i in index)
    if len(index) > 2:  # a stack of tables (heads, say): which table, then the cell in it
        return {**_cell(probe, output, index[-2:]), "blocks": list(index[:-2]), "index": list(index)}
    if len(index) == 2:
        row, column = index
        return {"row": words[row] if row < len(words) else str(row),
                "column": words[column] if output.columns == "words" and column < len(words) else column,
                "column_is_word": output.columns == "words", "index": list(index)}
    if len(index) == 1:
        only = index[0]
        label = words[only] if output.columns == "words" and only < len(words) else only
        return {"row": None, "column": label, "column_is_word": output.columns == "words",
                "index": [only]}
    return {"row": None, "column": None, "column_is_word": False, "index": []}


def preview(array: ArrayLike) -> str:
    """The values cut short: at most PREVIEW rows and columns, three decimals."""
    return np.array2string(np.asarray(array, dtype=float), precision=3, suppress_small=True,
                           threshold=PREVIEW * PREVIEW, edgeitems=PREVIEW // 2,
                           max_line_width=100)


def _as_mapping(value: object) -> dict[PlainItem, PlainItem] | None:
    """A dict of plain keys and values (see _plain_item) for dict-like values; None otherwise.

    Whatever the value holds (arrays, nested containers, NaN, subclasses), comparing the result
    with an expected mapping of words only compares strings and numbers: it never raises.
    """
    if isinstance(value, Labelled) and value.kind == "Series":
        values = value.values
        try:
            items = list(zip(value.index, values.tolist() if isinstance(values, np.ndarray) else values))
        except TypeError:
            return None
    elif isinstance(value, dict):
        items = list(dict.items(value))
    else:
        return None
    return {_plain_item(k): _plain_item(v) for k, v in items}


class _Other:
    """A mapping value that is not a string or a number: equal to nothing but itself."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"<{self.kind}>"


# A key or value of a returned mapping as the judge compares it (_plain_item).
PlainItem = str | int | float | None | _Other


def _plain_item(value: object) -> PlainItem:
    """A string, a number (whole floats as ints), None or _Other: values whose == cannot raise."""
    if value is None or type(value) is bool:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        value = int(value)
        return value if abs(value) < 2**63 else _Other("int too large")
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return int(value) if value.is_integer() and abs(value) < 2**63 else value
    return _Other(describe_type(value))


def check_mapping(probe: Probe, output: Output, got: object, expected: Any) -> tuple[bool, str | None, dict[str, Any]]:
    mapping = _as_mapping(got)
    if mapping is None:
        return False, "wrong_type", {"got": describe_type(got), "no_return": got is None}
    if mapping == expected:
        return True, None, {}
    wrong = [(k, mapping.get(k), v) for k, v in expected.items() if mapping.get(k) != v]
    return False, "wrong_values", {"mismatched": len(wrong), "total": len(expected),
                                   "first": [_short_repr(x) for x in wrong[0]] if wrong else None,
                                   "first_missing": bool(wrong) and wrong[0][0] not in mapping,
                                   "extra_keys": [_short_text(k) for k in mapping if k not in expected][:5],
                                   "got_preview": _mapping_preview(mapping),
                                   "expected_preview": _mapping_preview(expected)}


def _short_repr(value: object, limit: int = 60) -> str:
    """repr cut short; repr escapes control characters, so a cut repr is still one clean line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _short_text(value: object, limit: int = 60) -> str:
    return clean_text(value if isinstance(value, str) else _short_repr(value), limit)


def _mapping_preview(mapping: Mapping[Any, Any]) -> str:
    items = [f"{_short_repr(k)}: {_short_repr(v)}" for k, v in list(mapping.items())[:PREVIEW]]
    return "{" + ", ".join(items) + (", …" if len(mapping) > PREVIEW else "") + "}"


if TYPE_CHECKING:
    # A returned value as the comparison reads it, per output (_prepared): a plain mapping, or a float array.
    PreparedValue = dict[PlainItem, PlainItem] | FloatArray | None
    # A prediction of an array output, prepared once (_prepared_candidate): (values, atol, first value,
    # the cells predicted -inf or None).
    PreparedArray = tuple[FloatArray, float, float | None, NDArray[np.bool_] | None]
    # A prediction as the comparison reads it, per output: a plain mapping, or a PreparedArray.
    PreparedPrediction = dict[PlainItem, PlainItem] | PreparedArray | None


def _matches(outputs: Sequence[Output], values: Sequence[object], candidate: Sequence[object]) -> bool:
    return _matches_prepared(outputs, _prepared(outputs, values), _prepared_candidate(outputs, candidate))


def _prepared(outputs: Sequence[Output], values: Sequence[object]) -> list[PreparedValue] | None:
    """Values as the comparison reads them (float arrays, plain mappings), converted once."""
    return [_as_mapping(v) if o.kind == "mapping" else as_array(v) for o, v in zip(outputs, values)] \
        if len(values) == len(outputs) else None


def _prepared_candidate(outputs: Sequence[Output], candidate: Sequence[object]) -> list[PreparedPrediction] | None:
    """A prediction as the comparison reads it: per array, (values, atol, first value, the cells
    predicted -inf or None)."""
    prepared: list[PreparedPrediction] = []
    for output, want in zip(outputs, candidate):
        if output.kind == "mapping":
            prepared.append(_as_mapping(want))
        else:
            want = as_array(want)
            if want is None:
                return None  # a prediction that is not numbers predicts nothing
            blocked = np.isneginf(want)
            prepared.append((want, _atol(want), float(want.flat[0]) if want.size else None,
                             blocked if blocked.any() else None))
    return prepared if len(prepared) == len(candidate) else None


def behaves_as_minus_inf(values: ArrayLike) -> NDArray[np.bool_]:
    """Cells that act as -inf where they are added to scores before a softmax: exp of them is 0
    (-1e9, -1e10, np.finfo(float).min, -np.inf alike). A detector predicting -inf names the same
    mistake for any of them: names do not hang on one constant."""
    with np.errstate(all="ignore"):
        acts: NDArray[np.bool_] = np.exp(np.asarray(values, dtype=float)) == 0.0
        return acts


def _matches_prepared(outputs: Sequence[Output], got: Sequence[PreparedValue] | None,
                      candidate: Sequence[PreparedPrediction] | None) -> bool:
    if got is None or candidate is None or len(candidate) != len(got):
        return False
    for output, value, prediction in zip(outputs, got, candidate):
        if value is None:
            return False
        if output.kind == "mapping":
            if value != prediction:
                return False
            continue
        # An array output: the value is a float array, the prediction its _prepared_candidate tuple.
        value = cast("FloatArray", value)
        want, atol, first, blocked = cast("PreparedArray", prediction)
        if value.shape != want.shape:
            return False
        if blocked is not None:  # the cells predicted -inf: any value acting as -inf there
            if not behaves_as_minus_inf(value[blocked]).all() or \
                    not _close(np.where(blocked, 0.0, value), np.where(blocked, 0.0, want)):
                return False
            continue
        # allclose's own test on the first cell, in plain floats: most wrong predictions stop here.
        if first is not None and abs(float(value.flat[0]) - first) > atol + RTOL * abs(first):
            return False
        if not _close(value, want):
            return False
    return True


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


def broken(lab: Lab, name: str, code: str, detail: object = None, only: Collection[str] | None = None
           ) -> SubmissionResult:
    """Every step (of `only`, when given) errors with one cause: a file that could not be read
    (`detail` says why: a submission.Detail, which the catalogs render in the student's language;
    a reason a caller still gives as text becomes one, see submission.as_detail), or a run that
    ended the sandbox or the grader ("crashed", "not_run"). The cause is the file's, not a
    step's: one load note carries it, and each step says only that it was not graded
    (`file_problem` in its detail; see SubmissionResult.file_problem)."""
    steps = [StepResult(name=step.name, score=0.0, max_score=step.points, status="error", mistakes=[code],
                        cases=[CaseResult(case=lab.page_case, hidden=False, label="", passed=False, code=code)],
                        page_step=step.page_step, file_problem=code)
             for step in lab.steps if only is None or step.name in only]
    notes = [{"code": "problem", "problem": code, "detail": as_detail(detail)}]
    return SubmissionResult(submission=safe_name(name), steps=steps, notes=notes)


def explanations(step: Step, probes: Sequence[Probe], cases: Sequence[CaseResult], outcomes: Sequence[Outcome | None],
                 vocabulary: explain.Vocabulary, page: str | None = None) -> list[dict[str, Any]]:
    """What the values of a step's unnamed failures show (autograder.explain), per output, as plain
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
    kind = explain.failing_kind(failed, set(kinds), kinds) or _failing_label(probes, cases)
    public_failed = [c for p, c in zip(probes, cases)
                     if not c.passed and not p.case.hidden and not rubric.is_degenerate(p.case)]
    if public_failed and all(c.raised for c in public_failed):
        # The student sees an error on every public test that fails: that error is the thing to
        # fix, and values a hidden test returned by chance (np.split cutting other sizes evenly)
        # would read as a cause of their own. Only the kind of test that fails is told.
        return [dataclasses.asdict(explain.Explanation(output=step.outputs[0].name, relation="kind_only",
                                                       params={"kind": kind}))] if kind else []
    samples: dict[int, list[explain.Sample]] = {index: [] for index in range(len(step.outputs))}
    page_case = next((p.case for p in probes if p.case.name == page), None)
    for probe, result, outcome in zip(probes, cases, outcomes):
        if not result.passed and (result.code not in EXPLAINABLE or outcome is None or outcome.kind != "returned"):
            continue
        _add_samples(samples, probe, result, outcome, vocabulary, page_case)
    if len(step.outputs) > 1 and _cut_elsewhere([samples[i] for i in range(len(step.outputs))]):
        params: dict[str, Any] = {"kind": kind} if kind else {}
        return [dataclasses.asdict(explain.Explanation(
            output=", ".join(o.name for o in step.outputs), relation="cut_elsewhere", params=params))]
    found = []
    for index, output in enumerate(step.outputs):
        try:
            with np.errstate(all="ignore"):
                explanation = explain.explain(output.name, samples[index], kind)
        except Exception:  # values no relation can read name nothing; never a crash in judging
            explanation = None
        if explanation is not None:
            found.append(dataclasses.asdict(explanation))
    return found


def _cut_elsewhere(per_output: Sequence[Sequence[explain.Sample]]) -> bool:
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
                   and a.shape[:-1] == b.shape[:-1] for a, b in zip(got, expected)):
            return False
        if [a.shape for a in got] == [b.shape for b in expected]:
            return False
        joined, want = np.concatenate(got, axis=-1), np.concatenate(expected, axis=-1)
        if joined.shape != want.shape or not np.allclose(joined, want, rtol=RTOL, atol=ATOL):
            return False
    return True


def _failing_label(probes: Sequence[Probe], cases: Sequence[CaseResult]) -> str | None:
    """The one call label ("1-D") every failing call has, when calls of other labels all pass
    (some calls of that label may pass too: a one-word input is right either way); else, when the
    failing calls are all those whose first array argument has one number of axes, that ("3-D")."""
    labels = {p.label for p, c in zip(probes, cases) if not c.passed}
    if len(labels) == 1 and None not in labels and "" not in labels:
        return labels.pop() if any(c.passed and p.label not in labels for p, c in zip(probes, cases)) else None
    ndims = {_first_array_ndim(p) for p, c in zip(probes, cases) if not c.passed}
    if len(ndims) != 1 or None in ndims:
        return None
    ndim = ndims.pop()
    if all(c.passed for p, c in zip(probes, cases) if _first_array_ndim(p) != ndim) and \
            any(c.passed for p, c in zip(probes, cases) if _first_array_ndim(p) != ndim):
        return f"{ndim}-D"
    return None


def _first_array_ndim(probe: Probe) -> int | None:
    return next((a.ndim for a in probe.args if isinstance(a, np.ndarray)), None)


def _add_samples(samples: dict[int, list[explain.Sample]], probe: Probe, result: CaseResult, outcome: Outcome | None,
                 vocabulary: explain.Vocabulary, page_case: Case | None = None) -> None:
    """One explain.Sample per output of a call (passing calls as passing samples)."""
    outputs = probe.step.outputs
    expected = _prepared(outputs, list(probe.expected))
    if result.passed:
        values, got = list(probe.expected), expected
    else:
        # A failed call is read only when it returned (see explanations); a dict's keys are no outputs.
        values = _values_of(probe, outcome.value if outcome is not None else None)
        if len(values) != len(outputs):
            return  # not as many values as outputs: told by "wrong_count", nothing to read
        got = _prepared(outputs, values)
    if got is None or expected is None:
        return  # a probe without one expected value per output: nothing to read
    quantities = explain.case_quantities(probe.case, probe.trace, vocabulary, zip(probe.step.params, probe.args))
    sizes = explain.case_sizes(probe.case, probe.trace, vocabulary)
    variants = explain.case_variants(probe.case, page_case, vocabulary)
    variants = {**variants, **explain.argument_variants(probe.step.name, probe.step.params, probe.args,
                                                        [o.name for o in outputs], expected, vocabulary,
                                                        probe.case, probe.label)}
    for index, output in enumerate(outputs):
        passed = result.passed or _matches_prepared(
            [output], [got[index]], _prepared_candidate([output], [probe.expected[index]]))
        samples[index].append(explain.Sample(
            case=_call_key(probe), hidden=probe.case.hidden,
            passed=passed, got=got[index], got_type=_container_name(values[index]),
            expected=expected[index], quantities=quantities, sizes=sizes, labels=tuple(probe.case.words),
            variants=variants))


def _call_key(probe: Probe) -> str:
    return probe.case.name + (f"/{probe.label}" if probe.label else "")


def _container_name(value: object) -> str:
    """The container a value came in, from a closed set (see explain.CONTAINERS)."""
    if isinstance(value, Labelled):
        return str(value.kind) if value.kind in ("Series", "DataFrame") else "other"
    if value is None:
        return "None"
    for kind in (dict, list, tuple, np.ndarray, str, bool, int, float):
        if isinstance(value, kind):
            return {bool: "other", np.ndarray: "ndarray"}.get(kind, kind.__name__)
    if isinstance(value, (np.floating, np.integer)):
        return "float" if isinstance(value, np.floating) else "int"
    return "other"


def written_for_other_lab(result: SubmissionResult, note: dict[str, Any] | None) -> SubmissionResult:
    """`result` of a file written for another lab (`note`: registry.other_lab's verdict, a load
    note of code "other_lab"), when it defines none of the graded lab's functions: every step
    missing. Then the note is the file's one problem, told once above the steps, and each step
    says only that (`file_problem` "other_lab"), never "check the function's spelling" per step.
    Any other result is returned as it is."""
    if note is None or not result.steps or any(step.status != "missing" for step in result.steps):
        return result
    steps = [replace(step, file_problem="other_lab") for step in result.steps]
    return SubmissionResult(submission=result.submission, steps=steps, notes=[note])
