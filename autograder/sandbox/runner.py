"""The grader's side of the sandbox: start children, feed them calls, enforce time limits.

Everything here returns plain outcome data; judging values happens elsewhere.
"""
import os
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

from . import codec

MAX_EVENT_BYTES = 64 * 1024 * 1024
MAX_RESTARTS = 12


@dataclass(frozen=True)
class Limits:
    step_seconds: float = 10.0
    load_seconds: float = 10.0
    memory_bytes: int = 1024 * 1024 * 1024
    file_bytes: int = 16 * 1024 * 1024
    processes: int = 64
    user: tuple = None  # (uid, gid) to run as when the grader is root

    def for_child(self):
        budget = int(self.load_seconds + 6 * self.step_seconds) + 5
        return {"memory_bytes": self.memory_bytes, "cpu_seconds": budget,
                "file_bytes": self.file_bytes, "processes": self.processes}


@dataclass(frozen=True)
class Call:
    """One call of a student function on plain arguments."""

    id: int
    step: str
    function: str
    args: tuple  # encoded with codec.encode
    helpers: str = None  # reference source for the other steps, when this step needs it


@dataclass
class CallOutcome:
    """What happened to one call: returned a value, raised, ran out of time or took the process down."""

    kind: str  # "returned" | "raised" | "timeout" | "crashed" | "not_run"
    value: object = None
    args_after: list = None
    error: dict = None


@dataclass
class RunOutcome:
    names: dict = field(default_factory=dict)  # function name -> "function" | "absent" | type name
    load_events: list = field(default_factory=list)  # syntax/load errors and skipped statements
    calls: dict = field(default_factory=dict)  # call id -> CallOutcome


class ChildGone(Exception):
    pass


class Child:
    def __init__(self, pid, command_file, event_fd):
        self.pid = pid
        self._commands = command_file
        self._events = event_fd
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(event_fd, selectors.EVENT_READ)

    def send(self, **command):
        try:
            self._commands.write(codec.dumps(command) + "\n")
            self._commands.flush()
        except (BrokenPipeError, OSError, ValueError) as error:
            raise ChildGone() from error

    def next_event(self, deadline):
        """The next event, None when the deadline passes first; ChildGone when the child is gone."""
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._selector.select(remaining):
                return None
            chunk = os.read(self._events, 1 << 20)
            if not chunk:
                raise ChildGone()
            self._buffer += chunk
            if len(self._buffer) > MAX_EVENT_BYTES:
                raise ChildGone()
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            event = codec.loads(line.decode("utf-8"))
        except ValueError:
            return {"ev": "garbled"}
        return event if isinstance(event, dict) else {"ev": "garbled"}

    def kill(self):
        for target in (lambda: os.killpg(self.pid, 9), lambda: os.kill(self.pid, 9)):
            try:
                target()
            except (ProcessLookupError, PermissionError):
                pass
        self.close()

    def close(self):
        self._selector.close()
        for closer in (self._commands.close, lambda: os.close(self._events)):
            try:
                closer()
            except OSError:
                pass


