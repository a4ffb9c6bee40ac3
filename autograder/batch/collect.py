"""Finding a class's submissions in a folder or an LMS .zip export, and whose each one is.

Pure bookkeeping: names, dates and sizes in, one Entry per file out. Reading bytes happens
through Source.read, so a class of any size is never held in memory at once.
"""
import os
import re
import time
import zipfile
from dataclasses import dataclass, field

GRADABLE = (".py", ".ipynb")
# Left by operating systems and editors, never by the student on purpose.
SYSTEM_DIRS = {"__MACOSX", ".ipynb_checkpoints", "__pycache__", ".git"}
SYSTEM_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}

# Moodle: "Full Name_123456_assignsubmission_file_" (a folder, or a prefix of the file name).
MOODLE = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z]+_", re.I)
# Canvas: "lastfirst_12345_67890_attention.ipynb", late ones "lastfirst_LATE_12345_67890_...".
CANVAS = re.compile(r"^(?P<name>[^_/]+?)(?:_late)?_(?P<id>\d+)_(?P<file_id>\d+)_(?P<original>.+)$", re.I)
# Blackboard: "Lab 1_jdoe_attempt_2024-03-01-12-30-45_attention.py".
BLACKBOARD = re.compile(r"^(?P<assignment>.+?)_(?P<id>[^_]+)_attempt_\d{4}(?:-\d{2}){5}(?:_(?P<original>.+))?$")


@dataclass(frozen=True)
class Entry:
    """One input file: where it is, whose it is, when it was saved."""

    path: str  # relative to the class root, with "/" separators
    student: str  # file-name-safe student id
    stamp: float  # modification time (zip entry date_time or file mtime), seconds
    size: int
    member: str = ""  # the zip member name, for zip exports

    @property
    def gradable(self):
        return self.path.lower().endswith(GRADABLE)

    @property
    def system_file(self):
        parts = self.path.split("/")
        return bool(SYSTEM_DIRS.intersection(parts[:-1])) or parts[-1] in SYSTEM_FILES \
            or parts[-1].startswith("._")


@dataclass
class Student:
    """A student's files: the one that counts and the ones it supersedes."""

    id: str
    chosen: Entry
    superseded: list = field(default_factory=list)  # [Entry], newest first
    ignored: list = field(default_factory=list)  # [(Entry, reason)]


class Source:
    """A folder or a .zip of submissions."""

    def __init__(self, location):
        self.location = os.fspath(location)
        self._zip = None
        if os.path.isdir(self.location):
            self.kind = "folder"
        elif zipfile.is_zipfile(self.location):
            self.kind = "zip"
            self._zip = zipfile.ZipFile(self.location)
        else:
            raise SystemExit(f"autograder: {self.location} is neither a folder nor a .zip file")

    def close(self):
        if self._zip is not None:
            self._zip.close()

    def files(self):
        """(relative path, mtime, size, zip member) of every file, sorted by path."""
        if self.kind == "zip":
            found = [(_member_name(info), time.mktime(info.date_time + (0, 0, -1)), info.file_size,
                      info.filename) for info in self._zip.infolist() if not info.is_dir()]
        else:
            found = []
            for folder, dirs, names in os.walk(self.location):
                dirs.sort()
                for name in names:
                    full = os.path.join(folder, name)
                    try:
                        stat = os.stat(full)
                    except OSError:
                        stat = None
                    relative = os.path.relpath(full, self.location).replace(os.sep, "/")
                    found.append((relative, stat.st_mtime if stat else 0.0, stat.st_size if stat else 0, ""))
        return sorted(found)

    def read(self, entry):
        """The file's bytes; OSError (or zipfile's errors, as OSError) when it cannot be read."""
        if self.kind == "zip":
            try:
                return self._zip.read(entry.member)
            except (zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError, ValueError) as error:
                raise OSError(str(error)) from error
        with open(os.path.join(self.location, entry.path), "rb") as handle:
            return handle.read()


def _member_name(info):
    """Zip names from Korean Windows are often cp949 without the UTF-8 flag; undo the cp437 guess.

    Some Windows tools also write backslashes as separators.
    """
    name = info.filename
    if not info.flag_bits & 0x800:
        try:
            raw = name.encode("cp437")
        except UnicodeEncodeError:
            raw = None
        for encoding in ("utf-8", "cp949") if raw is not None else ():
            try:
                name = raw.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
    return name.replace("\\", "/")


def student_id(path, depth, id_pattern=None):
    """The student a file belongs to, from its path relative to the class root.

    `depth` is how many leading folders every file shares (an export's wrapper folder).
    Order: --id-pattern, a Moodle folder or prefix, the student's own folder (below the wrapper),
    Canvas and Blackboard file names, then the file name without its extension.
    """
    if id_pattern is not None:
        match = id_pattern.search(path)
        if match:
            return safe_id(_group(match))
    parts = path.split("/")
    for part in parts:
        match = MOODLE.match(part)
        if match:
            return safe_id(match["id"])
    inner = parts[depth:]
    if len(inner) > 1:
        return safe_id(inner[0])
    name = parts[-1]
    for pattern in (CANVAS, BLACKBOARD):
        match = pattern.match(name)
        if match:
            return safe_id(match["id"])
    return safe_id(os.path.splitext(name)[0])


def _group(match):
    if "id" in match.re.groupindex and match["id"]:
        return match["id"]
    if match.re.groups and match.group(1):
        return match.group(1)
    return match.group(0)


def safe_id(text):
    """Keep letters (any script), digits, '.', '-' and '_' so the id can name files."""
    cleaned = re.sub(r"[^\w.\-]+", "_", text, flags=re.UNICODE).strip("._")
    return cleaned or "unnamed"


def shared_depth(paths):
    """How many leading folders all paths share (a zip's wrapper folder)."""
    folders = [p.split("/")[:-1] for p in paths]
    if not folders:
        return 0
    depth = 0
    while all(len(f) > depth for f in folders) and len({f[depth] for f in folders}) == 1:
        depth += 1
    return depth


def newest_first(entries):
    """Newest modification time first; on a tie the later name in natural order wins (a-10 over a-2)."""
    return sorted(entries, key=lambda e: (e.stamp, _natural(os.path.splitext(e.path)[0]), e.path), reverse=True)


def _natural(text):
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text)]


def group_students(source, id_pattern=None):
    """Every file of the class, grouped by student, the newest gradable one chosen."""
    files = source.files()
    pattern = re.compile(id_pattern) if id_pattern else None
    real = [f for f in files if not _is_system(f[0])]
    depth = shared_depth([f[0] for f in real])
    by_student = {}
    for path, stamp, size, member in files:
        entry = Entry(path, student_id(path, depth, pattern), stamp, size, member)
        by_student.setdefault(entry.student, []).append(entry)
    students = []
    for student, entries in sorted(by_student.items()):
        candidates = newest_first([e for e in entries if e.gradable and not e.system_file])
        others = [e for e in entries if not (e.gradable and not e.system_file)]
        if not candidates:
            # Nothing gradable: the newest other file stands for the student, graded as unreadable.
            useful = newest_first([e for e in others if not e.system_file]) or newest_first(others)
            candidates, others = useful[:1], [e for e in others if e is not useful[0]]
        ignored = [(e, "system_file" if e.system_file else "not_gradable") for e in others]
        students.append(Student(student, candidates[0], candidates[1:], ignored))
    return students


def _is_system(path):
    return Entry(path, "", 0.0, 0).system_file
