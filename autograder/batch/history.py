"""`autograder history COURSE_DIR`: several labs' runs gathered into one course history.

COURSE_DIR holds the --out folders of `autograder grade` runs (one per lab). Each student gets one
page (a table per lab: steps, final points, the mistakes named, the TA's overrides) and the course
one CSV (a row per student, a total per lab). Nothing is graded again here.

Invariant: the course history is the runs' grades. Its students and totals are each run's grades.csv
as `export` reads them (lms.graded.read_run: the rows with a total), with the same rules for a grade
that must not be used (the grader failed, an override awaits review, a total that does not read:
lms.graded.withheld_reason): such a lab counts in no course total and is listed. A results record
left from a removed submission makes nobody a member; every record is validated, and one that does
not validate is reported, never a crash.

Invariant: history writes only into a folder that is its own. `claim_out` is the one admission of
--out, checked before anything is written: a folder that is (or is inside) a run's output folder
(run_folder.inspect) is refused, and so is a folder holding files history did not write; a new or
empty folder, or history's own earlier output (HISTORY_STAMP, written first into every history
folder), is admitted and its pages replaced. `find_runs` passes over every history output folder
(stamped) and never a run, wherever --out is; a run folder given as COURSE_DIR is refused with the
folder to give instead (its parent): a course is the folder holding the runs, and history never
writes into a run's folder.
"""
from __future__ import annotations

import csv
import dataclasses
import html
import io
import json
import os
import re
import urllib.parse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.guard import piece
from ..core.reading.files import read_regular_file
from ..lms.graded import Graded, Record, RunError, read_run
from ..lms.sheet import read_csv_text
from ..lms.sheet import SheetError
from ..said import Refusal, Said, said, then
from ..core.render.messages import Messages
from ..core.render.text import one_line, printable
from . import run_folder
from .naming import is_system_path
from .run_files import fit_id
from ..whole_file import write_atomic
from .spreadsheet import spreadsheet_text
from ..options import HistoryOptions, HistoryResult

COURSE_CSV = "course.csv"
INDEX = "index.html"
STUDENTS = "students"
HISTORY_STAMP = "autograder-history.json"  # history's mark on its output folder
HISTORY_KIND = "autograder history output folder"
HISTORY_FILES = frozenset({COURSE_CSV, INDEX, STUDENTS, HISTORY_STAMP})
MAX_STAMP_BYTES = 64 * 1024
EXIT_DONE, EXIT_CANNOT_RUN, EXIT_WITHHELD = 0, 2, 3


def told(key: str, **params: object) -> Said:
    """A sentence of the catalogs' [history_cli] section."""
    return said(key, "history_cli", **params)


@dataclass(frozen=True, kw_only=True)
class Run:
    folder: str
    lab: str
    students: dict[str, Graded]  # the run's grades (lms.graded.read_run)
    max_total: float = 0.0
    left_out: tuple[str, ...] = ()  # results records of no student of grades.csv (a removed submission's)
    notes: tuple[Said, ...] = ()  # what reading grades.csv found (read as cp949: lms.graded.read_run)


class HistoryError(Refusal):
    """The course folder cannot be read as a course's runs: nothing is written."""


