"""The grader's side of the sandbox: start children, feed them calls, enforce time limits.

Everything here returns plain outcome data; judging values happens elsewhere.
"""
import fcntl
import os
import queue
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from . import codec, launch
from .worker import AT_ONCE

# What the grader reads of a child before parsing it: one event over its limit is skipped
# unparsed (an answer that large is a wrong answer), and a run that sends more than
# MAX_RUN_BYTES in all is stopped.
ANSWER_BYTES = 256 * 1024  # a call's answer, unless the plan gives the call its own bound
LOAD_EVENT_BYTES = 64 * 1024  # any event while the cells load (messages are cut at 500 characters)
HELPER_REQUEST_BYTES = 1024 * 1024
MAX_RUN_BYTES = 128 * 1024 * 1024  # the cells load once per child, and may print each time
# Below malloc's mmap threshold: a larger read buffer is mapped and unmapped on every read.
READ_BYTES = 64 * 1024
MAX_RESTARTS = 12
MAX_LOAD_EVENTS = 50
MAX_FRAMES = 5
MAX_REMEMBERED = 16  # decoded outcomes kept per call
REMEMBERED_EVENT_BYTES = 16 * 1024  # only answers this small are remembered
MAX_HELPER_REQUESTS = 32  # helper calls answered per call of a step; later ones get an error
DEFAULT_PIPE_BYTES = 64 * 1024  # Linux's pipe buffer
WIDE_PIPE_BYTES = 256 * 1024
AUTO = "auto"
# Set to "off" to run children as the grader's own user, unconfined (debugging only).
SANDBOX_SWITCH = "AUTOGRADER_SANDBOX"
# As root, each zygote takes one user id of its own from this pool (no other process uses them),
# so a child can signal no one else's process and nothing it leaves behind survives the run.
SANDBOX_UIDS = range(620_000, 620_256)
FALLBACK_USER = (65534, 65534)  # nobody, when the pool cannot be used
ZYGOTE_ENVIRONMENT = launch.ZYGOTE_ENVIRONMENT


@dataclass(frozen=True)
class Limits:
    step_seconds: float = 10.0
    load_seconds: float = 10.0
    memory_bytes: int = 1024 * 1024 * 1024
    file_bytes: int = 16 * 1024 * 1024  # largest file a submission may write
    disk_bytes: int = 64 * 1024 * 1024  # all it may write (as root: its own tmpfs)
    processes: int = 64
    # Who the child runs as when the grader is root: AUTO (an unprivileged user id of the
    # zygote's own), (uid, gid), or None (stay root: debugging only).
    user: object = AUTO
    confine: bool = True  # Landlock: read only Python's files, write only the working directory

    def for_child(self):
        budget = int(self.load_seconds + 6 * self.step_seconds) + 5
        return {"memory_bytes": self.memory_bytes, "cpu_seconds": budget,
                "file_bytes": self.file_bytes, "disk_bytes": self.disk_bytes,
                "processes": self.processes}


def sandbox_enabled():
    return os.environ.get(SANDBOX_SWITCH, "on").strip().lower() not in ("off", "0", "no", "false")


@dataclass(frozen=True)
class Call:
    """One call of a student function on plain arguments."""

    id: int
    step: str
    function: str
    args: tuple  # encoded with codec.encode
    # Step functions the grader answers itself during this call (helper requests): the choice
    # is the grader's, per call; the child's own functions stand for every other name.
    helpers: tuple = ()
    answer_bytes: int = ANSWER_BYTES  # the largest answer event read; a larger one is a wrong answer

    def known(self, event):
        """The outcome already decoded from this very event, if a child sent it before."""
        return self.__dict__.get("_seen", {}).get(event)

    def remember(self, outcome):
        """Keep a decoded outcome for the next child that sends the same bytes.

        Most submissions of a class answer alike, so decoding is mostly skipped. Its arrays are
        made read-only: one outcome object now serves many submissions.
        """
        if outcome.event is None or len(outcome.event) > REMEMBERED_EVENT_BYTES:
            return  # a large answer is rare and costly to keep: it is decoded again if it comes back
        seen = self.__dict__.setdefault("_seen", {})
        if len(seen) >= MAX_REMEMBERED:
            seen.clear()  # memory stays bounded; the common answers come back first
        _freeze(outcome.value)
        for value in outcome.args_after or ():
            _freeze(value)
        seen[outcome.event] = outcome

    @property
    def command(self):
        """The call as one command line for the child (built once: a plan's calls never change)."""
        try:
            return self.__dict__["_command"]
        except KeyError:
            text = codec.dumps({"cmd": "call", "id": self.id, "function": self.function,
                                "args": list(self.args), "helpers": list(self.helpers)}) + "\n"
            object.__setattr__(self, "_command", text)
            return text


