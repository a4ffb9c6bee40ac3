"""Whose file is whose: student ids from the names an LMS (or a TA) gave the class's files.

Pure text work on paths relative to the class root ("/" separators).

The class is cut into units, one per student: the part of the tree the LMS (or the TA) gives
one student. A unit is a folder the LMS writes (Moodle's `Name_123_assignsubmission_file_/`,
Gradescope's `submission_<n>/`), a TA's folder per student, or a file whose name the LMS wrote
(Canvas, Blackboard, Moodle without folders). Only the unit names its student; whatever is
inside a unit folder is the student's own: never an id, a name, a time, a section or a layout
rule for anyone.
"""
from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from ..lms import blackboard, canvas, gradescope, moodle
from ..said import Said, said
from .run_files import fit_id

if TYPE_CHECKING:
    from ..lms.gradescope import Submitter

# Left by operating systems and editors, never by the student on purpose.
SYSTEM_DIRS = {"__MACOSX", ".ipynb_checkpoints", "__pycache__", ".git"}
SYSTEM_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}

# The longest file name most file systems take (ext4, APFS, NTFS in UTF-16 units, ...), in bytes.
NAME_MAX = 255


@dataclass(frozen=True, kw_only=True)
class Unit:
    """The part of the class that belongs to one student, and what the LMS's marks on it say."""

    student: str  # file-name-safe id
    owner: str  # the rule and the raw name: different owners under one id are a merge
    kind: str  # "moodle folder", "gradescope", "folder", "canvas", "moodle", "blackboard", "file name"
    folder: bool  # a folder: every name inside it is the student's own
    name: str = ""  # the name the LMS wrote, "" when it wrote none
    time: str = ""  # ISO 8601 submission time the LMS wrote
    late: bool = False  # the LMS marked the submission late (Canvas's LATE)
    plugin: str = ""  # Moodle's plugin ("file", "onlinetext") for a Moodle unit


class About(TypedDict):
    """What the LMS's naming says of a file besides its student (Naming.about)."""

    name: str
    time: str
    late: bool


class _Said(TypedDict, total=False):
    """What an LMS prefix of a file name says besides the id (Naming._from_file_name)."""

    name: str
    late: bool
    plugin: str
    time: str


# What is counted beside the units: ("id", "12345"), ("gradescope", folder), ("file", path), ("folder", path)
_Key = tuple[str, str]


