"""Grading one submission: plan the calls, run them in the sandbox, judge the outcomes."""
from __future__ import annotations

import builtins
import itertools
import json
import os
import re
import time
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, cast

from .case_detail import HiddenRaised, Raised, RaisedError, Refusal
from .guard import piece
from .helpers import StandInAnswers
from .repair import Repair, RepairCache, repair_cases, search, target_of
from .repair.kinds import GRAFTS
from .repair.cases import without_hidden
from .repair.grafts import reference_function
from .rubric import UNANSWERED
from .stand_in import keyword_parameters
from .file_facts import (broken, fits_own_helpers, helpers_used, linked, notes_of_load, syntax_error_near,
                         with_file_facts, written_for_other_lab)
from .judge import judge_call, judge_step
from .sandbox import codec
from .sandbox.runner import Call, Clock, Limits, run
from .reading.problems import os_detail
from .reading.submission import file_detail, read_submission
from .verdict import Note, SubmissionResult

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
    from typing import Any

    from .case_detail import CaseDetail
    from .declaration import Case, Probe, Step
    from .verdict import StepResult
    from .lab import Lab
    from .sandbox.codec import Encoded
    from .sandbox.driver import Then
    from .sandbox.runner import CallOutcome, RunOutcome, Zygote
    from .reading.submission import Submission
    from .repair.search import Found, Target

    # What is known of a step's function before its calls are judged: what the child says it is
    # ("function", "absent", a type's name), whether it is a stub, whether a syntax error is near it.
    Facts = tuple[str, bool, Any]


ALL, PUBLIC = "all", "public"
SCOPES = (ALL, PUBLIC)  # a submission is judged on all its tests, and apart on its public tests alone