def _freeze(value):
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif isinstance(value, (list, tuple)):
        for item in value:
            _freeze(item)
    elif isinstance(value, dict):
        for item in value.values():
            _freeze(item)
    elif isinstance(value, codec.Labelled):
        _freeze(value.values)


@dataclass
class CallOutcome:
    """What happened to one call: returned a value, raised, ran out of time or took the process down."""

    kind: str  # "returned" | "raised" | "timeout" | "crashed" | "not_run"
    value: object = None
    args_after: list = None  # per argument: its value after the call, None when left unchanged
    error: dict = None
    # The child's event, byte for byte: equal events are equal outcomes (see Call.known).
    event: bytes = field(default=None, repr=False, compare=False)


@dataclass
class RunOutcome:
    names: dict = field(default_factory=dict)  # function name -> "function" | "absent" | type name
    load_events: list = field(default_factory=list)  # syntax/load errors and skipped statements
    calls: dict = field(default_factory=dict)  # call id -> CallOutcome
    sandbox: dict = field(default_factory=dict)  # how children were confined: user, landlock, ...


class ChildGone(Exception):
    pass


class OutputSpent(ChildGone):
    """The run has sent more than MAX_RUN_BYTES: nothing more of it is read."""


class HelperRefused(Exception):
    """A helper request the grader does not answer with a value: (type name, message) for the child."""


TOO_LARGE = object()  # next_line's answer for an event over its limit (skipped, never parsed)


class ReadBudget:
    """The bytes one run may still send, over all its children."""

    def __init__(self, total=MAX_RUN_BYTES):
        self.left = total

    @property
    def spent(self):
        return self.left < 0


def parse_event(line):
    try:
        event = codec.loads(line.decode("utf-8"))
    except (ValueError, RecursionError, MemoryError):
        return {"ev": "garbled"}
    return event if isinstance(event, dict) else {"ev": "garbled"}


