"""A run folder's own files: each written whole or not at all, and its records read back.

The temporaries a killed run left (`whole_file.TEMP_SUFFIX`; every output of a run is written
by `whole_file.write_atomic`), and the one reader of
the records results/<id>.json carry (`run_records`, under `RECORD_KEY`). A small module of its own,
so that what writes a run's files (outputs, overrides, report, history) and what reads an earlier
run (previous, run_folder, lms) share it without importing one another.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from ..whole_file import TEMP_SUFFIX

RECORD_KEY = "autograder"


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