@dataclass(frozen=True)
class Plan:
    """Every probe of every step of a lab, built once from its cases and its reference."""

    lab: Lab
    probes: dict[str, list[Probe]]  # step name -> [Probe]

    @classmethod
    def build(cls, lab: Lab, cases: Sequence[Case] | None = None) -> Plan:
        """The plan on `cases`, by default the lab's public cases then its hidden ones."""
        cases = lab.all_cases() if cases is None else cases
        traces = [(case, lab.trace(case)) for case in cases]  # type: ignore[misc]  # a graded lab has its trace
        return cls(lab, {step.name: [p for case, t in traces for p in step.probes(case, t)] for step in lab.steps})

    @cached_property
    def calls(self) -> tuple[list[Call], dict[int, Probe]]:
        """(calls in run order, probe of each call id), encoded once per plan.

        The plain steps come first: every public test of every step, then every hidden test, so
        a child has answered all public tests before it is given any hidden test's input, and
        nothing it says about a public test can carry a hidden value. The composed steps go last,
        in the lab's grading order (each after the steps it calls), each its public tests before
        its hidden ones; the grader answers their helpers itself (`stand_ins`), so the child never
        holds reference code, and by the time it may ask for the other steps' values it has
        answered every other step. A composed call may have stand-ins for every step it reaches
        (a callee that runs as the student's own may call one that did not pass). Each call says
        whether its test is public and its step composed: which calls share a child follows
        from that alone (driver.may_share).
        """
        lab = self.lab
        plain = [step for step in lab.grading_order if not step.composed]
        composed = [step for step in lab.grading_order if step.composed]
        order = [(step, hidden) for hidden in (False, True) for step in plain] + \
            [(step, hidden) for step in composed for hidden in (False, True)]
        signatures = lab.callee_signatures if composed else {}
        calls: list[Call]
        probe_of: dict[int, Probe]
        calls, probe_of = [], {}
        for step, hidden in order:
            helpers = lab.reachable_from(step)
            takes = tuple((name, keyword_parameters(signatures.get(name))) for name in helpers)
            for probe in self.probes[step.name]:
                if probe.case.hidden != hidden:
                    continue
                args = tuple(codec.encode(a) for a in probe.args)
                call = Call(len(calls), step.name, step.name, args, helpers, answer_bytes(args, probe.expected),
                            takes=takes, public=not hidden, composed=step.composed)
                calls.append(call)
                probe_of[call.id] = probe
        return calls, probe_of

    @cached_property
    def repair_plan(self) -> Plan:
        """The plan a repair is checked on: public and generated cases only (autograder.repair)."""
        return Plan.build(self.lab, without_hidden(repair_cases(self.lab)))

    @cached_property
    def stand_ins(self) -> StandInAnswers:
        """The helper requests of a composed call are answered from its own test's table only."""
        calls, probe_of = self.calls
        tables: dict[int, tuple[Any, ...]]  # call id -> its test's stand-in table
        of_case: dict[int, tuple[Any, ...]]  # id of a case -> its table
        tables, of_case = {}, {}
        for call in calls:
            probe = probe_of[call.id]
            if call.helpers and self.lab.stand_ins is not None:
                if id(probe.case) not in of_case:
                    of_case[id(probe.case)] = tuple(self.lab.stand_ins(probe.case, probe.trace))
                tables[call.id] = of_case[id(probe.case)]
        signatures = self.lab.callee_signatures if any(step.composed for step in self.lab.steps) else {}
        return StandInAnswers(tables, signatures)

    @cached_property
    def _call_ids(self) -> dict[tuple[str, str], list[int]]:
        calls, probe_of = self.calls
        ids: dict[tuple[str, str], list[int]] = {(step.name, scope): [] for step in self.lab.steps for scope in SCOPES}
        for call in sorted(calls, key=lambda c: c.id):
            ids[(call.step, ALL)].append(call.id)
            if not probe_of[call.id].case.hidden:
                ids[(call.step, PUBLIC)].append(call.id)
        # In the order of the step's probes (public tests first), whatever the run order.
        order = {id(probe): index for step in self.lab.steps for index, probe in enumerate(self.probes[step.name])}
        return {key: sorted(value, key=lambda i: order[id(probe_of[i])]) for key, value in ids.items()}

    def call_ids(self, step: str, scope: str = ALL) -> list[int]:
        """The ids of a step's calls in `scope` (ALL, or PUBLIC: its public tests only)."""
        return self._call_ids[(step, scope)]

    def in_scope(self, call: Call, scope: str) -> bool:
        return scope == ALL or not self.calls[1][call.id].case.hidden

    @cached_property
    def _verdicts(self) -> dict[tuple[object, ...], StepResult]:
        return {}

    def verdict(self, step: Step, facts: Facts, outcomes: Sequence[CallOutcome | None], variant: Iterable[str] = (),
                scope: str = ALL, evidence: dict[str, Any] | None = None) -> StepResult:
        """judge_step, once per distinct answer: a class mostly repeats a few answers per step.

        Only outcomes the child sent as events are remembered (by their bytes, and the grader's
        own record of refused helper requests); a step that ran out of time is judged afresh,
        its result being completed afterwards.
        """
        events = tuple(o.event if o is not None else None for o in outcomes)
        refusals = tuple(tuple((r["helper"], r["reason"]) for r in o.refused) if o is not None else ()
                         for o in outcomes)
        small = sum(len(e) for e in events if e) <= VERDICT_EVENT_BYTES
        evidence = evidence or {}
        code = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(evidence.items()))
        key = (step.name, scope, facts, tuple(variant), events, refusals, code) \
            if small and (all(events) or facts[0] != "function") else None
        if key is not None and key in self._verdicts:
            return self._verdicts[key]
        _, probe_of = self.calls
        result: StepResult = judge_step(step, [probe_of[i] for i in self.call_ids(step.name, scope)], outcomes, *facts,
                            page=self.lab.page_case, vocabulary=self.lab.vocabulary, evidence=evidence)
        if key is not None:
            if len(self._verdicts) >= MAX_VERDICTS:
                self._verdicts.clear()  # memory stays bounded; the common answers come back first
            self._verdicts[key] = result
        return result

MAX_VERDICTS = 256  # remembered step verdicts per plan, all steps together
VERDICT_EVENT_BYTES = 64 * 1024  # a step's events are remembered with its verdict only when this small
ANSWER_SLACK = 16  # a right answer written as lists of numbers takes about 3 times its encoded size
ANSWER_FLOOR = 64 * 1024


def answer_bytes(encoded_args: Iterable[Encoded], expected: Iterable[object]) -> int:
    """The largest answer event read for a call: the right answer and the arguments sent back
    changed, many times over. Anything larger cannot be a right answer."""
    size = sum(len(codec.dumps(codec.encode(value))) for value in expected)
    size += sum(len(codec.dumps(arg)) for arg in encoded_args)
    return ANSWER_FLOOR + ANSWER_SLACK * size


