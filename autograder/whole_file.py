"""Writing a file whole or not at all: the one writer every file the engine leaves behind goes
through (a run's outputs, the batch's shared repairs, Gradescope's results.json, `check --html`).

Standard library only, so that every layer may use it.
"""
from __future__ import annotations

import contextlib
import os
import secrets

TEMP_SUFFIX = ".partial"  # the temporaries a killed writer leaves end so (batch.run_files removes them)


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `path` whole or not at all: a temporary file beside it, then os.replace.

    The temporary file's name is short and owes nothing to `path`'s (".<pid>-<random>.partial"),
    so it fits the file system whenever `path` does. It is removed when the write fails.
    """
    folder = os.path.dirname(os.fspath(path)) or "."
    temporary = os.path.join(folder, temporary_name())
    created = False
    try:
        with open(temporary, "x", encoding="utf-8", newline="") as handle:
            created = True
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        if created:
            with contextlib.suppress(OSError):
                os.remove(temporary)
        raise


def temporary_name() -> str:
    """A fresh temporary file's name, unique to this process and call."""
    return f".{os.getpid()}-{secrets.token_hex(6)}{TEMP_SUFFIX}"
