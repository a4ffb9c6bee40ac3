"""What a run of `grade` tells the TA, in the TA's language: the refusals before anything is written, the
warnings and notes after."""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, timezone

from ..core.render.messages import Messages
from ..core.render.text import one_line, printable
from ..said import Lines, Said, said
from ..core.reading.problems import Detail
from .collect import NOT_LMS_NAMED, Student
from .late import LmsZone, StatedZone, agreed_zone, lateness_known, offset_text
from .outputs import shown_time


ENGLISH = Messages("en")  # a message function's language when none is given
SHOWN_AT_MOST = 20  # files named in a warning; the rest are counted


# Times the LMS states in another zone than the one they are read in: (student, what the LMS
# states, the offset the time was read at).
Conflict = tuple[Student, StatedZone, timedelta]


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
