"""`autograder history COURSE_DIR`: several labs' runs gathered into one course history.

COURSE_DIR holds the --out folders of `autograder grade` runs (one per lab). Each student gets one
page (a table per lab: steps, final points, the mistakes named, the TA's overrides) and the course
one CSV (a row per student, a total per lab). Read from the runs' final records
(results/<id>.json), which already hold any override: nothing is graded again here.
"""
from __future__ import annotations

import csv
import html
import io
import os
import re
import sys
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from ..guard import piece
from ..render import Messages, one_line, printable
from .naming import fit_id
from .outputs import run_records, write_atomic

COURSE_CSV = "course.csv"
EXIT_DONE, EXIT_CANNOT_RUN = 0, 2


@dataclass(kw_only=True)
class Run:
    folder: str
    lab: str
    records: dict[str, dict[str, Any]]
    names: dict[str, str] = field(default_factory=dict)
    max_total: float = 0.0


class HistoryError(ValueError):
    pass


def natural(text: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def find_runs(course: str, out: str | None = None) -> list[Run]:
    """The grade runs below COURSE_DIR (folders holding grades.csv and results/), in natural order.

    Every other folder in COURSE_DIR (but the history's own output and hidden folders) is refused by
    name: a lab folder not graded yet would otherwise drop out of every course total without a word.
    """
    if not os.path.isdir(course):
        raise HistoryError(f"no such folder: {course}")
    runs, not_runs = [], []
    output = os.path.realpath(out or os.path.join(course, "history"))
    for name in sorted(os.listdir(course), key=natural):
        folder = os.path.join(course, name)
        if not os.path.isdir(folder) or name.startswith(".") or os.path.realpath(folder) == output:
            continue
        if os.path.isfile(os.path.join(folder, "grades.csv")) and os.path.isdir(os.path.join(folder, "results")):
            run = read_run_folder(folder)
            if run.records:
                runs.append(run)
                continue
        not_runs.append(folder)
    if not_runs and runs:
        raise HistoryError("these folders are not runs of `autograder grade` (no grades.csv with results/ and "
                           f"graded students), so their labs would be missing from every total: {', '.join(not_runs)}. "
                           "Grade each with `autograder grade ... --out <folder>`, or move them out of the course folder")
    if not runs:
        raise HistoryError(f"{course} holds no run of `autograder grade` (folders with grades.csv and results/): "
                           "grade each lab with --out COURSE_DIR/<lab>, then run history on COURSE_DIR")
    by_lab: dict[str, list[str]] = {}
    for run in runs:
        by_lab.setdefault(run.lab, []).append(run.folder)
    doubled = {lab: folders for lab, folders in by_lab.items() if len(folders) > 1}
    if doubled:
        raise HistoryError("several runs of one lab, so which counts is not clear: " + "; ".join(
            f"{lab}: {', '.join(folders)}" for lab, folders in doubled.items())
            + ". Keep one run per lab in the course folder (move the others out)")
    return runs


def read_run_folder(folder: str) -> Run:
    records, labs = {}, set()
    for record in run_records(folder):
        records[record["id"]] = record
        labs.add(str(record.get("lab")))
    if len(labs) > 1:
        raise HistoryError(f"{folder} holds results of several labs ({', '.join(sorted(labs))})")
    names = {}
    try:
        with open(os.path.join(folder, "grades.csv"), encoding="utf-8-sig", newline="") as handle:
            for row in csv.DictReader(handle):
                if row.get("id") in records and row.get("total"):
                    names[row["id"]] = row.get("name") or ""
    except (OSError, UnicodeDecodeError, csv.Error):
        pass
    max_total = max((float(r.get("max_total") or 0) for r in records.values()), default=0.0)
    return Run(folder=folder, lab=labs.pop() if labs else "", records=records, names=names, max_total=max_total)


def course_rows(runs: list[Run]) -> list[dict[str, Any]]:
    """One row per student of any run: totals per lab ("" where the student has no record)."""
    ids = sorted({student for run in runs for student in run.records}, key=natural)
    rows = []
    for student in ids:
        row: dict[str, Any] = {"id": student,
                               "name": next((run.names.get(student) for run in runs if run.names.get(student)), "")}
        total = maximum = 0.0
        for run in runs:
            record = run.records.get(student)
            row[f"{run.lab}_total"] = record["total"] if record else ""
            row[f"{run.lab}_status"] = record["status"] if record else "no submission"
            total += record["total"] if record else 0.0
            maximum += run.max_total
        row["course_total"] = round(total, 2)
        row["course_max"] = round(maximum, 2)
        rows.append(row)
    return rows


def course_csv(runs: list[Run], rows: list[dict[str, Any]]) -> str:
    from .report import spreadsheet_text

    columns = ["id", "name", *[c for run in runs for c in (f"{run.lab}_total", f"{run.lab}_status")],
               "course_total", "course_max"]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: spreadsheet_text(v) for k, v in row.items()})
    return "\ufeff" + buffer.getvalue()


