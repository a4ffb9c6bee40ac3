"""`autograder grade`: a whole class, from a folder or an LMS .zip, into grades, feedback and a report.

Resumable: each student's outputs are written whole, results/<id>.json last, and a later run
skips students whose file, grader version and settings are unchanged.
"""
from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..core.render.messages import Messages
from ..core.render.text import one_line, printable
from ..said import Lines, Refusal, said
from ..options import GradeOptions, GradeResult
from ..core.reading.budget import MAX_BYTES
from ..core.reading.names import not_code
from ..core.reading.problems import Detail, detail, failure_detail, os_detail
from .collect import Student, group_students
from .grader import Task
from .source import EXPORT, Source
from .late import COMPUTER_ZONE, LmsZone, Policy, deduction, lateness, lms_zone, parse_due, parse_policy
from .outputs import fingerprint, judged_fingerprint, load_earlier, load_record
from .pool import Pool, termination_interrupts
from .progress import progress_for
from .grades import class_counts, grades_table, lms_files, rows_for, write_grades
from .report import times_note
from .report_writer import ReportWriter
from ..whole_file import write_atomic
from .run_files import mark_finished, mark_unfinished, remove_temporaries
from .overrides import (FILE_NAME as OVERRIDES_FILE, Override, OverridesRefused, fingerprint_part, for_task,
                        load_state, read_overrides, resumable, review_warning, save_state, state_of, written_against)
from .previous import PreviousRunError, read_previous_run
from .class_rule import mostly_not_submissions, not_a_class
from .run_folder import admit, left_out_note, record as record_run
from .similar import never_count, not_compared, signals
from .similar_table import FILE_NAME as SIMILAR_FILE, is_not_compared, similar_csv, similar_rows
from .run_notes import (ENGLISH, SHOWN_AT_MOST, case_clashes, lookalike_note, merged_warning, no_submissions,
                        pattern_misses, pattern_refusal, pattern_warning, stale_warning, stray_note, unknown_times,
                        unknown_times_said, zone_conflicts, zone_disagreement, zone_message, zone_refusal)
from .stale import move_stale, stale_outputs

EXIT_DONE, EXIT_CANNOT_RUN, EXIT_MERGED_IDS, EXIT_PATTERN_MISSES, EXIT_INTERRUPTED = 0, 2, 3, 4, 130

if TYPE_CHECKING:
    from ..core.lab import Lab
    from ..sandbox.limits import Limits
    from ..sandbox.zygote_client import Zygote

@dataclass(frozen=True)
class Reused:
    """The students a run did not grade: their ids, as the run goes."""

    resumed: list[str] = field(default_factory=list)  # outputs as they would be written: taken as they are
    rendered: list[str] = field(default_factory=list)  # outputs rewritten from the saved judged result


@dataclass(frozen=True, kw_only=True)
class LateSettings:
    """--due, --late-penalty and --lms-timezone, read (late.py)."""

    due: datetime | None  # the deadline, aware
    policy: Policy | None
    zone: LmsZone  # reads the times the LMS writes without one (late.lms_zone)


class Notes:
    """What a run tells the TA besides its summary, in the order it is known: kept, and passed to
    `tell` at once (the command line prints each on stderr)."""

    def __init__(self, tell: Callable[[str], None] | None = None) -> None:
        self.told: list[str] = []
        self._tell = tell

    def __call__(self, text: str) -> None:
        self.told.append(text)
        if self._tell is not None:
            self._tell(text)


def run_batch(options: GradeOptions, *, zygotes: Sequence[Zygote] = (),
              tell: Callable[[str], None] | None = None) -> GradeResult:
    """commands.grade: every TA's slip refused (a Refusal) before anything is written."""
    limits = options.limits.limits()
    if options.jobs < 1:
        raise Refusal(said("jobs", "grade"))
    if options.id_pattern:
        try:
            re.compile(options.id_pattern)
        except re.error as error:
            raise Refusal(said("id_pattern", "grade", problem=str(error))) from None
    late = late_settings(options)
    if not os.path.exists(options.submissions):
        raise Refusal(said("no_such_source", "grade", location=options.submissions))
    source = Source(options.submissions)
    try:
        # SIGTERM and SIGHUP end the run as Ctrl-C does, whatever it is doing then (exit 130).
        with termination_interrupts():
            return _grade_class(source, options, late, limits, zygotes, Notes(tell))
    finally:
        source.close()


