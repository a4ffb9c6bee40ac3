"""The grader's ends of one child's pipes: commands written without blocking, events read in
bounded, linear time."""
from __future__ import annotations

import fcntl
import os
import select
import selectors
import time
from typing import TYPE_CHECKING

from ..core.child import codec
from ..core.child.protocol import parse_event
from .processes import runs_others

if TYPE_CHECKING:
    from typing import Any

# What the grader reads of a child before parsing it: one event over its limit is skipped
# unparsed, and a run that sends more than MAX_RUN_BYTES in all is stopped.
LOAD_EVENT_BYTES = 64 * 1024  # any event while the cells load (messages are cut at 500 characters)
MAX_RUN_BYTES = 128 * 1024 * 1024  # the cells load once per child, and may print each time
# Below malloc's mmap threshold: a larger read buffer is mapped and unmapped on every read.
READ_BYTES = 64 * 1024
DEFAULT_PIPE_BYTES = 64 * 1024  # Linux's pipe buffer
WIDE_PIPE_BYTES = 256 * 1024
# A deadline is moved by the time the machine kept the child (or the grader reading it) waiting
# for a CPU, up to this many times its own length or MACHINE_WAIT_FLOOR, whichever is more
# (Child.next_line): a short limit (0.5 s) on a CPU shared with a dozen busy processes needs more
# than three times its length for an honest call of a few tens of milliseconds.
MACHINE_WAIT_FACTOR = 3.0
MACHINE_WAIT_FLOOR = 5.0
MIN_CREDIT_SECONDS = 0.005  # less than this of waiting does not move a deadline
LATE_READS = 4  # reads past a deadline of what the child had already sent
SAMPLE_SECONDS = 0.25  # how often a long wait looks for other processes of the child's own user


def machine_wait(pid: int) -> float:
    """Seconds the kernel kept process `pid`'s main thread and the calling thread runnable but
    off every CPU (the run-queue wait of /proc/PID/schedstat), since each started; 0 where the
    kernel does not say. Only the grader's own reading: nothing the child sends."""
    total = 0
    for path in (f"/proc/{pid}/schedstat", "/proc/thread-self/schedstat"):
        try:
            with open(path, "rb") as handle:
                total += int(handle.read().split()[1])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e9


class ChildGone(Exception):
    pass


class OutputSpent(ChildGone):
    """The run has sent more than MAX_RUN_BYTES: nothing more of it is read."""


TOO_LARGE = object()  # next_line's answer for an event over its limit (skipped, never parsed)


class ReadBudget:
    """The bytes one run may still send, over all its children."""

    def __init__(self, total: int = MAX_RUN_BYTES) -> None:
        self.left = total

    @property
    def spent(self) -> bool:
        return self.left < 0


