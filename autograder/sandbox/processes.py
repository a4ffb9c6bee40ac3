"""Process hygiene through /proc and pidfds: is a process doomed, and killing all of a user's."""
from __future__ import annotations

import os
import select
import signal
import subprocess
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

PF_EXITING = 0x4  # task flag in /proc/<pid>/stat: the process has begun to exit
SIGKILL_PENDING = 1 << (signal.SIGKILL - 1)


class AdoptedProcess:
    """The part of Popen a Zygote uses, for a process another process started (through a pidfd)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._handle = os.pidfd_open(pid)

    def poll(self) -> int | None:
        return -1 if _readable(self._handle, 0) else None

    def wait(self, timeout: float | None = None) -> int:
        if not _readable(self._handle, timeout):
            # Never with None: select without a timeout returns only once the pidfd is readable.
            raise subprocess.TimeoutExpired("zygote", timeout)  # type: ignore[arg-type]
        return -1

    def kill(self) -> None:
        try:
            signal.pidfd_send_signal(self._handle, signal.SIGKILL)
        except OSError:
            pass

    def close(self) -> None:
        os.close(self._handle)


def _readable(fd: int, timeout: float | None) -> bool:
    """A pidfd turns readable when its process has exited."""
    return bool(select.select([fd], [], [], timeout)[0])


def process_doomed(pid: int) -> bool:
    state = _process_state(pid)
    if state is None:
        return True
    status, flags = state
    if status.get("State", "").strip()[:1] in "ZXxTt" or flags & PF_EXITING:  # T: stopped, it would never answer
        return True
    return any(_pending(status))


def _process_state(pid: int | str) -> tuple[dict[str, str], int] | None:
    """(the fields of /proc/PID/status, the task flags of /proc/PID/stat); None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            status = dict(line.split(":", 1) for line in handle if ":" in line)
        with open(f"/proc/{pid}/stat") as handle:
            flags = int(handle.read().rsplit(")", 1)[1].split()[6])
    except (OSError, IndexError, ValueError):
        return None
    return status, flags


def _pending(status: dict[str, str]) -> Iterator[int]:
    """The signal masks pending for the thread and for the whole process."""
    return (int(status.get(key, "0").strip() or "0", 16) for key in ("SigPnd", "ShdPnd"))


def kill_processes_of(uid: int, rounds: int = 50) -> bool:
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


def _kill(pid: int) -> None:
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


def runs_others(uid: int, pid: int) -> bool:
    """Whether a process of `uid` started no earlier than `pid` (so by it, where `pid` is the one
    process its user was left with), other than `pid`, can still run code; or `pid` itself runs more
    than one thread (a child's numerical libraries are held to one: any other is the submission's)."""
    started = start_time(pid)
    if started is None:
        return False
    state = _process_state(pid)
    if state is not None and state[0].get("Threads", "1").strip() not in ("0", "1"):
        return True
    return any(other != pid and (start_time(other) or -1) >= started for other in _pids_of(uid))


def start_time(pid: int) -> int | None:
    """When process `pid` started, in clock ticks since boot (/proc/PID/stat); None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return int(handle.read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def _pids_of(uid: int) -> list[int]:
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


def _finished(status: dict[str, str], flags: int) -> bool:
    """Dead, or sure to die: a kill pending for it, or its only thread exiting."""
    if any(mask & SIGKILL_PENDING for mask in _pending(status)):
        return True
    alone = status.get("Threads", "1").strip() in ("0", "1")
    # A leader that has exited while other threads run is a zombie too: those threads still act.
    return alone and (status.get("State", "").strip()[:1] in "ZX" or bool(flags & PF_EXITING))
