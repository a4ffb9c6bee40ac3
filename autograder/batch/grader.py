"""One grading worker: a warm sandbox and the Plan, built once, grading task after task.

A submission may end the sandbox's zygote (its parent). The worker notices, restarts the zygote,
and grades that submission as an error, so the next submission starts on a healthy sandbox.
"""
import signal
import time

from ..grading import Plan, broken, grade_bytes
from ..judge import CaseResult, StepResult, SubmissionResult
from ..sandbox.runner import Zygote
from ..steps import STEPS
from .outputs import record_of, write_outputs

# How long a crashed run may take to show that it also took the zygote down.
ZYGOTE_DEATH_GRACE = 0.2


class WatchedZygote(Zygote):
    """A Zygote that counts its starts, so a restart during one run is visible afterwards."""

    starts = 0

    def start(self):
        self.starts += 1
        super().start()

    def restart(self):
        self.stop()
        self.start()

    def died_within(self, seconds):
        deadline = time.monotonic() + seconds
        while self.alive():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True


def grade_task(task, zygote, limits, plan):
    """(SubmissionResult, status) for one task; never raises for anything the submission does."""
    if task["problem"]:
        problem, detail = task["problem"]
        return broken(task["file"], problem, detail), f"broken: {problem}"
    if not zygote.alive():
        zygote.restart()
    starts = zygote.starts
    result = None
    for _ in range(2):  # a zygote that died for another reason gets one fresh try
        try:
            result = grade_bytes(task["file"], task["data"], zygote, limits, plan)
            break
        except Exception:
            zygote.restart()
            starts = zygote.starts
    if result is None or zygote.starts != starts or (_crashed(result) and zygote.died_within(ZYGOTE_DEATH_GRACE)):
        if not zygote.alive():
            zygote.restart()
        return ended_sandbox(task["file"]), "error: ended the grading sandbox"
    problem = next((n["problem"] for n in result.notes if n["code"] == "problem"), None)
    return result, f"broken: {problem}" if problem else "graded"


def _crashed(result):
    return (any("crashed" in step.mistakes for step in result.steps)
            or any(note["code"] in ("load_crash", "sandbox_failed") for note in result.notes))


def ended_sandbox(name, code="crashed"):
    """Every step errors: the submission took down the process that grades it."""
    steps = [StepResult(step.name, 0.0, step.points, "error", [code],
                        [CaseResult("page", False, "", False, code)], step.page_step) for step in STEPS]
    return SubmissionResult(name, steps, [])


def finish(task, result, status, out_dir, lang):
    record = record_of(result, task["student"], task["file"], task["key"], task["superseded"], status)
    write_outputs(out_dir, result, record, lang)
    return record


def worker_main(connection, limits, lang, out_dir):
    """Serve tasks from the batch until it sends None or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the batch decides how an interrupt ends
    plan = Plan.build()
    zygote = WatchedZygote()
    zygote.start()
    try:
        while True:
            try:
                task = connection.recv()
            except (EOFError, OSError):
                return
            if task is None:
                return
            result, status = grade_task(task, zygote, limits, plan)
            connection.send(finish(task, result, status, out_dir, lang))
    finally:
        zygote.stop()
