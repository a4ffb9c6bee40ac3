"""A TA's overrides: DIR/overrides.csv (id, step, points, comment, by) read on every `grade` run.

Pure data in and out, I/O only in `read_overrides`, `load_state` and `save_state`. One place
applies them, `apply_overrides`, to the record a worker makes: grades.csv, the feedback, the
report, `export` and the course history all read that final record, never the CSV.

An override keeps the automatic points it was written against (the CSV's optional `automatic`
column, else what the run in DIR showed when a run first read the row, kept in
DIR/overrides.state.json). When the automatic points change later (a regrade after a fix), the
override is flagged for review and not applied: the final grade shows the automatic points,
which the grader stands behind now, until the TA confirms the override (writes the new automatic
points in its `automatic` column, or edits the row) or deletes it. Applying it blindly could
take points from a student the fixed grader now gives them; dropping it would lose the TA's
judgement; so it stays in the CSV, the report and on stderr, and `export` withholds that grade.
"""
from __future__ import annotations

import csv
import difflib
import hashlib
import io
import json
import math
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ..said import Refusal, Said, said
from .late import penalised
from .run_files import APPLIED, REVIEW
from ..whole_file import write_atomic
from .ta_numbers import Unreadable, read_number, split_number

if TYPE_CHECKING:
    from ..core.render.messages import Messages

FILE_NAME = "overrides.csv"
STATE_NAME = "overrides.state.json"
REQUIRED = ("id", "step", "points", "comment", "by")
OPTIONAL = ("automatic",)
NUMBERS = ("points", "automatic")  # the columns that take a number (ta_numbers' rule reads them)
WORDS = ("comment", "by")  # the columns of words: digits only there are a number split by a decimal comma
SAME_POINTS = 0.005  # points are shown to hundredths: closer than this is the same result
MAX_FIELD = 2000  # characters in a comment or a name; longer is a pasted slip


