"""The repair search of a submission's failing steps (autograder.repair) run in the sandbox: the
candidates' calls on the repair plan's inputs, their judgement, the repairs a batch's workers share,
and a repair kept from another file checked as the public run's last calls."""
from __future__ import annotations

import contextlib
import itertools
import json
import os
import secrets
import time
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from ..core.case_detail import Raised
from ..core.guard import piece
from ..helpers import StandInAnswers
from ..core.judge import judge_call
from ..repair import RepairCache, search, target_of
from ..repair.cases import DRAWN_CASES, generated_case, traced, without_hidden
from ..repair.edits import compiled, raising_at
from ..repair.grafts import reference_function, written_forms
from ..core.repair_record import GRAFTS, LOCATED, Repair, RepairPart
from ..core.rubric import UNANSWERED
from ..core.verdict import StepResult
from ..sandbox.runner import Call, Clock, run
from ..whole_file import write_atomic
from .plan import Plan
from .runs import KeptCheck, Runs

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import Any

    from ..core.declaration import Probe, Step
    from ..repair.search import Found, Target
    from ..repair.values import Site
    from ..sandbox.runner import CallOutcome
    from ..core.verdict import CaseResult


REPAIRABLE = ("failed", "error")
# Besides the calls that gave no answer (rubric.UNANSWERED: a child stopped or gone, a helper
# request refused), what a small edit cannot mend and every candidate would repeat at the limits.
NOT_REPAIRABLE_ERRORS = frozenset({"MemoryError"})
REPAIR_SECONDS = 12.0  # a safety net only (an edit that makes a loop endless, a child slowed on purpose): the search is bounded by its counts
# The most one candidate of a plain step runs, on every input it is given: what each edit that
# makes a loop endless costs the search (a right candidate takes milliseconds).
REPAIR_CALL_SECONDS = 0.25
REPAIR_IDS = 1 << 40  # candidate calls' ids, apart from every plan's own
REPAIR_SWITCH = "AUTOGRADER_REPAIR"
_REPAIRS = RepairCache()
# A claim older than this is a killed grader's: a search ends well before (its own clock, its counts).
CLAIM_SECONDS = 2 * REPAIR_SECONDS