class Child:
    def __init__(self, pid, command_fd, event_fd, pipe_bytes=DEFAULT_PIPE_BYTES, budget=None):
        self.pid = pid
        self.pipe_bytes = pipe_bytes  # what the command pipe holds: writing less never blocks
        self._commands = command_fd
        os.set_blocking(command_fd, False)  # a child that stops reading cannot stall the grader
        self._events = event_fd
        self._buffer = bytearray()  # read, not yet returned; consumed lines are cut from its front
        self._scanned = 0  # how far _buffer is known to hold no newline
        self._skipping = False  # inside an event over its limit: dropped up to its newline
        self._budget = budget or ReadBudget()
        self._selector = selectors.DefaultSelector()
        self._selector.register(event_fd, selectors.EVENT_READ)

    def send(self, deadline=None, **command):
        self.send_text(codec.dumps(command) + "\n", deadline)

    def send_text(self, text, deadline=None):
        """Write all of `text`; ChildGone when the child is gone or has not read it by `deadline`."""
        data = memoryview(text.encode("utf-8"))
        while data:
            try:
                written = os.write(self._commands, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, OSError, ValueError) as error:
                raise ChildGone() from error
            data = data[written:]
            if data:
                remaining = (deadline if deadline is not None else time.monotonic() + 60) - time.monotonic()
                if remaining <= 0 or not select.select([], [self._commands], [], remaining)[1]:
                    raise ChildGone()

    def next_event(self, deadline, limit=LOAD_EVENT_BYTES):
        """The next event, None when the deadline passes first; ChildGone when the child is gone.

        An event over `limit` bytes reads as garbled (it is never parsed).
        """
        line = self.next_line(deadline, limit)
        if line is TOO_LARGE:
            return {"ev": "garbled"}
        return None if line is None else parse_event(line)

    def next_line(self, deadline, limit=LOAD_EVENT_BYTES):
        """The next event's bytes, without the newline; TOO_LARGE for one over `limit` bytes.

        None and ChildGone as in next_event; OutputSpent once the run has sent too much. Reading
        is linear in what the child sends: each byte is appended once and scanned once.
        """
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n", self._scanned)
            if end >= 0:
                skipped, self._skipping = self._skipping, False
                line = TOO_LARGE if skipped or end > limit else bytes(buffer[:end])
                del buffer[:end + 1]  # cutting a bytearray's front is cheap: no copy of the rest
                self._scanned = 0
                return line
            self._scanned = len(buffer)
            if len(buffer) > limit:
                buffer.clear()  # the rest of this event is dropped as it comes
                self._scanned = 0
                self._skipping = True
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._selector.select(remaining):
                return None
            chunk = os.read(self._events, READ_BYTES)
            if not chunk:
                raise ChildGone()
            self._budget.left -= len(chunk)
            if self._budget.spent:
                raise OutputSpent()
            buffer += chunk

    def kill(self):
        for target in (lambda: os.killpg(self.pid, 9), lambda: os.kill(self.pid, 9)):
            try:
                target()
            except (ProcessLookupError, PermissionError):
                pass
        self.close()

    def close(self):
        self._selector.close()
        for closer in (lambda: os.close(self._commands), lambda: os.close(self._events)):
            try:
                closer()
            except OSError:
                pass


