"""What a finished `autograder grade` run holds for the LMS and the course history: one grade per
student, read from its folder.

The run's grades are its grades.csv: the students are its rows that have a total, the total is
theirs (results/<id>.json gives the maximum, the unrounded total when it agrees, and the steps).
Which grades may not be used (the grader failed on the file, an override awaits the TA's review, a
total that does not read) is decided here once, by `withheld_reason`, for `export` and `history` alike.
Each results record is validated into a typed Record; one that does not validate is a problem told
to the TA, never a crash.
"""
import csv
import dataclasses
import io
import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..said import Refusal, Said, said
from .sheet import SheetError, read_csv_text


@dataclass(frozen=True, kw_only=True)
class StepRecord:
    """One step of a student's results record."""

    name: str
    score: float
    max_score: float
    status: str
    mistakes: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class OverrideNote:
    """A TA's override as the run applied it (state "applied") or held it for review ("review")."""

    step: str
    points: float
    automatic: float
    by: str
    comment: str
    line: int
    state: str


@dataclass(frozen=True, kw_only=True)
class Record:
    """A student's results record (results/<id>.json), validated."""

    id: str
    lab: str
    file: str
    status: str
    total: float
    max_total: float
    steps: tuple[StepRecord, ...]
    overrides: tuple[OverrideNote, ...] = ()

    def in_review(self) -> tuple[OverrideNote, ...]:
        """The overrides batch.overrides held for the TA's review (the state is a run record's: run_files.REVIEW)."""
        from ..batch.run_files import REVIEW  # the batch package imports this one (lms.recognise)

        return tuple(note for note in self.overrides if note.state == REVIEW)


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
    withheld: Said | None = None  # why its total must not be used as a grade (withheld_reason)
    record: Record | None = None  # its results record, when it validates
    record_problem: Said | None = None  # why its results record cannot be used, when it cannot
    line: int = 0        # its row's line in grades.csv


class RunError(Refusal):
    """The folder is not a finished grading run."""


GRADER_FAILED = "error: the grader failed"
# The statuses grades.csv gives a row that is no grade of its own (batch.grades.rows_for): a file
# superseded by a newer one, merged, ignored, a student the LMS names who sent no file. Its total is
# empty by design; any other row with an empty total was emptied by hand, and is withheld.
NO_GRADE_OF_ITS_OWN = ("superseded", "merged:", "ignored:", "no file")


def no_grade_of_its_own(status: str) -> bool:
    """Whether a grades.csv row of this status carries no grade (its empty total is no slip)."""
    return status.startswith(NO_GRADE_OF_ITS_OWN)


