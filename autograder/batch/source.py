"""A class's folder or .zip, listed and read without trusting it: one Found per file, its bytes only
through Source.read.

Only regular files are read, opened without following links and with a size cap; links, FIFOs,
devices and unsafe archive names are listed, never read.
"""
from __future__ import annotations

import os
import re
import stat
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..core.reading.budget import BUDGET, MAX_BYTES
from ..core.reading.files import file_kind, kind_detail, read_regular_file
from ..core.reading.problems import Detail, detail, error_type, os_detail
from ..core.reading.zips import zip_member_is_regular, zipped_problem
from ..core.guard import safe_name
from ..said import Refusal, Said, said
from .naming import is_system_path
from .run_folder import marks_a_run

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