class Zygote:
    """A warm forking server (see zygote.py); use as a context manager.

    As root (and unless AUTOGRADER_SANDBOX=off) it holds one user id from SANDBOX_UIDS for its
    children, and after every run kills whatever that user id still runs.

    A process may start a zygote and fork the one that uses it (see adopt): the zygote then
    loads numpy and pandas while the starting process still loads its own modules.
    """

    starts = 0

    def __init__(self, python=sys.executable):
        self._python = python
        self._process = None
        self._started_here = None  # the Popen, kept by the process that started it, to reap it
        self._control = None
        self._uid_lock = None
        self._remover = None
        self._homes = {}  # user -> the one working folder of all its runs (see workdir_for)
        self.sandbox_user = None  # (uid, gid) children run as, when the grader is root
        self.confinement = {}  # what the zygote reported it can do: landlock ABI, network

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self, launched=None):
        """Start the zygote; or take over `launched`, one launch.start_zygote started earlier."""
        self.starts += 1
        if self.sandbox_user is None and os.geteuid() == 0 and sandbox_enabled():
            self.sandbox_user = self._take_user()
        self._process, self._control = launched or launch.start_zygote(self._python)
        self._started_here = self._process
        self._reader = self._control.makefile("rb")

    def stop(self):
        self._stop_process()
        self.sweep()
        for home in self._homes.values():
            _remove_tree(home)
        self._homes.clear()
        if self._remover is not None:
            self._remover.finish()
            self._remover = None
        if self._uid_lock is not None:
            self._uid_lock.close()
            self._uid_lock = None
            self.sandbox_user = None

    def _stop_process(self):
        if self._process is None:
            return
        self._reader.close()
        self._control.close()
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

    def adopt(self):
        """Take over, after a fork, a zygote the parent process started.

        Only the parent can reap it (see reap); here it is watched through a pidfd.
        """
        if self._process is not None:
            self._process = AdoptedProcess(self._process.pid)
        self._started_here = None

    def reap(self):
        """In the process that started it, once the one that adopted it is done: end and reap it."""
        process, self._started_here = self._started_here, None
        if process is None:
            return
        for handle in (self._reader, self._control, self._uid_lock):
            if handle is not None:
                handle.close()
        process.kill()
        process.wait()

    def restart(self):
        if self.alive() and self.doomed():
            self._process.kill()  # stopped or dying: waiting for it to exit could take long
        self.stop()
        self.start()

    def doomed(self):
        """Dead, exiting, stopped, or holding a signal not yet acted on (sent by the last submission).

        A signal is pending from the moment kill() returns, so this sees a kill sent during the
        last run even when the zygote has not died yet, and the next submission is not blamed.
        """
        if not self.alive():
            return True
        return process_doomed(self._process.pid)

    def alive(self):
        return self._process is not None and self._process.poll() is None

    def user_for(self, limits):
        """Who a child runs as under `limits` (None: the grader's own user)."""
        if os.geteuid() != 0 or not sandbox_enabled():
            return None
        if limits.user == AUTO:
            return self.sandbox_user
        return None if limits.user is None else tuple(int(x) for x in limits.user)

    def spawn(self, workdir, limits, budget=None):
        for attempt in range(2):
            if not self.alive():
                self._stop_process()  # keeps its user id: the run's folder belongs to it
                self.start()
            try:
                return self._spawn(workdir, limits, budget)
            except (OSError, ValueError, KeyError, RuntimeError):
                self._kill_zygote()  # a zygote that answers wrongly is replaced, once
        raise RuntimeError("the sandbox's zygote process stopped")

    def _spawn(self, workdir, limits, budget=None):
        command_r, command_w = os.pipe()
        pipe_bytes = _widen_pipe(command_w)
        event_r, event_w = os.pipe()
        request = {"workdir": workdir, "limits": limits.for_child(), "user": self.user_for(limits),
                   "confine": bool(limits.confine) and sandbox_enabled(),
                   "private_disk": workdir in self._homes.values()}
        try:
            socket.send_fds(self._control, [codec.dumps(request).encode()], [command_r, event_w])
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
        return Child(pid, command_w, event_r, pipe_bytes, budget)

    def _kill_zygote(self):
        if self._process is not None:
            try:
                self._process.kill()
            except OSError:
                pass

    def workdir_for(self, limits):
        """The folder the next run works in.

        Once the zygote has said that each child mounts a private disk of its own on its folder
        (root, with a disk limit), nothing a child writes reaches the folder itself, so one
        folder serves every run (and the child refuses to start if it cannot mount). Otherwise
        each run gets a new folder, removed after it (see discard).
        """
        user = self.user_for(limits)
        if not (self.confinement.get("private_disk") and limits.disk_bytes):
            return _fresh_workdir(user)
        if user not in self._homes:
            self._homes[user] = _fresh_workdir(user)
        return self._homes[user]

    def discard(self, workdir):
        """Delete a run's working directory soon, off the grading path (not a shared one).

        While the killed child still dies, removing its folder waits on the kernel to detach the
        child's private disk (about a millisecond); nothing needs the folder gone sooner.
        """
        if workdir in self._homes.values():
            return
        if self._remover is None:
            self._remover = Remover()
        self._remover.remove(workdir)

    def sweep(self):
        """Kill every process still running as this zygote's own user id (children never linger)."""
        if self.sandbox_user is not None:
            kill_processes_of(self.sandbox_user[0])

    def _take_user(self):
        """Lock one user id of the pool for this zygote; nobody when the pool is unusable."""
        folder = _lock_folder()
        if folder is None or not _uid_usable(SANDBOX_UIDS[-1]):
            return FALLBACK_USER
        for uid in SANDBOX_UIDS:
            handle = open(os.path.join(folder, f"uid-{uid}.lock"), "a")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                continue
            self._uid_lock = handle
            kill_processes_of(uid)  # left over by a grader that died mid-run
            return (uid, uid)
        return FALLBACK_USER


def _widen_pipe(fd):
    """Ask for a command pipe that holds every call of a run; returns what it holds."""
    try:
        return fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, WIDE_PIPE_BYTES)
    except OSError:
        try:
            return fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
        except OSError:
            return DEFAULT_PIPE_BYTES


