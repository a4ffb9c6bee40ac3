"""Finding a class's submissions in a folder or an LMS .zip export, and whose each one is.

Pure bookkeeping: names, dates and sizes in, one Entry per file out. Reading bytes happens
through Source.read, so a class of any size is never held in memory at once.

The class folder is not trusted: only regular files are read, opened without following links
and with a size cap; links, FIFOs, devices and unsafe archive names are listed, never read.
"""
from __future__ import annotations

import os
import re
import stat
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from ..reading.budget import BUDGET, MAX_BYTES
from ..reading.files import file_kind, kind_detail, read_regular_file
from ..reading.names import SUBMISSION_KINDS, kind_rank
from ..reading.problems import Detail, detail, error_type, os_detail
from ..reading.zips import zip_member_is_regular, zipped_problem
from ..guard import safe_name
from ..said import Refusal, Said, said
from ..lms.recognise import HEAD_BYTES, SHEET_KINDS, sheet_kind
from .late import COMPUTER_ZONE, LmsZone, StatedZone, file_time, stated_zone
from .metadata import (MAX_METADATA_BYTES, Submitter, blackboard_receipt, blackboard_receipt_name, decode,
                       gradescope_submitters)
from .naming import BLACKBOARD_RECEIPT, Naming, is_system_path, safe_id, shared_depth, student_id  # noqa: F401 (re-exported)
from .run_folder import marks_a_run

GRADESCOPE_LIST = "Gradescope submission list"
# A file beside the units of an LMS's export that the LMS did not name (Naming.stray): the TA's.
NOT_LMS_NAMED = "a file the LMS did not name"

GRADABLE = (".py", ".ipynb")
EXPORT = ".zip"  # graded when it is the zip Otter's export() writes, or holds one .ipynb or .py
MAX_ARCHIVE_MEMBERS = 200_000
# A .zip inside the class's zip is an Otter export (its notebook already compressed) or not a
# submission at all: one that would decompress to more than this many times its stored size
# is never decompressed (members up to SMALL_MEMBER bytes always are).
NESTED_ARCHIVE_RATIO = 20
SMALL_MEMBER = 1024 * 1024


@dataclass(frozen=True)
class Entry:
    """One input file: where it is, whose it is, when it was saved."""

    path: str  # relative to the class root, with "/" separators
    student: str  # file-name-safe student id
    stamp: float  # modification time (zip entry date_time or file mtime), seconds
    size: int
    index: int = -1  # position of the member in a zip export: members are read by it, never by name
    # why it is never read (a Detail: "link", "fifo", ...; words for an LMS metadata file); "" when it is read
    refused: Detail | str = ""
    owner: str = ""  # who its name says it belongs to (rule and raw name), to notice merged ids
    export: Detail | str = ""  # for a .zip: "" when it is an Otter export, else why it is not one
    metadata: str = ""  # which LMS metadata file it is ("Blackboard receipt", ...): read, never graded
    note: Said | None = None  # what more is known of a file that is not a student's (Naming.stray's)

    @property
    def gradable(self) -> bool:
        if self.refused or self.metadata:
            return False
        lower = self.path.lower()
        return lower.endswith(GRADABLE) or (lower.endswith(EXPORT) and not self.export)

    @property
    def system_file(self) -> bool:
        return is_system_path(self.path)


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


@dataclass(frozen=True)
class Found:
    """A file as listed, before anyone says whose it is."""

    path: str
    stamp: float
    size: int
    index: int = -1
    refused: Detail | str = ""  # a Detail, or "" when it may be read