def _lab(name: str) -> Any:
    try:
        from ..registry import load

        return load(name)
    except Exception:  # noqa: BLE001 (a lab no longer installed: its codes are shown as they are)
        return None


def student_page(student: str, name: str, runs: list[Run], lang: str, labs: dict[str, Any]) -> str:
    """One student's page: a table per lab, in the run's order."""
    from .. import pictures

    say = Messages(lang)
    parts = [f"<h1>{html.escape(say('history', 'student_title', id=one_line(student)))}</h1>"]
    if name:
        parts.append(f"<p>{html.escape(one_line(name))}</p>")
    total = maximum = 0.0
    for run in runs:
        lab = labs.get(run.lab)
        title = lab.title(lang) if lab is not None else run.lab
        parts.append(f"<h2>{html.escape(say('history', 'lab'))}: {html.escape(title)} "
                     f"<code>{html.escape(run.lab)}</code></h2>")
        maximum += run.max_total
        record = run.records.get(student)
        if record is None:
            parts.append(f"<p class=\"missing\">{html.escape(say('history', 'missing'))}</p>")
            continue
        total += record["total"]
        parts.append(f"<p>{html.escape(say('history', 'file'))}: <code>{html.escape(one_line(record['file']))}</code></p>")
        parts.append(lab_table(record, lab, lang))
    parts.append(f"<p class=\"course-total\"><strong>{html.escape(say('history', 'course_total', total=f'{total:g}', max_total=f'{maximum:g}'))}</strong></p>")
    page: str = pictures.html_page("".join(parts), lang, say("history", "student_title", id=one_line(student)))
    return page


def guarded_student_page(student: str, name: str, runs: list[Run], lang: str, labs: dict[str, Any]) -> str:
    """student_page as a piece of the grader's own work on the student's records (guard.piece):
    a record it cannot be made from costs that page its tables, which a sentence replaces; the
    student stays in the course table and course.csv."""
    from .. import pictures

    made = piece(f"the history page of {one_line(student)}", student_page, student, name, runs, lang, labs)
    if made.value is not None:
        return made.value
    say = Messages(lang)
    title = say("history", "student_title", id=one_line(student))
    return pictures.html_page(f"<h1>{html.escape(title)}</h1><p>"
                              f"{html.escape(say('history', 'page_not_made', type=made.failure))}</p>", lang, title)