def read_run(folder: str, default_max: Callable[[], float] | None = None,
             notes: list[Said] | None = None) -> dict[str, Graded]:
    """{id: Graded} of every student graded in `folder` (the rows of grades.csv that have a total).

    A folder whose last grading never wrote its grades.csv (interrupted or killed: run_files'
    UNFINISHED_FILE) is refused: some of its students' results are that grading's, others not yet.
    Columns beyond id, file, total and status (name, late, lab) are used when present. The total is
    grades.csv's; results/<id>.json gives the maximum and, when it agrees with the rounded total, the
    unrounded value; when it does not, the grade is withheld (withheld_reason: one of the two is
    stale or was edited). A student without a usable results record gets the maximum the others have,
    else `default_max()` (the lab's full marks). A row whose total is not a number (emptied by hand
    included) is a student whose grade is withheld (withheld_reason), never dropped. grades.csv
    re-saved in another encoding (cp949 by Korean Excel) is read (read_csv_text), and `notes` gets
    a sentence saying so.
    """
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise RunError(said("run_is_a_file", folder=folder))
    from ..batch.run_files import UNFINISHED_FILE, unfinished  # the batch package imports this one

    if unfinished(folder):
        # A grading that never wrote its grades.csv: some students' results are new, others not yet.
        raise RunError(said("run_unfinished", folder=folder, marker=UNFINISHED_FILE))
    path = os.path.join(folder, "grades.csv")

    try:
        with open(path, "rb") as handle:
            text, encoding = read_csv_text(handle.read())
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except FileNotFoundError:
        raise RunError(said("run_no_grades", folder=folder)) from None
    except SheetError:
        raise RunError(said("run_not_text", path=path)) from None
    except (OSError, csv.Error) as error:
        raise RunError(said("run_unreadable", path=path, why=getattr(error, "strerror", None) or str(error))) from None
    if encoding not in ("utf-8", "utf-8-sig") and notes is not None:
        notes.append(said("run_read_as", path=path, encoding=encoding))
    if rows and not {"id", "total", "status"} <= set(rows[0]):
        raise RunError(said("run_no_columns", path=path))
    students: dict[str, Graded] = {}
    for line, row in enumerate(rows, start=2):
        written = (row.get("total") or "").strip()
        status = row.get("status") or ""
        if not row.get("id") or not written and no_grade_of_its_own(status):
            continue  # superseded, merged or ignored files, no file: no grade of their own
        student = _unquoted(row["id"])
        if not written and student in students:
            continue  # the student's graded row came first; this one is another of their files
        record = read_record(folder, student)
        valid = record if isinstance(record, Record) else None
        total = _float(written)
        if valid is not None and total is not None and abs(valid.total - total) < 0.006:
            total = valid.total
        feedback = os.path.join(folder, "feedback", f"{_fit_id(student)}.html")
        maximum = valid.max_total if valid is not None else None
        students[student] = Graded(
            id=student, total=total if total is not None else 0.0,
            max_total=maximum if maximum is not None else math.nan,  # nan: replaced just below
            status=status, file=_unquoted(row.get("file") or ""), name=_unquoted(row.get("name") or ""),
            late=row.get("late") or "", feedback=feedback if os.path.isfile(feedback) else "",
            lab=row.get("lab") or (valid.lab if valid is not None else ""), defined=defines_a_step(valid, status),
            functions=tuple(step.name for step in valid.steps) if valid is not None else (),
            withheld=withheld_reason(status=status, record=valid, total=total, written=written, line=line,
                                     student=student),
            record=valid, record_problem=record if isinstance(record, Said) else None, line=line)
    known = [g.max_total for g in students.values() if not math.isnan(g.max_total)]
    unknown = [g for g in students.values() if math.isnan(g.max_total)]
    if unknown:
        fallback = max(known) if known else (float(default_max()) if default_max else None)
        if fallback is None:
            raise RunError(said("run_no_maximum", folder=folder))
        for graded in unknown:
            students[graded.id] = dataclasses.replace(graded, max_total=fallback)
    return {student: _outside_range(graded) for student, graded in students.items()}


def _outside_range(graded: Graded) -> Graded:
    """A total below 0 or above full marks is no grade (a hand-edited grades.csv): withheld."""
    if graded.withheld is None and not -0.005 <= graded.total <= graded.max_total + 0.005:
        return dataclasses.replace(graded, withheld=said("withheld_out_of_range", total=f"{graded.total:g}",
                                                         max_total=f"{graded.max_total:g}", line=graded.line))
    return graded


def withheld_reason(*, status: str, record: Record | None, total: float | None, written: str = "",
                    line: int = 0, student: str = "") -> Said | None:
    """Why a student's total must not be used as a grade, in a sheet or in the course history (None
    when it may): the grader failed on the file (its 0 is no grade); an override awaits review (the
    automatic result changed since the TA wrote it: neither applied nor dropped until the TA settles
    it); the total in grades.csv is not a number, or not the total the student's results record
    holds (one of the two is stale or was edited)."""
    if status.startswith(GRADER_FAILED):
        return said("withheld_grader_failed")
    waiting = record.in_review() if record is not None else ()
    if waiting:
        return said("withheld_review", lines=", ".join(str(note.line) for note in waiting))
    if total is None:
        return said("withheld_not_a_number", total=written, line=line)
    if record is not None and abs(record.total - total) >= 0.006:
        return said("withheld_disagrees", total=written, line=line, recorded=f"{record.total:g}", id=student)
    return None


def defines_a_step(record: Record | None, status: str) -> bool:
    """Whether a student's results record shows a file that defines one of the lab's step functions:
    read as code (status graded) and some step not 'missing' (a stub counts: it is defined)."""
    if status != "graded" or record is None:
        return False
    return any(step.status not in ("missing", "") for step in record.steps)