class Source:
    """A folder or a .zip of submissions."""

    def __init__(self, location: str | os.PathLike[str]) -> None:
        self.location = os.fspath(location)
        self._zip: zipfile.ZipFile | None = None
        self._root_fd: int | None = None
        self._members: list[zipfile.ZipInfo] = []
        self.inflated_bytes = 0  # decompressed from the class's zip so far (for the tests and docs)
        self._inflated_for: dict[str, int] = {}  # student id -> bytes decompressed looking into their zips
        self._on_disk: dict[str, str] = {}  # {path as shown: path as the disk names it}, for names that are not UTF-8
        # Folders below the class folder that are a run's output folder (run_folder.inspect): left out
        # of the class, never read (relative paths, "/" separators).
        self.run_folders: list[str] = []
        # Whether the class is an LMS's export (naming.Naming.lms_export), set by group_students:
        # its students are the LMS's, so class_rule never refuses it.
        self.lms_export = False
        if os.path.isdir(self.location):
            self.kind = "folder"
            self._root_fd = os.open(self.location, os.O_RDONLY | os.O_DIRECTORY)
        elif _is_regular(self.location) and zipfile.is_zipfile(self.location):
            self.kind = "zip"
            try:
                self._zip = zipfile.ZipFile(self.location)
            except Exception as error:  # noqa: BLE001 (zipfile raises many kinds on a damaged directory)
                raise Refusal(said("source_not_a_zip", "grade", location=self.location, problem=str(error))) from None
            self._members = self._zip.infolist()
            if len(self._members) > MAX_ARCHIVE_MEMBERS:
                self._zip.close()
                raise Refusal(said("source_too_many", "grade", location=self.location, count=len(self._members),
                                   most=MAX_ARCHIVE_MEMBERS))
        else:
            raise Refusal(said("source_neither", "grade", location=self.location))

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()
        if self._root_fd is not None:
            os.close(self._root_fd)
            self._root_fd = None

    def files(self) -> list[Found]:
        """Every file as a Found, sorted by path (then by position in the archive)."""
        found = self._zip_files() if self.kind == "zip" else self._folder_files()
        return sorted(found, key=lambda f: (f.path, f.index))

    def _zip_files(self) -> list[Found]:
        found: list[Found] = []
        names = {index: _decoded_name(info) for index, info in enumerate(self._members) if not info.is_dir()}
        separators = _backslash_separators(names.values())
        for index, info in enumerate(self._members):
            if info.is_dir():
                continue
            name = names[index].replace("\\", "/") if separators else names[index]
            refused: Detail | str = ""
            if _unsafe_member_name(name):
                refused = detail("unsafe_name")
            elif not zip_member_is_regular(info):
                refused = detail(kind_detail(info.external_attr >> 16))
            found.append(Found(_display_path(name), _zip_stamp(info), info.file_size, index, refused))
        return found

    def _folder_files(self) -> list[Found]:
        return self._with_readable_names(self._folder_files_as_named())

    def _with_readable_names(self, found: list[Found]) -> list[Found]:
        """Names a disk holds in bytes that are not UTF-8 (a cp949 name copied from Korean Windows)
        shown as text: cp949 when they are, else with \\x escapes; each kept unique, and read by
        its name on the disk."""
        taken = {f.path for f in found}
        shown: list[Found] = []
        for item in found:
            readable = _readable_path(item.path)
            if readable != item.path:
                base, number = readable, 1
                while readable in taken:
                    readable = f"{base} ({number})"
                    number += 1
                taken.add(readable)
                self._on_disk[readable] = item.path
                item = Found(readable, item.stamp, item.size, item.index, item.refused)
            shown.append(item)
        return shown

    def _folder_files_as_named(self) -> list[Found]:
        found: list[Found] = []
        self.run_folders = []

        def unreadable(error: OSError) -> None:
            relative = os.path.relpath(error.filename or self.location, self.location).replace(os.sep, "/")
            found.append(Found(relative, 0.0, 0, refused=detail("folder_unreadable", error=os_detail(error).parameters.get("error", "?"))))

        for folder, dirs, names in _walk(self.location, unreadable):
            if folder != self.location and marks_a_run(folder, {*dirs, *names}):
                # An output folder is never a submission (a --out inside the class folder).
                self.run_folders.append(_readable_path(os.path.relpath(folder, self.location).replace(os.sep, "/")))
                dirs.clear()
                continue
            dirs.sort()
            for name in list(dirs):
                full = os.path.join(folder, name)
                if os.path.islink(full):  # os.walk does not descend into it; listed, never followed
                    dirs.remove(name)
                    names.append(name)
            for name in names:
                full = os.path.join(folder, name)
                relative = os.path.relpath(full, self.location).replace(os.sep, "/")
                try:
                    status = os.lstat(full)
                except OSError as error:
                    found.append(Found(relative, 0.0, 0, refused=os_detail(error)))
                    continue
                kind = file_kind(status.st_mode)
                refused = "" if kind == "regular file" else detail(kind_detail(status.st_mode))
                found.append(Found(relative, status.st_mtime, status.st_size, refused=refused))
        return found

    def read(self, entry: Entry, limit: int = MAX_BYTES) -> bytes:
        """The file's bytes, at most `limit` + 1 of them; OSError when it cannot or must not be read."""
        if entry.refused:
            raise OSError(0, entry.refused)
        if self.kind == "zip":
            return self._read_member(self._members[entry.index], limit)
        parts = self._on_disk.get(entry.path, entry.path).split("/")
        directory = self._root_fd
        opened: list[int] = []
        try:
            for part in parts[:-1]:  # every folder on the way opened without following links
                directory = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=directory)
                opened.append(directory)
            return read_regular_file(parts[-1], follow_links=False, limit=limit, dir_fd=directory)
        finally:
            for descriptor in opened:
                os.close(descriptor)

    def _read_member(self, info: zipfile.ZipInfo, limit: int) -> bytes:
        """Bounds checked on the zip's directory before anything is decompressed: the declared
        size (zipfile never yields more), and for a nested .zip its ratio to the stored size."""
        if info.file_size > limit:  # never decompressed
            raise OSError(0, detail("size_over", most=limit))
        if info.filename.lower().endswith(EXPORT) and info.file_size > SMALL_MEMBER \
                and info.file_size > NESTED_ARCHIVE_RATIO * max(info.compress_size, 1):
            raise OSError(0, detail("zip_ratio_over", most=NESTED_ARCHIVE_RATIO))
        archive = self._zip
        assert archive is not None  # members are read only from a .zip's Source
        try:
            with archive.open(info) as handle:
                data = handle.read(limit + 1)
        except Exception as error:  # noqa: BLE001 (zlib.error, BadZipFile, EOFError, ...: a damaged member)
            raise OSError(0, detail("exception", type=error_type(error))) from None
        self.inflated_bytes += len(data)
        return data

    def head(self, found: Found, size: int) -> bytes:
        """The first `size` bytes of a listed file (no more is read or decompressed), to tell what
        it is; OSError when it cannot or must not be read."""
        if found.refused:
            raise OSError(0, found.refused)
        if self.kind != "zip":
            return self.read(Entry(found.path, "", found.stamp, found.size, found.index), limit=size)[:size]
        info = self._members[found.index]
        archive = self._zip
        assert archive is not None  # kind "zip"
        try:
            with archive.open(info) as handle:
                data = handle.read(min(size, info.file_size))
        except Exception as error:  # noqa: BLE001 (zlib.error, BadZipFile, EOFError, ...: a damaged member)
            raise OSError(0, detail("exception", type=error_type(error))) from None
        self.inflated_bytes += len(data)
        return data

    def export_problem(self, found: Found, student: str = "") -> Detail | str:
        """For a .zip in the class: "" when it is graded (an Otter export, or a zip holding one .ipynb
        or .py: reading.zips.zipped_submission), else why it is not. Told from the zip's directory:
        the file inside is decompressed only when it is graded.

        Looking into one student's zips decompresses at most BUDGET.inflated_bytes in all (many small
        zips, each under the ratio check's floor, add up): past that, their other zips are not looked
        into, and say so. Another student's budget is their own."""
        spent = self._inflated_for.get(student, 0)
        if spent + min(found.size, MAX_BYTES) > BUDGET.inflated_bytes and found.size:
            return detail("zips_budget_spent", size=spent)
        before = self.inflated_bytes
        try:
            data = self.read(Entry(found.path, "", found.stamp, found.size, found.index, found.refused))
        except OSError as error:
            return os_detail(error)
        finally:
            self._inflated_for[student] = spent + (self.inflated_bytes - before)
        if len(data) > MAX_BYTES:
            return detail("size_over", most=MAX_BYTES)
        return zipped_problem(data)


