"""The runs of one submission's calls in the sandbox, on one clock, and each step judged from them."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..core.file_facts import helpers_used, notes_of_load, syntax_error_near, with_file_facts
from ..core.reading.submission import file_detail
from ..sandbox.runner import Call, Clock, Limits, run
from ..core.verdict import Note
from .hidden import hidden_facts_only
from .plan import ALL

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from ..core.declaration import Probe, Step
    from ..core.reading.submission import Submission
    from ..sandbox.driver import Then
    from ..sandbox.runner import CallOutcome, RunOutcome, Zygote
    from ..core.verdict import CaseResult, StepResult
    from .plan import Plan


class SandboxError(RuntimeError):
    """The sandbox failed before any student code ran; the submission cannot be graded now."""


class Runs:
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
        # call id -> CallOutcome of composed calls run with the lists the student's own passing
        # helpers return made arrays
        self.with_arrays: dict[int, CallOutcome] = {}
        self.notes: list[Note] = []
        # step name -> a repair kept from another file, run on this one as the public run's last calls
        self.kept_checks: dict[str, KeptCheck] = {}
        # Whether a step's function is shown to compute (judge_step's `computes`), asked with the
        # step, its scope and its tests' results so far; None: never (grading.repairs.computes).
        self.computes: Callable[[Step, str, list[CaseResult]], bool] | None = None
        # step name -> the source of the candidate its repair was found with (grading.repairs)
        self.repaired: dict[str, str] = {}

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
        outcome = run_calls(self.zygote, self.submission, first, self.limits, self.plan, skip=self.skip,
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
        computes = self.computes
        shown = None if computes is None else (lambda cases: computes(step, scope, cases))
        return _judged(step, self.loaded, outcomes, self.submission, self.notes,  # type: ignore[arg-type]
                       self.plan, self.limits, scope, passing, shown)


@dataclass(frozen=True)
class KeptCheck:
    """A repair kept from another file (RepairCache), run on this file's public run's child
    (grading.repairs.kept_checks)."""

    key: tuple[object, ...]
    source: str
    calls: list[Call]
    probes: Sequence[Probe]



def run_calls(zygote: Zygote, submission: Submission, calls: list[Call], limits: Limits, plan: Plan,
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
            passing: frozenset[str] | None = None,
            computes: Callable[[list[CaseResult]], bool] | None = None) -> StepResult:
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
                          scope=scope, evidence=evidence, computes=computes)
    result = with_file_facts(result, file_detail(step.name, result.status, submission, plan.lab.function_names,
                                                 defined_at))
    if result.status == "timeout":
        result = replace(result, seconds=limits.step_seconds)
    if passing is not None and result.status != "missing":
        result = replace(result, helpers=helpers_used(step.calls, passing, outcomes, reachable=reachable))
    return hidden_facts_only(result, submission, lab_names=plan.lab.function_names)
