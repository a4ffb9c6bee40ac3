"""Whose file is whose: student ids from the names an LMS (or a TA) gave the class's files.

Pure text work on paths relative to the class root ("/" separators).
"""
import os
import re
import unicodedata

# Left by operating systems and editors, never by the student on purpose.
SYSTEM_DIRS = {"__MACOSX", ".ipynb_checkpoints", "__pycache__", ".git"}
SYSTEM_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}

# Moodle's own folder per student: "Full Name_123456_assignsubmission_file_" (the whole part).
MOODLE_FOLDER = re.compile(r"^(?P<name>.+)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z]+_?$", re.I)
# Moodle's prefix of a file name: "Full Name_123456_assignsubmission_file_attention.py".
MOODLE_PREFIX = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z]+_", re.I)
# Canvas: "lastfirst_12345_67890_attention.ipynb", late ones "lastfirst_LATE_12345_67890_...".
CANVAS = re.compile(r"^(?P<name>[^_/]+?)(?:_late)?_(?P<id>\d+)_(?P<file_id>\d+)_(?P<original>.+)$", re.I)
# Blackboard: "Lab 1_jdoe_attempt_2024-03-01-12-30-45_attention.py" (head = assignment_username).
BLACKBOARD = re.compile(r"^(?P<head>.+?)_attempt_(?P<date>\d{4}(?:-\d{2}){5})(?:[_.].*)?$")


class Naming:
    """Whose each file is, from its path; built from the whole class.

    Only the parts an LMS writes name the student: Moodle's folder (the outermost folder, never
    one inside it), the prefix of a Canvas, Blackboard or Moodle file name (when several rules
    match, the one whose prefix ends first: the student's own file name comes after it), then
    the student's folder below a shared wrapper, then the file name. --id-pattern comes first.

    Folders below the wrapper are either the students' own (a TA's layout: the folder names the
    student, whatever the files inside are called) or groups of LMS-named files (section
    folders): when any of them holds LMS names of two students, all of them are groups.
    """

    def __init__(self, paths, id_pattern=None):
        self.pattern = re.compile(id_pattern) if isinstance(id_pattern, str) else id_pattern
        real = [_without_system_dirs(unicodedata.normalize("NFC", p)) for p in paths if not is_system_path(p)]
        self.depth = shared_depth(real)
        self.assignment = _blackboard_assignment([BLACKBOARD.match(p.split("/")[-1]) for p in real])
        owners = {}
        for path in real:
            parts = path.split("/")
            named = self._from_file_name(parts[-1]) if len(parts) - self.depth > 1 else None
            if named is not None:
                owners.setdefault(parts[self.depth], set()).add(named[2])
        self.grouping_folders = any(len(names) > 1 for names in owners.values())

    def identify(self, path):
        """(student id, owner): the owner says which rule named it and from what raw text.

        Names are compared in Unicode NFC: macOS writes Hangul decomposed (NFD), Windows composed.
        """
        path = unicodedata.normalize("NFC", path)
        if self.pattern is not None:
            match = self.pattern.search(path)
            if match:
                return safe_id(_group(match)), f"pattern:{_group(match)}"
        parts = _without_system_dirs(path).split("/")
        for part in parts[:min(self.depth + 1, len(parts) - 1)]:
            match = MOODLE_FOLDER.match(part)
            if match:
                return safe_id(match["id"]), f"moodle folder:{part}"
        folder = "/".join(parts[:-1])
        inner = parts[self.depth:]
        named = self._from_file_name(parts[-1]) if len(inner) == 1 or self.grouping_folders else None
        if named is not None:
            rule, student, raw = named
            return safe_id(student), f"{rule}:{folder}/{raw}"
        if len(inner) > 1:
            return safe_id(inner[0]), f"folder:{'/'.join(parts[:self.depth + 1])}"
        stem = os.path.splitext(parts[-1])[0]
        return safe_id(stem), f"file name:{folder}/{stem}"

    def _from_file_name(self, name):
        """(rule, student, raw owner) of the LMS prefix of a file name that ends first, or None."""
        found = []
        match = CANVAS.match(name)
        if match:
            found.append((match.start("original"), "canvas", match["id"], f"{match['name']}_{match['id']}"))
        match = MOODLE_PREFIX.match(name)
        if match:
            found.append((match.end(), "moodle", match["id"], f"{match['name']}_{match['id']}"))
        match = BLACKBOARD.match(name)
        if match:
            found.append((match.end("date"), "blackboard", self._blackboard_user(match["head"]), match["head"]))
        if not found:
            return None
        _, rule, student, raw = min(found)
        return rule, student, raw

    def _blackboard_user(self, head):
        if self.assignment and head.startswith(self.assignment + "_") and len(head) > len(self.assignment) + 1:
            return head[len(self.assignment) + 1:]
        return _blackboard_split(head)


def _blackboard_split(head):
    """Username from "assignment_username" alone: usernames have no spaces; else the first '_'."""
    space = head.rfind(" ")
    cut = head.find("_", space + 1)
    return head[cut + 1:] if 0 <= cut < len(head) - 1 else head


def _blackboard_assignment(matches):
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


def _without_system_dirs(path):
    """The path as it names its student: no system folders, no empty, '.' or '..' parts."""
    return "/".join(part for part in path.split("/") if part not in SYSTEM_DIRS and part not in ("", ".", ".."))


def student_id(path, depth, id_pattern=None):
    """The student a file belongs to when it is alone (tests and tools); see Naming."""
    naming = Naming([path], id_pattern)
    naming.depth = depth
    return naming.identify(path)[0]


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




def is_system_path(path):
    """A file an operating system or editor left (in __MACOSX/, a ._ resource fork, .DS_Store, ...)."""
    parts = path.split("/")
    return bool(SYSTEM_DIRS.intersection(parts[:-1])) or parts[-1] in SYSTEM_FILES or parts[-1].startswith("._")
