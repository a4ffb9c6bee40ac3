"""`autograder grade`: a whole class, from a folder or an LMS .zip, into grades, feedback and a report.

Resumable: each student's outputs are written whole, results/<id>.json last, and a later run
skips students whose file, grader version and settings are unchanged.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from ..render.messages import Messages
from ..render.text import one_line, printable
from ..said import Lines, Refusal, Said, said
from ..options import GradeOptions, GradeResult
from ..reading.budget import MAX_BYTES
from ..reading.names import not_code
from ..reading.problems import Detail, detail, failure_detail, os_detail
from .collect import EXPORT, NOT_LMS_NAMED, Source, Student, group_students
from .grader import Task
from .naming import NAME_MAX, fit_id
from .late import (COMPUTER_ZONE, lateness_known, LmsZone, Policy, StatedZone, agreed_zone, deduction, lateness, lms_zone, offset_text,
                   parse_due, parse_policy)
from .outputs import fingerprint, judged_fingerprint, load_earlier, load_record, shown_time
from .pool import Pool
from .progress import progress_for
from .grades import class_counts, grades_table, lms_files, rows_for, write_grades
from .report import times_note
from .report_writer import ReportWriter
from .run_files import TEMP_SUFFIX, remove_temporaries, write_atomic
from .overrides import (FILE_NAME as OVERRIDES_FILE, Override, OverridesRefused, fingerprint_part, for_task,
                        load_state, read_overrides, resumable, review_warning, save_state, state_of, written_against)
from .previous import PreviousRunError, read_previous_run
from .class_rule import mostly_not_submissions, not_a_class
from .run_folder import admit, left_out_note, record as record_run
from .similar import never_count, not_compared, signals
from .similar_table import FILE_NAME as SIMILAR_FILE, is_not_compared, similar_csv, similar_rows

ENGLISH = Messages("en")  # a message function's language when none is given
EXIT_DONE, EXIT_CANNOT_RUN, EXIT_MERGED_IDS, EXIT_PATTERN_MISSES, EXIT_INTERRUPTED = 0, 2, 3, 4, 130
SHOWN_AT_MOST = 20  # files named in a warning; the rest are counted

if TYPE_CHECKING:
    from ..lab import Lab
    from ..sandbox.limits import Limits
    from ..sandbox.zygote_client import Zygote

@dataclass(frozen=True)
class Reused:
    """The students a run did not grade: their ids, as the run goes."""

    resumed: list[str] = field(default_factory=list)  # outputs as they would be written: taken as they are
    rendered: list[str] = field(default_factory=list)  # outputs rewritten from the saved judged result


# Times the LMS states in another zone than the one they are read in: (student, what the LMS
# states, the offset the time was read at).
Conflict = tuple[Student, StatedZone, timedelta]


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


def zone_conflicts(students: Iterable[Student], zone: LmsZone) -> list[Conflict]:
    """[(student, StatedZone, offset used)] where the class's Blackboard receipts agree on a zone
    (late.agreed_zone: two students' at least, every one the same) for the times the LMS wrote without
    one, and that zone is not the one those times are read in. A zone only one student's receipt
    states, or that receipts disagree on, is no conflict: it never stops the run nor moves anyone."""
    timed = [student for student in students if student.lms_time]
    said = agreed_zone([student.stated_zone for student in timed])
    if said is None:
        return []
    found: list[Conflict] = []
    for student in timed:
        used = datetime.fromisoformat(student.lms_time).utcoffset()
        if student.stated_zone is not None and used is not None and used != said.offset:
            found.append((student, student.stated_zone, used))  # lms_time has its offset (collect)
    return found


def zone_disagreement(students: Iterable[Student], say: Messages = ENGLISH) -> str:
    """A note when students' receipts state zones that do not agree (none of them is used), else "";
    in the TA's language."""
    stating = [(student, student.stated_zone) for student in students if student.lms_time and student.stated_zone]
    if len({said.offset for _, said in stating}) < 2:
        return ""
    by_zone: dict[str, list[str]] = {}
    for student, said in stating:
        by_zone.setdefault(f"{said.abbreviation} ({offset_text(said.offset)})", []).append(one_line(student.id))
    told = "; ".join(f"{zone}: {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}" for zone, ids in sorted(by_zone.items()))
    message: str = printable(say("grade", "zone_disagreement", told=told))
    return message


def zone_message(conflicts: Sequence[Conflict], zone: LmsZone, due: datetime | None, refused: bool,
                 say: Messages = ENGLISH) -> str:
    """The sentence for times the LMS states in another zone than the one they are read in
    (`due`: the deadline, aware, or None), in the TA's language."""
    if refused:
        assert due is not None  # refused only with a deadline
        message: str = printable("autograder: " + zone_refusal(conflicts, zone, due).text(say))
        return message
    stated = conflicts[0][1]
    message = printable(say("grade", "zone_note", head=_zone_head(conflicts, zone).text(say),
                            offset=offset_text(stated.offset)))
    return message


def _zone_head(conflicts: Sequence[Conflict], zone: LmsZone) -> Said:
    _, stated, used = conflicts[0]
    who = ", ".join(one_line(s.id) for s, _, _ in conflicts[:5]) + (" ..." if len(conflicts) > 5 else "")
    return said("zone_head", "grade", abbreviation=stated.abbreviation, offset=offset_text(stated.offset),
                where=stated.where, used=offset_text(used), zone=zone_source(zone), count=len(conflicts), who=who)


def zone_refusal(conflicts: Sequence[Conflict], zone: LmsZone, due: datetime) -> Said:
    """Why a run with a deadline stops when the LMS states its times in another zone than --due's."""
    stated = conflicts[0][1]
    meant = due.replace(tzinfo=timezone(stated.offset)).isoformat(timespec="minutes")
    return said("zone_refused", "grade", head=_zone_head(conflicts, zone), offset=offset_text(stated.offset),
                due=shown_time(due.isoformat()), hour=due.strftime("%H:%M"), abbreviation=stated.abbreviation,
                meant=meant)


def zone_source(zone: LmsZone) -> Said:
    """Where the zone times are read and shown in comes from."""
    if zone.source == "--lms-timezone":
        return said("zone_lms", "grade", label=zone.label)
    return said("zone_due" if zone.source == "--due" else "zone_computer", "grade")


def stray_note(everyone: Iterable[Student], say: Messages = ENGLISH) -> str:
    """The TA's files beside an LMS export's units (a grade sheet, notes), listed, never graded: one
    note on stderr naming them."""
    strays = [entry for student in everyone if not student.id for entry, _ in student.ignored
              if entry.metadata == NOT_LMS_NAMED]
    if not strays:
        return ""
    shown = ", ".join(one_line(e.path) for e in strays[:SHOWN_AT_MOST])
    more = say("grade", "stray_more", count=len(strays) - SHOWN_AT_MOST) if len(strays) > SHOWN_AT_MOST else ""
    note = strays[0].note
    units = dict(note.params).get("units", "") if note is not None else ""
    message: str = printable(say("grade", "stray_note", count=len(strays),
                                 units=units.text(say) if isinstance(units, Said) else units, listed=shown, more=more))
    return message


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


def no_submissions(location: str, everyone: Iterable[Student]) -> Said:
    """Why a folder or zip in which no student sent a file cannot be graded, in one sentence."""
    from .collect import kind_said

    files = [(entry, reason) for student in everyone for entry, reason in student.ignored]
    if not files:
        return said("no_submissions_empty", "grade", location=location)
    kinds: dict[str, tuple[Said | Detail | str, list[str]]] = {}
    for entry, _ in files:
        what: Said | Detail | str
        if entry.metadata:
            key, what = entry.metadata, kind_said(entry.metadata)
        elif entry.system_file:
            key, what = "system file", said("reason_system_file", "report")
        elif entry.refused:
            key, what = str(entry.refused), entry.refused
        else:
            key, what = "other file", said("other_file", "grade")
        kinds.setdefault(key, (what, []))[1].append(entry.path)
    listed = tuple(said("no_submissions_kind", "grade", count=len(paths), what=what,
                        paths=", ".join(one_line(p) for p in paths[:3]) + (", ..." if len(paths) > 3 else ""))
                   for _, (what, paths) in sorted(kinds.items()))
    return said("no_submissions", "grade", location=location, count=len(files), listed=listed)


def unknown_times(students: Iterable[Student]) -> list[Student]:
    """The students with a file whose lateness the LMS does not state (late.lateness_known)."""
    return [student for student in students if student.chosen is not None and not lateness_known(
        lms_time=student.lms_time, lms_late=student.lms_late, rule=student.chosen.owner.split(":", 1)[0])]


def unknown_times_said(unknown: Sequence[Student], *, refused: bool) -> Said:
    """Why --due cannot judge these students (refused), or that they were counted on time."""
    who = ", ".join(one_line(s.id) for s in unknown[:SHOWN_AT_MOST]) + (" ..." if len(unknown) > SHOWN_AT_MOST else "")
    return said("unknown_times_refused" if refused else "unknown_times_note", "grade", count=len(unknown), who=who)


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


def pattern_misses(everyone: Iterable[Student]) -> tuple[list[str], int]:
    """([paths --id-pattern did not match], how many files it was tried on): submissions only."""
    tried = [e for s in everyone for e in ([s.chosen] if s.chosen else []) + s.superseded
             + [e for e, _ in s.ignored] if not e.system_file and not e.metadata]
    return sorted(e.path for e in tried if not e.owner.startswith("pattern:")), len(tried)


def pattern_refusal(pattern: str, missed: Sequence[str], tried: int) -> Said:
    """Why a run stops when --id-pattern matches none of the files: the files, to check it against."""
    return said("pattern_stopped", "grade", pattern=pattern, tried=tried, paths=Lines(tuple(missed), SHOWN_AT_MOST))


def pattern_warning(pattern: str, missed: Sequence[str], tried: int, allowed: bool, stopped: bool = False,
                    say: Messages = ENGLISH) -> str:
    if stopped:
        refused: str = printable("autograder: " + pattern_refusal(pattern, missed, tried).text(say))
        return refused
    shown = "\n".join(f"  {one_line(path)}" for path in missed[:SHOWN_AT_MOST])
    more = "\n  " + say("grade", "more", count=len(missed) - SHOWN_AT_MOST) if len(missed) > SHOWN_AT_MOST else ""
    head = say("grade", "pattern_missed", pattern=one_line(pattern), matched=tried - len(missed), tried=tried)
    tail = "\n  " + say("grade", "pattern_allowed" if allowed else "pattern_exit")
    message: str = printable(head + "\n" + shown + more + tail)
    return message


def lookalike_note(students: Sequence[Student], say: Messages = ENGLISH) -> str:
    """Files a student named like other students' LMS uploads, inside their own folder: theirs."""
    lines = [say("grade", "lookalike_head", count=len(students))]
    for student in students[:SHOWN_AT_MOST]:
        shown = "; ".join(say("grade", "lookalike_file", path=one_line(path), looks=one_line(looks))
                          for path, looks in student.lookalikes[:3])
        more = say("grade", "lookalike_more", count=len(student.lookalikes) - 3) if len(student.lookalikes) > 3 else ""
        lines.append(f"  {one_line(student.id)}: {shown}{more}")
    if len(students) > SHOWN_AT_MOST:
        lines.append("  " + say("grade", "more", count=len(students) - SHOWN_AT_MOST))
    lines.append("  " + say("grade", "lookalike_tail"))
    message: str = printable("\n".join(lines))
    return message


def stale_outputs(out: str, ids: Iterable[str]) -> list[str]:
    """Files in feedback/ and results/ that belong to no student of this run (an earlier class, a
    renamed id), as paths relative to `out`."""
    named = {fit_id(student) for student in ids}
    stale: list[str] = []
    for folder, suffixes in (("feedback", (".md", ".html")), ("results", (".json",))):
        directory = os.path.join(out, folder)
        for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else ():
            if name.endswith(TEMP_SUFFIX):
                continue
            stem, suffix = os.path.splitext(name)
            if suffix not in suffixes or stem not in named:
                stale.append(f"{folder}/{name}")
    return stale


def move_stale(out: str, stale: Iterable[str]) -> list[str]:
    """Move each stale file to out/stale/<same path> (never over another file); the new paths."""
    moved: list[str] = []
    for relative in stale:
        folder, name = os.path.split(os.path.join(out, "stale", relative))
        os.makedirs(folder, exist_ok=True)
        target, number = os.path.join(folder, name), 1
        while os.path.lexists(target):
            target = os.path.join(folder, fitting_name(name, f".{number}"))
            number += 1
        shutil.move(os.path.join(out, relative), target)
        moved.append(os.path.relpath(target, out))
    return moved


def fitting_name(name: str, suffix: str) -> str:
    """`name` + `suffix`, fitted in NAME_MAX bytes: its stem cut and a hash of the name added."""
    def size(text: str) -> int:
        return len(text.encode("utf-8", "surrogateescape"))

    if size(name + suffix) <= NAME_MAX:
        return name + suffix
    stem, extension = os.path.splitext(name)
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    if size(extension + suffix) > NAME_MAX // 2:
        stem, extension = name, ""
    room = NAME_MAX - size(extension + suffix) - len(digest) - 1
    head = stem.encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")
    return f"{head}-{digest}{extension}{suffix}"


def stale_warning(out: str, stale: Sequence[str], moved: list[str] | None, say: Messages = ENGLISH) -> str:
    shown = "\n".join(f"  {one_line(path)}" for path in stale[:SHOWN_AT_MOST])
    more = "\n  " + say("grade", "more", count=len(stale) - SHOWN_AT_MOST) if len(stale) > SHOWN_AT_MOST else ""
    folder = one_line(os.path.join(out, "stale"))
    tail = "\n  " + (say("grade", "stale_hint", folder=folder) if moved is None
                     else say("grade", "stale_moved", folder=folder))
    message: str = printable(say("grade", "stale_head", count=len(stale), out=one_line(out)) + "\n" + shown
                             + more + tail)
    return message


def case_clashes(ids: Iterable[str]) -> list[list[str]]:
    """Groups of ids that differ only in case: their feedback files are one file on macOS or Windows."""
    groups: dict[str, list[str]] = {}
    for student in ids:
        groups.setdefault(student.casefold(), []).append(student)
    return [sorted(group) for group in groups.values() if len(group) > 1]


def merged_warning(students: Sequence[Student], clashes: Sequence[Sequence[str]], allowed: bool,
                   say: Messages = ENGLISH) -> str:
    """The loud part: files whose names say different students, filed under one id (or under ids
    a case-insensitive disk cannot tell apart)."""
    lines: list[str] = []
    if students:
        lines.append(say("grade", "merged_head", count=len(students)))
        lines.extend(f"  {student.id}: " + "; ".join(one_line(owner) for owner in student.merged)
                     for student in students)
    if clashes:
        lines.append(say("grade", "case_clash_head"))
        lines.extend("  " + ", ".join(group) for group in clashes)
    lines.append("  " + say("grade", "merged_check") + " "
                 + say("grade", "merged_allowed" if allowed else "merged_exit"))
    message: str = printable("\n".join(lines))
    return message


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
