"""A warm process that forks one fresh child per submission run.

Started once by the grader with numpy and pandas already imported, so a child costs a fork,
not an interpreter start. It never imports the reference or the cases, so a child inherits
nothing worth snooping. Requests arrive on a Unix socket with the child's two pipe ends attached;
each is handed to a child forked ahead of it (the spare), and the next spare is forked while the
grader talks to that child.

Each child, before any submission code runs: leaves the zygote's session, gets a scrubbed
environment and a fresh working directory, its resource limits, an unprivileged user (when the
zygote is root), the parent-death signal, and a Landlock domain that lets it read only Python's
own files, write only its working directory, open no TCP connection and signal nobody outside.
"""
from __future__ import annotations

import ctypes
import gc
import io
import json
import os
import resource
import signal
import socket
import sys
from typing import TYPE_CHECKING

import numpy  # noqa: F401  (imported once here so every child starts warm)
import pandas  # noqa: F401

from . import landlock, linux, seccomp
from ..core.child import worker
from .confinement import Confinement

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, NoReturn

CLONE_NEWNET, CLONE_NEWNS, CLONE_NEWIPC = 0x40000000, 0x00020000, 0x08000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 1 << 14, 1 << 18
# Standard-library modules students reach for, loaded here so children need not find them on disk.
WARM_MODULES = ("math", "cmath", "random", "statistics", "itertools", "functools", "collections",
                "copy", "re", "json", "string", "time", "datetime", "fractions", "decimal",
                "typing", "dataclasses", "pprint", "textwrap", "unicodedata", "numpy.linalg",
                "numpy.random", "encodings.idna", "encodings.cp949", "encodings.euc_kr",
                "encodings.utf_16", "encodings.latin_1")
UNEXERCISED = "unexercised"  # the argument that starts a zygote without _exercise_numpy_and_pandas
CHILD_ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                     "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                     "MPLBACKEND": "Agg"}
MAX_OPEN_FILES = 256
DISK_FOLDER = "disk"  # where, inside the run's folder, a child mounts its private disk
HIGHEST_FD = 1 << 16


def main(socket_fd: int, *, exercised: bool = True) -> None:
    """Serve the grader on `socket_fd` until it closes it. `exercised`: whether common library paths
    are run once before any fork (_exercise_numpy_and_pandas): worth it for a batch's hundreds of
    children; a check's three would only wait for it."""
    control = socket.socket(fileno=socket_fd)
    linux.name_process("grading-zygote")
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps children for us
    _scrub_environment()
    _warm_up(exercised=exercised)
    linux.adopt_orphans()  # orphans a submission leaves become ours, so the kernel reaps them
    network_isolated = _leave_network()
    global MOUNTS_PRIVATE
    MOUNTS_PRIVATE = _isolate_mounts()
    confinement = Confinement.prepare()
    rerouted = confinement.reroute_imports()
    gc.freeze()  # a child's collections then skip the zygote's objects (no pages copied for them)
    zygote_pid = os.getpid()
    def forked() -> Spare:
        return _fork_spare(control, confinement, zygote_pid, rerouted)

    spare = forked()
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 65536, 2)
        except (ConnectionError, OSError):
            return
        if not message:
            return
        request = json.loads(message)  # a request that is not JSON ends the zygote, never a child
        folder = _prepare_folder(request)
        if confinement.admit(request.get("workdir")):
            spare.discard()  # it holds the read rules as they were: one forked now holds them all
            spare = forked()
        pid = spare.hand_over(message, fds)
        if pid is None:  # the spare is gone (killed from outside): fork one for this request
            pid = forked().hand_over(message, fds)
        if pid is None:
            return  # cannot start a child: the grader sees the zygote stop and says so
        for fd in fds:
            os.close(fd)
        reply = {"pid": pid, "landlock": confinement.abi, "network_isolated": network_isolated,
                 "private_disk": MOUNTS_PRIVATE}
        control.sendall((json.dumps(reply) + "\n").encode())
        # Forked now, while the grader talks to the child just handed over, so that the next
        # request does not wait for a fork; it inherits the folders of this request's child.
        if os.environ.get("HOME") != folder:
            _point_home_at(folder)
        spare = forked()


