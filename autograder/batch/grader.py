"""One grading worker: a warm sandbox and the Plan, built once, grading task after task.

A submission may end the sandbox's zygote (its parent). The worker notices, restarts the zygote,
and grades that submission as an error, so the next submission starts on a healthy sandbox.
"""
import os
import signal

from ..grading import Plan, broken, grade_bytes
from ..sandbox import linux
from ..sandbox.runner import Zygote
from .outputs import record_of, write_outputs


def grade_task(task, zygote, limits, plan):
    """(SubmissionResult, status) for one task; never raises for anything the submission does."""
    if task["problem"]:
        problem, detail = task["problem"]
        return broken(plan.lab, task["file"], problem, detail), f"broken: {problem}"
    if zygote.doomed():
        zygote.restart()
    starts = zygote.starts
    result = None
    for _ in range(2):  # a zygote that died for another reason gets one fresh try
        try:
            result = grade_bytes(task["file"], task["data"], zygote, plan, limits)
            break
        except Exception:
            if zygote.starts == starts and not zygote.doomed():
                raise  # the sandbox is fine: the fault is the grader's own
            zygote.restart()
            starts = zygote.starts
    if result is None or zygote.starts != starts or zygote.doomed():
        zygote.restart()
        return broken(plan.lab, task["file"], "crashed"), "error: ended the grading sandbox"
    problem = next((n["problem"] for n in result.notes if n["code"] == "problem"), None)
    return result, f"broken: {problem}" if problem else "graded"


def finish(task, result, status, out_dir, lab, lang):
    record = record_of(result, task["student"], task["file"], task["key"], task["superseded"], status,
                       lab, task.get("late"))
    write_outputs(out_dir, result, record, lab, lang)
    return record


def worker_main(connection, limits, lab, lang, out_dir, batch_pid, inherited=(), zygote=None):
    """Serve tasks from the batch until it sends None or goes away.

    `zygote`: one the batch started before forking this worker, to adopt; else one is started.
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
    if zygote is None:
        zygote = Zygote()
        zygote.start()
    else:
        zygote.adopt()
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
                record = finish(task, broken(lab, task["file"], "not_run"),
                                f"error: the grader failed ({type(error).__name__}: {error})"[:300], out_dir, lab, lang)
            connection.send(record)
    finally:
        zygote.stop()
