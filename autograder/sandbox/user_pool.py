"""The user ids children run as when the grader is root: one of its own per zygote."""
from __future__ import annotations

import fcntl
import os
import tempfile
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TextIO

from .processes import kill_processes_of

# As root, each zygote takes one user id of its own from this pool (no other process uses them),
# so a child can signal no one else's process and nothing it leaves behind survives the run.
SANDBOX_UIDS = range(620_000, 620_256)
FALLBACK_USER = (65534, 65534)  # nobody, when the pool cannot be used


def take_user() -> tuple[tuple[int, int], TextIO | None]:
    """(uid, gid) of one user id of the pool, locked for the caller, and the lock's open file
    (close it to give the user id back); FALLBACK_USER and None when the pool is unusable."""
    folder = _lock_folder()
    if folder is None or not _uid_usable(SANDBOX_UIDS[-1]):
        return FALLBACK_USER, None
    for uid in SANDBOX_UIDS:
        handle = open(os.path.join(folder, f"uid-{uid}.lock"), "a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        kill_processes_of(uid)  # left over by a grader that died mid-run
        return (uid, uid), handle
    return FALLBACK_USER, None


def _lock_folder() -> str | None:
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


def _uid_usable(uid: int) -> bool:
    """Whether this user namespace maps `uid` (containers sometimes map only 0..65535)."""
    try:
        with open("/proc/self/uid_map") as handle:
            ranges = [tuple(int(x) for x in line.split()) for line in handle if line.strip()]
    except (OSError, ValueError):
        return False
    return any(inside <= uid < inside + count for inside, _, count in ranges)
