"""Linux Landlock through ctypes: confine a process to a few file trees, no TCP, no outside signals.

Landlock needs no privileges (only no_new_privs), so it also protects when the grader is not root.
Every function degrades to "not available" on kernels or systems without it.

A ruleset keeps its rules in the kernel: a path is opened only for the time it takes to add its
rule, so a ruleset of thousands of rules costs its builder one descriptor. A process may enter
several rulesets one after the other; it may then do only what every one of them allows.
"""
from __future__ import annotations

import ctypes
import os
import stat

from . import linux

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446  # same on every Linux arch
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_MAKE_AND_REMOVE = sum(1 << bit for bit in range(4, 13))  # remove dir/file, make char/dir/reg/...
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
READ = EXECUTE | READ_FILE | READ_DIR
_FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | _TRUNCATE | _IOCTL_DEV

_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL | None:
    return linux.libc()


def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 when Landlock is missing or disabled."""
    libc = _libc()
    if libc is None or not hasattr(libc, "syscall"):
        return 0
    version = libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                           ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(version), 0)


def handled_fs(abi: int) -> int:
    handled = READ | WRITE_FILE | _MAKE_AND_REMOVE
    if abi >= 2:
        handled |= _REFER
    if abi >= 3:
        handled |= _TRUNCATE
    if abi >= 5:
        handled |= _IOCTL_DEV
    return handled


def no_new_privileges() -> None:
    """No exec can ever raise this process's privileges again (setuid binaries included)."""
    libc = _libc()
    if libc is None or libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")


class Ruleset:
    """A Landlock ruleset: the file accesses it governs and the paths where it allows them.

    `isolate` also forbids TCP (ABI >= 4) and signals or abstract sockets reaching outside the
    domain (ABI >= 6). Raises OSError when the kernel refuses to create it.
    """

    def __init__(self, abi: int, fs_access: int, isolate: bool = False) -> None:
        self.abi = abi
        self.handled = fs_access & handled_fs(abi)
        network = (_NET_BIND_TCP | _NET_CONNECT_TCP) if isolate and abi >= 4 else 0
        scoped = (_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL) if isolate and abi >= 6 else 0
        attr = _RulesetAttr(self.handled, network, scoped)
        size = 8 if abi < 4 else (16 if abi < 6 else 24)
        # A ruleset is made only where abi_version() found libc: without it, AttributeError.
        fd = _libc().syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),  # type: ignore[union-attr]
                             ctypes.c_uint32(0))
        if fd < 0:
            raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
        self.fd = fd
        os.set_inheritable(fd, False)  # only a child forked by its owner shares it, never an exec

    def allow(self, path: str, access: int) -> bool:
        """Allow `access` beneath `path`; False when the path cannot be opened (it is then not allowed)."""
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            self.allow_fd(fd, access)
        finally:
            os.close(fd)  # the kernel keeps its own reference to the file
        return True

    def allow_fd(self, fd: int, access: int) -> None:
        """Allow `access` beneath the file or folder that `fd` (an O_PATH descriptor will do) is."""
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            access &= _FILE_ONLY
        beneath = _PathBeneathAttr(access & self.handled, fd)
        if _libc().syscall(_SYS_ADD_RULE, ctypes.c_int(self.fd), ctypes.c_int(_RULE_PATH_BENEATH),  # type: ignore[union-attr]
                           ctypes.byref(beneath), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_add_rule failed")

    def enforce(self) -> None:
        """Enter the ruleset's domain for good (needs no_new_privileges first).

        The kernel copies the rules into the new domain; later changes to this ruleset do not
        reach it.
        """
        if _libc().syscall(_SYS_RESTRICT_SELF, ctypes.c_int(self.fd), ctypes.c_uint32(0)) != 0:  # type: ignore[union-attr]
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> Ruleset:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