def run_refusals(run: Mapping[str, Graded], lab_name: str | None = None) -> list[Said]:
    """Why the grades of `run` ({id: Graded}) cannot be right, so none may go into an LMS sheet
    ([] when they may). Checked: the run graded someone; it graded one lab, the one --lab names
    (when given); and at least one student's file defines one of that lab's step functions (a run
    in which none does graded another lab's files, or no code: every grade is a 0 of a TA's slip)."""
    if not run:
        return [said("refused_nobody")]
    reasons: list[Said] = []
    labs = sorted({g.lab for g in run.values() if g.lab})
    if len(labs) > 1:
        reasons.append(said("refused_several_labs", labs=", ".join(labs)))
    if lab_name is not None and labs and lab_name not in labs:
        reasons.append(said("refused_other_lab", labs=", ".join(labs), lab=lab_name))
    if not any(g.defined for g in run.values()):
        functions = next((g.functions for g in run.values() if g.functions), ())
        reasons.append(said("refused_no_function", functions=", ".join(functions) or "-"))
    return reasons


def read_record(folder: str, student: str) -> Record | Said:
    """The student's results record, validated, or why it cannot be used (a Said)."""
    path = os.path.join(folder, "results", f"{_fit_id(student)}.json")  # never a path outside results/
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        return said("record_missing", path=path)
    except (OSError, ValueError) as error:
        return said("record_unreadable", path=path, why=getattr(error, "strerror", None) or str(error))
    try:
        return _record(data, student)
    except (KeyError, TypeError, ValueError) as error:
        return said("record_invalid", path=path, why=str(error))


def _record(data: Any, student: str) -> Record:
    from ..batch.run_files import RECORD_KEY  # the batch package imports this one (lms.recognise)

    record = data["extra_data"][RECORD_KEY]
    if not isinstance(record, dict):
        raise TypeError("extra_data.autograder is not an object")
    if record.get("id") != student:
        raise ValueError(f"its id is {record.get('id')!r}, not {student!r}")
    steps = record["steps"]
    if not isinstance(steps, dict):
        raise TypeError("steps is not an object")
    return Record(id=student, lab=_text(record, "lab"), file=_text(record, "file"), status=_text(record, "status"),
                  total=_points(record, "total"), max_total=_points(record, "max_total", positive=True),
                  steps=tuple(_step(name, step) for name, step in steps.items()),
                  overrides=tuple(_override(note) for note in record.get("overrides") or ()))


def _step(name: object, step: Any) -> StepRecord:
    if not isinstance(name, str) or not isinstance(step, dict):
        raise TypeError(f"step {name!r} is not an object")
    mistakes = step.get("mistakes") or []
    if not isinstance(mistakes, list) or not all(isinstance(code, str) for code in mistakes):
        raise TypeError(f"the mistakes of step {name!r} are not a list of codes")
    return StepRecord(name=name, score=_points(step, "score"), max_score=_points(step, "max_score"),
                      status=_text(step, "status"), mistakes=tuple(mistakes))


def _override(note: Any) -> OverrideNote:
    if not isinstance(note, dict):
        raise TypeError("an override is not an object")
    line = note.get("line")
    if not isinstance(line, int) or isinstance(line, bool):
        raise TypeError("an override's line is not a number")
    return OverrideNote(step=_text(note, "step"), points=_points(note, "points"),
                        automatic=_points(note, "automatic"), by=_text(note, "by"), comment=_text(note, "comment"),
                        line=line, state=_text(note, "state"))


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise TypeError(f"{key} is not text")
    return value


def _points(data: Mapping[str, Any], key: str, positive: bool = False) -> float:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TypeError(f"{key} is not a number: {value!r}")
    if value < 0 or (positive and value == 0):
        raise ValueError(f"{key} is {value!r}")
    return float(value)


def _fit_id(student: str) -> str:
    from ..batch.run_files import fit_id  # the batch package imports this one (lms.recognise)

    return fit_id(student)


def _unquoted(text: str) -> str:
    """A grades.csv text cell as it was before the leading "'" that keeps spreadsheets from running it."""
    return text[1:] if text.startswith("'") and text[1:2] in ("=", "+", "-", "@") else text


def _float(text: str | None) -> float | None:
    try:
        value = float(text)  # type: ignore[arg-type]  # None: the TypeError below
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None