class SandboxError(RuntimeError):
    """The sandbox failed before any student code ran; the submission cannot be graded now."""


def grade_file(path: str | os.PathLike[str], zygote: Zygote, plan: Plan, limits: Limits = Limits(),
               display_name: str | None = None) -> SubmissionResult:
    """Read and grade one file; unreadable files are graded as broken, never raised."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return broken(plan.lab, display_name or str(path), "unreadable", os_detail(error))
    return grade_bytes(display_name or str(path), data, zygote, plan, limits)


def grade_bytes(name: str, data: bytes, zygote: Zygote, plan: Plan, limits: Limits = Limits()) -> SubmissionResult:
    """Grade one submission's bytes: its steps on all tests, and apart on its public tests alone
    (SubmissionResult.public: what a student may be shown before grades are published)."""
    lab = plan.lab
    submission = read_submission(name, data)
    if submission.problem:
        return broken(lab, name, submission.problem, submission.problem_detail)
    runs = _Runs(zygote, submission, plan, limits)
    results: dict[str, dict[str, StepResult]] = {scope: {} for scope in SCOPES}
    # The public tests first, every run of them (the steps that stand alone, then the composed
    # ones, then those again with the student's own helpers); only then any hidden test. So the
    # public view is final before any process is given a hidden test's input: nothing such a
    # process learns can reach it, whatever the kernel lets processes share.
    repairs: dict[str, Repair | None] = {}
    for scope in (PUBLIC, ALL):
        _judge_scope(runs, scope, results)
        _repair_scope(runs, scope, results, repairs)
    module = missing_module(runs.notes)
    steps = {scope: [_blamed_on_module(results[scope][step.name], module or _module_raised(results[scope][step.name]))
                     for step in lab.steps] for scope in SCOPES}
    result = SubmissionResult(submission=submission.name, steps=steps[ALL], notes=runs.notes, public=steps[PUBLIC])
    if all(step.status == "missing" for step in result.steps):  # maybe another lab's file: told once, by lab
        from .registry import other_lab

        result = written_for_other_lab(result, other_lab(data, lab))
    return result


class _Runs:
    """The runs of one submission's calls: one clock for all of them (the submission's time, and
    each step's: see driver.Clock), the statements to skip learnt along the way, every outcome by
    call id, and the notes of the first load."""

    def __init__(self, zygote: Zygote, submission: Submission, plan: Plan, limits: Limits) -> None:
        self.zygote, self.submission, self.plan, self.limits = zygote, submission, plan, limits
        calls, _ = plan.calls
        # A step's public tests leave its hidden tests a second look (driver.Clock).
        self.clock = Clock(until=time.monotonic() + limits.submission_seconds(len(plan.lab.steps)),
                           later={call.step for call in calls if not call.public})
        self.loaded: RunOutcome | None = None  # the first run: its load names the functions and gives the notes
        self.skip: list[list[int | None]] = []
        # call id -> CallOutcome, as graded (stand-ins where helpers failed)
        self.outcomes: dict[int, CallOutcome] = {}
        # call id -> CallOutcome of composed calls run with the student's own helpers
        self.with_own: dict[int, CallOutcome] = {}
        self.notes: list[Note] = []
        # step name -> a repair kept from another file, run on this one as the public run's last calls
        self.kept_checks: dict[str, _KeptCheck] = {}

    def run(self, batches: Iterable[list[Call]], into: dict[int, CallOutcome]) -> None:
        """Make the calls of `batches`, one batch after another, in one run: as few children as
        driver.may_share allows. A batch is taken from `batches` once the outcomes of those before
        it are in `into` (a generator judges them in between)."""
        pending = iter(batches)
        public = [True]  # whether every call given in this run is a public test's

        def then(outcome: RunOutcome | None = None) -> list[Call]:
            if outcome is not None:
                self._take(outcome, into, public[0])
            calls = next((batch for batch in pending if batch), [])
            public[0] = public[0] and all(call.public for call in calls)
            return calls

        if self.loaded is None:
            first = next(pending, [])  # the first run loads the cells, even with no call to make
            public[0] = all(call.public for call in first)
        else:
            first = then()
            if not first:
                return
            if self.zygote.doomed():
                self.zygote.restart()  # the file stopped or ended the sandbox itself: a fresh one for the rest
        outcome = _run(self.zygote, self.submission, first, self.limits, self.plan, skip=self.skip,
                       clock=self.clock, evidence=self.loaded is None, then=then)
        self._take(outcome, into, public[0])

    def _take(self, outcome: RunOutcome, into: dict[int, CallOutcome], public: bool) -> None:
        """What a run learnt so far: its outcomes, the statements to skip, and (the first run's)
        the load notes."""
        self.skip = outcome.skip
        into.update(outcome.calls)
        if self.loaded is None or self.loaded is outcome:
            self.loaded = outcome
            self.notes = notes_of_load(outcome.load_events, self.submission) + \
                [note for note in self.notes if note.code == "time_spent"]
        if outcome.spent and public and not any(note.code == "time_spent" for note in self.notes):
            # Told only while the public tests run: when hidden tests run out of it, their
            # "not run" says so, after grades are published.
            self.notes.append(Note(code="time_spent", seconds=self.limits.submission_seconds(len(self.plan.lab.steps))))

    def judged(self, step: Step, scope: str, outcomes: dict[int, CallOutcome], passing: frozenset[str] | None = None
               ) -> StepResult:
        # Judged only after the first run, which sets `loaded`.
        return _judged(step, self.loaded, outcomes, self.submission, self.notes,  # type: ignore[arg-type]
                       self.plan, self.limits, scope, passing)


def _judge_scope(runs: _Runs, scope: str, results: dict[str, dict[str, StepResult]]) -> None:
    """Run the calls of `scope`'s own tests (PUBLIC: the public ones; ALL: the hidden ones, after
    the public ones ran) and judge every step on all of `scope`'s tests."""
    runs.run(_scope_batches(runs, scope, results), runs.outcomes)
    composed = [step.name for step in runs.plan.lab.grading_order if step.composed]
    _with_own_helpers(runs, scope, results, composed)


