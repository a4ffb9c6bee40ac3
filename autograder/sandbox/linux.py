"""The few Linux process controls the grader's processes need, through ctypes and prctl.

libc is opened once per process; a zygote opens it before forking, so its children start with
it open (and pay neither the lookup nor the memory it touches).
"""
from __future__ import annotations

import ctypes
import os
import signal
from functools import lru_cache

PR_SET_PDEATHSIG = 1
PR_SET_NAME = 15
PR_SET_CHILD_SUBREAPER = 36
NAME_BYTES = 15  # the kernel keeps 15 bytes of a process name


@lru_cache(maxsize=None)
def libc() -> ctypes.CDLL | None:
    """The C library; None where it cannot be loaded."""
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def prctl(option: int, value: int | bytes) -> bool:
    """True when the kernel took it."""
    c = libc()
    try:
        return c is not None and c.prctl(option, value, 0, 0, 0) == 0
    except AttributeError:
        return False


def name_process(name: str) -> None:
    """The name ps and top show for this process."""
    prctl(PR_SET_NAME, name.encode()[:NAME_BYTES])


def die_with_parent(parent: int | None, status: int) -> None:
    """Be killed when `parent` dies; exit with `status` at once if it already has.

    Changing credentials clears this, so a process that drops privileges arms it afterwards.
    """
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent:
        os._exit(status)  # the parent was gone before the signal was armed


def adopt_orphans() -> None:
    """Processes a descendant leaves behind become this process's children, not init's."""
    prctl(PR_SET_CHILD_SUBREAPER, 1)
