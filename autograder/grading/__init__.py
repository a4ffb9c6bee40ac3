"""Grading one submission: plan the calls, run them in the sandbox, judge the outcomes.

The public tests first, then the hidden ones (`grade_bytes`); the plan of a lab's calls is
`grading.plan`, the runs of one submission `grading.runs`, the repair search's runs
`grading.repairs`, what a hidden test keeps `grading.hidden`.
"""
from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.case_detail import Raised
from ..core.file_facts import (again_with_arrayed_helpers, again_with_own_helpers, arrayed_helpers, broken,
                               fits_arrayed_helpers, fits_own_helpers, linked, written_for_other_lab)
from ..core.reading.problems import os_detail
from ..core.reading.submission import read_submission
from ..sandbox.runner import Limits
from ..core.verdict import SubmissionResult
from .plan import ALL, PUBLIC, SCOPES, Plan
from .repairs import computes, kept_checks, repair_scope
from .runs import Runs

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ..core.repair_record import Repair
    from ..sandbox.runner import Call, Zygote
    from ..core.verdict import Note, StepResult


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
    runs = Runs(zygote, submission, plan, limits)
    results: dict[str, dict[str, StepResult]] = {scope: {} for scope in SCOPES}
    repairs: dict[str, Repair | None] = {}
    # A step right only where its inputs can be known is fitted to them, unless its own code is
    # shown to compute (its smallest repair: judge_step's `computes`).
    runs.computes = lambda step, scope, cases: computes(runs, step, scope, cases, results, repairs)
    # The public tests first, every run of them (the steps that stand alone, then the composed
    # ones, then those again with the student's own helpers); only then any hidden test. So the
    # public view is final before any process is given a hidden test's input: nothing such a
    # process learns can reach it, whatever the kernel lets processes share.
    for scope in (PUBLIC, ALL):
        _judge_scope(runs, scope, results)
        repair_scope(runs, scope, results, repairs)
    module = missing_module(runs.notes)
    steps = {scope: [_blamed_on_module(results[scope][step.name], module or _module_raised(results[scope][step.name]))
                     for step in lab.steps] for scope in SCOPES}
    result = SubmissionResult(submission=submission.name, steps=steps[ALL], notes=runs.notes, public=steps[PUBLIC])
    if all(step.status == "missing" for step in result.steps):  # maybe another lab's file: told once, by lab
        from ..registry import other_lab

        result = written_for_other_lab(result, other_lab(data, lab))
    return result


def _judge_scope(runs: Runs, scope: str, results: dict[str, dict[str, StepResult]]) -> None:
    """Run the calls of `scope`'s own tests (PUBLIC: the public ones; ALL: the hidden ones, after
    the public ones ran) and judge every step on all of `scope`'s tests."""
    runs.run(_scope_batches(runs, scope, results), runs.outcomes)
    composed = [step.name for step in runs.plan.lab.grading_order if step.composed]
    _with_own_helpers(runs, scope, results, composed)
    _with_arrayed_helpers(runs, scope, results, composed)


def _scope_batches(runs: Runs, scope: str, results: dict[str, dict[str, StepResult]]) -> Iterator[list[Call]]:
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
        yield from kept_checks(runs, results[scope])


def _with_own_helpers(runs: Runs, scope: str, results: dict[str, dict[str, StepResult]], composed: list[str]) -> None:
    """Composed steps that failed with the grader standing in for some helpers, run once more with
    every helper the student's own: right that way, the step only follows its helpers' mistakes
    (Q, V, K returned and unpacked in that order), and is told so (file_facts.again_with_own_helpers
    and fits_own_helpers, which the students' kit asks too)."""
    plan = runs.plan
    again = [name for name in composed if again_with_own_helpers(results[scope][name])]
    calls, _ = plan.calls
    runs.run([[replace(c, helpers=()) for c in calls
               if c.step in again and plan.in_scope(c, scope) and c.id not in runs.with_own]], runs.with_own)
    for name in again:
        step = plan.lab.steps_by_name[name]
        results[scope][name] = fits_own_helpers(step, results[scope][name], runs.judged(step, scope, runs.with_own))


def _with_arrayed_helpers(runs: Runs, scope: str, results: dict[str, dict[str, StepResult]],
                          composed: list[str]) -> None:
    """Composed steps that failed calling some of the student's own helpers (their steps pass), run
    once more with the lists those helpers return made arrays: right that way, the step only stumbles
    on the form a passing helper gives its values in (a list where an array is asked, which its own
    tests accept), which costs no points here (file_facts.again_with_arrayed_helpers and
    fits_arrayed_helpers, which the students' kit asks too)."""
    plan = runs.plan
    again = [name for name in composed if again_with_arrayed_helpers(results[scope][name])]
    if not again:
        return
    own = {name for name, result in results[scope].items() if result.status == "passed"}
    arrayed = arrayed_helpers(plan.lab, own)
    calls, _ = plan.calls
    runs.run([[replace(c, helpers=tuple(h for h in c.helpers if h not in own),
                       arrayed=tuple((h, arrayed[h]) for h in c.helpers if h in arrayed))
               for c in calls if c.step in again and plan.in_scope(c, scope) and c.id not in runs.with_arrays]],
             runs.with_arrays)
    for name in again:
        step = plan.lab.steps_by_name[name]
        results[scope][name] = fits_arrayed_helpers(results[scope][name],
                                                    runs.judged(step, scope, runs.with_arrays, passing=frozenset(own)))


MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")


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
