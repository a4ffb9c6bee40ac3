"""grades.csv: each student's rows, their statuses in every language, and the class in numbers."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..core.render.messages import LANGUAGES, Messages, detail_text
from ..said import Said
from ..core.reading.problems import Detail
from .late import COMPUTER_ZONE, LmsZone
from ..whole_file import write_atomic
from .overrides import summary as override_summary
from .spreadsheet import spreadsheet_text

if TYPE_CHECKING:
    from ..core.lab import Lab
    from .collect import Student

Records = Sequence[Mapping[str, Any]]  # the students' records (outputs.record_of)
Listed = Sequence[Mapping[str, str]]  # the LMS's and the TA's files (lms_files)

LEADING_COLUMNS = ("id", "name", "file", "submitted_at", "late", "total", "raw_total", "late_penalty")
TEXT_COLUMNS = ("id", "name", "file", "submitted_at", "late", "status", "lab", "overrides")

OVERRIDE_COLUMNS = ("automatic_total", "overrides")


def columns_for(lab: Lab, overridden: bool = False) -> list[str]:
    """grades.csv's columns: who and which file, the totals, one column per step, the status and
    the lab graded (a run grades one lab; the column says which, on every row). A folder with an
    overrides.csv adds the automatic total and the overrides (steps show the final points)."""
    return [*LEADING_COLUMNS, *lab.function_names, "status", "lab", *(OVERRIDE_COLUMNS if overridden else ())]


NO_FILE = "no file"


def rows_for(student: Student, record: Mapping[str, Any] | None, lab: Lab, *,
             zone: LmsZone = COMPUTER_ZONE) -> list[dict[str, Any]]:
    """grades.csv rows of one student: the graded file, then every other file and why it was not
    graded. LMS files that are not submissions (receipts, online text, lists, grade sheets) are
    not rows (lms_files lists them, for the report); a student the LMS names who sent no file has
    one row that says so. Each row's `status` is a code programs read (in English, whatever the
    language); its SHOWN_STATUS says it to people ({lang: text}), for the report only. Times are
    shown in the course's `zone`."""
    chosen = student.chosen
    rows: list[dict[str, Any]] = []
    who = {"id": student.id, "name": student.name}
    if chosen is None and student.id and any(entry.metadata for entry, _ in student.ignored):
        from .collect import kind_said

        kinds = sorted({entry.metadata for entry, _ in student.ignored if entry.metadata})
        rows.append({**who, "file": "", "status": f"{NO_FILE}: the LMS sent only {', '.join(kinds)}",
                     SHOWN_STATUS: said(lambda say: say("report", "status_no_file", kinds=", ".join(
                         kind_said(kind).text(say) for kind in kinds))), "lab": lab.name})
    if chosen is not None:
        assert record is not None  # every student with a file has a record
        late = record.get("late") or {}
        rows.append({**who, "file": record["file"], "submitted_at": zone.shown(student.submitted_at),
                     "late": "yes" if late.get("late") else "no", "total": record["total"],
                     "raw_total": record.get("raw_total", record["total"]), "late_penalty": late.get("percent", 0.0),
                     **{name: record["steps"][name]["score"] for name in lab.function_names},
                     "status": record["status"], SHOWN_STATUS: said(lambda say: record_status(record["status"], say)),
                     "lab": lab.name,
                     "automatic_total": record.get("automatic_total", record.get("raw_total", record["total"])),
                     "overrides": override_summary(record)})
    for entry in student.superseded:
        assert chosen is not None  # only a chosen file supersedes others
        if entry.path == chosen.path:
            status = f"superseded by {chosen.path} (archive member {chosen.index + 1}, the same name)"
            key, params = "status_superseded_same", {"file": chosen.path, "position": chosen.index + 1}
        elif student.merged and entry.owner != chosen.owner:
            status = f"merged: superseded by {chosen.path}, a file of another name ({chosen.owner})"
            key, params = "status_merged", {"file": chosen.path, "owner": chosen.owner}
        else:
            status = f"superseded by {chosen.path}"
            key, params = "status_superseded", {"file": chosen.path}
        rows.append({**who, "file": entry.path, "status": status,
                     SHOWN_STATUS: said(lambda say: say("report", key, **params)), "lab": lab.name})
    for entry, reason in student.ignored:
        if not entry.metadata:
            rows.append({**who, "file": entry.path, "status": f"ignored: {in_english(reason)}",
                         SHOWN_STATUS: said(lambda say: ignored_status(reason, say)), "lab": lab.name})
    return rows


def said(words: Callable[[Messages], str]) -> dict[str, str]:
    """{lang: text} of what `words` says, in every language (a Korean page carries the English twin)."""
    return {lang: words(Messages(lang)) for lang in LANGUAGES}