def _scope_batches(runs: _Runs, scope: str, results: dict[str, dict[str, StepResult]]) -> Iterator[list[Call]]:
    """The calls of `scope`'s own tests, batch by batch, each judged once its outcomes are in
    (when the next batch is asked for): the plain steps, then each composed step."""
    plan, lab = runs.plan, runs.plan.lab
    calls, _ = plan.calls
    public = scope == PUBLIC
    yield [c for c in calls if not c.composed and c.public == public]
    for step in lab.steps:
        if not step.composed:
            results[scope][step.name] = runs.judged(step, scope, runs.outcomes)
    # The composed steps, each after the steps it calls: it calls the student's own functions
    # where those passed this scope's tests (on a public test, the public ones; on a hidden test,
    # all), plain or composed, and the grader's stand-ins elsewhere.
    own = {name for name, result in results[scope].items() if result.status == "passed"}
    for step in (step for step in lab.grading_order if step.composed):
        yield [replace(c, helpers=tuple(h for h in c.helpers if h not in own))
               for c in calls if c.step == step.name and c.public == public]
        results[scope][step.name] = linked(step, runs.judged(step, scope, runs.outcomes, passing=frozenset(own)),
                                           results[scope])
        if results[scope][step.name].status == "passed":
            own.add(step.name)
    if public:
        yield from _kept_checks(runs, results[scope])


def _with_own_helpers(runs: _Runs, scope: str, results: dict[str, dict[str, StepResult]], composed: list[str]) -> None:
    """Composed steps that failed with the grader standing in for some helpers, run once more with
    every helper the student's own: right that way, the step only follows its helpers' mistakes
    (Q, V, K returned and unpacked in that order), and is told so (see judge.fits_own_helpers)."""
    plan = runs.plan
    # Not after a timeout: the step's time is spent (driver.Clock).
    again = [name for name in composed if results[scope][name].status in ("failed", "error")
             and _answered_by_stand_ins(results[scope][name])]
    calls, _ = plan.calls
    runs.run([[replace(c, helpers=()) for c in calls
               if c.step in again and plan.in_scope(c, scope) and c.id not in runs.with_own]], runs.with_own)
    for name in again:
        step = plan.lab.steps_by_name[name]
        results[scope][name] = fits_own_helpers(step, results[scope][name], runs.judged(step, scope, runs.with_own))