class Spare:
    """A child forked ahead of its request, waiting on a socket of its own for it."""

    def __init__(self, pid: int, handle: socket.socket) -> None:
        self.pid, self.handle = pid, handle

    def hand_over(self, message: bytes, fds: list[int]) -> int | None:
        """The spare's pid once it holds the request; None when it is gone."""
        try:
            socket.send_fds(self.handle, [message], fds)
        except OSError:
            return None
        finally:
            self.handle.close()
        return self.pid

    def discard(self) -> None:
        """The spare ends at once, having received nothing."""
        self.handle.close()


def _fork_spare(control: socket.socket, confinement: Confinement, zygote_pid: int, rerouted: Iterable[int]) -> Spare:
    ours, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        try:
            control.close()
            ours.close()
            linux.die_with_parent(zygote_pid, 71)
            message, fds, _, _ = socket.recv_fds(theirs, 65536, 2)
            theirs.close()
            if not message or len(fds) != 2:
                os._exit(0)  # the zygote stopped, or sent nothing usable
            request = json.loads(message)
        except BaseException:
            os._exit(71)
        become_child(request, *fds, confinement=confinement,  # type: ignore[misc, arg-type]  # two fds: see above
                     zygote_pid=zygote_pid, rerouted=rerouted)
    theirs.close()
    return Spare(pid, ours)


def become_child(request: dict[str, Any], command_fd: int, event_fd: int, confinement: Confinement | None = None,
                 zygote_pid: int | None = None, rerouted: Iterable[int] = ()) -> NoReturn:
    """Shed the zygote's identity, apply the limits, then serve the grader.

    Any failure here ends the child before a line of the submission runs (fail closed).
    """
    try:
        os.setsid()
        linux.name_process("student-code")
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        disk = _private_disk(request["workdir"], request["limits"].get("disk_bytes"), request.get("user"))
        if request.get("private_disk") and disk is None:
            raise PermissionError("the folder is shared between runs: it must not be written to")
        workdir = disk or request["workdir"]
        os.chdir(workdir)
        _quiet_standard_streams()
        if os.environ.get("HOME") != workdir:  # usually set already: the zygote's last request
            _point_home_at(workdir)
        _apply_limits(request["limits"])
        confined = confinement is not None and request.get("confine", True)
        if confined and os.geteuid() == 0:
            # A System V segment or queue a child makes dies with its own namespace (see seccomp).
            linux.libc().unshare(CLONE_NEWIPC)  # type: ignore[union-attr]  # no libc: the child ends here
        _drop_privileges(request.get("user"))
        # No exec may raise privileges again (setuid binaries), so every descendant keeps this
        # user id as its owner in /proc, which is how the grader finds leftovers.
        landlock.no_new_privileges()
        if confined:
            seccomp.deny_shared_kernel_objects()
        # After the drop: changing credentials clears the parent-death signal.
        linux.die_with_parent(zygote_pid, 71)
        _limit_processes(request["limits"])
        keep = {command_fd, event_fd, *rerouted}
        if confined:
            confinement.apply(workdir)  # type: ignore[union-attr]  # confined: there is one
        _close_other_files(keep)
    except BaseException:
        os._exit(71)
    worker.child_main(command_fd, event_fd)


def _warm_up(*, exercised: bool = True) -> None:
    for name in WARM_MODULES:
        try:
            __import__(name)
        except ImportError:
            pass
    if exercised:
        _exercise_numpy_and_pandas()


