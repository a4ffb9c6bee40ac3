"""Worker processes that survive their submissions: a worker that dies or stops answering costs
the task it was grading (an error row) and a fresh worker takes its place."""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from types import FrameType
from multiprocessing.connection import wait
from multiprocessing.context import ForkContext
from typing import TYPE_CHECKING, Any

from ..sandbox.child_pipes import MACHINE_WAIT_FACTOR
from ..sandbox.runner import MAX_RESTARTS
from ..sandbox.workdirs import remove_tree
from ..core.file_facts import broken
from .grader import Task, finish, worker_main

if TYPE_CHECKING:
    from ..core.lab import Lab
    from ..sandbox.limits import Limits
    from ..sandbox.zygote_client import Zygote

OnRecord = Callable[[dict[str, Any]], None]

QUEUED_PER_WORKER = 2  # one grading, one waiting, so a worker never idles between tasks
SLACK_SECONDS = 30
END_GRACE_SECONDS = 5  # an interrupted worker's own ending: its children killed, their folders removed


def task_budget(limits: Limits) -> float:
    """Seconds one task may take at most: every restart the runner allows, each at its limit, and
    each deadline moved as far as a busy machine may move it (child_pipes.MACHINE_WAIT_FACTOR)."""
    at_limits = (MAX_RESTARTS + 1) * (limits.load_seconds + limits.step_seconds) + 6 * limits.step_seconds
    return (1 + MACHINE_WAIT_FACTOR) * at_limits + SLACK_SECONDS


@contextlib.contextmanager
def termination_interrupts() -> Iterator[None]:
    """SIGTERM and SIGHUP end the grading as Ctrl-C does (KeyboardInterrupt, then Pool.kill): the
    workers ended with their children's folders, what was graded kept for the next run, the run said
    to be interrupted. Without this, `kill`, `timeout` or a closed terminal ended the batch on the
    spot and left its folders behind."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()

    def interrupt(number: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:  # a process forked meanwhile: the default, as if never installed
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
            return
        raise KeyboardInterrupt

    previous = {number: signal.signal(number, interrupt) for number in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP held back (in this thread) until the block ends, then delivered."""
    held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class Worker:
    def __init__(self, context: ForkContext, limits: Limits, lab: Lab, lang: str, out_dir: str,
                 others: Iterable[Worker] = (), zygote: Zygote | None = None, repairs: str | None = None) -> None:
        self.connection, theirs = context.Pipe()
        # A forked worker holds copies of the batch's pipe ends; it closes them to see the batch go.
        inherited = [self.connection, *(other.connection for other in others)]
        self.process = context.Process(target=worker_main, daemon=True,
                                       args=(theirs, limits, lab, lang, out_dir, os.getpid(), inherited, zygote, repairs))
        self.process.start()
        theirs.close()
        self.tasks: deque[Task] = deque()
        self.asked_to_stop = False
        # when the task it is grading now reached the head of its queue (read only while it has tasks)
        self.head_since = 0.0

    def send(self, task: Task) -> bool:
        """False when the worker is gone; the task then stays the caller's."""
        try:
            self.connection.send(task)
        except OSError:
            return False
        if not self.tasks:
            self.head_since = time.monotonic()
        self.tasks.append(task)
        return True

    def overdue(self, budget: float, now: float) -> bool:
        return bool(self.tasks) and now - self.head_since > budget

    def ask_to_stop(self) -> None:
        if self.asked_to_stop:
            return
        self.asked_to_stop = True
        try:
            self.connection.send(None)
        except OSError:
            pass

    def stop(self, timeout: float = 5) -> None:
        self.ask_to_stop()
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()

    def end_now(self) -> None:
        """Ask the worker to end at once: it ends its children and removes their folders (worker_main)."""
        if self.process.is_alive():
            try:
                os.kill(self.process.pid, signal.SIGTERM)  # type: ignore[arg-type]  # alive: it has a pid
            except OSError:
                pass

    def kill(self, grace_until: float = 0.0) -> None:
        """The worker and everything it started (a zygote it started shares its process group), once
        the worker has ended or `grace_until` (time.monotonic) has passed."""
        self.process.join(max(0.0, grace_until - time.monotonic()))
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # type: ignore[arg-type]  # started: it has a pid
        except OSError:
            pass
        self.process.kill()
        self.process.join()
        self.connection.close()