class AdoptedProcess:
    """The part of Popen a Zygote uses, for a process another process started (through a pidfd)."""

    def __init__(self, pid):
        self.pid = pid
        self._handle = os.pidfd_open(pid)

    def poll(self):
        return -1 if _readable(self._handle, 0) else None

    def wait(self, timeout=None):
        if not _readable(self._handle, timeout):
            raise subprocess.TimeoutExpired("zygote", timeout)
        return -1

    def kill(self):
        try:
            signal.pidfd_send_signal(self._handle, signal.SIGKILL)
        except OSError:
            pass

    def close(self):
        os.close(self._handle)


def _readable(fd, timeout):
    """A pidfd turns readable when its process has exited."""
    return bool(select.select([fd], [], [], timeout)[0])


def process_doomed(pid):
    state = _process_state(pid)
    if state is None:
        return True
    status, flags = state
    if status.get("State", "").strip()[:1] in "ZXxTt" or flags & PF_EXITING:  # T: stopped, it would never answer
        return True
    return any(_pending(status))


def _process_state(pid):
    """(the fields of /proc/PID/status, the task flags of /proc/PID/stat); None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            status = dict(line.split(":", 1) for line in handle if ":" in line)
        with open(f"/proc/{pid}/stat") as handle:
            flags = int(handle.read().rsplit(")", 1)[1].split()[6])
    except (OSError, IndexError, ValueError):
        return None
    return status, flags


def _pending(status):
    """The signal masks pending for the thread and for the whole process."""
    return (int(status.get(key, "0").strip() or "0", 16) for key in ("SigPnd", "ShdPnd"))


def _lock_folder():
    """A folder only root can write, for the locks that hand out user ids."""
    for parent in ("/run", tempfile.gettempdir()):
        folder = os.path.join(parent, "autograder-sandbox")
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            info = os.lstat(folder)
        except OSError:
            continue
        if info.st_uid == 0 and os.path.isdir(folder) and not os.path.islink(folder) \
                and info.st_mode & 0o022 == 0:
            return folder
    return None


def _uid_usable(uid):
    """Whether this user namespace maps `uid` (containers sometimes map only 0..65535)."""
    try:
        with open("/proc/self/uid_map") as handle:
            ranges = [tuple(int(x) for x in line.split()) for line in handle if line.strip()]
    except (OSError, ValueError):
        return False
    return any(inside <= uid < inside + count for inside, _, count in ranges)


def kill_processes_of(uid, rounds=50):
    """SIGKILL every process whose real user id is `uid`, until none can run code (or rounds run out).

    A killed process is not waited for: once the kill is pending it never runs another
    instruction of its own, and its memory is torn down while grading goes on.
    """
    for _ in range(rounds):
        pids = _pids_of(uid)
        if not pids:
            return True
        for pid in pids:
            _kill(pid)
    return False


def _kill(pid):
    try:
        handle = os.pidfd_open(pid)  # a handle, so a reused pid is never the one signalled
    except OSError:
        return  # already gone
    try:
        signal.pidfd_send_signal(handle, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(handle)


PF_EXITING = 0x4  # task flag in /proc/<pid>/stat: the process has begun to exit
SIGKILL_PENDING = 1 << (signal.SIGKILL - 1)


def _pids_of(uid):
    """Processes of `uid` that can still run code: not dead, not exiting, not already killed.

    /proc/PID belongs to the process's user, so a stat finds the candidates cheaply.
    """
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    pids = []
    for name in names:
        if not name.isdigit():
            continue
        try:
            if os.stat(f"/proc/{name}").st_uid != uid:
                continue
        except OSError:
            continue
        state = _process_state(name)
        if state is not None and int(state[0].get("Uid", "-1").split()[0]) == uid and not _finished(*state):
            pids.append(int(name))
    return pids


def _finished(status, flags):
    """Dead, or sure to die: a kill pending for it, or its only thread exiting."""
    if any(mask & SIGKILL_PENDING for mask in _pending(status)):
        return True
    alone = status.get("Threads", "1").strip() in ("0", "1")
    # A leader that has exited while other threads run is a zombie too: those threads still act.
    return alone and (status.get("State", "").strip()[:1] in "ZX" or bool(flags & PF_EXITING))


def run(zygote, cells, calls, limits=Limits(), helper=None, functions=None):
    """Load `cells` in fresh children and make `calls` (grouped by step, in order).

    A statement that hangs or ends the process while loading is skipped on the next try; a step
    whose calls run out of time or end the process costs that step only. `helper(name, args)`
    answers a call's helper requests (see Call.helpers) with an encoded value, or raises
    HelperRefused; without it every helper request is refused. `functions`: the lab's function
    names, each reported in RunOutcome.names (default: the names the calls use); every call's
    function and helpers must be among them.
    """
    functions = lab_functions(calls, functions)
    outcome = RunOutcome()
    skip = []
    pending = _group_by_step(calls)
    seen_load = set()
    restarts = 0
    budget = ReadBudget()
    # Whatever an earlier run left running under the sandbox user is gone before this run starts.
    # (Sweeping before, not after, lets a killed child finish dying while the grader judges.)
    zygote.sweep()
    workdir = zygote.workdir_for(limits)
    try:
        while pending is not None:
            restarts += 1
            if restarts > 1:
                zygote.sweep()
                # Nothing an earlier child wrote reaches the next one (with a private disk per
                # child, the folder is only where each mounts its own).
                zygote.discard(workdir)
                workdir = zygote.workdir_for(limits)
            child = zygote.spawn(workdir, limits, budget)
            try:
                pending = _one_child(child, cells, functions, pending, skip, seen_load, outcome, limits,
                                     helper)
            finally:
                child.kill()
            if pending is not None and (restarts > MAX_RESTARTS or budget.spent):
                for group in pending:
                    for call in group:
                        outcome.calls.setdefault(call.id, CallOutcome("not_run"))
                break
    finally:
        zygote.discard(workdir)
    outcome.sandbox = dict(zygote.confinement, user=zygote.user_for(limits))
    return outcome


def lab_functions(calls, functions=None):
    """The function names a run reports on: `functions`, or those the calls use, in order."""
    used = tuple(dict.fromkeys(name for call in calls for name in (call.function, *call.helpers)))
    if functions is None:
        return used
    functions = tuple(functions)
    if not all(isinstance(name, str) and name.isidentifier() for name in functions):
        raise ValueError(f"function names must be identifiers: {functions!r}")
    unknown = [name for name in used if name not in functions]
    if unknown:
        raise ValueError(f"calls name functions outside {functions!r}: {unknown!r}")
    return functions


def _fresh_workdir(user):
    """An empty folder only the child's user can enter."""
    workdir = tempfile.mkdtemp(prefix="autograder-run-")
    if user is not None:
        os.chown(workdir, user[0], user[1])
    os.chmod(workdir, 0o700)
    return workdir