class Naming:
    """Whose each file is, from its path; built from the whole class.

    The units, outermost first (--id-pattern, the TA's own rule, comes before all of them):
    Moodle's folder (at or above the level below the shared wrapper folder; the outermost one),
    a file directly below the wrapper (named by its Canvas, Blackboard or Moodle prefix, the one
    that ends first: the student's own file name comes after it; else by its name), Gradescope's
    `submission_<n>/` folder (named by the `:sid:` of submission_metadata.yml beside it, else by
    the folder), then any other folder below the wrapper: a TA's folder per student.

    Section folders: a TA may sort LMS-named files into folders (Canvas files by section). Such
    folders hold LMS-named files (or Moodle folders) of several students directly, and so does one
    student's own folder holding files they named like their classmates' uploads. The class is read
    as sorted into sections only when at least two of the folders below the wrapper, and more than
    half of them, each hold LMS names of two or more students. A student controls one folder, so no
    student alone can switch the rule (switching it takes planted names in more than half of the
    folders, and at least two); in a class of sections, the students' LMS-named files (whose
    prefixes the LMS wrote) never change it either. Otherwise every folder is one student's
    (`several` keeps the folders that held several students' LMS names). Moodle's and Gradescope's
    own folders are units by their names, never section folders, and are not counted.

    `submitters`: {"submission_<n>" folder: Submitter} from Gradescope's submission_metadata.yml.
    `usernames`: {Blackboard attempt head ("Lab1_kim_ms"): username} from the attempts' receipts
    ("Name: Kim Minsu (kim_ms)", lms.blackboard.receipt: a username the head ends with): the
    one split of a head into assignment and username the LMS itself states; `assignments`: the
    "Assignment:" lines of those receipts (one, agreed on, splits heads that have no receipt).
    Without receipts the assignment is the '_' words every head shares.
    `depth`: the wrapper's depth, when a caller knows it (else the folders all paths share).
    """

    def __init__(self, paths: Sequence[str], id_pattern: str | re.Pattern[str] | None = None,
                 submitters: Mapping[str, Submitter] | None = None, depth: int | None = None,
                 usernames: Mapping[str, str] | None = None, assignments: Iterable[str] = ()) -> None:
        self.pattern = re.compile(id_pattern) if isinstance(id_pattern, str) else id_pattern
        self.submitters = dict(submitters or {})
        self.usernames = dict(usernames or {})
        real = [_clean(p) for p in paths if not is_system_path(p)]
        self.depth = wrapper_depth(paths) if depth is None else depth
        plain, self.several = self._students_per_folder(real, [_clean(p) for p in paths])
        sorted_by_section = len(self.several) >= 2 and 2 * len(self.several) > len(plain)
        self.sections = plain if sorted_by_section else frozenset()
        stated = set(assignments)
        self.assignment = stated.pop() if len(stated) == 1 else _blackboard_assignment(
            [blackboard.FILE_NAME.match(p.split("/")[-1]) for p in real if self._lms_named_level(p.split("/"))])
        lms_students, in_folders, others, self.unit_kinds = self._units_beside(
            real + [p for p in (_clean(p) for p in paths if is_system_path(p)) if p.count("/") > self.depth])
        # The class is the LMS's export (then a file the LMS did not name beside its units is the
        # TA's) when at least two of its units are folders the LMS writes (Moodle's, Gradescope's:
        # no student makes a folder beside their classmates'), or when the LMS's units name at least
        # two students and outnumber everything else beside them (file names alone: in a TA's flat
        # folder each student names their own file, so one student's names never make it an export).
        self.lms_export = len(in_folders) >= 2 or (len(lms_students) >= 2 and len(lms_students) > len(others))
        self._units: dict[str, Unit] = {}

    def identify(self, path: str) -> tuple[str, str]:
        """(student id, owner): the owner says which rule named it and from what raw text.

        Names are compared in Unicode NFC: macOS writes Hangul decomposed (NFD), Windows composed.
        """
        if self.pattern is not None:
            match = self.pattern.search(unicodedata.normalize("NFC", path))
            if match:
                return safe_id(_group(match)), f"pattern:{_group(match)}"
        unit = self.unit(path)
        return unit.student, unit.owner

    def about(self, path: str) -> About:
        """What the LMS's naming says besides the id: {"name", "time", "late"} ("" / False when silent).

        "time" is an ISO 8601 submission time the LMS wrote (Blackboard's attempt name,
        Gradescope's metadata), never a file's modification time, and never a name inside a unit.
        """
        if self.pattern is not None and self.pattern.search(unicodedata.normalize("NFC", path)):
            return {"name": "", "time": "", "late": False}
        unit = self.unit(path)
        return {"name": unit.name, "time": unit.time, "late": unit.late}

    def metadata_kind(self, path: str) -> str:
        """Which LMS metadata file this is ("Blackboard receipt", ...), or "" for a submission.

        Only where the LMS writes them: a receipt or Gradescope's list beside the units, Moodle's
        online text as its own unit; a file of that name inside a student's unit is theirs.
        """
        parts = _clean(path).split("/")
        if parts[self.depth:] == [gradescope.METADATA]:
            return "Gradescope submission list"
        unit = self.unit(path)
        if unit.kind in ("moodle folder", "moodle") and unit.plugin.lower() == "onlinetext":
            return "Moodle online text"
        if unit.kind == "blackboard" and blackboard.RECEIPT_NAME.match(parts[-1]):
            return "Blackboard receipt"
        return ""

    def stray(self, path: str) -> Said | None:
        """For a file the LMS did not name, beside the LMS's own units of a class that is an LMS's
        export (a grade sheet, the TA's notes, in any language): what it is, for the report; else None.

        Such a file is the TA's, never a student's: every student of an export is one of its units,
        and a student's own files are inside their unit or carry their prefix. `--id-pattern`, the
        TA's own rule, names a file it matches whatever this says. The caller (collect.group_students)
        asks only for files that cannot be graded: a .py, .ipynb or .zip stays a student's, so a
        student's file a TA added by hand is never lost."""
        if not self.lms_export or is_system_path(path):
            return None
        if self.pattern is not None and self.pattern.search(unicodedata.normalize("NFC", path)):
            return None
        parts = _clean(path).split("/")
        if not self._lms_named_level(parts) or parts[self.depth:] == [gradescope.METADATA]:
            return None
        if self._from_file_name(parts[-1]) is not None:
            return None
        units = [said("unit_" + re.sub(r"[^a-z]+", "_", kind.lower()).strip("_"), "report") for kind in self.unit_kinds]
        listed = units[-1] if units else said("unit_units", "report")
        for unit in reversed(units[:-1]):
            listed = said("unit_and", "report", first=unit, rest=listed)
        return said("stray_file", "report", units=listed)

    def lookalike(self, path: str) -> str:
        """For a file inside a student's unit folder whose name (or a folder on its way) looks like
        another student's LMS upload: what it looks like ("canvas bob_10001"); else ""."""
        if self.pattern is not None and self.pattern.search(unicodedata.normalize("NFC", path)):
            return ""
        unit = self.unit(path)
        if not unit.folder:
            return ""
        parts = _clean(path).split("/")
        for part in parts[self.depth + 1:-1]:
            match = moodle.FOLDER.match(part)
            if match and not _same_student(unit, match["id"], match["name"]):
                return f"moodle folder {match['name']}_{match['id']}"
        named = self._from_file_name(parts[-1])
        if named is not None and not _same_student(unit, named[1], named[3].get("name", "")):
            return f"{named[0]} {named[2]}"
        return ""

    def unit(self, path: str) -> Unit:
        """The Unit `path` belongs to."""
        unit = self._units.get(path)
        if unit is None:
            unit = self._units[path] = self._unit(_clean(path).split("/"))
        return unit

    def _unit(self, parts: list[str]) -> Unit:
        depth = self.depth
        for index, part in enumerate(parts[:min(depth + 1, len(parts) - 1)]):
            match = moodle.FOLDER.match(part)
            if match:
                return _moodle_folder(match)
        if len(parts) <= depth + 1:
            return self._file_unit(parts)
        top = parts[depth]
        wrapper = "/".join(parts[:depth + 1])
        submitter = self.submitters.get(top)
        if submitter is not None:
            if submitter.sid:
                return Unit(student=safe_id(submitter.sid), owner=f"gradescope:{wrapper}", kind="gradescope",
                            folder=True, name=submitter.name, time=submitter.created_at)
            return Unit(student=safe_id(top), owner=f"folder:{wrapper}", kind="gradescope", folder=True,
                        name=submitter.name, time=submitter.created_at)
        if top in self.sections:
            if len(parts) == depth + 2 and self._from_file_name(parts[-1]) is not None:
                return self._file_unit(parts)
            match = moodle.FOLDER.match(parts[depth + 1]) if len(parts) > depth + 2 else None
            if match:
                return _moodle_folder(match)
        return Unit(student=safe_id(top), owner=f"folder:{wrapper}", kind="folder", folder=True)

    def _file_unit(self, parts: list[str]) -> Unit:
        """A file the LMS named (its prefix names the student), else one named by its name."""
        folder = "/".join(parts[:-1])
        named = self._from_file_name(parts[-1])
        if named is None:
            stem = os.path.splitext(parts[-1])[0]
            return Unit(student=safe_id(stem), owner=f"file name:{folder}/{stem}", kind="file name", folder=False)
        rule, student, raw, about = named
        return Unit(student=safe_id(student), owner=f"{rule}:{folder}/{raw}", kind=rule, folder=False,
                    name=about.get("name", ""), time=about.get("time", ""), late=about.get("late", False),
                    plugin=about.get("plugin", ""))

    def _lms_named_level(self, parts: list[str]) -> bool:
        """True where the LMS writes the names of files: beside the units, or in a section folder."""
        return len(parts) == self.depth + 1 or (len(parts) == self.depth + 2 and parts[self.depth] in self.sections)

    def _units_beside(self, paths: list[str]) -> tuple[set[_Key], set[_Key], set[_Key], list[str]]:
        """({students the LMS's own units name}, {those of them in the LMS's own folders}, {other files
        and folders beside them}, [kinds of those units]), at the levels where the LMS writes names:
        below the wrapper, and in section folders. A student is counted once however many files the
        LMS named for them. `paths`: the class's paths without system files, and those of system files
        inside folders (a unit that holds only a `.DS_Store` is still a unit)."""
        students: set[_Key] = set()
        in_folders: set[_Key] = set()
        others: set[_Key] = set()
        kinds: set[str] = set()

        def by_name(name: str, where: str) -> None:
            if is_system_path(name):
                return
            named = self._from_file_name(name)
            if named is None:
                others.add(("file", where))
            else:
                students.add(("id", named[1]))
                kinds.add(f"{named[0].capitalize()} file names")

        for path in paths:
            parts = path.split("/")
            if len(parts) <= self.depth:
                continue
            top = parts[self.depth]
            moodle_folder = moodle.FOLDER.match(top)
            if len(parts) == self.depth + 1:
                if top != gradescope.METADATA:
                    by_name(top, top)
            elif moodle_folder:
                students.add(("id", moodle_folder["id"]))
                in_folders.add(("id", moodle_folder["id"]))
                kinds.add("Moodle folders")
            elif gradescope.FOLDER.match(top) or top in self.submitters:
                students.add(("gradescope", top))
                in_folders.add(("gradescope", top))
                kinds.add("Gradescope submission folders")
            elif top in self.sections:
                inner = moodle.FOLDER.match(parts[self.depth + 1]) if len(parts) > self.depth + 2 else None
                if len(parts) == self.depth + 2:
                    by_name(parts[-1], "/".join(parts[self.depth:]))
                elif inner:
                    students.add(("id", inner["id"]))
                    in_folders.add(("id", inner["id"]))
                    kinds.add("Moodle folders")
                else:
                    others.add(("folder", "/".join(parts[self.depth:self.depth + 2])))
            else:
                others.add(("folder", top))
        return students, in_folders, others, sorted(kinds)

    def _students_per_folder(self, real: list[str], everything: list[str]) -> tuple[frozenset[str], dict[str, int]]:
        """(every folder below the wrapper but Moodle's and Gradescope's own, {such a folder: how many
        students} for those that directly hold LMS-named files or Moodle folders of two or more).

        `everything`: the paths with system files too, so that a student's folder holding only a
        `.DS_Store` still counts among the folders (it is a student's). Students are told apart by
        the id their names give: a Canvas and a Moodle name of one id are one student."""
        plain: set[str] = set()
        students: dict[str, set[str]] = {}
        for path in everything:
            parts = path.split("/")
            if len(parts) >= self.depth + 2 and not self._lms_folder(parts[self.depth]):
                plain.add(parts[self.depth])
        for path in real:
            parts = path.split("/")
            if len(parts) < self.depth + 2 or self._lms_folder(parts[self.depth]):
                continue
            top = parts[self.depth]
            if len(parts) == self.depth + 2:
                named = self._from_file_name(parts[-1], split_blackboard=False)
                if named is not None:
                    students.setdefault(top, set()).add(named[1])
            else:
                match = moodle.FOLDER.match(parts[self.depth + 1])
                if match:
                    students.setdefault(top, set()).add(match["id"])
        return frozenset(plain), {top: len(found) for top, found in sorted(students.items()) if len(found) > 1}

    def _lms_folder(self, name: str) -> bool:
        """Moodle's and Gradescope's own folders: units by their names, never section folders."""
        return bool(moodle.FOLDER.match(name) or gradescope.FOLDER.match(name)) or name in self.submitters

    def _from_file_name(self, name: str, split_blackboard: bool = True) -> tuple[str, str, str, _Said] | None:
        """(rule, student, raw owner, about) of the LMS prefix of a file name that ends first, or None."""
        found: list[tuple[int, str, str, str, _Said]] = []
        match = canvas.FILE_NAME.match(name)
        if match:
            found.append((match.start("original"), "canvas", match["id"], f"{match['name']}_{match['id']}",
                          {"name": match["name"], "late": bool(match["late"])}))
        match = moodle.FILE_PREFIX.match(name)
        if match:
            found.append((match.end(), "moodle", match["id"], f"{match['name']}_{match['id']}",
                          {"name": match["name"].strip(), "plugin": match["plugin"]}))
        match = blackboard.FILE_NAME.match(name)
        if match:
            user = self._blackboard_user(match["head"]) if split_blackboard else match["head"]
            found.append((match.end("date"), "blackboard", user, match["head"],
                          {"time": blackboard_time(match["date"])}))
        if not found:
            return None
        _, rule, student, raw, about = min(found, key=lambda f: f[0])
        return rule, student, raw, about

    def _blackboard_user(self, head: str) -> str:
        if head in self.usernames:
            return self.usernames[head]
        if self.assignment and head.startswith(self.assignment + "_") and len(head) > len(self.assignment) + 1:
            return head[len(self.assignment) + 1:]
        return _blackboard_split(head)


