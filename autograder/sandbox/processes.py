"""Process hygiene through /proc and pidfds: is a process doomed, and killing all of a user's."""
import os
import select
import signal
import subprocess

PF_EXITING = 0x4  # task flag in /proc/<pid>/stat: the process has begun to exit
SIGKILL_PENDING = 1 << (signal.SIGKILL - 1)


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