class Remover:
    """Deletes folders on a thread of its own, in order; finish() waits until all are gone."""

    def __init__(self):
        self._queue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="autograder-remover", daemon=True)
        self._thread.start()

    def remove(self, folder):
        self._queue.put(folder)

    def finish(self):
        self._queue.put(None)
        self._thread.join()

    def _work(self):
        while (folder := self._queue.get()) is not None:
            _remove_tree(folder)


def _remove_tree(folder):
    """Delete a child's working directory, whatever modes the child left on its contents."""
    for root, dirs, _ in os.walk(folder):
        for name in dirs:
            try:
                os.chmod(os.path.join(root, name), 0o700, follow_symlinks=False)
            except (OSError, NotImplementedError):
                pass
    shutil.rmtree(folder, ignore_errors=True)


def _group_by_step(calls):
    groups = []
    for call in calls:
        if groups and groups[-1][0].step == call.step:
            groups[-1].append(call)
        else:
            groups.append([call])
    return groups


def _one_child(child, cells, functions, pending, skip, seen_load, outcome, limits, helper=None):
    """Drive one child; returns the step groups still to run (None when all are done)."""
    current = None
    try:
        module_name = "__main__" if any(c["filename"].startswith("<cell") for c in cells) else "submission"
        deadline = time.monotonic() + limits.load_seconds
        child.send(deadline, cmd="load", cells=cells, skip=skip, module_name=module_name,
                   functions=list(functions))
        while True:
            event = child.next_event(deadline)
            if event is None:
                return _skip_statement(current, "load_timeout", skip, outcome, pending)
            kind = event.get("ev")
            if kind == "stmt":
                current = (_small_int(event.get("cell")), _small_int(event.get("stmt")),
                           _small_int(event.get("line")))
            elif kind in ("syntax_error", "load_error"):
                event = _plain_load_event(event)
                key = (kind, event.get("cell"), event.get("stmt"))
                if key not in seen_load and len(seen_load) < MAX_LOAD_EVENTS:
                    seen_load.add(key)
                    outcome.load_events.append(event)
            elif kind == "loaded":
                outcome.names = _plain_names(event.get("names"), functions)
                break
    except ChildGone:
        return _skip_statement(current, "load_crash", skip, outcome, pending)

    runnable = [(index, group) for index, group in enumerate(pending)
                if outcome.names.get(group[0].function) == "function"]
    # A step's calls are sent only once the step before it has answered: the commands a child
    # can read hold the inputs of the step it is answering, never another step's answer (one
    # step's input is often an earlier step's right answer). A step graded with helpers runs in
    # a child of its own: the other steps' inputs may hold its answers (a composed step returns
    # what its last part returns), and its helpers answer the other steps.
    for position, (index, group) in enumerate(runnable):
        alone = bool(group[0].helpers)
        if alone and position > 0:
            return pending[index:]
        clock = StepClock(time.monotonic() + limits.step_seconds)
        try:
            sent = _send_calls(child, group, clock.deadline)
        except ChildGone:
            sent = True  # each call below then reads as crashed
        for number, call in enumerate(group):
            try:
                result = _await_call(child, call, clock, sent, helper)
            except ChildGone:
                result = CallOutcome("crashed")
            outcome.calls[call.id] = result
            if result.kind in ("timeout", "crashed"):
                for later in group[number + 1:]:
                    outcome.calls[later.id] = CallOutcome("not_run")
                return pending[index + 1:] or None
        if alone:
            return pending[index + 1:] or None
    return None