REPAIRABLE = ("failed", "error")
# Besides the calls that gave no answer (rubric.UNANSWERED: a child stopped or gone, a helper
# request refused), what a small edit cannot mend and every candidate would repeat at the limits.
NOT_REPAIRABLE_ERRORS = frozenset({"MemoryError"})
REPAIR_SECONDS = 30.0  # a safety net only (an edit that makes a loop endless): the search is bounded by its counts
REPAIR_CALL_SECONDS = 2.0  # the most one candidate of a plain step runs, on every input it is given
REPAIR_IDS = 1 << 40  # candidate calls' ids, apart from every plan's own
REPAIR_SWITCH = "AUTOGRADER_REPAIR"
_REPAIRS = RepairCache()


class FolderStore:
    """A `RepairStore` in a directory the graders of one batch share (the batch's pool makes it
    and removes it): one JSON file per entry, written whole and then renamed, so a reader finds a
    complete entry or none. Nothing in it is read as code; a child never sees it."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def read(self, name: str) -> object | None:
        try:
            with open(os.path.join(self.folder, name + ".json"), encoding="utf-8") as handle:
                return cast(object, json.load(handle))
        except (OSError, ValueError):
            return None

    def write(self, name: str, data: object) -> None:
        path = os.path.join(self.folder, name + ".json")
        partial = f"{path}.{os.getpid()}.part"
        try:
            with open(partial, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.replace(partial, path)
        except OSError:
            pass  # a full disk costs the other worker a search, never a grade


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


def _repair_scope(runs: _Runs, scope: str, results: dict[str, dict[str, StepResult]],
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


def _repair_key(runs: _Runs, step: Step, result: StepResult, scope_results: dict[str, StepResult]
                ) -> tuple[Target | None, tuple[object, ...], Sequence[Probe], tuple[str, ...]]:
    """The student's function of the step (None: none to edit), what a repair of it is kept by
    (RepairCache: its text, its public answers, the helpers stood in for), the repair plan's
    inputs for the step and the helpers the grader stands in for."""
    submission, plan = runs.submission, runs.plan.repair_plan
    places = submission.places.get(step.name)
    target = target_of(submission.cells, step.name, places[-1] if places else None)
    passing = {name for name, other in scope_results.items() if other.status == "passed"}
    stand_in_for = tuple(h for h in plan.lab.reachable_from(step) if h not in passing) if step.composed else ()
    answered = tuple((c.case, c.label, c.code, c.answer) for c in result.cases if not c.hidden)
    key = (plan.lab.name, step.name, None if target is None else target.key, answered, stand_in_for)
    return target, key, plan.probes[step.name], stand_in_for


def _repair_of(runs: _Runs, step: Step, result: StepResult, scope_results: dict[str, StepResult]) -> Repair | None:
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

    kept = _REPAIRS.get(key, target)
    if kept is not None and _right_here(runs, step, key, kept, evaluate, probes):
        return kept.repair  # found on another file, and right on this one too (RepairCache)
    target = replace(target, reference=reference_function(plan.lab.solution, step.name))  # for grafts
    found = search(target=target, probes=probes, pivot=pivot, evaluate=evaluate)
    if found is None:
        return None
    _REPAIRS.put(key, target, found)
    return found.repair


@dataclass(frozen=True)
class _KeptCheck:
    """A repair kept from another file (RepairCache), run on this file's public run's child."""

    key: tuple[object, ...]
    source: str
    calls: list[Call]
    probes: Sequence[Probe]


KEPT_CHECK_ROOM = 4.0  # the submission's time left, in candidate limits, for kept checks in its public run


def _kept_checks(runs: _Runs, public: dict[str, StepResult]) -> Iterator[list[Call]]:
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


def _kept_for(runs: _Runs, public: dict[str, StepResult]) -> dict[str, _KeptCheck]:
    checks: dict[str, _KeptCheck] = {}
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
        checks[step.name] = _KeptCheck(key=key, source=kept.source, calls=calls, probes=probes)
    return checks


def _right_here(runs: _Runs, step: Step, key: tuple[object, ...], kept: Found,
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


def _evaluate(runs: _Runs, step: Step, stand_in_for: tuple[str, ...], sources: Sequence[str | None],
              probes: Sequence[Probe], until: float, plan: Plan | None = None) -> list[list[bool]]:
    """Whether each candidate (its source; None: the student's own function) is right on each
    probe of `plan` (by default the repair plan: public and generated inputs only), from one run
    in a fresh child."""
    return [[code is None for code in codes]
            for codes in candidate_codes(runs, step, stand_in_for, sources, probes, until, plan)]


def candidate_codes(runs: _Runs, step: Step, stand_in_for: tuple[str, ...], sources: Sequence[str | None],
                    probes: Sequence[Probe], until: float, plan: Plan | None = None,
                    call_seconds: float | None = None) -> list[list[str | None]]:
    """`_evaluate`'s judgement of each call: None where right, else its code (rubric.UNANSWERED: no answer)."""
    plan = plan or runs.plan.repair_plan
    made, tables = _candidate_calls(runs, step, stand_in_for, sources, probes, plan=plan)
    seconds = max(0.0, until - time.monotonic())
    if seconds <= 0:
        return [["not_run"] * len(probes) for _ in sources]
    limits = replace(runs.limits, step_seconds=min(runs.limits.step_seconds,
                                                   seconds if step.composed else call_seconds or REPAIR_CALL_SECONDS))
    if runs.zygote.doomed():
        runs.zygote.restart()
    # Every public group first, then every hidden one: two children, not one per switch.
    ordered = sorted(made, key=lambda call: not call.public)
    outcome = run(runs.zygote, runs.submission.cells, ordered, limits, StandInAnswers(tables, plan.stand_ins.signatures),
                  functions=plan.lab.function_names, skip=runs.skip, clock=Clock(until=until), evidence=False)
    codes = _codes_of(made, probes, outcome.calls)
    return [codes[k * len(probes):(k + 1) * len(probes)] for k in range(len(sources))]


def _candidate_calls(runs: _Runs, step: Step, stand_in_for: tuple[str, ...], sources: Sequence[str | None],
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
    for k, source in enumerate(sources):
        for probe in probes:
            call = base[id(probe)]
            new_id = first_id + len(made)
            # A plain step's candidates are steps of their own (each its own time, one child);
            # a composed step's share one: a step graded with stand-ins runs in a child of its own.
            # A child is given public or hidden calls, never both (driver.may_share): a candidate's
            # calls on hidden cases (the build's mutants of the reference) are a group of their own.
            group = f"{step.name} #{0 if step.composed else k}{'' if call.public else ' hidden'}"
            made.append(replace(call, id=new_id, step=group, source=source, seconds=seconds,
                                helpers=tuple(h for h in call.helpers if h in stand_in_for)))
            if call.id in plan.stand_ins.tables:
                tables[new_id] = plan.stand_ins.tables[call.id]
    return made, tables


def _codes_of(made: Sequence[Call], probes: Sequence[Probe], outcomes: dict[int, CallOutcome]) -> list[str | None]:
    """Each candidate call's judgement against its probe: None where right, else its code."""
    judged = [judge_call(probe, outcomes.get(call.id), False, brief=True)
              for call, probe in zip(made, itertools.cycle(probes))]
    return [None if result.passed else (result.code or "wrong") for result in judged]


MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")


def _answered_by_stand_ins(result: StepResult) -> bool:
    """Whether the grader's stand-ins answered some of a composed step's helpers."""
    return result.helpers is not None and bool(result.helpers.reference or result.helpers.nested_reference)


def missing_module(notes: Iterable[Note]) -> str | None:
    """The module an import of the file could not find, if one."""
    for note in notes:
        if note.code == "load_error" and note.type in ("ModuleNotFoundError", "ImportError"):
            found = MISSING_MODULE.search(note.message or "")
            if found:
                return found.group(1)
    return None


def _module_raised(result: StepResult) -> str | None:
    """The module a step's own import (inside the function) could not find, if one."""
    for case in result.cases:
        detail = None if case.passed else case.detail
        if isinstance(detail, Raised) and detail.error.type == "ModuleNotFoundError":
            found = MISSING_MODULE.search(detail.error.message)
            if found:
                return found.group(1)
    return None


def _blamed_on_module(result: StepResult, module: str | None) -> StepResult:
    """A step that failed on a NameError after an import failed, or on an import of its own:
    the missing module is the likely cause."""
    if not module:
        return result
    errors = [c.detail.error.type for c in result.cases if not c.passed and isinstance(c.detail, Raised)]
    if result.status not in ("error", "missing") or (
            not {"NameError", "ModuleNotFoundError"} & set(errors) and result.status != "missing"):
        return result
    return replace(result, mistakes=["missing_module"] + [m for m in result.mistakes if m not in ("missing_module", "exception")],
                   module=module)


def _run(zygote: Zygote, submission: Submission, calls: list[Call], limits: Limits, plan: Plan,
         skip: Iterable[list[int | None]] = (), clock: Clock | None = None, evidence: bool = True,
         then: Then | None = None) -> RunOutcome:
    outcome = run(zygote, submission.cells, calls, limits, plan.stand_ins,
                  functions=plan.lab.function_names, skip=skip, clock=clock, evidence=evidence, then=then)
    if any(event.get("ev") == "sandbox_failed" for event in outcome.load_events):
        # The child died before running a line of the submission: the grader's fault, not the student's.
        raise SandboxError("the sandbox could not start a process to run the submission in")
    return outcome


def _judged(step: Step, loaded: RunOutcome, outcomes_by_id: dict[int, CallOutcome], submission: Submission,
            notes: list[Note], plan: Plan, limits: Limits, scope: str = ALL,
            passing: frozenset[str] | None = None) -> StepResult:
    """The step's verdict on the tests of `scope` from the outcomes of its calls (`loaded`: the
    run whose load names the functions); a composed step run with the student's own functions
    where they are `passing` says which helpers were the student's own."""
    ids = plan.call_ids(step.name, scope)
    outcomes = [outcomes_by_id.get(i) for i in ids]
    # Whether the function is a stub matters only for a call that returned None.
    stub = any(o is not None and o.kind == "returned" and o.value is None for o in outcomes) \
        and step.name in submission.stubs(plan.lab.function_names)
    facts = (loaded.names.get(step.name, "absent"), stub, syntax_error_near(step.name, notes, submission))
    reachable = plan.lab.reachable_from(step) if passing is not None else ()
    evidence = dict(loaded.evidence.get(step.name) or {})
    defined_at = evidence.pop("defined_at", None)
    # `reachable` is empty where `passing` is None.
    result = plan.verdict(step, facts, outcomes,
                          variant=tuple(h for h in reachable if h not in passing),  # type: ignore[operator]
                          scope=scope, evidence=evidence)
    result = with_file_facts(result, file_detail(step.name, result.status, submission, plan.lab.function_names,
                                                 defined_at))
    if result.status == "timeout":
        result = replace(result, seconds=limits.step_seconds)
    if passing is not None and result.status != "missing":
        result = replace(result, helpers=helpers_used(step.calls, passing, outcomes, reachable=reachable))
    return hidden_facts_only(result, submission, lab_names=plan.lab.function_names)


def hidden_facts_only(result: StepResult, submission: Submission, *, lab_names: Collection[str]) -> StepResult:
    """`result` with each hidden test's detail reduced to what the grader itself knows.

    A child given a hidden test's inputs can put them into anything it sends (an error's message,
    its type's name, a traceback's source line, a returned object's type name) and can choose
    where it raises (a line and a function among thousands of its own, many bits each); none of
    that may reach a student. A hidden test keeps its code, and of an error only a type the grader
    can name (Python's own exceptions, or a class the submission's text defines); never where. Of a
    refused stand-in request, its reason and the helper's name only when it is one of the lab's
    functions (`lab_names`): any other name is the child's choice, made after seeing the inputs.
    """
    if not any(case.hidden and case.detail is not None for case in result.cases):
        return result
    cases = [replace(case, detail=_hidden_detail(case.detail, submission, lab_names=lab_names)) if case.hidden
             else case for case in result.cases]
    return replace(result, cases=cases)


def _hidden_detail(detail: CaseDetail | None, submission: Submission, *, lab_names: Collection[str]
                   ) -> HiddenRaised | None:
    if not isinstance(detail, Raised):
        return None
    refused = detail.refused
    if refused is not None:
        refused = Refusal(helper=refused.helper if refused.helper in lab_names else "", reason=refused.reason)
    return HiddenRaised(error=RaisedError(type=_known_type(detail.error.type, submission), message=""),
                        refused=refused)


def _known_type(name: object, submission: Submission) -> str:
    """Python's own exception names only: a class the submission defines is one of as many names as
    it cares to define, chosen by what it saw."""
    if isinstance(name, str) and name.isidentifier() and \
            isinstance(getattr(builtins, name, None), type) and issubclass(getattr(builtins, name), BaseException):
        return name
    return "Exception"
