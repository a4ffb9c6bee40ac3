"""A run folder's own files: each written whole or not at all, and its records read back.

The one writer every output of a run goes through (`write_atomic`: a temporary file beside the
target, then os.replace), the temporaries a killed run left (`TEMP_SUFFIX`), and the one reader of
the records results/<id>.json carry (`run_records`, under `RECORD_KEY`). A small module of its own,
so that what writes a run's files (outputs, overrides, report, history) and what reads an earlier
run (previous, run_folder, lms) share it without importing one another.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterable, Iterator
from typing import Any

TEMP_SUFFIX = ".partial"
RECORD_KEY = "autograder"


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `path` whole or not at all: a temporary file beside it, then os.replace.

    The temporary file's name is short and owes nothing to `path`'s (".<pid>-<random>.partial"),
    so it fits the file system whenever `path` does. It is removed when the write fails.
    """
    folder = os.path.dirname(os.fspath(path)) or "."
    temporary = os.path.join(folder, f".{os.getpid()}-{secrets.token_hex(6)}{TEMP_SUFFIX}")
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


def remove_temporaries(folders: Iterable[str]) -> None:
    """Temp files a killed run left behind; they were never renamed, so nothing refers to them."""
    for folder in folders:
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            if name.endswith(TEMP_SUFFIX):
                try:
                    os.remove(os.path.join(folder, name))
                except OSError:
                    pass


def run_records(out_dir: str) -> Iterator[dict[str, Any]]:
    """Every readable student record of a run's folder (results/<id>.json), in file-name order: a
    dict with a str "id" and a dict "steps". Files that cannot be read or hold another shape are
    passed over (a run folder a person edited is read as far as it can be)."""
    results = os.path.join(out_dir, "results")
    for name in sorted(os.listdir(results)):
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(results, name), encoding="utf-8") as handle:
                record = json.load(handle)["extra_data"][RECORD_KEY]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if isinstance(record, dict) and isinstance(record.get("id"), str) and isinstance(record.get("steps"), dict):
            yield record
