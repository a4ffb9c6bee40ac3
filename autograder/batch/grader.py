"""One grading worker: a warm sandbox and the Plan, built once, grading task after task.

A submission may end the sandbox's zygote (its parent). The worker notices, restarts the zygote,
and grades that submission as an error, so the next submission starts on a healthy sandbox.
"""
from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, TypedDict

from ..grading import grade_bytes
from ..grading.plan import Plan
from ..grading.repairs import share_repairs
from ..core.guard import piece
from ..core.file_facts import broken
from ..sandbox import linux
from ..sandbox.runner import Zygote
from ..core.reading.problems import Detail
from .outputs import discard_outputs, record_of, write_outputs
from .saved import Judgement

if TYPE_CHECKING:
    from ..core.verdict import SubmissionResult
    from ..core.lab import Lab
    from ..sandbox.limits import Limits


class _TaskFields(TypedDict):
    student: str
    file: str  # its path in the class
    data: bytes | None  # None when it is not read: `problem` says why
    problem: tuple[str, Detail | str] | None  # (the catalogs' problem code, its detail)
    superseded: list[str]  # paths of the student's older files
    overrides: list[dict[str, Any]]  # the TA's rows for this student (overrides.for_task)
    previous: dict[str, Any] | None  # their last attempt (--previous), or None
    judged: str  # the fingerprint of everything the judged result depends on (outputs.judged_fingerprint)
    key: str  # the fingerprint of everything the outputs depend on (outputs.fingerprint)


class Task(_TaskFields, total=False):
    """One student's submission as the batch hands it to a worker (batch._task)."""

    late: dict[str, Any]  # their lateness and the policy (batch.late_facts)
    saved: Judgement  # the judged result an earlier run saved under this task's `judged`: not run again


def grade_task(task: Task, zygote: Zygote, limits: Limits, plan: Plan) -> tuple[SubmissionResult, str]:
    """(SubmissionResult, status) for one task; never raises for anything the submission does.

    A task with a saved judgement (its file, the grader and the limits as when it was saved) is
    not run: its student's code runs only when something its judged result depends on changed.
    """
    saved = task.get("saved")
    if saved is not None and saved.key == task["judged"]:
        return saved.result, saved.status
    if task["problem"]:
        problem, detail = task["problem"]
        return broken(plan.lab, task["file"], problem, detail), f"broken: {problem}"
    data = task["data"]
    if data is None:  # a task is never made without its bytes or a problem (batch._task): told, never raised
        return broken(plan.lab, task["file"], "unreadable"), "broken: unreadable"
    if zygote.doomed():
        zygote.restart()
    starts = zygote.starts
    result = None
    for _ in range(2):  # a zygote that died for another reason gets one fresh try
        try:
            result = grade_bytes(task["file"], data, zygote, plan, limits)
            break
        except Exception:
            if zygote.starts == starts and not zygote.doomed():
                raise  # the sandbox is fine: the fault is the grader's own
            zygote.restart()
            starts = zygote.starts
    if result is None or zygote.starts != starts or zygote.doomed():
        zygote.restart()
        return broken(plan.lab, task["file"], "crashed"), "error: ended the grading sandbox"
    noted = next((note.problem for note in result.notes if note.code == "problem"), None)
    return result, f"broken: {noted}" if noted else "graded"


def finish(task: Task, result: SubmissionResult, status: str, out_dir: str, lab: Lab,
           lang: str, *, judged: bool = True) -> dict[str, Any]:
    """The student's record, their feedback and results written; never raises.

    Every record of a batch comes from here (a worker's, and the batch's own for a task whose
    worker ended). What cannot be recorded or written (a full disk, a name the file system
    refuses, a fault of the renderer) becomes this student's status, their outputs are removed so
    the next run grades them again, and the class goes on. `judged`: `result` and `status` are what
    grading the submission found (grade_task's, or the pool's when the submission ended or stalled
    its worker), saved to be rendered again; a fault of the grader's own code is not (False), so a
    later run grades that student again rather than rewriting the fault.
    """
    try:
        record = record_of(result, task["student"], task["file"], task["key"], task["superseded"], status,
                           lab, task.get("late"))
    except Exception as error:  # a result the record cannot be made of: graded 0, said why
        judged = False
        result = broken(lab, task["file"], "not_run")
        record = record_of(result, task["student"], task["file"], task["key"], task["superseded"],
                           failure("the grader failed", error), lab, task.get("late"))
    try:
        record = after_grading(task, result, record, lab)
    except Exception as error:  # the automatic record stands; the status says why the rest is missing
        if not record["status"].startswith("error:"):  # an earlier failure's status says more
            record = {**record, "status": failure("overrides or comparison not applied", error)}
    judgement = Judgement(key=task["judged"], status=status, result=result) if judged else None
    try:
        write_outputs(out_dir, result, record, lab, lang, judgement)
    except Exception as error:
        discard_outputs(out_dir, record["id"])
        record = {**record, "status": failure("outputs not written", error)}
    return record


