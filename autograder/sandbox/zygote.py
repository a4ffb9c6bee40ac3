"""A warm process that forks one fresh child per submission run.

Started once by the grader with numpy and pandas already imported, so a child costs a fork,
not an interpreter start. It never imports the reference or the cases, so a child inherits
nothing worth snooping. Requests arrive on a Unix socket with the child's two pipe ends attached.
"""
import ctypes
import json
import os
import resource
import signal
import socket
import sys

import numpy  # noqa: F401  (imported once here so every child starts warm)
import pandas  # noqa: F401

from . import worker

PR_SET_PDEATHSIG = 1


def main(socket_fd):
    control = socket.socket(fileno=socket_fd)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps children for us
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 65536, 2)
        except (ConnectionError, OSError):
            return
        if not message:
            return
        request = json.loads(message)
        pid = os.fork()
        if pid == 0:
            control.close()
            become_child(request, *fds)
        for fd in fds:
            os.close(fd)
        control.sendall((json.dumps({"pid": pid}) + "\n").encode())


def become_child(request, command_fd, event_fd):
    """Shed the zygote's identity, apply the limits, then serve the grader."""
    try:
        os.setsid()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        _die_with_parent()
        os.chdir(request["workdir"])
        _quiet_standard_streams()
        _apply_limits(request["limits"])
        _drop_privileges(request.get("user"))
    except BaseException:
        os._exit(71)
    worker.child_main(command_fd, event_fd)


def _die_with_parent():
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def _quiet_standard_streams():
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def _apply_limits(limits):
    memory = limits.get("memory_bytes")
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = limits.get("cpu_seconds")
    if cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    output = limits.get("file_bytes")
    if output:
        resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
    processes = limits.get("processes")
    if processes is not None and os.geteuid() != 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))


def _drop_privileges(user):
    """As root, become the unprivileged grading user; otherwise stay who we are."""
    if user is None or os.geteuid() != 0:
        return
    uid, gid = user
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)


if __name__ == "__main__":
    main(int(sys.argv[1]))
