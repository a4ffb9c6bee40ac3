"""Starting a zygote process (see zygote.py) without loading numpy in the process that starts it.

A command that grades starts its zygote first thing, so that the zygote loads numpy and pandas
while the command loads its own modules.
"""
from __future__ import annotations

import socket
import subprocess
import sys
import tempfile

# Set before numpy loads: BLAS threads spin on the other cores after every operation.
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
ZYGOTE_ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", **SINGLE_THREADED}


def start_zygote(python: str = sys.executable) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """(the process, our end of its control socket) of a new zygote run by `python`."""
    ours, theirs = socket.socketpair()
    try:
        # The zygote's own memory still holds the environment it started with: a fixed one.
        process = subprocess.Popen(
            [python, "-I", "-m", "autograder.sandbox.zygote", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], env=dict(ZYGOTE_ENVIRONMENT), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    except BaseException:
        ours.close()
        raise
    finally:
        theirs.close()
    return process, ours