class StepClock:
    """A step's deadline; time the grader spends answering the step's helper requests is added."""

    def __init__(self, deadline):
        self.deadline = deadline


def _skip_statement(current, reason, skip, outcome, pending):
    """Note the statement that hung or ended the process; the next child skips it."""
    if current is None:
        # No statement of the submission had started: retrying cannot help.
        outcome.load_events.append({"ev": "sandbox_failed"})
        return None
    cell, stmt, line = current
    skip.append([cell, stmt])
    if stmt != AT_ONCE:  # a cell run at once is run statement by statement next: nothing to say yet
        outcome.load_events.append({"ev": reason, "cell": cell, "stmt": stmt, "line": line})
    return pending


def _send_calls(child, group, deadline):
    """Send a step's calls at once when they fit the pipe; the child answers them in order."""
    text = "".join(call.command for call in group)
    if len(text) >= child.pipe_bytes // 2:
        return False
    child.send_text(text, deadline)
    return True


def _await_call(child, call, clock, sent, helper=None):
    if not sent:
        child.send_text(call.command, clock.deadline)
    helped = 0
    while True:
        line = child.next_line(clock.deadline, max(call.answer_bytes, HELPER_REQUEST_BYTES))
        if line is None:
            return CallOutcome("timeout")
        if line is TOO_LARGE:
            # Far larger than any right answer: a wrong one, never parsed.
            return CallOutcome("returned", value=codec.Opaque("answer too large to read"),
                               args_after=[None] * len(call.args))
        known = call.known(line)
        if known is not None:
            return known
        event = parse_event(line)
        kind = event.get("ev")
        if kind == "helper":
            helped += 1
            started = time.monotonic()
            _answer_helper(child, call, event, helper, helped, clock.deadline)
            if helped <= MAX_HELPER_REQUESTS:  # refusals are not added: a flood of them still ends
                clock.deadline += time.monotonic() - started
            continue
        if event.get("id") != call.id:
            continue
        if len(line) > call.answer_bytes:
            return CallOutcome("returned", value=codec.Opaque("answer too large to read"),
                               args_after=[None] * len(call.args))
        if kind == "returned":
            args_after = event.get("args_after")
            if not isinstance(args_after, list) or len(args_after) != len(call.args):
                # Only a forged event lacks the arguments: it must not dodge the mutation check.
                return CallOutcome("crashed")
            outcome = CallOutcome("returned", value=codec.decode(event.get("value")),
                                  args_after=[None if a is None else codec.decode(a) for a in args_after],
                                  event=line)
        elif kind == "raised":
            outcome = CallOutcome("raised", error=_plain_error(event), event=line)
        else:
            continue
        call.remember(outcome)
        return outcome