class Zygote:
    """A warm forking server (see zygote.py); use as a context manager."""

    def __init__(self, python=sys.executable):
        self._python = python
        self._process = None
        self._control = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        ours, theirs = socket.socketpair()
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        env = {k: v for k, v in env.items() if not k.startswith(("AUTOGRADER_", "GITHUB_TOKEN"))}
        self._process = subprocess.Popen(
            [self._python, "-I", "-m", "autograder.sandbox.zygote", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir())
        theirs.close()
        self._control = ours
        self._reader = ours.makefile("rb")

    def stop(self):
        if self._process is None:
            return
        self._reader.close()
        self._control.close()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None

    def alive(self):
        return self._process is not None and self._process.poll() is None

    def spawn(self, workdir, limits):
        if not self.alive():
            self.stop()
            self.start()
        command_r, command_w = os.pipe()
        event_r, event_w = os.pipe()
        request = {"workdir": workdir, "limits": limits.for_child(), "user": limits.user}
        try:
            socket.send_fds(self._control, [codec.dumps(request).encode()], [command_r, event_w])
            reply = self._reader.readline()
        finally:
            os.close(command_r)
            os.close(event_w)
        if not reply:
            os.close(command_w)
            os.close(event_r)
            raise RuntimeError("the sandbox's zygote process stopped")
        pid = codec.loads(reply.decode())["pid"]
        return Child(pid, os.fdopen(command_w, "w", encoding="utf-8"), event_r)


def run(zygote, cells, calls, limits=Limits()):
    """Load `cells` in fresh children and make `calls` (grouped by step, in order).

    A statement that hangs or ends the process while loading is skipped on the next try; a step
    whose calls run out of time or end the process costs that step only.
    """
    outcome = RunOutcome()
    skip = []
    pending = _group_by_step(calls)
    seen_load = set()
    restarts = 0
    workdir = tempfile.mkdtemp(prefix="autograder-run-")
    try:
        os.chmod(workdir, 0o777)
        while pending is not None:
            restarts += 1
            child = zygote.spawn(workdir, limits)
            try:
                pending = _one_child(child, cells, pending, skip, seen_load, outcome, limits)
            finally:
                child.kill()
            if pending is not None and restarts > MAX_RESTARTS:
                for group in pending:
                    for call in group:
                        outcome.calls[call.id] = CallOutcome("not_run")
                break
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return outcome


def _group_by_step(calls):
    groups = []
    for call in calls:
        if groups and groups[-1][0].step == call.step:
            groups[-1].append(call)
        else:
            groups.append([call])
    return groups


def _one_child(child, cells, pending, skip, seen_load, outcome, limits):
    """Drive one child; returns the step groups still to run (None when all are done)."""
    current = None
    try:
        module_name = "__main__" if any(c["filename"].startswith("<cell") for c in cells) else "submission"
        child.send(cmd="load", cells=cells, skip=skip, module_name=module_name)
        deadline = time.monotonic() + limits.load_seconds
        while True:
            event = child.next_event(deadline)
            if event is None:
                return _skip_statement(current, "load_timeout", skip, outcome, pending)
            kind = event.get("ev")
            if kind == "stmt":
                current = (event.get("cell"), event.get("stmt"), event.get("line"))
            elif kind in ("syntax_error", "load_error"):
                key = (kind, event.get("cell"), event.get("stmt"))
                if key not in seen_load:
                    seen_load.add(key)
                    outcome.load_events.append(event)
            elif kind == "loaded":
                names = event.get("names")
                outcome.names = names if isinstance(names, dict) else {}
                break
    except ChildGone:
        return _skip_statement(current, "load_crash", skip, outcome, pending)

    ran_any = False
    for index, group in enumerate(pending):
        function = group[0].function
        if outcome.names.get(function) != "function":
            continue
        if group[0].helpers and ran_any:
            # Reference helpers enter a child only after it has answered every other step.
            return pending[index:]
        ran_any = True
        deadline = time.monotonic() + limits.step_seconds
        for position, call in enumerate(group):
            try:
                result = _make_call(child, call, deadline)
            except ChildGone:
                result = CallOutcome("crashed")
            outcome.calls[call.id] = result
            if result.kind in ("timeout", "crashed"):
                for later in group[position + 1:]:
                    outcome.calls[later.id] = CallOutcome("not_run")
                return pending[index + 1:] or None
    return None


def _skip_statement(current, reason, skip, outcome, pending):
    """Note the statement that hung or ended the process; the next child skips it."""
    if current is None:
        # No statement of the submission had started: retrying cannot help.
        outcome.load_events.append({"ev": "sandbox_failed"})
        return None
    cell, stmt, line = current
    skip.append([cell, stmt])
    outcome.load_events.append({"ev": reason, "cell": cell, "stmt": stmt, "line": line})
    return pending


def _make_call(child, call, deadline):
    child.send(cmd="call", id=call.id, function=call.function, args=list(call.args),
               helpers=call.helpers)
    while True:
        event = child.next_event(deadline)
        if event is None:
            return CallOutcome("timeout")
        if event.get("id") != call.id:
            continue
        kind = event.get("ev")
        if kind == "returned":
            return CallOutcome("returned", value=codec.decode(event.get("value")),
                               args_after=[codec.decode(a) for a in event.get("args_after") or []])
        if kind == "raised":
            return CallOutcome("raised", error=_plain_error(event))


def _plain_error(event):
    frames = [f for f in event.get("frames") or [] if isinstance(f, list) and len(f) == 4]
    return {"type": str(event.get("type", "Exception"))[:100],
            "message": str(event.get("message", ""))[:500],
            "frames": [[str(f[0]), f[1] if isinstance(f[1], int) else None, str(f[2]), str(f[3])]
                       for f in frames]}
