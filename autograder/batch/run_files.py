"""A run folder's own files: each written whole or not at all, and its records read back.

The temporaries a killed run left (`whole_file.TEMP_SUFFIX`; every output of a run is written
by `whole_file.write_atomic`), and the one reader of
the records results/<id>.json carry (`run_records`, under `RECORD_KEY`). A small module of its own,
so that what writes a run's files (outputs, overrides, report, history) and what reads an earlier
run (previous, run_folder, lms) share it without importing one another.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from typing import Any

from ..whole_file import TEMP_SUFFIX, write_atomic

RECORD_KEY = "autograder"
# An override's state in a run's record: applied, or held for the TA's review (batch.overrides).
APPLIED, REVIEW = "applied", "review"
# The longest id, in UTF-8 bytes: "<id>.html", and a stale copy's "<id>.html.<n>", stay within NAME_MAX.
ID_MAX_BYTES = 200
ID_HASH_CHARS = 16


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


def _safe_file_name(text: str) -> bool:
    return bool(text) and not text.startswith(".") and re.fullmatch(r"[\w.\-]+", text, flags=re.UNICODE) is not None


def fit_id(student: str) -> str:
    """The id as it names files: unchanged when it is a safe file name (letters, digits, '.', '-',
    '_', not starting with '.') whose UTF-8 fits ID_MAX_BYTES. Otherwise its safe letters and a hash
    of all of it ("<beginning>-<16 hex digits>"), so two different ids stay different and no id,
    whoever wrote it (a record edited by hand, an LMS's name), names a file outside its folder.

    Idempotent: a fitted id fits. Every file named after a student goes through here.
    """
    if not _safe_file_name(student):
        digest = hashlib.sha256(student.encode("utf-8", "surrogatepass")).hexdigest()[:ID_HASH_CHARS]
        cleaned = re.sub(r"[^\w.\-]+", "_", student, flags=re.UNICODE).strip("._")[:ID_MAX_BYTES // 4]
        student = f"{cleaned or 'unnamed'}-{digest}"
    data = student.encode("utf-8", "surrogatepass")
    if len(data) <= ID_MAX_BYTES:
        return student
    digest = hashlib.sha256(data).hexdigest()[:ID_HASH_CHARS]
    head = data[:ID_MAX_BYTES - ID_HASH_CHARS - 1].decode("utf-8", "ignore")
    return f"{head}-{digest}"


# Beside the identity while a grading of the folder is under way, removed once its grades.csv is
# written: a grading interrupted or killed keeps it, and nothing reads that folder as a finished
# run then (lms.graded.read_run). The grades.csv of the grading before is removed when a grading
# starts: its students' results are rewritten one by one, and a TA who uploads grades.csv by hand
# must never find one that the results and feedback beside it contradict.
UNFINISHED_FILE = "autograder-run.unfinished"


def mark_unfinished(folder: str, started: str) -> None:
    """Say in `folder` that a grading of it has started (`started`: when, ISO 8601), and take away
    the grades.csv of the grading before (the new one writes its own at its end)."""
    write_atomic(os.path.join(folder, UNFINISHED_FILE), json.dumps({"grading_started": started}) + "\n")
    try:
        os.remove(os.path.join(folder, "grades.csv"))
    except FileNotFoundError:
        pass


def mark_finished(folder: str) -> None:
    """The grading of `folder` has written its grades.csv: its outputs agree again."""
    try:
        os.remove(os.path.join(folder, UNFINISHED_FILE))
    except FileNotFoundError:
        pass


def unfinished(folder: str) -> bool:
    """Whether the last grading of `folder` started and never wrote its grades.csv."""
    return os.path.lexists(os.path.join(folder, UNFINISHED_FILE))