def after_grading(task: Task, result: SubmissionResult, record: dict[str, Any], lab: Lab) -> dict[str, Any]:
    """The record with the submission's code fingerprints (batch.fingerprints), the TA's overrides
    applied (batch.overrides: the one place) and what changed since the last attempt (batch.previous)."""
    from .overrides import apply_overrides
    from .previous import compare, summary_of
    from .fingerprints import code_prints

    prints = piece("the code fingerprints", code_prints, task["file"], task.get("data"), lab.function_names)
    record = {**record, "code": prints.value if prints.made else {"not_computed": prints.failure}}
    record = apply_overrides(record, task.get("overrides") or [], {s.name: s.score for s in result.steps})
    previous = task.get("previous")
    if previous:
        record["since"] = compare(previous["steps"], summary_of(record["steps"]), list(lab.function_names))
        record["since_file"] = previous.get("file", "")
    return record


def failure(what: str, error: BaseException) -> str:
    """A status for grades.csv: "error: <what> (<type>: <message>)", one line, at most 300 characters."""
    detail = " ".join(str(error).split())
    return f"error: {what} ({type(error).__name__}: {detail})"[:300]


class _EndNow(BaseException):
    """The batch asked this worker to end at once (Pool.kill): its zygote is stopped on the way out."""


def _end_now(number: int, frame: object) -> None:
    raise _EndNow


def worker_main(connection: Connection, limits: Limits, lab: Lab, lang: str, out_dir: str, batch_pid: int,
                inherited: Iterable[Connection] = (), zygote: Zygote | None = None, repairs: str | None = None) -> None:
    """Serve tasks from the batch until it sends None or goes away.

    `zygote`: one the batch started before forking this worker, to adopt; else one is started.
    `repairs`: the folder where the batch's workers share the repairs they find; the folder that
    holds it is the run's own, where this worker makes every temporary folder (Pool.run).
    """
    for other in inherited:
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the batch decides how an interrupt ends
    # A group of its own with a zygote it starts, so the batch can end both at once (a zygote it
    # adopted belongs to the batch, which ends and reaps it itself).
    os.setpgid(0, 0)
    # A batch killed with SIGKILL takes its workers along (and so their zygotes and children).
    linux.die_with_parent(batch_pid, 1)
    linux.name_process("grading-worker")
    plan = Plan.build(lab)
    share_repairs(repairs)
    if repairs is not None:
        # The batch's folder for this run (Pool.run): every folder this worker makes goes in it,
        # so that whatever ends the worker, the batch removes them.
        tempfile.tempdir = os.path.dirname(repairs)
    if zygote is None:
        zygote = Zygote()
        zygote.start()
    else:
        zygote.adopt()
    # The batch ends a worker at once with SIGTERM (Pool.kill): its zygote is stopped below, so that
    # its children's folders go with it.
    signal.signal(signal.SIGTERM, _end_now)
    try:
        while True:
            try:
                task = connection.recv()
            except (EOFError, OSError):
                return
            if task is None:
                return
            try:
                result, status = grade_task(task, zygote, limits, plan)
                record = finish(task, result, status, out_dir, lab, lang)
            except Exception as error:  # a fault of the grader, not of the submission
                record = finish(task, broken(lab, task["file"], "not_run"), failure("the grader failed", error),
                                out_dir, lab, lang, judged=False)
            connection.send(record)
    except _EndNow:
        return
    finally:
        zygote.stop()