def _walk(top: str, onerror: Callable[[OSError], None]) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk(top, onerror=onerror), top-down, without recursion: a student's folder nested
    thousands of levels deep is listed like any other (os.walk recurses once per level in Python
    3.11). Folders removed from `dirs` by the caller are not entered; links are never entered."""
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as listing:
                found = list(listing)
        except OSError as error:
            onerror(error)
            continue
        dirs: list[str] = []
        names: list[str] = []
        for entry in found:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirs if is_dir else names).append(entry.name)
        yield folder, dirs, names
        for name in reversed(dirs):
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                stack.append(path)


def _is_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _zip_stamp(info: zipfile.ZipInfo) -> float:
    try:
        return time.mktime((*info.date_time, 0, 0, -1))
    except (OverflowError, ValueError, TypeError):
        return 0.0


def _backslash_separators(names: Iterable[str]) -> bool:
    """Whether the archive's tool wrote backslashes as separators (some Windows tools do): then
    every name holds one, a zip of a folder always naming it, and none holds a "/".

    Decided for the whole archive, never per name: in an LMS's export a backslash is a character
    of a student's own file name (`kim_1_2_a\\..\\lee_3_4_x.py`), and reading it as a separator
    would let that name make folders that name other students.
    """
    names = list(names)
    return bool(names) and all("\\" in name and "/" not in name for name in names)


def _decoded_name(info: zipfile.ZipInfo) -> str:
    """Zip names from Korean Windows are often cp949 without the UTF-8 flag; undo the cp437 guess."""
    name = info.filename
    if not info.flag_bits & 0x800:
        try:
            raw = name.encode("cp437")
        except UnicodeEncodeError:
            return name
        for encoding in ("utf-8", "cp949"):
            try:
                name = raw.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
    return name


def _readable_path(path: str) -> str:
    """A path os.walk gave (undecodable bytes as surrogates) as text: cp949, else \\x escapes
    (guard.safe_name, the one rule for a file name's bytes)."""
    return safe_name(path)


def _unsafe_member_name(name: str) -> bool:
    """An absolute name, a drive letter, or a '..' part: no LMS writes one."""
    parts = name.split("/")
    return name.startswith("/") or re.match(r"^[A-Za-z]:", name) is not None or ".." in parts or "\0" in name


def _display_path(name: str) -> str:
    return "/".join(part for part in name.split("/") if part not in ("", "."))


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
    submitters: dict[str, Submitter] = {}
    unread: set[str] = set()
    for found in lists:
        text = _read_text(source, found)
        if text is None:
            unread.add(found.path)
        submitters.update(gradescope_submitters(text) if text is not None else {})
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
    itself splits "Lab1_kim_ms" (metadata.blackboard_receipt: a username the head ends with)."""
    usernames: dict[str, str] = {}
    assignments: list[str] = []
    for found in files:
        match = BLACKBOARD_RECEIPT.match(found.path.rsplit("/", 1)[-1])
        if not match or naming.metadata_kind(found.path) != "Blackboard receipt" or found.refused:
            continue
        text = _read_text(source, found)
        receipt = blackboard_receipt(text, match["head"]) if text is not None else None
        if receipt is not None and receipt.username:
            usernames[match["head"]] = receipt.username
            if receipt.assignment and match["head"] == f"{receipt.assignment}_{receipt.username}":
                assignments.append(receipt.assignment)
    return usernames, assignments


def _name_from_receipts(source: Source, entries: list[Entry]) -> str:
    """The student's name in their newest Blackboard receipt that has one, else ""."""
    for entry in newest_first([e for e in entries if e.metadata == "Blackboard receipt"]):
        text = _read_text(source, entry)
        name = blackboard_receipt_name(text, _attempt(entry)) if text is not None else ""
        if name:
            return name
    return ""


def _attempt(entry: Entry) -> str:
    """The part of a Blackboard receipt's name before "_attempt_" ("Lab 1_kim_ms"): whose attempt it is."""
    match = BLACKBOARD_RECEIPT.match(entry.path.rsplit("/", 1)[-1])
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
