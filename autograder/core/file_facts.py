"""What a step's verdict takes from beyond its own calls: the other steps (a composed step's
helpers, a mistake named with a helper's) and the file (where its function is defined, a file
that could not be graded, a file written for another lab).
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from . import rubric
from .guard import safe_name
from .judge import mistakes_in_order
from .reading.problems import as_detail
from .verdict import (LOAD_CODES, HELPER_LISTS_AS_ARRAYS, CaseResult, FollowsOwnHelpers, HelperUse, Note, Outcome,
                      Redefined, StepResult, SubmissionResult)

if TYPE_CHECKING:
    from .declaration import Step
    from .lab import Lab
    from .reading.submission import Submission


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


def again_with_own_helpers(result: StepResult) -> bool:
    """Whether a composed step's verdict calls for its calls once more with every helper the
    student's own (then `fits_own_helpers`): it failed or raised while the grader's stand-ins
    answered some helpers. Not after a timeout: the step's time is spent. The grader and the
    students' kit both ask this, so both tell the same."""
    return result.status in ("failed", "error") and result.helpers is not None and \
        bool(result.helpers.reference or result.helpers.nested_reference)


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


def again_with_arrayed_helpers(result: StepResult) -> bool:
    """Whether a composed step's verdict calls for its calls once more with the lists the student's
    own helpers return made arrays (then `fits_arrayed_helpers`): it failed or raised while calling
    some of the student's own helpers, whose steps passed, and was not found to follow them
    (`fits_own_helpers`). Not after a timeout: the step's time is spent. The grader and the
    students' kit both ask this, so both tell the same."""
    return result.status in ("failed", "error") and result.helpers is not None and bool(result.helpers.own) \
        and result.follows_own_helpers is None


def arrayed_helpers(lab: Lab, own: Collection[str]) -> dict[str, int]:
    """{each of the student's own passing helpers `own` whose outputs are all arrays: how many}: the
    helpers whose returned lists are made arrays (worker.returning_arrays)."""
    return {name: len(step.outputs) for name, step in lab.steps_by_name.items()
            if name in own and all(output.kind == "array" for output in step.outputs)}


def fits_arrayed_helpers(result: StepResult, with_arrays: StepResult) -> StepResult:
    """`result` of a composed step that failed calling some of the student's own helpers (their
    steps pass); `with_arrays`, the same step with the lists those helpers return made arrays
    (worker.returning_arrays).

    Right on every test that way, the step's own code is right: what it stumbles on is a list a
    passing helper returns where an array is asked, which that helper's own tests accept; a form one
    step's tests accept costs no points in another. The step passes, and keeps the helpers it
    called for the words (`follows_own_helpers`, code HELPER_LISTS_AS_ARRAYS). Anything short of
    right that way leaves `result` as it is: what the step itself hands its helpers stays its own."""
    if result.status in ("passed", "missing") or with_arrays.status != "passed":
        return result
    own = (result.helpers or HelperUse()).own
    return replace(with_arrays, helpers=result.helpers,
                   follows_own_helpers=FollowsOwnHelpers(code=HELPER_LISTS_AS_ARRAYS, helpers=own))


def _failures_named(step: Step, result: StepResult, code: str) -> StepResult:
    """`result` with every failed case named `code`, and scored again by the step's rubric."""
    cases = [replace(c, code=code) if not c.passed else c for c in result.cases]
    points, rule = rubric.score(step.points, cases, step.named_codes(), (), step.rubric or rubric.DEFAULT)
    return replace(result, cases=cases, mistakes=mistakes_in_order(cases), score=points, rubric=rule)


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
    notes = [Note(code="problem", problem=code, detail=as_detail(detail))]
    return SubmissionResult(submission=safe_name(name), steps=steps, notes=notes)


def written_for_other_lab(result: SubmissionResult, note: Note | None) -> SubmissionResult:
    """`result` of a file written for another lab (`note`: registry.other_lab's verdict, a load
    note of code "other_lab"), when it defines none of the graded lab's functions: every step
    missing. Then the note is the file's one problem, told once above the steps, and each step
    says only that (`file_problem` "other_lab"), never "check the function's spelling" per step.
    Any other result is returned as it is."""
    if note is None or not result.steps or any(step.status != "missing" for step in result.steps):
        return result
    steps = [replace(step, file_problem="other_lab") for step in result.steps]
    return SubmissionResult(submission=result.submission, steps=steps, notes=[note])


def notes_of_load(events: Iterable[Mapping[str, Any]], submission: Submission) -> list[Note]:
    """The loading events of a run (a syntax error, a skipped statement: LOAD_CODES) as notes on
    the file; an event of any other code says nothing to a student and is left out."""
    notes = []
    for event in events:
        code = next((known for known in LOAD_CODES if known == event.get("ev")), None)
        if code is None:
            continue
        cell, filename = event.get("cell"), None
        if isinstance(cell, int) and 0 <= cell < len(submission.cells):
            filename = submission.cells[cell]["filename"]
        else:
            cell = None
        kind, message = (str(event[key])[:300] if key in event else None for key in ("type", "message"))
        notes.append(Note(code=code, filename=filename, cell=cell, line=event.get("line"), type=kind, message=message))
    return notes


def syntax_error_near(name: str, notes: Iterable[Note], submission: Submission) -> bool:
    """Whether a cell defining `name` failed to parse (then the function is missing for that reason)."""
    return any(note.code == "syntax_error" and note.cell is not None
               and f"def {name}" in submission.cells[note.cell]["source"] for note in notes)
