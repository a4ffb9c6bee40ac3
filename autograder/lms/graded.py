"""What a finished `autograder grade` run holds for the LMS: one total per student, read from its folder."""
import csv
import io
import json
import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

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
    lab: str = ""        # the lab it was graded for (grades.csv's lab column, else its record's)
    defined: bool = False  # its results record shows a file that defines one of the lab's functions
    functions: tuple[str, ...] = ()  # the lab's step functions, from its record
    withheld: str = ""   # why its total must not go into a sheet ("" when it may)


class RunError(ValueError):
    """The folder is not a finished grading run."""


def read_run(folder: str, default_max: Callable[[], float] | None = None) -> dict[str, Graded]:
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
    students: dict[str, Graded] = {}
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
        status = row.get("status") or ""
        steps = record["steps"] if isinstance(record.get("steps"), dict) else {}
        students[student] = Graded(
            id=student, total=total,
            # None (not known yet) is replaced just below, before any Graded leaves this function
            max_total=cast(float, float(maximum) if isinstance(maximum, (int, float)) and maximum > 0 else None),
            status=status, file=_unquoted(row.get("file") or ""),
            name=_unquoted(row.get("name") or ""), late=row.get("late") or "",
            feedback=feedback if os.path.isfile(feedback) else "",
            lab=row.get("lab") or str(record.get("lab") or ""), defined=defines_a_step(record, status),
            functions=tuple(steps), withheld=withheld(status) or under_review(record))
    known = {g.max_total for g in students.values() if g.max_total is not None}
    unknown = [g for g in students.values() if g.max_total is None]
    if unknown:
        fallback = max(known) if known else (float(default_max()) if default_max else None)
        if fallback is None:
            raise RunError(f"{folder}: no results file says what full marks are")
        for graded in unknown:
            students[graded.id] = dataclasses.replace(graded, max_total=fallback)
    return students


GRADER_FAILED = "error: the grader failed"


def defines_a_step(record: Mapping[str, Any], status: str) -> bool:
    """Whether a student's results record shows a file that defines one of the lab's step functions:
    read as code (status graded) and some step not 'missing' (a stub counts: it is defined)."""
    steps = record.get("steps")
    if status != "graded" or not isinstance(steps, dict):
        return False
    return any(isinstance(step, dict) and step.get("status") not in ("missing", None) for step in steps.values())


def withheld(status: str) -> str:
    """Why a grade must not be written into a sheet: the grader failed on that file (its 0 is no grade)."""
    return "the grader failed on this file; grade the run again" if status.startswith(GRADER_FAILED) else ""


def under_review(record: Mapping[str, Any]) -> str:
    """Why a grade waits for its TA: an override whose automatic result changed since it was
    written (batch.overrides) is neither applied nor dropped until the TA settles it."""
    lines = [str(e.get("line")) for e in record.get("overrides") or () if isinstance(e, dict) and e.get("state") == "review"]
    if not lines:
        return ""
    return (f"an override awaits review (overrides.csv line {', '.join(lines)}): the automatic result changed "
            "since it was written; confirm or delete it, grade again, then export")


def run_refusals(run: Mapping[str, Graded], lab_name: str | None = None) -> list[str]:
    """Why the grades of `run` ({id: Graded}) cannot be right, so none may go into an LMS sheet
    ([] when they may). Checked: the run graded someone; it graded one lab, the one --lab names
    (when given); and at least one student's file defines one of that lab's step functions (a run
    in which none does graded another lab's files, or no code: every grade is a 0 of a TA's slip)."""
    if not run:
        return ["the run graded nobody (grades.csv has no total)"]
    reasons: list[str] = []
    labs = sorted({g.lab for g in run.values() if g.lab})
    if len(labs) > 1:
        reasons.append(f"grades.csv holds grades of several labs ({', '.join(labs)}); a run grades one")
    if lab_name is not None and labs and lab_name not in labs:
        reasons.append(f"the run graded {', '.join(labs)}, not --lab {lab_name}")
    if not any(g.defined for g in run.values()):
        functions = next((g.functions for g in run.values() if g.functions), ())
        named = f" ({', '.join(functions)})" if functions else ""
        reasons.append(f"no student's file in the run defines any of the lab's functions{named}, so every "
                       f"grade is 0 for steps never written: the files are another lab's (grade again with its "
                       f"--lab) or not code at all")
    return reasons


def _record(folder: str, student: str) -> dict[str, Any]:
    try:
        with open(os.path.join(folder, "results", f"{student}.json"), encoding="utf-8") as handle:
            record = json.load(handle)["extra_data"]["autograder"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return record if isinstance(record, dict) and record.get("id") == student else {}


def _unquoted(text: str) -> str:
    """A grades.csv text cell as it was before the leading "'" that keeps spreadsheets from running it."""
    return text[1:] if text.startswith("'") and text[1:2] in ("=", "+", "-", "@") else text


def _float(text: str | None) -> float | None:
    try:
        value = float(text)  # type: ignore[arg-type]  # None: the TypeError below
    except (TypeError, ValueError):
        return None
    return value if value == value else None
