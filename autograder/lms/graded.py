"""What a finished `autograder grade` run holds for the LMS: one total per student, read from its folder."""
import csv
import io
import json
import dataclasses
import os
from dataclasses import dataclass

@dataclass(frozen=True)
class Graded:
    id: str
    total: float
    max_total: float
    status: str
    file: str
    name: str = ""       # from the LMS export, when the run had one
    late: str = ""
    feedback: str = ""   # path of feedback/<id>.html, "" when missing


class RunError(ValueError):
    """The folder is not a finished grading run."""


def read_run(folder, default_max=None):
    """{id: Graded} of every student graded in `folder` (the row of grades.csv that has a total).

    Columns beyond id, file, total and status (name, submitted_at, late) are used when present.
    The total is grades.csv's; results/<id>.json gives the maximum and, when it agrees with the
    rounded total, the unrounded value. A student without a readable results file gets the
    maximum the others have, else `default_max()` (the lab's full marks).
    """
    path = os.path.join(folder, "grades.csv")
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.DictReader(io.StringIO(handle.read(), newline="")))
    except FileNotFoundError:
        raise RunError(f"no grades.csv in {folder}: give the --out folder of `autograder grade`") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RunError(f"cannot read {path}: {error}") from None
    if rows and not {"id", "total", "status"} <= set(rows[0]):
        raise RunError(f"{path} has no id, total and status columns")
    students = {}
    for row in rows:
        total = _float(row.get("total"))
        if total is None or not row.get("id"):
            continue  # superseded, merged or ignored files: no grade of their own
        student = _unquoted(row["id"])
        record = _record(folder, student)
        precise = record.get("total")
        if isinstance(precise, (int, float)) and abs(precise - total) < 0.006:
            total = float(precise)
        maximum = record.get("max_total")
        feedback = os.path.join(folder, "feedback", f"{student}.html")
        students[student] = Graded(
            id=student, total=total,
            max_total=float(maximum) if isinstance(maximum, (int, float)) and maximum > 0 else None,
            status=row.get("status") or "", file=_unquoted(row.get("file") or ""),
            name=_unquoted(row.get("name") or ""), late=row.get("late") or "",
            feedback=feedback if os.path.isfile(feedback) else "")
    known = {g.max_total for g in students.values() if g.max_total is not None}
    unknown = [g for g in students.values() if g.max_total is None]
    if unknown:
        fallback = max(known) if known else (float(default_max()) if default_max else None)
        if fallback is None:
            raise RunError(f"{folder}: no results file says what full marks are")
        for graded in unknown:
            students[graded.id] = dataclasses.replace(graded, max_total=fallback)
    return students


def _record(folder, student):
    try:
        with open(os.path.join(folder, "results", f"{student}.json"), encoding="utf-8") as handle:
            record = json.load(handle)["extra_data"]["autograder"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return record if isinstance(record, dict) and record.get("id") == student else {}


def _unquoted(text):
    """A grades.csv text cell as it was before the leading "'" that keeps spreadsheets from running it."""
    return text[1:] if text.startswith("'") and text[1:2] in ("=", "+", "-", "@") else text


def _float(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if value == value else None