def natural(text: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def find_runs(course: str, out: str | None = None) -> list[Run]:
    """The grade runs below COURSE_DIR (folders holding grades.csv and results/), in natural order.

    Every other folder in COURSE_DIR (but history's own output folders, an empty --out and hidden
    folders) is refused by name: a lab folder not graded yet would otherwise drop out of every course
    total without a word. A run folder given as COURSE_DIR is refused, naming its parent.
    """
    if not os.path.isdir(course):
        raise HistoryError(told("no_folder", folder=course))
    if _is_run(course):
        normal = os.path.normpath(course)
        parent = os.path.dirname(normal) if os.path.basename(normal) not in ("", ".", "..") else ""
        parent = parent or os.path.dirname(os.path.abspath(course))
        raise HistoryError(told("course_is_a_run", folder=course, parent=parent))
    runs, not_runs = [], []
    for name in sorted(os.listdir(course), key=natural):
        folder = os.path.join(course, name)
        if not os.path.isdir(folder) or name.startswith(".") or is_history_output(folder):
            continue
        if out is not None and run_folder.same_path(folder, out) and isinstance(
                run_folder.inspect(folder, infer=False), run_folder.Fresh):
            continue  # the empty folder the TA made for this history
        if _is_run(folder):
            run = read_run_folder(folder)
            if run.students:
                runs.append(run)
                continue
        not_runs.append(folder)
    if not_runs and runs:
        raise HistoryError(told("not_runs", folders=", ".join(not_runs)))
    if not runs:
        raise HistoryError(told("no_runs", folder=course))
    by_lab: dict[str, list[str]] = {}
    for run in runs:
        by_lab.setdefault(run.lab, []).append(run.folder)
    doubled = {lab: folders for lab, folders in by_lab.items() if len(folders) > 1}
    if doubled:
        raise HistoryError(told("several_runs", runs="; ".join(f"{lab}: {', '.join(folders)}"
                                                              for lab, folders in doubled.items())))
    return runs


def _is_run(folder: str) -> bool:
    """A grade run's folder: grades.csv with results/, or what run_folder.inspect takes for a run."""
    if os.path.isfile(os.path.join(folder, "grades.csv")) and os.path.isdir(os.path.join(folder, "results")):
        return True
    return isinstance(run_folder.inspect(folder, infer=False), run_folder.Run | run_folder.Damaged)


def is_history_output(folder: str) -> bool:
    """Whether `folder` is an output folder of `autograder history`: it holds HISTORY_STAMP, or
    (written before the stamp) nothing but course.csv with history's columns, index.html and students/."""
    try:
        entries = {name for name in os.listdir(folder) if not is_system_path(name)}
    except OSError:
        return False
    if HISTORY_STAMP in entries:
        return _stamp_reads(os.path.join(folder, HISTORY_STAMP))
    if not entries or not entries <= HISTORY_FILES or COURSE_CSV not in entries:
        return False
    try:
        head = read_regular_file(os.path.join(folder, COURSE_CSV), follow_links=False, limit=4096)
    except OSError:
        return False
    header = head.decode("utf-8-sig", errors="replace").splitlines()[:1]
    columns = header[0].split(",") if header else []
    return columns[:2] == ["id", "name"] and columns[-3:] == ["course_total", "course_max", "withheld"]


def _stamp_reads(path: str) -> bool:
    try:
        data = json.loads(read_regular_file(path, follow_links=False, limit=MAX_STAMP_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and data.get("kind") == HISTORY_KIND


def claim_out(out: str) -> None:
    """history's admission of --out, before anything is written: a HistoryError when `out` is (or is
    inside) a run's output folder, is a file, or holds files history did not write."""
    path = os.path.realpath(out)
    while True:
        if isinstance(run_folder.inspect(path, infer=False), run_folder.Run | run_folder.Damaged):
            raise HistoryError(told("out_in_run", out=out, run=path,
                                    suggestion=run_folder.other_folder(path, "history")))
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    if os.path.lexists(out) and not os.path.isdir(out):
        raise HistoryError(told("out_not_a_folder", out=out, suggestion=run_folder.other_folder(out, "history")))
    try:
        entries = sorted(name for name in os.listdir(out) if not is_system_path(name)) if os.path.isdir(out) else []
    except OSError:
        entries = ["?"]
    if entries and not is_history_output(out):
        shown = ", ".join(entries[:run_folder.SHOWN_AT_MOST]) + (", ..." if len(entries) > run_folder.SHOWN_AT_MOST else "")
        raise HistoryError(told("out_not_history", out=out, count=len(entries), listing=shown,
                                suggestion=run_folder.other_folder(out, "history")))


def stamp_out(out: str) -> None:
    """Mark `out` as history's own (its first file), so a later history replaces it and never takes
    it for a course member."""
    write_atomic(os.path.join(out, HISTORY_STAMP),
                 json.dumps({"kind": HISTORY_KIND, "version": 1, "files": sorted(HISTORY_FILES - {HISTORY_STAMP})},
                            indent=1) + "\n")


JOIN_SHARE = 0.5  # runs sharing no id while more than this share of the smaller one's names match


def join_refusal(runs: list[Run]) -> Said | None:
    """Why the runs cannot be joined by id (None when they can): two runs that share no student id
    while more than half of the smaller run's names are the other's are one class numbered apart
    (Moodle numbers its participants per assignment), and joined by id they would make every
    student two half-students, each with one lab's total."""
    for at, first in enumerate(runs):
        for second in runs[at + 1:]:
            if set(first.students) & set(second.students):
                continue
            names = [{g.name.strip().casefold() for g in run.students.values() if g.name.strip()}
                     for run in (first, second)]
            smaller = min(len(names[0]), len(names[1]))
            shared = len(names[0] & names[1])
            if smaller and shared > JOIN_SHARE * smaller:
                return told("ids_do_not_join", first=first.folder, second=second.folder, shared=shared,
                            count=smaller)
    return None


def joined_by_name(runs: list[Run]) -> list[Run]:
    """The runs with their students keyed by name (--join-by name); a HistoryError when a run has a
    student without a name, or two students of one name (which of them is whom cannot be told)."""
    keyed = []
    for run in runs:
        by_name: dict[str, Graded] = {}
        for graded in run.students.values():
            name = graded.name.strip()
            if not name or name in by_name:
                raise HistoryError(told("name_not_unique", folder=run.folder, name=name or "-", id=graded.id))
            by_name[name] = dataclasses.replace(graded, id=name)
        keyed.append(dataclasses.replace(run, students=by_name))
    return keyed


def read_run_folder(folder: str) -> Run:
    """A run's grades, as `export` reads them: its students are grades.csv's rows that have a total."""
    notes: list[Said] = []
    try:
        students = read_run(folder, default_max=lambda: _full_marks(folder), notes=notes)
    except RunError as error:
        raise HistoryError(told("run_unreadable", folder=folder, problem=error.said)) from None
    labs = sorted({graded.lab for graded in students.values() if graded.lab})
    if len(labs) > 1:
        raise HistoryError(told("several_labs", folder=folder, labs=", ".join(labs)))
    max_total = max((graded.max_total for graded in students.values()), default=0.0)
    names = {fit_id(student) for student in students}
    results = os.path.join(folder, "results")
    left_out = tuple(sorted((name[:-5] for name in os.listdir(results)
                             if name.endswith(".json") and name[:-5] not in names), key=natural))
    return Run(folder=folder, lab=labs[0] if labs else "", students=students, max_total=max_total, left_out=left_out,
               notes=tuple(notes))


def _full_marks(folder: str) -> float:
    """The lab's full marks (its lab column's lab, installed) when no record of the run says them."""
    try:
        with open(os.path.join(folder, "grades.csv"), "rb") as handle:
            text, _ = read_csv_text(handle.read())
        labs = {row.get("lab") or "" for row in csv.DictReader(io.StringIO(text, newline=""))} - {""}
    except (OSError, SheetError, csv.Error):
        labs = set()
    lab = _lab(labs.pop()) if len(labs) == 1 else None
    if lab is None:
        raise RunError(said("run_no_maximum", folder=folder))
    return float(lab.total_points)


def course_rows(runs: list[Run], say: Messages) -> list[dict[str, Any]]:
    """One row per student of any run's grades: totals per lab ("" where the student has none, or
    where the grade is withheld: then the status says why), the course total of the grades that count."""
    ids = sorted({student for run in runs for student in run.students}, key=natural)
    rows = []
    for student in ids:
        row: dict[str, Any] = {"id": student, "name": next((run.students[student].name for run in runs
                                                            if student in run.students and run.students[student].name), "")}
        total = maximum = 0.0
        withheld = 0
        for run in runs:
            graded = run.students.get(student)
            maximum += run.max_total
            if graded is None:
                row[f"{run.lab}_total"], row[f"{run.lab}_status"] = "", "no submission"
            elif graded.withheld is not None:
                row[f"{run.lab}_total"] = ""
                row[f"{run.lab}_status"] = "withheld: " + graded.withheld.text(say)
                withheld += 1
            else:
                row[f"{run.lab}_total"], row[f"{run.lab}_status"] = graded.total, graded.status
                total += graded.total
        row["course_total"] = round(total, 2)
        row["course_max"] = round(maximum, 2)
        row["withheld"] = withheld
        rows.append(row)
    return rows


def course_csv(runs: list[Run], rows: list[dict[str, Any]]) -> str:
    columns = ["id", "name", *[c for run in runs for c in (f"{run.lab}_total", f"{run.lab}_status")],
               "course_total", "course_max", "withheld"]
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
    from ..core import pictures

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
        graded = run.students.get(student)
        if graded is None:
            parts.append(f"<p class=\"missing\">{html.escape(say('history', 'missing'))}</p>")
            continue
        if graded.withheld is not None:
            parts.append(f"<p class=\"withheld\"><strong>{html.escape(say('history', 'withheld', why=graded.withheld.text(say)))}"
                         "</strong></p>")
        else:
            total += graded.total
        parts.append(f"<p>{html.escape(say('history', 'file'))}: <code>{html.escape(one_line(graded.file))}</code></p>")
        if graded.record is not None:
            parts.append(lab_table(graded, graded.record, lab, lang))
        else:
            why = graded.record_problem.text(say) if graded.record_problem is not None else ""
            parts.append(f"<p class=\"missing\">{html.escape(say('history', 'no_record', total=f'{graded.total:g}', max_total=f'{graded.max_total:g}', why=why))}</p>")
    parts.append(f"<p class=\"course-total\"><strong>{html.escape(say('history', 'course_total', total=f'{total:g}', max_total=f'{maximum:g}'))}</strong></p>")
    page: str = pictures.html_page("".join(parts), lang, say("history", "student_title", id=one_line(student)))
    return page


def guarded_student_page(student: str, name: str, runs: list[Run], lang: str, labs: dict[str, Any]) -> str:
    """student_page as a piece of the grader's own work on the student's records (guard.piece):
    a record it cannot be made from costs that page its tables, which a sentence replaces; the
    student stays in the course table and course.csv."""
    from ..core import pictures

    made = piece(f"the history page of {one_line(student)}", student_page, student, name, runs, lang, labs)
    if made.value is not None:
        return made.value
    say = Messages(lang)
    title = say("history", "student_title", id=one_line(student))
    return pictures.html_page(f"<h1>{html.escape(title)}</h1><p>"
                              f"{html.escape(say('history', 'page_not_made', type=made.failure))}</p>", lang, title)


def lab_table(graded: Graded, record: Record, lab: Any, lang: str) -> str:
    """A lab's steps as the record holds them, with the total of the run's grades.csv."""
    say = Messages(lang, lab) if lab is not None else Messages(lang)
    overrides = {note.step: note for note in record.overrides}
    steps = {step.name: step for step in record.steps}
    order = list(lab.function_names) if lab is not None else list(steps)
    rows = []
    for step_name in (s for s in order if s in steps):
        step = steps[step_name]
        try:
            shown_status = say("status", step.status)
        except KeyError:
            shown_status = step.status
        named = [say.stepwise("title", step_name, code) if lab is not None else code for code in step.mistakes]
        notes = ""
        note = overrides.get(step_name)
        if note is not None:
            key = "override" if note.state == "applied" else "review"
            notes = "<br><em>" + html.escape(say("history", key, automatic=f"{note.automatic:g}",
                                                  points=f"{note.points:g}", by=note.by, comment=note.comment)) + "</em>"
        verdict = "pass" if step.status == "passed" else "fail"
        rows.append(f"<tr class=\"{verdict}\"><td><code>{html.escape(step_name)}</code></td>"
                    f"<td class=\"num\">{step.score:g} / {step.max_score:g}</td>"
                    f"<td>{html.escape(shown_status)}</td>"
                    f"<td>{'<br>'.join(html.escape(one_line(n)) for n in named)}{notes}</td></tr>")
    head = "".join(f"<th scope=\"col\">{html.escape(say('history', key))}</th>"
                   for key in ("step", "points", "status", "mistakes"))
    total = (f"<tr><th scope=\"row\">{html.escape(say('history', 'total'))}</th>"
             f"<td class=\"num\"><strong>{graded.total:g} / {graded.max_total:g}</strong></td><td></td><td></td></tr>")
    return (f"<div class=\"scroll\"><table class=\"lab\"><thead><tr>{head}</tr></thead><tbody>"
            + "".join(rows) + total + "</tbody></table></div>")


def index_page(rows: list[dict[str, Any]], runs: list[Run], lang: str) -> str:
    from ..core import pictures

    say = Messages(lang)
    head = "".join(f"<th scope=\"col\">{html.escape(h)}</th>" for h in
                   ["ID", *[run.lab for run in runs], say("history", "total")])
    body = []
    for row in rows:
        link = urllib.parse.quote(f"students/{fit_id(row['id'])}.html")
        cells = [f"<td><a href=\"{html.escape(link)}\">{html.escape(one_line(row['id']))}</a></td>"]
        for run in runs:
            graded = run.students.get(row["id"])
            shown = say("history", "withheld_short") if graded is not None and graded.withheld is not None \
                else f"{row[f'{run.lab}_total']}"
            cells.append(f"<td class=\"num\">{html.escape(shown)}</td>")
        cells.append(f"<td class=\"num\">{row['course_total']:g} / {row['course_max']:g}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    content = (f"<h1>{html.escape(say('history', 'title'))}</h1><h2>{html.escape(say('history', 'index'))}</h2>"
               f"<div class=\"scroll\"><table class=\"course\"><thead><tr>{head}</tr></thead><tbody>"
               + "\n".join(body) + "</tbody></table></div>")
    page: str = pictures.html_page(content, lang, say("history", "title"))
    return page


def run_history(args: HistoryOptions) -> HistoryResult:
    """commands.history: a Refusal (exit 2, nothing written) when the course folder holds no runs to gather."""
    say = Messages(args.lang)
    try:
        runs = find_runs(args.course, args.out)
        if args.join_by == "name":
            runs = joined_by_name(runs)
        else:
            unjoined = join_refusal(runs)
            if unjoined is not None:
                raise HistoryError(unjoined)
    except HistoryError as error:
        raise Refusal(then(error.said, told("nothing_written"))) from None
    out = args.out or os.path.join(args.course, "history")
    try:
        claim_out(out)
    except HistoryError as error:
        raise Refusal(then(error.said, told("nothing_written"))) from None
    os.makedirs(os.path.join(out, STUDENTS), exist_ok=True)
    stamp_out(out)
    labs = {run.lab: _lab(run.lab) for run in runs}
    rows = course_rows(runs, say)
    for row in rows:
        write_atomic(os.path.join(out, "students", f"{fit_id(row['id'])}.html"),
                     guarded_student_page(row["id"], row["name"], runs, args.lang, labs))
    pages = {f"{fit_id(row['id'])}.html" for row in rows}
    for stale in sorted(set(os.listdir(os.path.join(out, STUDENTS))) - pages):
        if stale.endswith(".html"):  # an earlier history's page of a student no run holds now
            os.remove(os.path.join(out, STUDENTS, stale))
    write_atomic(os.path.join(out, COURSE_CSV), course_csv(runs, rows))
    write_atomic(os.path.join(out, INDEX), index_page(rows, runs, args.lang))
    summary = told("summary", students=len(rows), runs=len(runs), labs=", ".join(r.lab for r in runs),
                   course_csv=os.path.join(out, COURSE_CSV), index=os.path.join(out, "index.html"),
                   pages=os.path.join(out, "students")).text(say)
    notes = history_notes(runs, rows, say)
    withheld = [graded for run in runs for graded in run.students.values() if graded.withheld is not None]
    return HistoryResult(status=EXIT_WITHHELD if withheld else EXIT_DONE, out=out, students=len(rows),
                         course_csv=os.path.join(out, COURSE_CSV), index=os.path.join(out, "index.html"),
                         summary=summary, notes=(printable("\n".join(notes)),) if notes else ())


def history_notes(runs: list[Run], rows: list[dict[str, Any]], say: Messages) -> list[str]:
    """What the TA is told on stderr: withheld grades, records that do not validate, records of
    nobody in grades.csv, labs without a grade."""
    lines: list[str] = ["autograder: " + note.text(say) for run in runs for note in run.notes]
    withheld = [(run, graded) for run in runs for graded in run.students.values() if graded.withheld is not None]
    if withheld:
        lines.append("autograder: " + told("withheld_heading", count=len(withheld)).text(say))
        lines += [f"  {one_line(graded.id)} ({run.lab}): {graded.withheld.text(say)}"
                  for run, graded in withheld if graded.withheld is not None]
    invalid = [(run, graded) for run in runs for graded in run.students.values() if graded.record_problem is not None]
    if invalid:
        lines.append("autograder: " + told("invalid_heading", count=len(invalid)).text(say))
        lines += [f"  {one_line(graded.id)} ({run.lab}): {graded.record_problem.text(say)}"
                  for run, graded in invalid if graded.record_problem is not None]
    for run in runs:
        if run.left_out:
            lines.append("autograder: " + told("left_out", count=len(run.left_out), folder=run.folder,
                                               who=", ".join(run.left_out[:20]) + (" ..." if len(run.left_out) > 20 else "")).text(say))
    missing = [(row["id"], run.lab) for row in rows for run in runs if row["id"] not in run.students]
    if missing:
        lines.append("autograder: " + told("missing", count=len(missing), who=", ".join(
            f"{student} ({lab})" for student, lab in missing[:20]) + (" ..." if len(missing) > 20 else "")).text(say))
    return lines