def _answer_helper(child, call, event, helper, count, deadline):
    """Answer one helper request of the running call: a value, or an error the child raises.

    Everything in the request is untrusted: only the call's own helpers, a bounded number of
    times, with arguments the helper checks (see grading's reference helpers).
    """
    seq = _small_int(event.get("seq"))
    name, args = event.get("name"), event.get("args")
    if event.get("id") != call.id or name not in call.helpers or helper is None:
        answer = {"error": {"type": "NameError", "message": f"{_plain_text(name, 40)!r} is not answered here"}}
    elif count > MAX_HELPER_REQUESTS:
        answer = {"error": {"type": "RuntimeError", "message": f"more than {MAX_HELPER_REQUESTS} helper calls"}}
    elif not isinstance(args, list) or len(args) > 8:
        answer = {"error": {"type": "TypeError", "message": "unreadable arguments"}}
    else:
        key = (helper, name, codec.dumps(args))
        answer = _HELPER_ANSWERS.get(key)
        if answer is None:
            try:
                answer = {"value": helper(name, [codec.decode(a) for a in args])}
            except HelperRefused as refused:
                kind, message = refused.args
                answer = {"error": {"type": kind, "message": message}}
            if len(key[2]) <= REMEMBERED_EVENT_BYTES:
                if len(_HELPER_ANSWERS) >= MAX_HELPER_ANSWERS:
                    _HELPER_ANSWERS.clear()
                _HELPER_ANSWERS[key] = answer
    child.send(deadline, cmd="helper_answer", seq=seq, **answer)


# A class asks mostly the same helper questions: answers are kept by the request's exact text.
_HELPER_ANSWERS = {}
MAX_HELPER_ANSWERS = 256


def _small_int(value):
    return value if type(value) is int and AT_ONCE <= value < 10**7 else None


def _plain_text(value, limit):
    """A string from the child, cut short and without control characters; "" for anything else."""
    return codec.clean_text(value, limit) if isinstance(value, str) else ""


def _plain_names(names, functions):
    """What the child says each of `functions` is: those names only, short strings only."""
    if not isinstance(names, dict):
        return {}
    return {name: _plain_text(names.get(name), 60) or "absent" for name in functions}


def _plain_load_event(event):
    plain = {"ev": event.get("ev"), "cell": _small_int(event.get("cell")),
             "stmt": _small_int(event.get("stmt")), "line": _small_int(event.get("line")),
             "message": _plain_text(event.get("message"), 500)}
    if event.get("ev") == "load_error":
        plain.update(_plain_error(event))
    return plain


def _plain_error(event):
    frames = event.get("frames")
    frames = [f for f in frames if isinstance(f, list) and len(f) == 4][-MAX_FRAMES:] \
        if isinstance(frames, list) else []
    return {"type": _plain_text(event.get("type"), 100) or "Exception",
            "message": _plain_text(event.get("message"), 500),
            "frames": [[_plain_text(f[0], 200), _small_int(f[1]), _plain_text(f[2], 100),
                        _plain_text(f[3], 200)] for f in frames]}