def late_settings(options: GradeOptions) -> LateSettings:
    """--due, --late-penalty and --lms-timezone read; a Refusal when malformed. The zone reads the
    times the LMS writes without one (late.lms_zone)."""
    zone = lms_zone(options.lms_timezone, options.due)
    due = parse_due(options.due, zone) if options.due else None
    policy = parse_policy(options.late_penalty) if options.late_penalty else None
    if policy is not None and due is None:
        raise Refusal(said("penalty_needs_due", "grade"))
    return LateSettings(due=due, policy=policy, zone=zone)


def _grade_class(source: Source, options: GradeOptions, late: LateSettings, limits: Limits,
                 zygotes: Sequence[Zygote], note: Notes) -> GradeResult:
    out = options.out
    started = time.monotonic()
    say = Messages(options.lang)  # the TA's language: every message
    everyone = group_students(source, options.id_pattern, late.zone)
    if source.run_folders:  # told before any refusal: it may be why nobody is left
        note(left_out_note(source.run_folders, options.lang))
    misses = pattern_misses(everyone) if options.id_pattern else None
    allow_misses = options.allow_pattern_misses
    if options.id_pattern and misses is not None and misses[1] and len(misses[0]) == misses[1] and not allow_misses:
        raise Refusal(pattern_refusal(options.id_pattern, *misses))
    students = [s for s in everyone if s.chosen is not None]
    if not students:
        raise Refusal(no_submissions(options.submissions, everyone))
    conflicts = zone_conflicts(students, late.zone)
    # A deadline whose offset is not the LMS's would count every attempt from the wrong hour.
    if conflicts and late.due is not None and late.zone.source == "--due":
        raise Refusal(zone_refusal(conflicts, late.zone, late.due))
    unknown = unknown_times(students) if late.due is not None else []
    if unknown and not options.allow_unknown_times:  # every one of them would be on time, silently
        raise Refusal(unknown_times_said(unknown, refused=True))
    if unknown:
        note(printable("autograder: " + unknown_times_said(unknown, refused=False).text(say)))
    votes = lab_votes(source, students)
    if mostly_not_submissions(votes, lms_export=source.lms_export):  # a TA's working folder, not a class
        raise Refusal(not_a_class(options.submissions, students, votes))
    lab = _lab_for(options, votes, note, say)  # a TA's slip stops here, before anything is written
    # The folder is one run's: another lab's or class's run, or a TA's documents, are refused here.
    run = admit(out, lab=lab.name, students=[s.id for s in students], source=options.submissions)
    overrides = _overrides(out, students, lab, options.lang)  # and so does a bad overrides.csv
    previous = _previous(options, lab)
    folders = [out, os.path.join(out, "feedback"), os.path.join(out, "results")]
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
    record_run(run)
    mark_unfinished(out, datetime.now().astimezone().isoformat(timespec="seconds"))
    remove_temporaries(folders)
    # Everything a submission's grade or feedback can depend on besides its file and the grader
    # version: the language and every limit (the sandbox switch too). Nothing is chosen by hand.
    settings: dict[str, Any] = {"lang": options.lang, "limits": limits.as_data()}
    settings["late"] = {student.id: late_facts(student, late.due, late.policy, late.zone) for student in students}
    settings["overrides"] = {student.id: for_task(overrides or [], student.id) for student in students}
    settings["previous"] = {student.id: previous.get(student.id) for student in students}
    records: dict[str, dict[str, Any]] = {}
    reused = Reused()
    reporter = ReportWriter(options.lang)  # loads matplotlib while the class is graded
    try:
        interrupted = _grade_all(source, students, settings, options, limits, records, reused, reporter,
                                 zygotes, lab)
        if interrupted:
            remove_temporaries(folders)
            note(say("grade", "interrupted", done=len(records), total=len(students)))
            return GradeResult(status=EXIT_INTERRUPTED, out=out, grades=None, report=None, notes=tuple(note.told))
        remove_temporaries(folders)  # left by a worker ended mid-write
        ordered = [records[s.id] for s in students]
        table = grades_table([row for s in everyone for row in rows_for(s, records.get(s.id), lab,
                                                                         zone=late.zone)],
                             lab, overridden=overrides is not None)
        grades = os.path.join(out, "grades.csv")
        write_grades(grades, table)
        if overrides is not None:
            save_state(out, state_of(ordered, overrides))
        mark_finished(out)  # grades.csv is this grading's: the run's outputs agree again
        uncompared = not_compared(ordered)
        similar = similar_rows(signals(ordered, list(lab.function_names), hidden_counts(ordered),
                                       never_count(lab)), hidden_counts(ordered), options.lang, uncompared)
        write_atomic(os.path.join(out, SIMILAR_FILE), similar_csv(similar))
        listed = lms_files(everyone)
        counts = class_counts(table, ordered, lab, listed)
        report = os.path.join(out, "report.html")
        reporter.write(report, table, ordered, lab, options.lang, counts, listed, similar, times_note(late.zone))
    finally:
        reporter.close()
    summary = printable(_summary(ordered, counts, reused, time.monotonic() - started, report, say))
    status = EXIT_DONE
    review = review_warning(ordered, os.path.join(out, OVERRIDES_FILE), say)
    if review:
        note(printable(review))
    groups = len({row["group"] for row in similar if not is_not_compared(row)})
    if groups:
        note(say("grade", "similar_note", groups=groups, path=os.path.join(out, SIMILAR_FILE)))
    if uncompared:
        note(printable(say("grade", "not_compared_note", count=len(uncompared),
                           ids=", ".join(one_line(s.id) for s in uncompared), path=os.path.join(out, SIMILAR_FILE))))
    stale = stale_outputs(out, {s.id for s in students})
    if stale:
        moved = move_stale(out, stale) if options.move_stale else None
        note(stale_warning(out, stale, moved, say))
    no_file = [s for s in everyone if s.chosen is None and s.id and any(e.metadata for e, _ in s.ignored)]
    if no_file:
        note(printable(say("grade", "no_file_note", ids=", ".join(one_line(s.id) for s in no_file))))
    if conflicts:
        note(zone_message(conflicts, late.zone, late.due, refused=False, say=say))
    disagreement = zone_disagreement(students, say)
    if disagreement:
        note(disagreement)
    strays = stray_note(everyone, say)
    if strays:
        note(strays)
    lookalikes = [s for s in everyone if s.lookalikes]
    if lookalikes:
        note(lookalike_note(lookalikes, say))
    if options.id_pattern and misses is not None and misses[0]:
        note(pattern_warning(options.id_pattern, *misses, allowed=allow_misses, say=say))
        if not allow_misses:
            status = EXIT_PATTERN_MISSES
    merged = [s for s in students if s.merged]
    clashes = case_clashes(s.id for s in students)
    if merged or clashes:
        note(merged_warning(merged, clashes, options.allow_merged_ids, say))
        if not options.allow_merged_ids:
            status = EXIT_MERGED_IDS
    return GradeResult(status=status, out=out, grades=grades, report=report, counts=dict(counts), summary=summary,
                       notes=tuple(note.told))