class Pool:
    """`jobs` graders fed from an iterator of tasks; every task yields exactly one record."""

    def __init__(self, jobs: int, limits: Limits, lab: Lab, lang: str, out_dir: str, budget: float | None = None,
                 zygotes: Iterable[Zygote] = ()) -> None:
        # fork: workers start warm with everything already imported, in milliseconds.
        self._context = multiprocessing.get_context("fork")
        self._settings = (limits, lab, lang, out_dir)
        self._budget = task_budget(limits) if budget is None else budget
        self._jobs = max(1, jobs)
        self._workers: list[Worker] = []
        self._zygotes = list(zygotes)  # started early by the batch: the first workers adopt them
        self._repairs: str | None = None  # the folder the workers share repairs in, while run() runs
        self._killed = False  # stopped or killed: the workers are gone (close and kill, once)

    def run(self, tasks: Iterator[Task], on_record: OnRecord) -> None:
        # One folder of the run's own holds every temporary folder its workers make (their
        # children's working folders: worker_main's `tempfile.tempdir`) and the repairs one worker
        # finds, shared with the others (autograder.grading.repairs.FolderStore). It goes at the end
        # whatever ended the run (a worker killed on the way leaves its folders in it).
        base = tempfile.mkdtemp(prefix="autograder-batch-")
        try:
            # Each child's folder inside is its own user's: the sandbox users may pass, never list.
            os.chmod(base, 0o711)
            repairs = os.path.join(base, "repairs")
            os.mkdir(repairs, 0o700)
            self._repairs = repairs
            self._run(tasks, on_record)
            self.close()  # the workers stop, their zygotes with them, before their folder goes
        except BaseException:
            self.kill()  # ... and so when the run is interrupted (its caller says so)
            raise
        finally:
            self._repairs = None
            with _signals_held():  # an interrupt now comes once the folder is gone
                remove_tree(base)

    def _run(self, tasks: Iterator[Task], on_record: OnRecord) -> None:
        waiting: deque[Task] = deque()  # handed out before new tasks are drawn: retries of a dead worker's queue
        first = next(tasks, None)
        if first is None:
            return  # nothing to grade: no worker is started at all
        waiting.append(first)
        for index in range(self._jobs):
            zygote = self._zygotes[index] if index < len(self._zygotes) else None
            self._workers.append(Worker(self._context, *self._settings, others=self._workers, zygote=zygote,
                                        repairs=self._repairs))
        drawn_all = False
        while True:
            for worker in self._workers:
                while len(worker.tasks) < QUEUED_PER_WORKER:
                    if not waiting and not drawn_all:
                        task = next(tasks, None)
                        if task is None:
                            drawn_all = True
                        else:
                            waiting.append(task)
                    if not waiting:
                        break
                    task = waiting.popleft()
                    if not worker.send(task):
                        waiting.appendleft(task)  # never delivered: not this task's fault
                        break
            busy = [w for w in self._workers if w.tasks]
            if not busy and not waiting and drawn_all:
                return
            if busy:
                now = time.monotonic()
                soonest = min(w.head_since + self._budget for w in busy)
                wait([w.connection for w in busy] + [w.process.sentinel for w in busy], max(0.0, soonest - now))
            now = time.monotonic()
            for index, worker in enumerate(self._workers):
                alive = self._drain(worker, on_record)
                if not alive or not worker.process.is_alive():
                    self._drain(worker, on_record)
                    self._replace(index, waiting, on_record, "error: ended the grading process")
                elif worker.overdue(self._budget, now):
                    self._replace(index, waiting, on_record, "error: grading did not finish in time")

    def _drain(self, worker: Worker, on_record: OnRecord) -> bool:
        """Take every record the worker has sent; False when its end of the pipe is gone."""
        try:
            while worker.tasks and worker.connection.poll():
                record = worker.connection.recv()
                worker.tasks.popleft()
                worker.head_since = time.monotonic()
                on_record(record)
        except (EOFError, OSError):
            return False
        return True

    def _replace(self, index: int, waiting: deque[Task], on_record: OnRecord, status: str) -> None:
        """The task being graded ended or stalled the worker: it becomes an error; the queued ones go again."""
        worker = self._workers[index]
        worker.kill()
        if index < len(self._zygotes):
            self._zygotes[index].reap()  # the zygote it had adopted, if any: the new one starts its own
        if worker.tasks:
            task = worker.tasks.popleft()
            limits, lab, lang, out_dir = self._settings
            # A task rewritten from its saved judged result ran no student code: its worker's end is
            # not the submission's doing, so it is not saved as its judgement (the next run grades it).
            on_record(finish(task, broken(lab, task["file"], "crashed"), status, out_dir, lab, lang,
                             judged="saved" not in task))
            waiting.extendleft(reversed(worker.tasks))
        others = [w for w in self._workers if w is not worker]
        self._workers[index] = Worker(self._context, *self._settings, others=others, repairs=self._repairs)

    def close(self) -> None:
        """Stop every worker once it has sent what it graded. Once only (as kill)."""
        if self._killed:
            return
        self._killed = True
        for worker in self._workers:  # all at once: each then stops its zygote meanwhile
            worker.ask_to_stop()
        for worker in self._workers:
            worker.stop()

    def kill(self) -> None:
        """End every worker now (an interrupted run): each is asked first, so that its children's
        folders go with it, and killed after END_GRACE_SECONDS if it has not ended. Once only."""
        if self._killed:
            return
        self._killed = True
        for worker in self._workers:
            worker.end_now()
        grace_until = time.monotonic() + END_GRACE_SECONDS
        for worker in self._workers:
            worker.kill(grace_until)
        for zygote in self._zygotes:
            zygote.reap()