def _moodle_folder(match: re.Match[str]) -> Unit:
    return Unit(student=safe_id(match["id"]), owner=f"moodle folder:{match['name']}_{match['id']}",
                kind="moodle folder", folder=True, name=match["name"].strip(), plugin=match["plugin"])


def _same_student(unit: Unit, student: str, name: str) -> bool:
    """Whether an LMS-looking name inside a unit names the unit's own student (a TA who sorted a
    student's downloads into their folder keeps the LMS's names)."""
    ours = {unit.student.casefold(), unit.name.casefold()} - {""}
    return bool(ours & {safe_id(student).casefold(), name.strip().casefold()} - {""})


def blackboard_time(stamp: str) -> str:
    """"2024-03-01-12-30-45" (Blackboard's attempt name) as ISO 8601 "2024-03-01T12:30:45"."""
    date = stamp[:10]
    return f"{date}T{stamp[11:13]}:{stamp[14:16]}:{stamp[17:19]}"


def _blackboard_split(head: str) -> str:
    """Username from "assignment_username" alone: usernames have no spaces; else the first '_'."""
    space = head.rfind(" ")
    cut = head.find("_", space + 1)
    return head[cut + 1:] if 0 <= cut < len(head) - 1 else head


def _blackboard_assignment(matches: Iterable[re.Match[str] | None]) -> str:
    """The assignment name every Blackboard file of the class starts with, "" when unknown.

    Heads with a space are split after it (usernames have none); otherwise the '_'-separated
    words all heads share, leaving each at least one word of username.
    """
    heads = sorted({m["head"] for m in matches if m})
    if len(heads) < 2 or any(" " in head for head in heads):
        return ""
    words = [head.split("_") for head in heads]
    shared = 0
    while all(len(w) > shared + 1 for w in words) and len({w[shared] for w in words}) == 1:
        shared += 1
    return "_".join(words[0][:shared])