def late_facts(student: Student, due: datetime | None, policy: Policy | None,
               zone: LmsZone = COMPUTER_ZONE) -> dict[str, Any]:
    """What the feedback and grades.csv say about one student's lateness, and the deduction; its
    times shown in the course's `zone` (LmsZone.shown)."""
    assert student.chosen is not None  # a student with a file
    late, days = lateness(student.lms_time, student.lms_late, due)
    facts: dict[str, Any] = {"late": late, "days": days, "percent": deduction(policy, late, days),
             "submitted_at": zone.shown(student.submitted_at),
             "due": zone.shown(due.isoformat()) if due is not None else "",
             "flagged_only": bool(late and student.lms_late and not student.lms_time),
             "policy": None}
    if policy is not None:
        facts["policy"] = {"percent": policy.percent, "per_day": policy.per_day, "cap": policy.cap,
                           "text": policy.text}
    return facts


def lab_votes(source: Source, students: Sequence[Student]) -> dict[str, str | None]:
    """{student id: the lab the file that counts for them is code for, or None} (registry.each_lab),
    one file in memory at a time."""
    from ..registry import each_lab

    said: dict[str, str | None] = {}
    for student in students:  # one file in memory at a time
        entry = student.chosen
        assert entry is not None  # students with a file
        if entry.gradable and not entry.refused and entry.size <= MAX_BYTES:
            try:
                said[student.id] = next(each_lab([source.read(entry)]))
            except OSError:
                said[student.id] = None
        else:
            said[student.id] = None  # a .docx, a link, a file too large: says no lab
    return said


