"""Linux Landlock through ctypes: confine a process to a few file trees, no TCP, no outside signals.

Landlock needs no privileges (only no_new_privs), so it also protects when the grader is not root.
Every function degrades to "not available" on kernels or systems without it.
"""
import ctypes
import os

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


def _libc():
    return linux.libc()


def abi_version():
    """The kernel's Landlock ABI version; 0 when Landlock is missing or disabled."""
    libc = _libc()
    if libc is None or not hasattr(libc, "syscall"):
        return 0
    version = libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                           ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(version), 0)


def handled_fs(abi):
    handled = READ | WRITE_FILE | _MAKE_AND_REMOVE
    if abi >= 2:
        handled |= _REFER
    if abi >= 3:
        handled |= _TRUNCATE
    if abi >= 5:
        handled |= _IOCTL_DEV
    return handled


def no_new_privileges():
    """No exec can ever raise this process's privileges again (setuid binaries included)."""
    libc = _libc()
    if libc is None or libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")


def restrict(rules, abi):
    """Allow only `rules` ([(fd, access)] of open paths) from now on; also no TCP, no outside signals.

    Returns the ABI used. Raises OSError when Landlock refuses (callers decide whether that is fatal).
    """
    libc = _libc()
    handled = handled_fs(abi)
    attr = _RulesetAttr(handled, (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0,
                        (_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL) if abi >= 6 else 0)
    size = 8 if abi < 4 else (16 if abi < 6 else 24)
    ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        for fd, access in rules:
            if not _is_directory(fd):
                access &= _FILE_ONLY
            beneath = _PathBeneathAttr(access & handled, fd)
            if libc.syscall(_SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH),
                            ctypes.byref(beneath), ctypes.c_uint32(0)) != 0:
                raise OSError(ctypes.get_errno(), "landlock_add_rule failed")
        no_new_privileges()
        if libc.syscall(_SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)
    return abi


def _is_directory(fd):
    import stat

    return stat.S_ISDIR(os.fstat(fd).st_mode)
