"""Worker processes that survive their submissions: a dead worker's task becomes an error and a
fresh worker takes its place."""
import multiprocessing
from collections import deque
from multiprocessing.connection import wait

from .grader import ended_sandbox, finish, worker_main

QUEUED_PER_WORKER = 2  # one grading, one waiting, so a worker never idles between tasks


class Worker:
    def __init__(self, context, limits, lang, out_dir):
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=worker_main, args=(theirs, limits, lang, out_dir), daemon=True)
        self.process.start()
        theirs.close()
        self.tasks = deque()

    def send(self, task):
        """False when the worker is gone; the task then stays the caller's."""
        try:
            self.connection.send(task)
        except OSError:
            return False
        self.tasks.append(task)
        return True

    def stop(self, timeout=5):
        try:
            self.connection.send(None)
        except OSError:
            pass
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()

    def kill(self):
        self.process.kill()
        self.process.join()
        self.connection.close()


class Pool:
    """`jobs` graders fed from an iterator of tasks; every task yields exactly one record."""

    def __init__(self, jobs, limits, lang, out_dir):
        # fork: workers start warm with everything already imported, in milliseconds.
        self._context = multiprocessing.get_context("fork")
        self._settings = (limits, lang, out_dir)
        self._jobs = max(1, jobs)
        self._workers = []

    def run(self, tasks, on_record):
        waiting = deque()  # handed out before new tasks are drawn: retries of a dead worker's queue
        first = next(tasks, None)
        if first is None:
            return  # nothing to grade: no worker is started at all
        waiting.append(first)
        self._workers = [Worker(self._context, *self._settings) for _ in range(self._jobs)]
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
                wait([w.connection for w in busy] + [w.process.sentinel for w in busy])
            for index, worker in enumerate(self._workers):
                alive = self._drain(worker, on_record)
                if not alive or not worker.process.is_alive():
                    self._drain(worker, on_record)
                    self._replace(index, waiting, on_record)

    def _drain(self, worker, on_record):
        """Take every record the worker has sent; False when its end of the pipe is gone."""
        try:
            while worker.tasks and worker.connection.poll():
                record = worker.connection.recv()
                worker.tasks.popleft()
                on_record(record)
        except (EOFError, OSError):
            return False
        return True

    def _replace(self, index, waiting, on_record):
        """The task being graded ended the worker: it becomes an error; the queued ones go again."""
        worker = self._workers[index]
        if worker.tasks:
            task = worker.tasks.popleft()
            limits, lang, out_dir = self._settings
            on_record(finish(task, ended_sandbox(task["file"]), "error: ended the grading process", out_dir, lang))
            waiting.extendleft(reversed(worker.tasks))
        worker.kill()
        self._workers[index] = Worker(self._context, *self._settings)

    def close(self):
        for worker in self._workers:
            worker.stop()

    def kill(self):
        for worker in self._workers:
            worker.kill()