def _lab_for(options: GradeOptions, votes: Mapping[str, str | None], note: Notes, say: Messages) -> Lab:
    """The lab of --lab, else the only one, else the one the class's files are for; a Refusal if none,
    or when --lab names a lab the files are not written for (registry.choose's rule, one vote per
    student: the file that counts for them, `votes`: lab_votes). A minority of files of another lab
    is a warning."""
    from ..registry import Tally, Votes, choose_lab

    lab: Lab = choose_lab(options.lab, Votes(votes.values()), fit=not options.allow_other_lab, what="student_file")
    tally = Tally.of(votes.values())
    others = [(who, name) for who, name in votes.items() if name not in (None, lab.name)]
    if others:
        shown = ", ".join(f"{one_line(who)} ({name})" for who, name in others[:SHOWN_AT_MOST])
        more = say("grade", "stray_more", count=len(others) - SHOWN_AT_MOST) if len(others) > SHOWN_AT_MOST else ""
        note(printable(say("grade", "other_labs_note", lab=lab.name, count=len(others), shown=shown, more=more)))
    if votes and not tally.votes.get(lab.name):
        note(printable(say("grade", "no_file_for_lab", lab=lab.name, total=tally.total,
                           counts=tally.counted(lab.name).text(say), functions=", ".join(lab.function_names))))
    return lab


def _grade_all(source: Source, students: Sequence[Student], settings: Mapping[str, Any], options: GradeOptions,
               limits: Limits, records: dict[str, dict[str, Any]], reused: Reused, reporter: ReportWriter,
               zygotes: Sequence[Zygote], lab: Lab) -> bool:
    """Grade every student not graded already into `records`; True when interrupted. A student
    whose outputs are as they would be written is taken as it is (`reused.resumed`); one whose
    judged result is saved (in DIR, else in the --previous run's folder) and still holds has their
    outputs written from it, their code not run (`reused.rendered`); any other is graded."""
    out, previous_run = options.out, options.previous
    pool = Pool(min(options.jobs, len(students)), limits, lab, options.lang, out, zygotes=zygotes)
    progress = progress_for(len(students), say=Messages(options.lang))

    def on_record(record: dict[str, Any]) -> None:
        reporter.prepare()  # grading is under way: the start is no longer slowed by it
        records[record["id"]] = record
        progress.advance(printable(f"{record['id']} {record['total']:g}/{record['max_total']:g}", newlines=False))

    def tasks() -> Iterator[Task]:
        for student in students:
            task = _task_or_problem(source, student, settings, lab)
            task["late"] = settings["late"][student.id]
            earlier = load_earlier(out, student.id, lab)
            record = earlier.record
            if record is not None and record.get("fingerprint") == task["key"] and record.get("id") == student.id \
                    and resumable(record, task["overrides"]):
                reused.resumed.append(student.id)
                on_record(record)
                continue
            judgement = earlier.judgement
            if (judgement is None or judgement.key != task["judged"]) and previous_run:
                judgement = load_earlier(previous_run, student.id, lab).judgement  # the same file, graded there
            if judgement is not None and judgement.key == task["judged"]:
                task["saved"] = judgement  # outputs rewritten from it: the student's code does not run
                reused.rendered.append(student.id)
            yield task

    try:
        pool.run(tasks(), on_record)
    except KeyboardInterrupt:
        pool.kill()
        progress.close()
        return True
    pool.close()
    progress.close()
    return False


def _task_or_problem(source: Source, student: Student, settings: Mapping[str, Any], lab: Lab) -> Task:
    """The student's task; anything that goes wrong making it makes it a task of an unreadable file."""
    try:
        return _task(source, student, settings, lab)
    except Exception as error:
        problem: tuple[str, Detail | str] = ("unreadable", failure_detail(error))
        return _task(source, student, settings, lab, problem=problem)