def _exercise_numpy_and_pandas() -> None:
    """Run common library paths once, so their lazy set-up is done before any fork.

    Generic calls on made-up data (arithmetic, reductions, products, element-wise functions,
    labelled tables), the same for every lab. It saves every child the first-use work (a few
    milliseconds per submission, mostly in pandas).
    """
    x = numpy.arange(12.0).reshape(3, 4) / 7
    for table in (x, x.astype(numpy.float32)):
        table @ table.T, numpy.dot(table, table.T), numpy.matmul(table, table.T), table * table
        numpy.einsum("ij,kj->ik", table, table), numpy.exp(table), numpy.sqrt(table), numpy.tanh(table)
        table.max(axis=-1, keepdims=True), table.sum(axis=0), table.mean(axis=-1), table.std()
        numpy.allclose(table, table), table.argmax(axis=1), table.argsort(axis=-1), table.tolist()
        numpy.where(table > 0.5, table, -numpy.inf), numpy.triu(table), numpy.concatenate([table, table])
        table.reshape(2, -1).T, numpy.swapaxes(table[None], 0, 1), numpy.linalg.norm(table)
    labels = ["가", "나", "c"]  # text labels, Korean among them
    frame = pandas.DataFrame(x[:, :3], index=labels, columns=labels)
    frame.idxmax(axis=1).to_dict(), frame.idxmin(axis=0).to_dict(), frame.T, frame.to_numpy()
    frame.div(frame.sum(axis=1), axis=0), frame.apply(numpy.exp), frame.round(2), frame.loc["가"]
    pandas.Series(labels).tolist(), pandas.Series(x[0]).to_dict()
    # Printing is imported lazily too, and a confined child cannot import anything new: a
    # student's print(table) inside a step must not raise where it runs in Jupyter.
    series = frame.loc["가"]
    # A row of a table with unique labels: a Series (pandas' types allow a DataFrame too).
    for value in (frame, series, frame.round(3), x, x.astype(numpy.float32), series.to_frame()):  # type: ignore[operator]
        repr(value), str(value), format(value)
    # Calls made for what they load, their values dropped (mypy flags the ones that return None).
    frame.to_string(), series.to_string(), frame.to_html(), frame.describe(), frame.info(buf=io.StringIO())  # type: ignore[func-returns-value]
    numpy.array2string(x, precision=3), numpy.set_printoptions(), repr(numpy.float64(1.5))  # type: ignore[func-returns-value]


def _leave_network() -> bool:
    """As root, move into an empty network namespace: children cannot reach any network at all."""
    if os.geteuid() != 0:
        return False
    try:
        return linux.libc().unshare(CLONE_NEWNET) == 0  # type: ignore[union-attr, no-any-return]  # see except
    except (OSError, AttributeError):
        return False


MOUNTS_PRIVATE = False  # set in the zygote: its mounts propagate nowhere, so its children's won't


def _isolate_mounts() -> bool:
    """As root, a mount namespace of the zygote's own whose mounts propagate nowhere.

    Done once here, so each child only copies it; True when children can mount private disks.
    """
    if os.geteuid() != 0:
        return False
    libc: ctypes.CDLL = linux.libc()  # type: ignore[assignment]  # as root on Linux: always loaded
    if libc.unshare(CLONE_NEWNS) != 0:
        return False
    return libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) == 0  # type: ignore[no-any-return]  # an int's ==


def _private_disk(workdir: str, size: int | None, user: Sequence[int] | None) -> str | None:
    """As root, give the child its own size-limited tmpfs to work in; the folder it is mounted on.

    It lives in the child's own mount namespace, so it vanishes with the child's last process
    and bounds everything the submission can write (Landlock allows writing nowhere else). It is
    mounted on the folder the zygote prepared inside the run's folder (see _prepare_folder), or
    on the run's folder itself. Without the privilege for it (None), the folder is used as it is.
    """
    if not size or os.geteuid() != 0:
        return None
    libc: ctypes.CDLL = linux.libc()  # type: ignore[assignment]  # as root on Linux: always loaded
    if libc.unshare(CLONE_NEWNS) != 0:
        return None
    # Nothing mounted here may leak back into the grader's view of the file system.
    if not MOUNTS_PRIVATE and libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        raise OSError(ctypes.get_errno(), "cannot make the mount namespace private")
    inner = os.path.join(workdir, DISK_FOLDER)
    target = inner if os.path.isdir(inner) and os.path.ismount(workdir) else workdir
    uid, gid = user if user is not None else (0, 0)
    options = f"size={int(size)},nr_inodes=4096,mode=0700,uid={int(uid)},gid={int(gid)}".encode()
    if libc.mount(b"tmpfs", target.encode(), b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options) != 0:
        raise OSError(ctypes.get_errno(), "cannot mount the working directory")
    return target