def lab_table(record: dict[str, Any], lab: Any, lang: str) -> str:
    say = Messages(lang, lab) if lab is not None else Messages(lang)
    overrides = {e["step"]: e for e in record.get("overrides") or ()}
    rows = []
    order = list(lab.function_names) if lab is not None else list(record["steps"])
    for step_name in (s for s in order if s in record["steps"]):
        step = record["steps"][step_name]
        status = step.get("status", "")
        try:
            shown_status = say("status", status)
        except KeyError:
            shown_status = status
        named = []
        for code in step.get("mistakes") or ():
            named.append(say.stepwise("title", step_name, code) if lab is not None else code)
        notes = ""
        entry = overrides.get(step_name)
        if entry is not None:
            key = "override" if entry["state"] == "applied" else "review"
            notes = "<br><em>" + html.escape(say("history", key, automatic=f"{entry['automatic']:g}",
                                                  points=f"{entry['points']:g}", by=entry["by"],
                                                  comment=entry["comment"])) + "</em>"
        verdict = "pass" if status == "passed" else "fail"
        rows.append(f"<tr class=\"{verdict}\"><td><code>{html.escape(step_name)}</code></td>"
                    f"<td class=\"num\">{step['score']:g} / {step['max_score']:g}</td>"
                    f"<td>{html.escape(shown_status)}</td>"
                    f"<td>{'<br>'.join(html.escape(one_line(n)) for n in named)}{notes}</td></tr>")
    head = "".join(f"<th scope=\"col\">{html.escape(say('history', key))}</th>"
                   for key in ("step", "points", "status", "mistakes"))
    total = (f"<tr><th scope=\"row\">{html.escape(say('history', 'total'))}</th>"
             f"<td class=\"num\"><strong>{record['total']:g} / {record['max_total']:g}</strong></td><td></td><td></td></tr>")
    return (f"<div class=\"scroll\"><table class=\"lab\"><thead><tr>{head}</tr></thead><tbody>"
            + "".join(rows) + total + "</tbody></table></div>")


def index_page(rows: list[dict[str, Any]], runs: list[Run], lang: str) -> str:
    from .. import pictures

    say = Messages(lang)
    head = "".join(f"<th scope=\"col\">{html.escape(h)}</th>" for h in
                   ["ID", *[run.lab for run in runs], say("history", "total")])
    body = []
    for row in rows:
        link = urllib.parse.quote(f"students/{fit_id(row['id'])}.html")
        cells = [f"<td><a href=\"{html.escape(link)}\">{html.escape(one_line(row['id']))}</a></td>"]
        cells += [f"<td class=\"num\">{row[f'{run.lab}_total']}</td>" for run in runs]
        cells.append(f"<td class=\"num\">{row['course_total']:g} / {row['course_max']:g}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    content = (f"<h1>{html.escape(say('history', 'title'))}</h1><h2>{html.escape(say('history', 'index'))}</h2>"
               f"<div class=\"scroll\"><table class=\"course\"><thead><tr>{head}</tr></thead><tbody>"
               + "\n".join(body) + "</tbody></table></div>")
    page: str = pictures.html_page(content, lang, say("history", "title"))
    return page


def run_history(args: Any) -> int:
    try:
        runs = find_runs(args.course, args.out)
    except HistoryError as error:
        raise SystemExit(printable(f"autograder: {error}. Nothing was written."))
    out = args.out or os.path.join(args.course, "history")
    os.makedirs(os.path.join(out, "students"), exist_ok=True)
    labs = {run.lab: _lab(run.lab) for run in runs}
    rows = course_rows(runs)
    for row in rows:
        write_atomic(os.path.join(out, "students", f"{fit_id(row['id'])}.html"),
                     guarded_student_page(row["id"], row["name"], runs, args.lang, labs))
    write_atomic(os.path.join(out, COURSE_CSV), course_csv(runs, rows))
    write_atomic(os.path.join(out, "index.html"), index_page(rows, runs, args.lang))
    print(printable(f"{len(rows)} students over {len(runs)} lab run(s) ({', '.join(r.lab for r in runs)}): "
                    f"{os.path.join(out, COURSE_CSV)}, {os.path.join(out, 'index.html')} and one page per student "
                    f"in {os.path.join(out, 'students')}/"))
    missing = [(row["id"], run.lab) for row in rows for run in runs if row[f"{run.lab}_total"] == ""]
    if missing:
        print(printable(f"autograder: note: {len(missing)} lab(s) without a record: "
                        + ", ".join(f"{s} ({lab})" for s, lab in missing[:20])
                        + (" ..." if len(missing) > 20 else "")), file=sys.stderr)
    return EXIT_DONE