@dataclass(frozen=True, kw_only=True)
class Override:
    """One row of overrides.csv, checked."""

    line: int
    id: str
    step: str
    points: float
    comment: str
    by: str
    written_against: float | None = None  # the automatic points the TA saw; None: not known yet

    @property
    def key(self) -> str:
        """Names the row's content: a row the TA edits is a new override, written against the run then current."""
        text = json.dumps([self.id, self.step, self.points, self.comment, self.by], ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def as_task(self) -> dict[str, Any]:
        return {"line": self.line, "step": self.step, "points": self.points, "comment": self.comment,
                "by": self.by, "written_against": self.written_against}


class OverridesRefused(Refusal):
    """overrides.csv cannot be used: every problem (a Said), each with its line number; `problems`
    says them in `lang`."""

    def __init__(self, reasons: list[Said], lang: str = "en") -> None:
        super().__init__(*reasons)
        from ..core.render.messages import Messages

        say = Messages(lang)
        self.problems = [reason.text(say) for reason in reasons]


def _at(line: int, reason: Said) -> Said:
    return said("at_line", "overrides", line=line, problem=reason)


def parse_overrides(text: str, *, ids: Iterable[str], steps: Mapping[str, float], lang: str = "en") -> list[Override]:
    """The rows of overrides.csv, checked against the run's students and the lab's steps.

    Raises OverridesRefused listing every bad row by its line number (a header without the
    columns, a row with more cells than the header, an unknown id or step, points out of range or
    not a number, a number split over two cells by a decimal comma, an empty comment or author,
    two rows for one (id, step)); then nothing of the file is used. `lang`: the language of the
    reasons that come from ta_numbers.
    """
    known = set(ids)
    reader = csv.reader(io.StringIO(text, newline=""))
    problems: list[Said] = []
    try:
        header = next(reader)
    except StopIteration:
        return []
    except csv.Error as error:
        raise OverridesRefused([_at(1, said("not_csv", "overrides", why=str(error)))], lang) from None
    names = [cell.strip().lower() for cell in header]
    missing = [name for name in REQUIRED if name not in names]
    unknown = [cell for cell, name in zip(header, names) if name and name not in REQUIRED + OPTIONAL]
    doubled = sorted({name for name in names if name and names.count(name) > 1})
    if missing or unknown or doubled:
        wrong = []
        if missing:
            wrong.append(said("no_column", "overrides", listed=", ".join(missing)))
        if unknown:
            wrong.append(said("unknown_column", "overrides", listed=", ".join(repr(c) for c in unknown)))
        if doubled:
            wrong.append(said("column_twice", "overrides", listed=", ".join(doubled)))
        raise OverridesRefused([_at(1, said("header", "overrides", required=",".join(REQUIRED),
                                            optional=",".join(OPTIONAL), wrong=tuple(wrong)))], lang)
    column = {name: names.index(name) for name in REQUIRED + OPTIONAL if name in names}
    numeric = {column[name] for name in NUMBERS if name in column}
    words = {column[name] for name in WORDS}
    rows: list[Override] = []
    first_line: dict[tuple[str, str], int] = {}
    line = reader.line_num + 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            problems.append(_at(line, said("not_csv", "overrides", why=str(error))))
            break
        start, line = line, reader.line_num + 1
        if not any(cell.strip() for cell in cells):
            continue  # a blank line
        extra = [cell for cell in cells[len(header):] if cell.strip()]
        if extra:  # a decimal comma (1,5) or a comma in a comment shifts every cell after it
            problems.append(_at(start, said("extra_cells", "overrides", count=len(cells), columns=len(header),
                                            extra=", ".join(repr(c) for c in extra))))
            continue
        split = split_number(cells, numeric, words)
        if split is not None:
            problems.append(_at(start, said(
                "split_number", "run_folder", first=names[split.at], second=names[split.at + 1],
                words=next(names[at] for at in (split.at, split.at + 1) if at in words),
                whole=split.whole.strip(), fraction=split.fraction.strip())))
            continue
        row, reasons = _row(start, cells, column, known, steps)
        if row is None:  # exactly when something is said against it
            problems.extend(_at(start, reason) for reason in reasons)
            continue
        where = (row.id, row.step)
        if where in first_line:
            problems.append(_at(start, said("second_override", "overrides", step=row.step, id=row.id,
                                            first=first_line[where])))
            continue
        first_line[where] = start
        rows.append(row)
    if problems:
        raise OverridesRefused(problems, lang)
    return rows


def _row(line: int, cells: list[str], column: Mapping[str, int], known: set[str],
         steps: Mapping[str, float]) -> tuple[Override | None, list[Said]]:
    def cell(name: str) -> str:
        index = column.get(name)
        return cells[index].strip() if index is not None and index < len(cells) else ""

    reasons: list[Said] = []
    student, step = _unquoted(cell("id")), cell("step")
    if not student:
        reasons.append(said("id_empty", "overrides"))
    elif student not in known:
        close = _did_you_mean(student, known)
        reasons.append(said("no_student_close", "overrides", id=repr(student), close=repr(close)) if close
                       else said("no_student", "overrides", id=repr(student)))
    maximum = steps.get(step)
    if not step:
        reasons.append(said("step_empty", "overrides"))
    elif maximum is None:
        reasons.append(said("no_step", "overrides", step=repr(step), steps=", ".join(steps)))
    points = _points("points", cell("points"), step, maximum, reasons)
    automatic = _points("automatic", cell("automatic"), step, maximum, reasons) if cell("automatic") else None
    for name in ("comment", "by"):
        if not cell(name):
            reasons.append(said(f"{name}_empty", "overrides"))
        elif len(cell(name)) > MAX_FIELD:
            reasons.append(said("too_long", "overrides", column=name, most=MAX_FIELD))
    if reasons or points is None:  # points is None only when a reason is given
        return None, reasons
    return Override(line=line, id=student, step=step, points=float(points), comment=cell("comment"),
                    by=cell("by"), written_against=automatic), []


def _points(name: str, text: str, step: str, maximum: float | None, reasons: list[Said]) -> float | None:
    """A number column's cell read by ta_numbers' rule and checked against the step's points;
    None, with the reason added to `reasons`, when it cannot be used."""
    value = read_number(text)
    if isinstance(value, Unreadable):
        reasons.append(_unreadable(name, value))
        return None
    if maximum is not None and not 0 <= value <= maximum:
        reasons.append(said("out_of_range", "overrides", column=name, value=f"{value:g}", step=step,
                            maximum=f"{maximum:g}"))
        return None
    return value


def _unreadable(name: str, why: Unreadable) -> Said:
    """Why a number column's cell is not read (ta_numbers.read_number)."""
    if why.code in ("empty", "not_a_number"):
        return said("not_a_number", "overrides", column=name, written=repr(why.text.strip()))
    return said(f"number_{why.code}", "run_folder", column=name, written=why.text.strip())


def _unquoted(text: str) -> str:
    """An id copied from grades.csv, where a leading "'" keeps a spreadsheet from running it."""
    return text[1:] if text.startswith("'") and text[1:2] in ("=", "+", "-", "@") else text


def _did_you_mean(student: str, known: set[str]) -> str:
    """The run's id the TA may have meant, or ""."""
    same = [k for k in known if k.casefold() == student.casefold()]
    close = same or difflib.get_close_matches(student, sorted(known), n=1, cutoff=0.8)
    return close[0] if close else ""


def decode(data: bytes, lang: str = "en") -> str:
    """The CSV's text: UTF-8 (with or without BOM, as spreadsheets save it), else cp949 (Korean Excel):
    lms.sheet.read_csv_text, the one reader of the CSVs a TA may re-save."""
    from ..lms.sheet import read_csv_text
    from ..lms.sheet import SheetError

    try:
        return read_csv_text(data)[0]
    except SheetError:
        raise OverridesRefused([said("not_text", "overrides")], lang) from None


def read_overrides(out_dir: str, *, ids: Iterable[str], steps: Mapping[str, float],
                   lang: str = "en") -> list[Override] | None:
    """DIR/overrides.csv checked, or None when there is none. Raises OverridesRefused."""
    path = os.path.join(out_dir, FILE_NAME)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise OverridesRefused([said("unreadable", "overrides", why=error.strerror or str(error))], lang) from None
    return parse_overrides(decode(data, lang), ids=ids, steps=steps, lang=lang)


def load_state(out_dir: str) -> dict[str, float]:
    """{override key: automatic points it was written against}, as earlier runs recorded them."""
    try:
        with open(os.path.join(out_dir, STATE_NAME), encoding="utf-8") as handle:
            entries = json.load(handle).get("written_against", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return {k: float(v) for k, v in entries.items() if isinstance(v, (int, float)) and math.isfinite(v)}


def state_of(records: Iterable[Mapping[str, Any]], overrides: Iterable[Override]) -> dict[str, float]:
    """The state to keep after a run: each override's key and the points it is written against."""
    keys = {(o.id, o.step): o.key for o in overrides}
    state = {}
    for record in records:
        for entry in record.get("overrides") or ():
            key = keys.get((record["id"], entry["step"]))
            if key is not None and entry.get("written_against") is not None:
                state[key] = entry["written_against"]
    return state


def save_state(out_dir: str, state: Mapping[str, float]) -> None:
    write_atomic(os.path.join(out_dir, STATE_NAME),
                 json.dumps({"about": "automatic points each override of overrides.csv was written against",
                             "written_against": dict(sorted(state.items()))}, indent=1) + "\n")


def written_against(overrides: list[Override], state: Mapping[str, float],
                    earlier: Mapping[str, Mapping[str, Any] | None]) -> list[Override]:
    """Each override with the automatic points it was written against: its CSV column, else what
    a run recorded when it first read the row, else the automatic points of the run in DIR now
    (`earlier`: {id: record or None}); None when no run has graded the student yet."""
    settled = []
    for override in overrides:
        points = override.written_against
        if points is None:
            points = state.get(override.key)
        if points is None:
            record = earlier.get(override.id)
            step = (record or {}).get("steps", {}).get(override.step)
            if isinstance(step, dict):
                points = step.get("automatic", step.get("score"))
        settled.append(replace(override, written_against=points))
    return settled


def for_task(overrides: Iterable[Override], student: str) -> list[dict[str, Any]]:
    return [o.as_task() for o in overrides if o.id == student]


def fingerprint_part(rows: list[dict[str, Any]]) -> list[list[Any]]:
    """What a student's outputs depend on in their overrides (the review state is checked apart)."""
    return [[r["step"], r["points"], r["comment"], r["by"]] for r in rows]


def resumable(record: Mapping[str, Any], rows: list[dict[str, Any]]) -> bool:
    """Whether an earlier record already holds these overrides as written against the same points."""
    had = {e["step"]: e.get("written_against") for e in record.get("overrides") or ()}
    if set(had) != {r["step"] for r in rows}:
        return False
    return all(r["written_against"] is None or _same(had[r["step"]], r["written_against"]) for r in rows)


def _same(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) < SAME_POINTS


def apply_overrides(record: dict[str, Any], rows: list[dict[str, Any]],
                    exact: Mapping[str, float] | None = None) -> dict[str, Any]:
    """The final record: each override applied to its step, or flagged for review when the
    automatic points changed since it was written (then the automatic points stay).

    `exact`: the steps' unrounded automatic scores, so the total is the exact sum rounded once.
    Every total that follows (raw_total, the late deduction, total) is recomputed here.
    """
    if not rows:
        return record
    steps = {name: dict(step) for name, step in record["steps"].items()}
    exact = dict(exact or {name: step["score"] for name, step in steps.items()})
    entries = []
    for row in sorted(rows, key=lambda r: r["line"]):
        step = steps[row["step"]]
        automatic = step.get("automatic", step["score"])
        against = row["written_against"] if row["written_against"] is not None else automatic
        state = APPLIED if _same(against, automatic) else REVIEW
        entries.append({"step": row["step"], "points": row["points"], "automatic": automatic,
                        "written_against": against, "comment": row["comment"], "by": row["by"],
                        "line": row["line"], "state": state})
        step["automatic"] = automatic
        if state == APPLIED:
            step["score"] = round(row["points"], 2)
            exact[row["step"]] = row["points"]
    raw = round(sum(exact.values()), 2)
    late = record.get("late") or {}
    final = {**record, "steps": steps, "overrides": entries,
             "automatic_total": record.get("automatic_total", record["raw_total"]),
             "raw_total": raw, "total": penalised(raw, late.get("percent", 0.0))}
    return final


def in_review(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [e for e in record.get("overrides") or () if e.get("state") == REVIEW]


def summary(record: Mapping[str, Any]) -> str:
    """grades.csv's `overrides` cell: "softmax 0.5→2 (applied, by 김조교); mix ..."."""
    return "; ".join(f"{e['step']} {e['automatic']:g}→{e['points']:g} ({e['state']}, line {e['line']}, by {e['by']})"
                     for e in record.get("overrides") or ())


def review_warning(records: Iterable[Mapping[str, Any]], path: str, say: Messages | None = None) -> str:
    """stderr's warning for overrides whose automatic points changed since they were written, in
    the TA's language (`say`: render.messages.Messages, else English); "" when none."""
    from ..core.render.messages import Messages

    say = say or Messages("en")
    lines: list[str] = []
    for record in records:
        for entry in in_review(record):
            lines.append("  " + say("grade", "review_line", line=entry["line"], id=record["id"], step=entry["step"],
                                    against=f"{entry['written_against']:g}", automatic=f"{entry['automatic']:g}",
                                    points=f"{entry['points']:g}", by=entry["by"]))
    if not lines:
        return ""
    text: str = (say("grade", "review_head", count=len(lines), path=path) + "\n" + "\n".join(lines)
                 + "\n  " + say("grade", "review_tail"))
    return text


def override_text(record: Mapping[str, Any], lang: str) -> str:
    """The student's feedback on the TA's overrides applied to them (one under review is the TA's
    to settle and is not shown); "" when none."""
    applied = [e for e in record.get("overrides") or () if e.get("state") == APPLIED]
    if not applied:
        return ""
    from ..core.render.messages import Messages

    say = Messages(lang)
    lines = [say("override", "heading")]
    for entry in applied:
        lines.append("  " + say("override", "step", step=entry["step"], automatic=f"{entry['automatic']:g}",
                                points=f"{entry['points']:g}", by=entry["by"]))
        lines.append("    " + say("override", "comment", comment=entry["comment"]))
    lines.append(say("override", "total", automatic=f"{record['automatic_total']:g}", total=f"{record['total']:g}"))
    return "\n".join(lines)