def _prepare_folder(request: dict[str, Any]) -> str:
    """The folder the request's child will work in; as root, prepared for its private disk.

    Landlock ignores rules on a folder that a mount hides, so a disk mounted on the run's folder
    itself could be allowed only in each child (see confinement). Instead, in the zygote's own
    mount namespace (the grader never sees it), a tiny root-owned tmpfs covers the run's folder
    once, with one empty folder inside where each child mounts its disk: the read layer then
    names the run's folder once for every child.
    """
    workdir = request.get("workdir")
    if not isinstance(workdir, str):
        return str(workdir)
    inner = os.path.join(workdir, DISK_FOLDER)
    if not (MOUNTS_PRIVATE and (request.get("limits") or {}).get("disk_bytes")):
        return workdir
    if os.path.ismount(workdir) and os.path.isdir(inner):
        return inner
    libc: ctypes.CDLL = linux.libc()  # type: ignore[assignment]  # as root on Linux: always loaded
    options = b"size=16k,nr_inodes=8,mode=0755"
    if libc.mount(b"tmpfs", workdir.encode(), b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options) != 0:
        return workdir
    os.mkdir(inner, 0o755)
    return inner


def _quiet_standard_streams() -> None:
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def _scrub_environment() -> None:
    """Nothing of the grader's environment (tokens, paths, settings) reaches a submission.

    Done once in the zygote, so a child only adds its own folders (see _point_home_at).
    """
    os.environ.clear()
    os.environ.update(CHILD_ENVIRONMENT)


def _point_home_at(workdir: str) -> None:
    os.environ.update(HOME=workdir, TMPDIR=workdir, MPLCONFIGDIR=workdir)


def _apply_limits(limits: dict[str, Any]) -> None:
    memory = limits.get("memory_bytes")
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = limits.get("cpu_seconds")
    if cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    output = limits.get("file_bytes")
    if output:
        resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _lower(resource.RLIMIT_NOFILE, MAX_OPEN_FILES)


def _limit_processes(limits: dict[str, Any]) -> None:
    """Only after the privilege drop: the kernel does not hold root to RLIMIT_NPROC."""
    processes = limits.get("processes")
    if processes is not None:
        _lower(resource.RLIMIT_NPROC, processes)


def _lower(which: int, value: int) -> None:
    soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def _drop_privileges(user: Sequence[int] | None) -> None:
    """As root, become the unprivileged grading user; otherwise stay who we are."""
    if user is None or os.geteuid() != 0:
        return
    uid, gid = (int(x) for x in user)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.geteuid() != uid or os.getegid() != gid or 0 in os.getgroups():
        raise PermissionError("privileges were not dropped")


def _close_other_files(keep: set[int]) -> None:
    """Close every inherited descriptor but `keep` (the zygote may hold more than the new limit)."""
    low = 3
    for fd in sorted(keep) + [HIGHEST_FD]:
        if fd >= low:
            os.closerange(low, fd)
            low = fd + 1


if __name__ == "__main__":
    main(int(sys.argv[1]), exercised=sys.argv[2:3] != [UNEXERCISED])
    # Nothing to flush or clean up: skipping the interpreter's teardown of numpy and pandas saves
    # tens of milliseconds at the end of every batch.
    os._exit(0)
