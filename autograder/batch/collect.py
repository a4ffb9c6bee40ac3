"""Finding a class's submissions in a folder or an LMS .zip export, and whose each one is.

Pure bookkeeping: names, dates and sizes in, one Entry per file out. Reading bytes happens
through Source.read (batch.source, which trusts nothing of the class folder), so a class of any
size is never held in memory at once.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from ..core.reading.names import SUBMISSION_KINDS, kind_rank
from ..core.reading.problems import Detail, detail
from ..said import Said, said
from ..lms.recognise import HEAD_BYTES, SHEET_KINDS, sheet_kind
from .late import COMPUTER_ZONE, LmsZone, StatedZone, file_time, stated_zone
from ..lms import blackboard, gradescope
from ..lms.metadata import MAX_METADATA_BYTES, decode
from .naming import Naming, is_system_path
from .source import EXPORT, GRADABLE, Entry, Found, Source

GRADESCOPE_LIST = "Gradescope submission list"
# A file beside the units of an LMS's export that the LMS did not name (Naming.stray): the TA's.
NOT_LMS_NAMED = "a file the LMS did not name"


@dataclass
class Student:
    """A student's files: the one that counts and the ones it supersedes.

    `chosen` is None for an id that holds system files only (listed as ignored, never graded).
    """

    id: str
    chosen: Entry | None
    superseded: list[Entry] = field(default_factory=list)  # newest first
    ignored: list[tuple[Entry, Detail | Said | str]] = field(default_factory=list)  # [(Entry, reason)]
    merged: list[str] = field(default_factory=list)  # owners of different names filed under this id
    name: str = ""  # the name the LMS gives (Moodle's full name, Canvas's lastfirst, ...), "" if none
    lms_time: str = ""  # ISO 8601 submission time the LMS wrote, "" if none
    lms_late: bool = False  # the LMS marked the submission late (Canvas's LATE)
    # Files in the student's own folder named like other students' LMS uploads: [(path, looks like)].
    # They stay this student's; the TA is told.
    lookalikes: list[tuple[str, str]] = field(default_factory=list)
    # The zone the LMS states beside the chosen file's time, where it writes that time without one
    # (a Blackboard receipt's "... 12:30:45 PM KST"): late.StatedZone, or None.
    stated_zone: StatedZone | None = None

    @property
    def submitted_at(self) -> str:
        """When the chosen file was handed in: the LMS's time, else the file's own time."""
        if self.lms_time:
            return self.lms_time
        return file_time(self.chosen.stamp) if self.chosen is not None else ""


def newest_first(entries: Iterable[Entry]) -> list[Entry]:
    """Newest modification time first; on a tie the kind the LMS's zip prefers (`reading.names.kind_rank`:
    the notebook, then the .py, then a zip), then the later name in natural order (a-10 over a-2),
    and of two archive members with the same name, the later one in the archive."""
    return sorted(entries, key=lambda e: (e.stamp, -_rank(e.path), _natural(os.path.splitext(e.path)[0]), e.path,
                                          e.index), reverse=True)


def _rank(path: str) -> int:
    rank = kind_rank(path)
    return len(SUBMISSION_KINDS) if rank is None else rank


def _natural(text: str) -> list[tuple[int, int, str]]:
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text)]


def group_students(source: Source, id_pattern: str | None = None, zone: LmsZone = COMPUTER_ZONE) -> list[Student]:
    """Every file of the class, grouped by student, the newest gradable one chosen.

    LMS metadata files are read for names, student ids and times, and listed, never graded:
    Gradescope's submission list (its rows get the id ""), Blackboard's receipts and Moodle's
    online text (under their student). The class's own files, never a student's, get the id "":
    grade sheets, and in an LMS's export the files the LMS did not name beside its units that are
    not .py, .ipynb or .zip (Naming.stray). `zone` (late.LmsZone) reads the times the LMS wrote without a zone: every
    student's `lms_time` has its offset.
    """
    files = source.files()
    paths = [f.path for f in files]
    naming = Naming(paths, id_pattern)
    lists = [f for f in files if naming.metadata_kind(f.path) == GRADESCOPE_LIST]
    submitters: dict[str, gradescope.Submitter] = {}
    unread: set[str] = set()
    for found in lists:
        text = _read_text(source, found)
        if text is None:
            unread.add(found.path)
        submitters.update(gradescope.submitters(text) if text is not None else {})
    usernames, assignments = _blackboard_receipts(source, files, naming)
    if submitters or usernames:
        naming = Naming(paths, id_pattern, submitters, usernames=usernames, assignments=assignments)
    source.lms_export = naming.lms_export
    by_student: dict[str, list[Entry]] = {}
    class_files: list[Entry] = []
    for found in files:
        kind = naming.metadata_kind(found.path) or lms_sheet_kind(source, found, naming)
        # Only a readable file no student could be graded by: a .py, .ipynb or .zip stays a student's as
        # before, and a refused one (a link, a device) stays a row that says why it was refused.
        stray = (None if kind or found.refused or found.path.lower().endswith(GRADABLE + (EXPORT,))
                 else naming.stray(found.path))
        if stray:
            class_files.append(Entry(found.path, "", found.stamp, found.size, found.index, found.refused, "", "",
                                     NOT_LMS_NAMED, stray))
            continue
        if kind == GRADESCOPE_LIST or kind in SHEET_KINDS:
            refused = found.refused or (detail("metadata_unreadable", most=MAX_METADATA_BYTES)
                                        if found.path in unread else "")
            class_files.append(Entry(found.path, "", found.stamp, found.size, found.index, refused, "", "", kind))
            continue
        student, owner = naming.identify(found.path)
        export: Detail | str = ""
        if found.path.lower().endswith(EXPORT) and not found.refused and not kind:
            export = source.export_problem(found, student)
        entry = Entry(found.path, student, found.stamp, found.size, found.index, found.refused, owner, export, kind)
        by_student.setdefault(entry.student, []).append(entry)
    students: list[Student] = []
    if class_files:
        students.append(Student("", None, [], [(e, ignored_reason(e)) for e in class_files]))
    for student, entries in sorted(by_student.items()):
        if all(e.system_file or e.metadata for e in entries):
            # Only what an operating system or the LMS left (a __MACOSX copy, a receipt of an
            # attempt without a file): listed, never graded.
            # What the LMS says of the unit: its own files first, then what the system left in it.
            told = [naming.about(e.path) for e in sorted(entries, key=lambda e: e.system_file)]
            students.append(Student(student, None, [], [(e, ignored_reason(e)) for e in entries],
                                    name=next((t["name"] for t in told if t["name"]), "")
                                    or _name_from_receipts(source, entries),
                                    lms_time=zone.localise(next((t["time"] for t in told if t["time"]), ""))))
            continue
        candidates = _newest_by_lms([e for e in entries if e.gradable and not e.system_file], naming, zone)
        others = [e for e in entries if not (e.gradable and not e.system_file)]
        if not candidates:
            # Nothing gradable: the newest other file stands for the student, graded as unreadable.
            useful = newest_first([e for e in others if not e.system_file and not e.metadata])
            candidates, others = useful[:1], [e for e in others if e is not useful[0]]
        ignored = [(e, ignored_reason(e)) for e in others]
        owners = sorted({e.owner for e in entries if not e.system_file})
        about = naming.about(candidates[0].path)
        students.append(Student(student, candidates[0], candidates[1:], ignored,
                                owners if len(owners) > 1 else [],
                                about["name"] or _name_from_receipts(source, entries),
                                zone.localise(about["time"]), about["late"], _lookalikes(entries, naming),
                                _zone_of_receipt(source, entries, about["time"], naming)))
    return students


def _zone_of_receipt(source: Source, entries: list[Entry], lms_time: str, naming: Naming) -> StatedZone | None:
    """The zone the Blackboard receipt of the chosen attempt states for its time (late.stated_zone),
    when the LMS wrote that time without one; None otherwise."""
    try:
        if not lms_time or datetime.fromisoformat(lms_time).tzinfo is not None:
            return None
    except ValueError:
        return None
    for entry in entries:
        if entry.metadata == "Blackboard receipt" and naming.about(entry.path)["time"] == lms_time:
            text = _read_text(source, entry)
            said = stated_zone(text, lms_time, entry.path, _attempt(entry)) if text is not None else None
            if said is not None:
                return said
    return None


def _lookalikes(entries: list[Entry], naming: Naming) -> list[tuple[str, str]]:
    """[(path, looks like)] of a student's files named like other students' LMS uploads."""
    found: list[tuple[str, str]] = []
    marked = False
    for entry in entries:
        looks = "" if entry.system_file else naming.lookalike(entry.path)
        if looks:
            found.append((entry.path, looks))
            marked = marked or naming.unit(entry.path).kind != "folder"
    # A TA's folder may hold the student's own LMS downloads under another form of their name:
    # told only when it holds several students' names. The LMS's own folders never hold any.
    return found if marked or len({looks for _, looks in found}) > 1 else []


# Files that may be an LMS's grade sheet (read by their header, see lms_sheet_kind).
SHEET_SUFFIXES = (".csv", ".xls", ".tsv", ".txt")


def lms_sheet_kind(source: Source, found: Found, naming: Naming) -> str:
    """Which LMS grade sheet a file of the class is ("Canvas gradebook", ...: lms.recognise), by its
    header, or "": a gradebook zipped with the submissions is the class's, never a student's.

    Only where a TA puts one: beside the students' units, under a name no LMS gave a student's
    upload. A student's own file (in their folder, or named with their Canvas, Moodle or Blackboard
    prefix) is theirs whatever its first line says: it never leaves them without a row."""
    if found.refused or not found.path.lower().endswith(SHEET_SUFFIXES) or is_system_path(found.path):
        return ""
    unit = naming.unit(found.path)
    if unit.folder or unit.kind != "file name":
        return ""
    try:
        kind: str = sheet_kind(source.head(found, HEAD_BYTES))
        return kind
    except OSError:
        return ""


def _newest_by_lms(entries: list[Entry], naming: Naming, zone: LmsZone = COMPUTER_ZONE) -> list[Entry]:
    """newest_first, but by the submission times the LMS wrote (Blackboard's attempt names) when
    every file has one: a zip's or a disk's file times may all be the day of the download."""
    ordered = newest_first(entries)
    times = [_moment(zone.localise(naming.about(e.path)["time"])) for e in ordered]
    if ordered and all(times):
        when = {id(e): moment for e, moment in zip(ordered, times) if moment is not None}  # every one is
        ordered = sorted(ordered, key=lambda e: when[id(e)], reverse=True)
    return ordered


def _moment(text: str) -> datetime | None:
    """An aware ISO 8601 time as a datetime, None when it is none."""
    try:
        moment = datetime.fromisoformat(text) if text else None
    except ValueError:
        return None
    return moment if moment is not None and moment.tzinfo is not None else None


def _read_text(source: Source, found: Found | Entry) -> str | None:
    """A metadata file's text, or None when it cannot or must not be read."""
    entry = Entry(found.path, "", found.stamp, found.size, found.index, found.refused)
    try:
        data = source.read(entry, limit=MAX_METADATA_BYTES)
    except OSError:
        return None
    return None if len(data) > MAX_METADATA_BYTES else decode(data)


def _blackboard_receipts(source: Source, files: Iterable[Found], naming: Naming) -> tuple[dict[str, str], list[str]]:
    """({attempt head: username}, [assignment]) from the class's Blackboard receipts: how Blackboard
    itself splits "Lab1_kim_ms" (lms.blackboard.receipt: a username the head ends with)."""
    usernames: dict[str, str] = {}
    assignments: list[str] = []
    for found in files:
        match = blackboard.RECEIPT_NAME.match(found.path.rsplit("/", 1)[-1])
        if not match or naming.metadata_kind(found.path) != "Blackboard receipt" or found.refused:
            continue
        text = _read_text(source, found)
        receipt = blackboard.receipt(text, match["head"]) if text is not None else None
        if receipt is not None and receipt.username:
            usernames[match["head"]] = receipt.username
            if receipt.assignment and match["head"] == f"{receipt.assignment}_{receipt.username}":
                assignments.append(receipt.assignment)
    return usernames, assignments


def _name_from_receipts(source: Source, entries: list[Entry]) -> str:
    """The student's name in their newest Blackboard receipt that has one, else ""."""
    for entry in newest_first([e for e in entries if e.metadata == "Blackboard receipt"]):
        text = _read_text(source, entry)
        name = blackboard.receipt_name(text, _attempt(entry)) if text is not None else ""
        if name:
            return name
    return ""


def _attempt(entry: Entry) -> str:
    """The part of a Blackboard receipt's name before "_attempt_" ("Lab 1_kim_ms"): whose attempt it is."""
    match = blackboard.RECEIPT_NAME.match(entry.path.rsplit("/", 1)[-1])
    return match["head"] if match else ""


def ignored_reason(entry: Entry) -> Detail | Said | str:
    """Why a file that is not the student's graded one was not read: a reason the report says in
    its language, whose English (str()) grades.csv keeps as a stable code."""
    if entry.system_file:
        return said("reason_system_file", "report")
    if entry.metadata == NOT_LMS_NAMED:
        return said("reason_not_lms_named", "report", note=entry.note or kind_said(entry.metadata))
    if entry.metadata:
        if entry.refused:
            return said("reason_metadata_refused", "report", what=kind_said(entry.metadata), why=entry.refused)
        if entry.metadata in SHEET_KINDS:
            return said("reason_sheet", "report", what=kind_said(entry.metadata))
        key = {GRADESCOPE_LIST: "reason_metadata_list", "Blackboard receipt": "reason_metadata_receipt"}.get(
            entry.metadata, "reason_metadata")
        return said(key, "report", what=kind_said(entry.metadata))
    if entry.refused:
        return entry.refused
    if entry.path.lower().endswith(EXPORT):
        return said("reason_not_export", "report", why=entry.export)
    return said("reason_not_code", "report")


def kind_said(kind: str) -> Said:
    """An LMS file's kind (Entry.metadata: "Moodle online text", "Canvas gradebook", ...) in the
    reader's language; its English is the kind itself."""
    return said("kind_" + re.sub(r"[^a-z]+", "_", kind.lower()).strip("_"), "report")
