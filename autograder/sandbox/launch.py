"""Starting a zygote process (see zygote.py) without loading numpy in the process that starts it.

A command that grades starts its zygote first thing, so that the zygote loads numpy and pandas
while the command loads its own modules; `check` starts it before the command line is even read
(`start_ahead`, from autograder.entry).
"""
from __future__ import annotations

import socket
import subprocess
import sys

# Set before numpy loads: BLAS threads spin on the other cores after every operation.
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
ZYGOTE_ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", **SINGLE_THREADED}


# zygote.UNEXERCISED, written here: this module must not load the zygote's numpy and pandas.
UNEXERCISED = "unexercised"


def start_zygote(python: str = sys.executable, *, exercised: bool = True
                 ) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """(the process, our end of its control socket) of a new zygote run by `python`; `exercised`:
    see zygote.main."""
    ours, theirs = socket.socketpair()
    try:
        # The zygote's own memory still holds the environment it started with: a fixed one. Its
        # folder is the root, always there and never one of submissions.
        process = subprocess.Popen(
            [python, "-I", "-m", "autograder.sandbox.zygote", str(theirs.fileno())]
            + ([] if exercised else [UNEXERCISED]),
            pass_fds=[theirs.fileno()], env=dict(ZYGOTE_ENVIRONMENT), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    return process, ours


_AHEAD: list[tuple[subprocess.Popen[bytes], socket.socket]] = []


def start_ahead(python: str = sys.executable) -> None:
    """A zygote for one file's check started now, for the command about to ask for it
    (`started_zygote`): the first thing `autograder check` does, before it loads its own modules.
    One never asked for (the command refused, or only printed its help) ends by itself when this
    process ends and closes its socket."""
    _AHEAD.append(start_zygote(python, exercised=False))


def started_zygote(python: str = sys.executable) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """For one file's check: the zygote started ahead, if one was, else one started now. Not
    exercised (zygote.main): its few children would only wait for it."""
    return _AHEAD.pop() if _AHEAD else start_zygote(python, exercised=False)