def _task(source: Source, student: Student, settings: Mapping[str, Any], lab: Lab,
          problem: tuple[str, Detail | str] | None = None) -> Task:
    entry = student.chosen
    assert entry is not None  # students with a file
    superseded = [e.path for e in student.superseded]
    data: bytes | None = None
    if problem is not None:
        pass  # the task could not be made: graded as that problem
    elif entry.refused:
        problem = ("not_regular_file", entry.refused)
    elif entry.path.lower().endswith(EXPORT) and entry.export:
        problem = ("not_otter_export", entry.export)
    elif not entry.gradable:
        problem = ("not_code", detail("filename", filename=not_code(entry.path) or entry.path))
    elif entry.size > MAX_BYTES:
        problem = ("too_large", detail("size", size=entry.size))
    else:
        try:
            data = source.read(entry)
        except OSError as error:
            problem = ("unreadable", os_detail(error))
        else:
            if len(data) > MAX_BYTES:  # grew since it was listed
                data, problem = None, ("too_large", detail("size_over", most=MAX_BYTES))
    content = hashlib.sha256(data if data is not None else repr(problem).encode()).hexdigest()
    judged = judged_fingerprint(content_hash=content, file=entry.path, limits=settings.get("limits") or {}, lab=lab)
    late = dict(settings["late"][student.id])
    if not (late["late"] and late["policy"]):
        late.pop("submitted_at")  # shown in the feedback only then: a copied file's new time rewrites nothing
    rows = (settings.get("overrides") or {}).get(student.id) or []
    previous = (settings.get("previous") or {}).get(student.id)
    # What only the rendering and the record depend on: every setting but the limits (judged).
    rendering = {**{k: v for k, v in settings.items() if k not in ("limits", "late", "overrides", "previous")},
                 "late": late}
    if rows:
        rendering["overrides"] = fingerprint_part(rows)
    if previous:
        rendering["previous"] = previous
    return {"student": student.id, "file": entry.path, "data": data, "problem": problem,
            "superseded": superseded, "overrides": rows, "previous": previous, "judged": judged,
            "key": fingerprint(judged=judged, superseded=superseded, settings=rendering)}


def _overrides(out: str, students: Sequence[Student], lab: Lab, lang: str) -> list[Override] | None:
    """The TA's overrides in DIR/overrides.csv, each with the automatic points it was written
    against (batch.overrides), or None when there is no such file; a Refusal before anything is
    graded or written when any row is bad."""
    ids = [s.id for s in students]
    try:
        rows = read_overrides(out, ids=ids, steps={step.name: float(step.points) for step in lab.steps}, lang=lang)
    except OverridesRefused as refused:
        raise Refusal(said("refused", "overrides", path=os.path.join(out, OVERRIDES_FILE), out=out,
                           problems=Lines(refused.sentences, SHOWN_AT_MOST))) from None
    if rows is None:
        return None
    earlier = {row.id: load_record(out, row.id, lab) for row in rows}
    return written_against(rows, load_state(out), earlier)


def _previous(options: GradeOptions, lab: Lab) -> dict[str, dict[str, Any]]:
    """{id: the student's last attempt} from --previous DIR, or {}; a Refusal when DIR is no earlier run of this lab."""
    if not options.previous:
        return {}
    try:
        return read_previous_run(options.previous, lab.name, options.out)
    except PreviousRunError as error:
        raise Refusal(said("previous_refused", "grade", problem=error.said)) from None


def hidden_counts(records: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """{step: how many hidden tests judged it}, the most any record says."""
    counts: dict[str, int] = {}
    for record in records:
        for name, step in record["steps"].items():
            counts[name] = max(counts.get(name, 0), int(step.get("hidden") or 0))
    return counts


def _summary(records: Sequence[Mapping[str, Any]], counts: Mapping[str, int | str], reused: Reused, seconds: float,
             report: str, say: Messages = ENGLISH) -> str:
    """One line for the terminal, in the TA's language; the counts are report.html's (class_counts)."""
    resumed, rendered = len(reused.resumed), len(reused.rendered)
    newly = len(records) - resumed - rendered
    mean = say("grade", "summary_mean", mean=counts["mean"], max_total=f"{records[0]['max_total']:g}") if records else ""
    lms = say("grade", "summary_lms", count=counts["lms_files"]) if counts["lms_files"] else ""
    no_file = say("grade", "summary_no_file", count=counts["no_file"]) if counts["no_file"] else ""
    text: str = say("grade", "summary", students=counts["students"], files=counts["files"], seconds=seconds,
                    graded=counts["graded"], broken=counts["broken"], errors=counts["errors"],
                    superseded=counts["superseded"], merged=counts["merged"], ignored=counts["ignored"], lms=lms,
                    no_file=no_file, newly=newly, rate=newly / max(seconds, 1e-9), rendered=rendered,
                    resumed=resumed, mean=mean, report=report)
    return text