class FolderStore:
    """A `RepairStore` in a directory the graders of one batch share (the batch's pool makes it
    and removes it): one JSON file per entry, written whole and then renamed, so a reader finds a
    complete entry or none; a claim is a file made only if absent (`<name>.claim`), removed when its
    search ends, and taken for nothing once older than a search may last (its grader was killed).
    Nothing in it is read as code; a child never sees it."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def read(self, name: str) -> object | None:
        try:
            with open(os.path.join(self.folder, name + ".json"), encoding="utf-8") as handle:
                return cast(object, json.load(handle))
        except (OSError, ValueError):
            return None

    def write(self, name: str, data: object) -> None:
        try:
            write_atomic(os.path.join(self.folder, name + ".json"), json.dumps(data))
        except OSError:
            pass  # a full disk costs the other worker a search, never a grade

    def claim(self, name: str) -> bool:
        for _ in range(2):
            try:
                os.close(os.open(self._claim(name), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                return True
            except FileExistsError:
                if self.busy(name):
                    return False
                with contextlib.suppress(OSError):
                    os.remove(self._claim(name))  # a killed grader's: taken over
            except OSError:
                return False  # no claim can be made: this grader searches without one
        return False

    def release(self, name: str) -> None:
        with contextlib.suppress(OSError):
            os.remove(self._claim(name))

    def busy(self, name: str) -> bool:
        try:
            return time.time() - os.stat(self._claim(name)).st_mtime < CLAIM_SECONDS
        except OSError:
            return False

    def _claim(self, name: str) -> str:
        return os.path.join(self.folder, name + ".claim")


def share_repairs(folder: str | None) -> None:
    """Repairs found in this process kept in (and read from) `folder` too, shared with the other
    graders of the batch (None: this process's own memory only)."""
    _REPAIRS.store = FolderStore(folder) if folder is not None else None


def repair_on() -> bool:
    """Whether failing steps are searched for a repair: the one place the switch is read ("off"
    only to measure what the other explanations name alone)."""
    return os.environ.get(REPAIR_SWITCH, "on").strip().lower() != "off"


def repairable(result: StepResult) -> bool:
    """Whether a step's result is one the search is for: its own answers were wrong or its code
    raised, on tests the sandbox let finish (the one place this is decided)."""
    if result.status not in REPAIRABLE:
        return False
    return not any(
        case.code in UNANSWERED
        or (case.raised and isinstance(case.detail, Raised) and case.detail.error.type in NOT_REPAIRABLE_ERRORS)
        for case in result.cases if not case.passed)


def repair_scope(runs: Runs, scope: str, results: dict[str, dict[str, StepResult]],
                 repairs: dict[str, Repair | None]) -> None:
    """Each failing step of `scope` with the smallest repair of the student's own function, when
    one is found (autograder.repair). Searched once per step: on the public scope for a step that
    fails its public tests (before any child is given a hidden input), else after the hidden
    tests, for the judged result with them only."""
    if not repair_on():
        return
    for step in runs.plan.lab.steps:
        result = results[scope][step.name]
        if not repairable(result):
            continue
        if step.name not in repairs:
            # The grader's own work on the student's code: whatever goes wrong in it costs the
            # repair's words, never the step's verdict or the submission's record, nor its time.
            started = time.monotonic()
            repairs[step.name] = piece("a repair search", _repair_of, runs, step, result, results[scope]).value
            runs.clock.give_back(time.monotonic() - started)
        repair = repairs[step.name]
        if repair is not None:
            results[scope][step.name] = replace(result, repair=repair.as_told(runs.plan.lab.repair_shows))


# Repairs that do not show the student's function computes its values from its inputs: the
# reference's expressions put in (any graft: a table of answers is "repaired" so too, with the
# reference around a bare argument), its returned value divided by its sums, a place told by the
# reference's values, a name put where a number was written in (the page's sizes written in are
# fitted to the page), another local returned.
NOT_SHOWING_A_COMPUTATION = GRAFTS | LOCATED | {"normalised", "hard_coded", "returned_value"}


def computes(runs: Runs, step: Step, scope: str, cases: list[CaseResult], results: dict[str, dict[str, StepResult]],
             repairs: dict[str, Repair | None]) -> bool:
    """Whether the student's function of `step` is shown to compute its values from its inputs:
    - its smallest repair (searched now when it was not yet, and kept in `repairs` for repair_scope
      to tell) is an edit of what it computes (none of NOT_SHOWING_A_COMPUTATION), right on every
      input the repair plan has, and
    - the public tests it passes went through the code that repair edits: with those lines made
      to raise, it fails every one of them (a table of the public answers looked up before a nearly
      right function is not what answered them), and
    - the repaired function is right on cases drawn now, at random (a table of the repair plan's
      own inputs, the same every run, could be written in).
    Its failures are then a computation's, never answers fitted to the inputs a student can know
    (judge_step's `computes`): a running maximum right on the page's rows by chance, a fourth root
    of 4 where √2 was meant."""
    if not repair_on():
        return False
    if step.name not in repairs:
        result = StepResult(name=step.name, score=0.0, max_score=step.points, status="failed",
                            mistakes=[], cases=cases)
        if not repairable(result):
            return False
        started = time.monotonic()
        repairs[step.name] = piece("a repair search", _repair_of, runs, step, result, results[scope]).value
        runs.clock.give_back(time.monotonic() - started)
    repair = repairs[step.name]
    source = runs.repaired.get(step.name)
    if repair is None or source is None or any(part.kind in NOT_SHOWING_A_COMPUTATION for part in repair.parts):
        return False
    result = StepResult(name=step.name, score=0.0, max_score=step.points, status="failed", mistakes=[], cases=cases)
    target, _, probes, stand_in_for = _repair_key(runs, step, result, results[scope])
    if target is None:
        return False
    started = time.monotonic()
    shown = piece("a repair's lines on the public tests", _answered_through, runs, step, target, probes, stand_in_for,
                  cases, {part.line for part in repair.parts}).value
    shown = shown and piece("a repair on inputs drawn now", _right_on_fresh_inputs, runs, step, stand_in_for,
                            source).value
    runs.clock.give_back(time.monotonic() - started)
    return bool(shown)


FRESH_CASES = 3  # cases drawn now, at random, that a repair showing a computation must be right on too


def _right_on_fresh_inputs(runs: Runs, step: Step, stand_in_for: tuple[str, ...], source: str) -> bool:
    """Whether the repaired function (`source`) is right on cases drawn now with seeds nobody can
    know (the repair plan's own inputs are the same every run, so a table of their answers could be
    written in): the lab's cases of any size, else cases generated from its public ones."""
    lab = runs.plan.lab
    seeds = [secrets.randbelow(2 ** 31) + DRAWN_CASES for _ in range(FRESH_CASES)]
    if lab.domain_case is not None:
        fresh = [replace(lab.domain_case(seed), hidden=False) for seed in seeds]
    else:
        public = [case for case in lab.public_cases() if not case.degenerate]
        fresh = [generated_case(public[k % len(public)], salt=seed) for k, seed in enumerate(seeds)] if public else []
    plan = Plan.build(lab, without_hidden([case for case in fresh if traced(lab, case)]))
    probes = plan.probes[step.name]
    if not probes:
        return False
    right = _evaluate(runs, step, stand_in_for, [source], probes, time.monotonic() + REPAIR_SECONDS / 2, plan)[0]
    return all(right)


def _answered_through(runs: Runs, step: Step, target: Target, probes: Sequence[Probe], stand_in_for: tuple[str, ...],
                      cases: list[CaseResult], lines: set[int]) -> bool:
    """Whether every public test the student's function passes fails with the statements holding
    `lines` made to raise (the repair plan's own public inputs, `probes`; nothing hidden)."""
    passed = {(case.case, case.label) for case in cases if case.passed and not case.hidden}
    chosen = [probe for probe in probes if (probe.case.name, probe.label) in passed and not probe.case.degenerate]
    if not chosen:
        return True  # no public test that counts was passed: none was answered otherwise
    raising = raising_at(target.function, lines)
    if raising is None:
        return False
    right = _evaluate(runs, step, stand_in_for, [raising], chosen, time.monotonic() + REPAIR_SECONDS / 2)[0]
    return not any(right)


def _repair_key(runs: Runs, step: Step, result: StepResult, scope_results: dict[str, StepResult]
                ) -> tuple[Target | None, tuple[object, ...], Sequence[Probe], tuple[str, ...]]:
    """The student's function of the step (None: none to edit), what a repair of it is kept by
    (RepairCache: its text, its public answers, the helpers stood in for), the repair plan's
    inputs for the step and the helpers the grader stands in for."""
    submission, plan = runs.submission, runs.plan.repair_plan
    places = submission.places.get(step.name)
    target = target_of(submission.cells, step.name, places[-1] if places else None,
                       steps=frozenset(plan.lab.steps_by_name))
    passing = {name for name, other in scope_results.items() if other.status == "passed"}
    stand_in_for = tuple(h for h in plan.lab.reachable_from(step) if h not in passing) if step.composed else ()
    answered = tuple((c.case, c.label, c.code, c.answer) for c in result.cases if not c.hidden)
    key = (plan.lab.name, step.name, None if target is None else target.key, answered, stand_in_for)
    return target, key, plan.probes[step.name], stand_in_for


def _repair_of(runs: Runs, step: Step, result: StepResult, scope_results: dict[str, StepResult]) -> Repair | None:
    plan = runs.plan.repair_plan
    target, key, probes, stand_in_for = _repair_key(runs, step, result, scope_results)
    if target is None:
        return None
    failing = [(case.case, case.label) for case in result.cases if not case.passed and not case.hidden]
    pivot = next((i for i, probe in enumerate(probes) if (probe.case.name, probe.label) in failing), None)
    # The grader's own time, apart from the submission's (its clock is given it back: _repair_scope).
    until = time.monotonic() + REPAIR_SECONDS

    def evaluate(sources: Sequence[str | None], chosen: Sequence[object]) -> list[list[bool]]:
        return _evaluate(runs, step, stand_in_for, sources, cast("Sequence[Probe]", chosen), until)

    # Another worker of the batch searching the same mistake now: its repair is waited for (the
    # wait, as the search, is the grader's own time, given back to the submission: _repair_scope).
    kept = _REPAIRS.awaited(key, target, until=until)
    if kept is not None and _right_here(runs, step, key, kept, evaluate, probes):
        runs.repaired[step.name] = kept.source
        return kept.repair  # found on another file, and right on this one too (RepairCache)
    until = max(until, time.monotonic() + REPAIR_SECONDS / 2)  # a long wait leaves the search its own time
    target = replace(target, reference=reference_function(plan.lab.solution, step.name),  # for grafts
                     forms=written_forms(plan.lab.solution, step.name))
    with _REPAIRS.searching(key):
        found = search(target=target, probes=probes, pivot=pivot, evaluate=evaluate)
        if found is not None:
            _REPAIRS.put(key, target, found)
            runs.repaired[step.name] = found.source
    if found is None:
        # No small edit repairs it: where its values part from the reference's, if that can be
        # told (repair.values); never kept for another file (its values are this file's tests').
        return _located(runs, step, target, [probe for probe in probes
                                             if (probe.case.name, probe.label) in failing and not probe.case.hidden],
                        stand_in_for, evaluate, until)
    return found.repair


MAX_LOCATING_TESTS = 3  # the failing public tests a place where the values part is read on
MAX_LOCATING_VALUES = 4  # the reference's values right at a line on the first test, tried on the others


def _located(runs: Runs, step: Step, target: Target, tests: list[Probe], stand_in_for: tuple[str, ...],
             evaluate: Callable[[Sequence[str | None], Sequence[object]], list[list[bool]]],
             until: float) -> Repair | None:
    """Where the student's values part from the reference's on the failing public `tests`
    (repair.values.locate), as a repair part that changes nothing; None when it cannot be told."""
    # (imported here: a file whose steps all pass, or are repaired, never needs it)
    from ..core.reading.budget import Reading
    from ..repair.edits import quoted
    from ..repair.values import locate, numpy_name, reference_values, reporting, sites, substituted

    vocabulary = runs.plan.lab.vocabulary
    reference = (vocabulary.functions or {}).get(step.name) if vocabulary is not None else None
    if target.reference is None or reference is None or not tests:
        return None
    tests = tests[:MAX_LOCATING_TESTS]
    ran = [reference_values(target.reference, reference, test.args) for test in tests]
    reporting_source = reporting(target.function, sites(target.function))
    alias = numpy_name([tree for cell in runs.submission.cells if (tree := Reading().parse(cell["source"])) is not None])
    if reporting_source is None or alias is None or any(one is None for one in ran):
        return None
    computed = [one for one in ran if one is not None]
    references = [one.values for one in computed]
    reported = [list(value) if isinstance(value, (list, tuple)) else None
                for value in candidate_values(runs, step, stand_in_for, reporting_source, tests, until)]

    def right_with(site: Site, values: dict[int, object]) -> int | None:
        numbers = list(values)
        sources = [substituted(target.function, site, values[number], alias) for number in numbers]
        tried = [(number, source) for number, source in zip(numbers, sources) if source is not None]
        first = evaluate([source for _, source in tried], tests[:1])
        for number, _ in [pair for pair, right in zip(tried, first) if all(right)][:MAX_LOCATING_VALUES]:
            others = [substituted(target.function, site, reference[number], alias) if number in reference else None
                      for reference in references[1:]]
            if any(other is None for other in others):
                continue
            rows = evaluate(others, tests[1:]) if others else []
            if all(rows[k][k] for k in range(len(others))):
                return number
        return None

    located = locate(target.function, reported, computed, right_with)
    if located is None:
        return None
    return Repair(filename=target.filename, parts=(RepairPart(
        kind=located.claim, line=located.line, before=quoted(located.statement, target.source), after=""),))


KEPT_CHECK_ROOM = 4.0  # the submission's time left, in candidate limits, for kept checks in its public run


def kept_checks(runs: Runs, public: dict[str, StepResult]) -> Iterator[list[Call]]:
    """The public run's last calls: for each plain step that failed its public tests and has a
    repair kept from another file, its candidate on the repair plan's inputs (public and
    generated, never hidden), so that checking it on this file costs no child of its own. Last,
    after every test of the run: a candidate may change the submission's globals. Only with time
    to spare, and the time they take is given back to the submission (as a search's is)."""
    if not repair_on() or runs.clock.until is None:
        return
    checks = piece("checking kept repairs", _kept_for, runs, public).value or {}
    calls = [call for check in checks.values() for call in check.calls]
    groups = len(checks)
    if not calls or runs.clock.until - time.monotonic() < KEPT_CHECK_ROOM * groups * REPAIR_CALL_SECONDS:
        return
    runs.kept_checks = checks
    started = time.monotonic()
    yield calls
    runs.clock.give_back(time.monotonic() - started)


def _kept_for(runs: Runs, public: dict[str, StepResult]) -> dict[str, KeptCheck]:
    checks: dict[str, KeptCheck] = {}
    made = 0
    for step in runs.plan.lab.steps:
        result = public.get(step.name)
        if step.composed or result is None or not repairable(result):
            continue
        target, key, probes, _ = _repair_key(runs, step, result, public)
        kept = _REPAIRS.get(key, target) if target is not None else None
        if kept is None or any(part.kind in GRAFTS for part in kept.repair.parts):
            continue  # a graft holds reference code: it is run in a repair child only
        calls, _ = _candidate_calls(runs, step, (), [kept.source], probes, first_id=REPAIR_IDS + made,
                                    seconds=REPAIR_CALL_SECONDS)
        made += len(calls)
        checks[step.name] = KeptCheck(key=key, source=kept.source, calls=calls, probes=probes)
    return checks


def _right_here(runs: Runs, step: Step, key: tuple[object, ...], kept: Found,
                evaluate: Callable[[Sequence[str | None], Sequence[object]], list[list[bool]]],
                probes: Sequence[Probe]) -> bool:
    """Whether a kept repair's candidate is right on this file: from the public run's last calls
    when it ran there (_kept_checks), else from a run of its own."""
    check = runs.kept_checks.get(step.name)
    if check is not None and check.key == key and check.source == kept.source:
        codes = _codes_of(check.calls, check.probes, runs.outcomes)
        if "not_run" not in codes:
            return all(code is None for code in codes)
    return all(evaluate([kept.source], probes)[0])


def _evaluate(runs: Runs, step: Step, stand_in_for: tuple[str, ...], sources: Sequence[str | None],
              probes: Sequence[Probe], until: float, plan: Plan | None = None) -> list[list[bool]]:
    """Whether each candidate (its source; None: the student's own function) is right on each
    probe of `plan` (by default the repair plan: public and generated inputs only), from one run
    in a fresh child."""
    return [[code is None for code in codes]
            for codes in candidate_codes(runs, step, stand_in_for, sources, probes, until, plan)]


def candidate_codes(runs: Runs, step: Step, stand_in_for: tuple[str, ...], sources: Sequence[str | None],
                    probes: Sequence[Probe], until: float, plan: Plan | None = None,
                    call_seconds: float | None = None) -> list[list[str | None]]:
    """`_evaluate`'s judgement of each call: None where right, else its code (rubric.UNANSWERED: no answer)."""
    plan = plan or runs.plan.repair_plan
    made, outcomes = _candidate_outcomes(runs, step, stand_in_for, sources, probes, until, plan, call_seconds)
    if outcomes is None:
        return [["not_run"] * len(probes) for _ in sources]
    codes = _codes_of(made, probes, outcomes)
    return [codes[k * len(probes):(k + 1) * len(probes)] for k in range(len(sources))]


def candidate_values(runs: Runs, step: Step, stand_in_for: tuple[str, ...], source: str, probes: Sequence[Probe],
                     until: float) -> list[object]:
    """What one candidate returned on each probe, as the child's codec gave it back (None where it
    returned nothing)."""
    made, outcomes = _candidate_outcomes(runs, step, stand_in_for, [source], probes, until, runs.plan.repair_plan)
    found = [(outcomes or {}).get(call.id) for call in made]
    return [outcome.value if outcome is not None and outcome.kind == "returned" else None for outcome in found]


def _candidate_outcomes(runs: Runs, step: Step, stand_in_for: tuple[str, ...], sources: Sequence[str | None],
                        probes: Sequence[Probe], until: float, plan: Plan, call_seconds: float | None = None
                        ) -> tuple[list[Call], dict[int, CallOutcome] | None]:
    """The candidates' calls on `probes` and their outcomes, from one run (None: no time left)."""
    made, tables = _candidate_calls(runs, step, stand_in_for, sources, probes, plan=plan)
    seconds = max(0.0, until - time.monotonic())
    if seconds <= 0:
        return made, None
    limits = replace(runs.limits, step_seconds=min(runs.limits.step_seconds,
                                                   seconds if step.composed else call_seconds or REPAIR_CALL_SECONDS))
    if runs.zygote.doomed():
        runs.zygote.restart()
    # Every public group first, then every hidden one: two children, not one per switch.
    ordered = sorted(made, key=lambda call: not call.public)
    outcome = run(runs.zygote, runs.submission.cells, ordered, limits, StandInAnswers(tables, plan.stand_ins.signatures),
                  functions=plan.lab.function_names, skip=runs.skip, clock=Clock(until=until), evidence=False)
    return made, outcome.calls


def _candidate_calls(runs: Runs, step: Step, stand_in_for: tuple[str, ...], sources: Sequence[str | None],
                     probes: Sequence[Probe], plan: Plan | None = None, first_id: int = REPAIR_IDS,
                     seconds: float | None = None) -> tuple[list[Call], dict[int, Any]]:
    """The calls of each candidate (its source; None: the student's own function) on `probes`,
    with ids from `first_id` on (`seconds`: each candidate's own time limit), and the stand-in
    tables of those that call helpers."""
    plan = plan or runs.plan.repair_plan
    calls, probe_of = plan.calls
    base = {id(probe_of[call.id]): call for call in calls if call.step == step.name}
    made: list[Call] = []
    tables: dict[int, Any] = {}
    # Each candidate as the grader compiled it when it was made: the child need not compile it again.
    codes: dict[str | None, list[str]] = {source: code for source in sources
                                           if source is not None and (code := compiled(source)) is not None}
    for k, source in enumerate(sources):
        for probe in probes:
            call = base[id(probe)]
            new_id = first_id + len(made)
            # A plain step's candidates are steps of their own (each its own time, one child);
            # a composed step's share one: a step graded with stand-ins runs in a child of its own.
            # A child is given public or hidden calls, never both (driver.may_share): a candidate's
            # calls on hidden cases (the build's mutants of the reference) are a group of their own.
            group = f"{step.name} #{0 if step.composed else k}{'' if call.public else ' hidden'}"
            made.append(replace(call, id=new_id, step=group, source=source, seconds=seconds, code=codes.get(source),
                                helpers=tuple(h for h in call.helpers if h in stand_in_for)))
            if call.id in plan.stand_ins.tables:
                tables[new_id] = plan.stand_ins.tables[call.id]
    return made, tables


def _codes_of(made: Sequence[Call], probes: Sequence[Probe], outcomes: dict[int, CallOutcome]) -> list[str | None]:
    """Each candidate call's judgement against its probe: None where right, else its code."""
    judged = [judge_call(probe, outcomes.get(call.id), False, brief=True)
              for call, probe in zip(made, itertools.cycle(probes))]
    return [None if result.passed else (result.code or "wrong") for result in judged]
