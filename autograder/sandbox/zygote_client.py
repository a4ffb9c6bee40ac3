"""The grader's handle on a zygote process (see zygote.py): start it, spawn children, clean up."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from typing import TYPE_CHECKING

from ..core.child import codec
from . import launch
from .child_pipes import Child, widen_pipe
from .limits import AUTO, sandbox_enabled
from .processes import AdoptedProcess, kill_processes_of, process_doomed
from .user_pool import take_user
from .workdirs import Remover, fresh_workdir, remove_tree

if TYPE_CHECKING:
    from io import BufferedReader
    from typing import Any, TextIO

    from .child_pipes import ReadBudget
    from .limits import Limits


class Zygote:
    """A warm forking server (see zygote.py); use as a context manager.

    As root (and unless AUTOGRADER_SANDBOX=off) it holds one user id of the pool (see user_pool)
    for its children, and after every run kills whatever that user id still runs.

    A process may start a zygote and fork the one that uses it (see adopt): the zygote then
    loads numpy and pandas while the starting process still loads its own modules.
    """

    starts = 0

    def __init__(self, python: str = sys.executable) -> None:
        self._python = python
        self._process: subprocess.Popen[bytes] | AdoptedProcess | None = None
        # the Popen, kept by the process that started it, to reap it
        self._started_here: subprocess.Popen[bytes] | AdoptedProcess | None = None
        self._control: socket.socket | None = None
        self._uid_lock: TextIO | None = None
        self._remover: Remover | None = None
        # user -> the one working folder of all its runs (see workdir_for)
        self._homes: dict[tuple[int, ...] | None, str] = {}
        self.sandbox_user: tuple[int, int] | None = None  # (uid, gid) children run as, when the grader is root
        self.confinement: dict[str, Any] = {}  # what the zygote reported it can do: landlock ABI, network
        self.sweeps = 0  # how many sweeps so far: a child alive before one is gone after it (driver.run)

    def __enter__(self) -> Zygote:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self, launched: tuple[subprocess.Popen[bytes] | AdoptedProcess, socket.socket] | None = None) -> None:
        """Start the zygote; or take over `launched`, one launch.start_zygote started earlier."""
        self.starts += 1
        if self.sandbox_user is None and os.geteuid() == 0 and sandbox_enabled():
            self.sandbox_user, self._uid_lock = take_user()
        self._process, self._control = launched or launch.start_zygote(self._python)
        self._started_here = self._process
        self._reader: BufferedReader = self._control.makefile("rb")

    def stop(self) -> None:
        self._stop_process()
        self.sweep()
        for home in self._homes.values():
            remove_tree(home)
        self._homes.clear()
        if self._remover is not None:
            self._remover.finish()
            self._remover = None
        if self._uid_lock is not None:
            self._uid_lock.close()
            self._uid_lock = None
            self.sandbox_user = None

    def _stop_process(self) -> None:
        if self._process is None:
            return
        self._reader.close()
        self._control.close()  # type: ignore[union-attr]  # a process: started, so connected
        if isinstance(self._process, AdoptedProcess):
            # Other processes forked by the starter hold its socket too, so it would never see
            # the end of it: it is killed (it has nothing to save; its children die with it).
            self._process.kill()
            self._process.wait(timeout=5)
            self._process.close()
        else:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None

    def adopt(self) -> None:
        """Take over, after a fork, a zygote the parent process started.

        Only the parent can reap it (see reap); here it is watched through a pidfd.
        """
        if self._process is not None:
            self._process = AdoptedProcess(self._process.pid)
        self._started_here = None

    def reap(self) -> None:
        """In the process that started it, once the one that adopted it is done: end and reap it."""
        process, self._started_here = self._started_here, None
        if process is None:
            return
        for handle in (self._reader, self._control, self._uid_lock):
            if handle is not None:
                handle.close()
        process.kill()
        process.wait()

    def restart(self) -> None:
        if self.alive() and self.doomed():
            self._process.kill()  # type: ignore[union-attr]  # alive: there is one; stopped or dying: waiting for it to exit could take long
        self.stop()
        self.start()

    def doomed(self) -> bool:
        """Dead, exiting, stopped, or holding a signal not yet acted on (sent by the last submission).

        A signal is pending from the moment kill() returns, so this sees a kill sent during the
        last run even when the zygote has not died yet, and the next submission is not blamed.
        """
        if not self.alive():
            return True
        return process_doomed(self._process.pid)  # type: ignore[union-attr]  # alive: there is one

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def user_for(self, limits: Limits) -> tuple[int, ...] | None:
        """Who a child runs as under `limits` (None: the grader's own user)."""
        if os.geteuid() != 0 or not sandbox_enabled():
            return None
        if limits.user == AUTO:
            return self.sandbox_user
        return None if limits.user is None else tuple(int(x) for x in limits.user)

    def spawn(self, workdir: str, limits: Limits, budget: ReadBudget | None = None) -> Child:
        for attempt in range(2):
            if not self.alive():
                self._stop_process()  # keeps its user id: the run's folder belongs to it
                self.start()
            try:
                return self._spawn(workdir, limits, budget)
            except (OSError, ValueError, KeyError, RuntimeError):
                self._kill_zygote()  # a zygote that answers wrongly is replaced, once
        raise RuntimeError("the sandbox's zygote process stopped")

    def _spawn(self, workdir: str, limits: Limits, budget: ReadBudget | None = None) -> Child:
        command_r, command_w = os.pipe()
        pipe_bytes = widen_pipe(command_w)
        event_r, event_w = os.pipe()
        user = self.user_for(limits)
        request = {"workdir": workdir, "limits": limits.for_child(), "user": user,
                   "confine": bool(limits.confine) and sandbox_enabled(),
                   "private_disk": workdir in self._homes.values()}
        try:
            socket.send_fds(self._control,  # type: ignore[arg-type]  # alive: started, so connected
                            [codec.dumps(request).encode()], [command_r, event_w])
            reply = self._reader.readline()
        except BaseException:
            os.close(command_w)
            os.close(event_r)
            raise
        finally:
            os.close(command_r)
            os.close(event_w)
        if not reply:
            os.close(command_w)
            os.close(event_r)
            raise RuntimeError("the sandbox's zygote process stopped")
        answer = codec.loads(reply.decode())
        pid = int(answer["pid"])
        if pid <= 0:  # never a pid to signal: kill(-1) would reach every process
            os.close(command_w)
            os.close(event_r)
            raise RuntimeError("the sandbox's zygote sent no child")
        self.confinement = {k: answer.get(k) for k in ("landlock", "network_isolated", "private_disk")}
        # A user id of the pool, locked for this zygote, runs nothing but its one child: any other
        # process of it is the submission's. The shared fallback user (nobody) is no such user.
        own_user = self.sandbox_user[0] if self.sandbox_user is not None and user == self.sandbox_user \
            and self._uid_lock is not None else None
        return Child(pid, command_w, event_r, pipe_bytes, budget, own_user=own_user)

    def _kill_zygote(self) -> None:
        if self._process is not None:
            try:
                self._process.kill()
            except OSError:
                pass

    def workdir_for(self, limits: Limits) -> str:
        """The folder the next run works in.

        Once the zygote has said that each child mounts a private disk of its own on its folder
        (root, with a disk limit), nothing a child writes reaches the folder itself, so one
        folder serves every run (and the child refuses to start if it cannot mount). Otherwise
        each run gets a new folder, removed after it (see discard).
        """
        user = self.user_for(limits)
        if not (self.confinement.get("private_disk") and limits.disk_bytes):
            return fresh_workdir(user)
        if user not in self._homes:
            self._homes[user] = fresh_workdir(user)
        return self._homes[user]

    def discard(self, workdir: str) -> None:
        """Delete a run's working directory soon, off the grading path (not a shared one).

        While the killed child still dies, removing its folder waits on the kernel to detach the
        child's private disk (about a millisecond); nothing needs the folder gone sooner.
        """
        if workdir in self._homes.values():
            return
        if self._remover is None:
            self._remover = Remover()
        self._remover.remove(workdir)

    def sweep(self) -> None:
        """Kill every process still running as this zygote's own user id (children never linger)."""
        self.sweeps += 1
        if self.sandbox_user is not None:
            kill_processes_of(self.sandbox_user[0])