class Child:
    def __init__(self, pid: int, command_fd: int, event_fd: int, pipe_bytes: int = DEFAULT_PIPE_BYTES,
                 budget: ReadBudget | None = None, own_user: int | None = None) -> None:
        self.pid = pid
        # The user id the child runs as when no other process runs as it (the zygote's own sandbox
        # user): any other process of that user is one the submission started (see _move).
        self._own_user = own_user
        self._loaded_itself = False  # once seen running other processes, never given time back again
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
        # The deadline being waited for: when it was first used, the waiting counted then, and
        # how far it was moved (see next_line).
        self._window: float | None = None
        self._window_opened = 0.0
        self._waited_before = 0.0
        self._credited = 0.0
        self._taken = 0.0

    def take_credit(self) -> float:
        """The seconds the current deadline was moved (see credited) not taken before."""
        taken, self._taken = self._credited - self._taken, self._credited
        return taken

    def credited(self, deadline: float) -> float:
        """Seconds `deadline` was moved because the machine kept the child or the grader waiting
        for a CPU (0 for a deadline this child was not waited on with)."""
        return self._credited if deadline == self._window else 0.0

    def _moved(self, deadline: float) -> float:
        """`deadline` as moved so far; a deadline not seen before opens a new window."""
        if deadline != self._window:
            self._window, self._window_opened = deadline, time.monotonic()
            self._waited_before, self._credited, self._taken = machine_wait(self.pid), 0.0, 0.0
        return deadline + self._credited

    def _move(self, deadline: float) -> bool:
        """Move the deadline by what the machine kept the child and the grader waiting for a CPU
        since it was first used, up to MACHINE_WAIT_FACTOR times its length or MACHINE_WAIT_FLOOR,
        whichever is more, unless the child's own user runs other processes; whether it moved."""
        length = max(deadline - self._window_opened, MIN_CREDIT_SECONDS)
        owed = min(machine_wait(self.pid) - self._waited_before, max(MACHINE_WAIT_FACTOR * length, MACHINE_WAIT_FLOOR))
        if owed < self._credited + MIN_CREDIT_SECONDS:
            return False
        if self._loaded_itself or (self._own_user is not None and runs_others(self._own_user, self.pid)):
            # The submission runs (or has run) other processes of its own, forked and spinning:
            # the CPU they take from its child is load it made itself, never given back as time,
            # for the rest of the child's life (so stopping them just before each deadline gains nothing).
            self._loaded_itself = True
            return False
        self._credited = owed
        return True

    def overdue(self, deadline: float) -> bool:
        """Whether `deadline` has passed, moved by what the machine owes so far (see _move)."""
        while time.monotonic() >= self._moved(deadline):
            if not self._move(deadline):
                return True
        return False

    def send(self, deadline: float | None = None, **command: object) -> None:
        self.send_text(codec.dumps(command) + "\n", deadline)

    def send_text(self, text: str, deadline: float | None = None) -> None:
        """Write all of `text`; ChildGone when the child is gone or has not read it by `deadline`."""
        data = memoryview(text.encode("utf-8"))
        if deadline is not None:
            self._moved(deadline)  # a call's deadline counts the machine's waits from its command on
        while data:
            try:
                written = os.write(self._commands, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, OSError, ValueError) as error:
                raise ChildGone() from error
            data = data[written:]
            if data:
                remaining = (self._moved(deadline) if deadline is not None else time.monotonic() + 60) - time.monotonic()
                if remaining <= 0 or not select.select([], [self._commands], [], remaining)[1]:
                    raise ChildGone()

    def next_event(self, deadline: float, limit: int = LOAD_EVENT_BYTES) -> dict[str, Any] | None:
        """The next event, None when the deadline passes first; ChildGone when the child is gone.

        An event over `limit` bytes reads as garbled (it is never parsed).
        """
        line = self.next_line(deadline, limit)
        if line is TOO_LARGE:
            return {"ev": "garbled"}
        return None if line is None else parse_event(line)  # type: ignore[arg-type]  # bytes: not TOO_LARGE

    def next_line(self, deadline: float, limit: int = LOAD_EVENT_BYTES) -> bytes | object | None:
        """The next event's bytes, without the newline; TOO_LARGE for one over `limit` bytes.

        None and ChildGone as in next_event; OutputSpent once the run has sent too much. Reading
        is linear in what the child sends: each byte is appended once and scanned once.
        """
        buffer = self._buffer
        late_reads = 0
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
            remaining = self._moved(deadline) - time.monotonic()
            if remaining <= 0:
                # What the child sent in time is still read (the grader may be the one that woke
                # late), a little of it; and a child the machine kept waiting gets that time back.
                if late_reads < LATE_READS and self._selector.select(0):
                    late_reads += 1
                elif not self._move(deadline):
                    return None
                else:
                    continue
            elif self._own_user is None or self._loaded_itself:
                if not self._selector.select(remaining):
                    continue
            elif not self._selector.select(min(remaining, SAMPLE_SECONDS)):
                # A long wait is looked at a few times a second: processes the submission starts
                # and stops between deadlines are seen too.
                if runs_others(self._own_user, self.pid):
                    self._loaded_itself = True
                continue
            chunk = os.read(self._events, READ_BYTES)
            if not chunk:
                raise ChildGone()
            self._budget.left -= len(chunk)
            if self._budget.spent:
                raise OutputSpent()
            buffer += chunk

    def signal(self, number: int) -> None:
        """Send signal `number` to the child itself (not its process group); gone is fine."""
        if self.pid <= 0:
            return  # never a pid to signal: 0 and -1 would reach other processes
        try:
            os.kill(self.pid, number)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> None:
        for target in (lambda: os.killpg(self.pid, 9), lambda: os.kill(self.pid, 9)):
            try:
                target()  # type: ignore[no-untyped-call]  # a lambda of the tuple above
            except (ProcessLookupError, PermissionError):
                pass
        self.close()

    def close(self) -> None:
        self._selector.close()
        for closer in (lambda: os.close(self._commands), lambda: os.close(self._events)):
            try:
                closer()  # type: ignore[no-untyped-call]  # a lambda of the tuple above
            except OSError:
                pass


def widen_pipe(fd: int) -> int:
    """Ask for a command pipe that holds every call of a run; returns what it holds."""
    try:
        return fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, WIDE_PIPE_BYTES)
    except OSError:
        try:
            return fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
        except OSError:
            return DEFAULT_PIPE_BYTES