# A status as people read it: grades.csv's code said in every language ({lang: text}).
SHOWN_STATUS = "shown_status"
# The errors a record's status names (batch.grader.failure's `what`, the pool's), by catalog key.
ERRORS = {"ended the grading sandbox": "error_sandbox", "ended the grading process": "error_process",
          "grading did not finish in time": "error_time", "the grader failed": "error_grader",
          "outputs not written": "error_outputs", "overrides or comparison not applied": "error_after"}


def record_status(status: str, say: Messages) -> str:
    """A graded file's status (graded, broken: <problem>, error: <what> (<why>)) in `say`'s
    language; a status it does not know is shown as it is."""
    if status == "graded":
        return say("report", "status_graded")
    kind, _, rest = status.partition(": ")
    if kind == "broken":
        problem = say("title", rest) if rest in say.table["title"] else rest
        return say("report", "status_broken", problem=problem)
    if kind == "error":
        for what, key in ERRORS.items():
            if rest.startswith(what):
                return say("report", "status_error", what=say("report", key), failure=rest[len(what):])
    return status


def in_english(reason: Detail | Said | str) -> str:
    """Why a file was not graded, as grades.csv's status says it: in English, whatever the reader's."""
    return detail_text(reason, "en") if isinstance(reason, Detail) else str(reason)


def ignored_status(reason: Detail | Said | str, say: Messages) -> str:
    """Why a file was not graded (collect.ignored_reason), in `say`'s language."""
    if isinstance(reason, Detail):
        why = say.detail(reason)
    else:
        why = reason.text(say) if isinstance(reason, Said) else reason
    return say("report", "status_ignored", why=why)


def lms_files(everyone: Iterable[Student]) -> list[dict[str, Any]]:
    """The LMS's files that are not submissions, and the TA's files beside an LMS export's units
    (collect.NOT_LMS_NAMED), for the report: [{id, name, file, status, SHOWN_STATUS}]."""
    return [{"id": student.id, "name": student.name, "file": entry.path, "status": f"ignored: {in_english(reason)}",
             SHOWN_STATUS: said(lambda say: ignored_status(reason, say))}
            for student in everyone for entry, reason in student.ignored if entry.metadata]


def grades_table(rows: list[dict[str, Any]], lab: Lab, overridden: bool = False) -> pd.DataFrame:
    """The rows as a table: grades.csv's columns, then SHOWN_STATUS (the report's, never written)."""
    return pd.DataFrame(rows, columns=[*columns_for(lab, overridden), SHOWN_STATUS])


def write_grades(path: str, table: pd.DataFrame) -> None:
    safe = table.drop(columns=[SHOWN_STATUS], errors="ignore")
    for column in (c for c in TEXT_COLUMNS if c in safe.columns):
        safe[column] = safe[column].map(spreadsheet_text)
    # utf-8-sig: spreadsheet programs then read Korean names correctly.
    write_atomic(path, "\ufeff" + safe.to_csv(index=False))


def class_counts(table: pd.DataFrame, records: Records, lab: Lab, listed: Sized = ()) -> dict[str, int | str]:
    """The class in numbers, as both the terminal summary and report.html give them.

    Counted from the statuses in grades.csv: "graded" is a file graded as readable code, a broken
    or unreadable one is counted under "broken" only. `listed`: the LMS files that are not
    submissions (lms_files), which are files received but not rows of grades.csv.
    """
    totals = pd.Series([r["total"] for r in records], dtype=float)
    statuses = table["status"].fillna("")
    files = int((table["file"].fillna("") != "").sum()) + len(listed)
    return {
        "students": len(records), "files": files,
        "graded": int((statuses == "graded").sum()), "broken": int(statuses.str.startswith("broken").sum()),
        "errors": int(statuses.str.startswith("error").sum()),
        "superseded": int(statuses.str.startswith("superseded").sum()),
        "ignored": int(statuses.str.startswith("ignored").sum()),
        "merged": int(statuses.str.startswith("merged").sum()),
        "lms_files": len(listed), "no_file": int(statuses.str.startswith(NO_FILE).sum()),
        "mean": f"{totals.mean():.2f}" if len(totals) else "–",
        "median": f"{totals.median():.2f}" if len(totals) else "–",
        "full": int((totals >= lab.total_points).sum()),
    }


def graded_records(records: Records) -> list[Mapping[str, Any]]:
    """The students whose file was graded as code: the one denominator of every rate per step
    (pass rates, mistakes, cells), which the report states."""
    return [r for r in records if r["status"] == "graded"]