def _clean(path: str) -> str:
    return _without_system_dirs(unicodedata.normalize("NFC", path))


def _without_system_dirs(path: str) -> str:
    """The path as it names its student: no system folders, no empty, '.' or '..' parts."""
    return "/".join(part for part in path.split("/") if part not in SYSTEM_DIRS and part not in ("", ".", ".."))


def student_id(path: str, depth: int, id_pattern: str | re.Pattern[str] | None = None) -> str:
    """The student a file belongs to when it is alone (tests and tools); see Naming."""
    return Naming([path], id_pattern, depth=depth).identify(path)[0]


def _group(match: re.Match[str]) -> str:
    if "id" in match.re.groupindex and match["id"]:
        return match["id"]
    if match.re.groups and match.group(1):
        return match.group(1)
    return match.group(0)


def safe_id(text: str) -> str:
    """Letters (any script, NFC), digits, '.', '-' and '_' only, so the id can name files; see fit_id."""
    cleaned = re.sub(r"[^\w.\-]+", "_", unicodedata.normalize("NFC", text), flags=re.UNICODE).strip("._")
    return fit_id(cleaned or "unnamed")


def wrapper_depth(paths: Sequence[str]) -> int:
    """How many leading folders are the class's wrapper: those all files share (system files aside),
    but never a folder that only some files are in, system files included.

    A student's unit that holds only what an operating system left (a `.DS_Store`) is still a
    unit: the wrapper never reaches into a classmate's folder because of it. A system file
    directly at the top (a TA's `.DS_Store` beside the wrapper folder) does not count.
    """
    cleaned = [(_clean(p), is_system_path(p)) for p in paths]
    real = [path for path, system in cleaned if not system]
    if not real:  # nothing but system files: their folders, without the system parts, still name the units
        return shared_depth([path for path, _ in cleaned])
    depth = shared_depth(real)
    wrapper = real[0].split("/")[:depth]
    for path, system in cleaned:
        folders = path.split("/")[:-1]
        if system and folders:
            shared = 0
            while shared < min(depth, len(folders)) and folders[shared] == wrapper[shared]:
                shared += 1
            depth = shared
    return depth


def shared_depth(paths: Sequence[str]) -> int:
    """How many leading folders all paths share (a zip's wrapper folder).

    A folder Moodle or Gradescope writes for one student is a unit, never a wrapper, even when it
    is the only one (a class of one).
    """
    folders = [p.split("/")[:-1] for p in paths]
    if not folders:
        return 0
    depth = 0
    while all(len(f) > depth for f in folders) and len({f[depth] for f in folders}) == 1:
        if moodle.FOLDER.match(folders[0][depth]) or gradescope.FOLDER.match(folders[0][depth]):
            break
        depth += 1
    return depth


def is_system_path(path: str) -> bool:
    """A file an operating system or editor left (in __MACOSX/, a ._ resource fork, .DS_Store, ...)."""
    parts = path.split("/")
    return bool(SYSTEM_DIRS.intersection(parts[:-1])) or parts[-1] in SYSTEM_FILES or parts[-1].startswith("._")
