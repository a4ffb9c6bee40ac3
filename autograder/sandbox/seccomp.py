"""Kernel objects a submission may not use: they outlive its process or cross to other processes.

System V shared memory, semaphores and message queues, POSIX message queues and the kernel's
keyrings are not files: Landlock does not cover them, and a key or a segment made by one child
stays for the next child of the same run (which may be told a hidden test's inputs), for the next
student's children, and after the grader has exited (a 1 GB segment outlives every limit). A
child installs a seccomp filter under which those system calls fail with EPERM; as root it also
takes a fresh IPC namespace first (see zygote.become_child). Nothing numpy or pandas does needs
them (multiprocessing's semaphores are files in /dev/shm, which Landlock governs).
"""
from __future__ import annotations

import ctypes
import errno
import platform

from . import linux

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
# Classic BPF: load a word of seccomp_data, compare, return.
LOAD_WORD, JUMP_IF_EQUAL, JUMP_IF_SET, RETURN = 0x20, 0x15, 0x45, 0x06
ALLOW, ERRNO = 0x7FFF0000, 0x00050000
ARCH_OFFSET, NUMBER_OFFSET = 4, 0  # struct seccomp_data { int nr; __u32 arch; ... }
X32_BIT = 0x40000000

DENIED = ("shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semctl", "semtimedop",
          "msgget", "msgsnd", "msgrcv", "msgctl", "mq_open", "mq_unlink", "mq_timedsend",
          "mq_timedreceive", "mq_notify", "mq_getsetattr", "add_key", "request_key", "keyctl")

# (the kernel's audit architecture, the system call numbers) per machine.
ARCHITECTURES = {
    "x86_64": (0xC000003E, {"shmget": 29, "shmat": 30, "shmctl": 31, "shmdt": 67, "semget": 64, "semop": 65,
                            "semctl": 66, "semtimedop": 220, "msgget": 68, "msgsnd": 69, "msgrcv": 70,
                            "msgctl": 71, "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242,
                            "mq_timedreceive": 243, "mq_notify": 244, "mq_getsetattr": 245, "add_key": 248,
                            "request_key": 249, "keyctl": 250}),
    "aarch64": (0xC00000B7, {"mq_open": 180, "mq_unlink": 181, "mq_timedsend": 182, "mq_timedreceive": 183,
                             "mq_notify": 184, "mq_getsetattr": 185, "msgget": 186, "msgctl": 187, "msgrcv": 188,
                             "msgsnd": 189, "semget": 190, "semctl": 191, "semtimedop": 192, "semop": 193,
                             "shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197, "add_key": 217,
                             "request_key": 218, "keyctl": 219}),
}


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(_Instruction))]


def supported() -> bool:
    """Whether this machine's system calls are known here (else no filter can be built)."""
    return platform.machine() in ARCHITECTURES


def program(machine: str | None = None) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) instructions: another architecture's calls (a 32-bit binary)
    and x86's x32 calls fail whole; the DENIED calls fail with EPERM; everything else is allowed."""
    arch, numbers = ARCHITECTURES[machine or platform.machine()]
    denied = sorted(numbers[name] for name in DENIED)
    refuse = ERRNO | errno.EPERM
    code = [(LOAD_WORD, 0, 0, ARCH_OFFSET),
            (JUMP_IF_EQUAL, 1, 0, arch),
            (RETURN, 0, 0, refuse),
            (LOAD_WORD, 0, 0, NUMBER_OFFSET)]
    if arch == ARCHITECTURES["x86_64"][0]:
        code += [(JUMP_IF_SET, 0, 1, X32_BIT), (RETURN, 0, 0, refuse)]
    for position, number in enumerate(denied):
        # Jump to the final "refuse" past the remaining comparisons and the "allow".
        code.append((JUMP_IF_EQUAL, len(denied) - position, 0, number))
    code += [(RETURN, 0, 0, ALLOW), (RETURN, 0, 0, refuse)]
    return code


def deny_shared_kernel_objects() -> bool:
    """Install the filter on this process and every process it starts (needs no_new_privs or root).
    Raises OSError when the kernel refuses it; does nothing on a machine it does not know."""
    if not supported():
        return False
    code = program()
    instructions = (_Instruction * len(code))(*[_Instruction(*i) for i in code])
    filter_program = _Program(len(code), instructions)
    libc = linux.libc()
    if libc is None or libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(filter_program), 0, 0) != 0:
        raise OSError(ctypes.get_errno() if libc is not None else 0, "cannot install the seccomp filter")
    return True
