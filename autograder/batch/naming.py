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
MOODLE_FOLDER = re.compile(r"^(?P<name>.+)_(?P<id>\d+)_assign(?:submission|feedback)_(?P<plugin>[a-z]+)_?$", re.I)
# Moodle's prefix of a file name: "Full Name_123456_assignsubmission_file_attention.py".
MOODLE_PREFIX = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?:submission|feedback)_(?P<plugin>[a-z]+)_", re.I)
# Canvas: "lastfirst_12345_67890_attention.ipynb", late ones "lastfirst_LATE_12345_67890_...".
CANVAS = re.compile(r"^(?P<name>[^_/]+?)(?P<late>_late)?_(?P<id>\d+)_(?P<file_id>\d+)_(?P<original>.+)$", re.I)
# Blackboard: "Lab 1_jdoe_attempt_2024-03-01-12-30-45_attention.py" (head = assignment_username).
BLACKBOARD = re.compile(r"^(?P<head>.+?)_attempt_(?P<date>\d{4}(?:-\d{2}){5})(?:[_.].*)?$")
# Blackboard's receipt of an attempt: the attempt's name and ".txt", nothing of the student's after it.
BLACKBOARD_RECEIPT = re.compile(r"^(?P<head>.+?)_attempt_(?P<date>\d{4}(?:-\d{2}){5})\.txt$")
# Gradescope's list of submissions and their submitters, beside the submission_<id>/ folders.
GRADESCOPE_METADATA = "submission_metadata.yml"
GRADESCOPE_FOLDER = re.compile(r"^submission_(?P<id>\d+)$")


class Naming:
    """Whose each file is, from its path; built from the whole class.

    Only the parts an LMS writes name the student: Moodle's folder (the outermost folder, never
    one inside it), the prefix of a Canvas, Blackboard or Moodle file name (when several rules
    match, the one whose prefix ends first: the student's own file name comes after it), then
    the student's folder below a shared wrapper (or the student Gradescope's metadata names for
    that folder), then the file name. --id-pattern comes first.

    Folders below the wrapper are either the students' own (a TA's layout: the folder names the
    student, whatever the files inside are called) or groups of LMS-named files (section
    folders): when any of them holds LMS names of two students, all of them are groups.

    `submitters`: {"submission_<n>" folder: Submitter} from Gradescope's submission_metadata.yml.
    """

    def __init__(self, paths, id_pattern=None, submitters=None):
        self.pattern = re.compile(id_pattern) if isinstance(id_pattern, str) else id_pattern
        self.submitters = dict(submitters or {})
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
        student, owner, _ = self._identify(path)
        return student, owner

    def about(self, path):
        """What the LMS's naming says besides the id: {"name", "time", "late"} ("" / False when silent).

        "time" is an ISO 8601 submission time the LMS wrote (Blackboard's attempt name,
        Gradescope's metadata), never a file's modification time.
        """
        return self._identify(path)[2]

    def metadata_kind(self, path):
        """Which LMS metadata file this is ("Blackboard receipt", ...), or "" for a submission."""
        parts = _without_system_dirs(unicodedata.normalize("NFC", path)).split("/")
        named = self._from_file_name(parts[-1])
        if named is not None and named[0] == "blackboard" and BLACKBOARD_RECEIPT.match(parts[-1]):
            return "Blackboard receipt"
        if parts[self.depth:] == [GRADESCOPE_METADATA]:
            return "Gradescope submission list"
        for part in parts[:min(self.depth + 1, len(parts) - 1)]:
            match = MOODLE_FOLDER.match(part)
            if match:
                return "Moodle online text" if match["plugin"].lower() == "onlinetext" else ""
        if named is not None and named[0] == "moodle" and named[3].get("plugin", "").lower() == "onlinetext":
            return "Moodle online text"
        return ""

    def _identify(self, path):
        path = unicodedata.normalize("NFC", path)
        silent = {"name": "", "time": "", "late": False}
        if self.pattern is not None:
            match = self.pattern.search(path)
            if match:
                return safe_id(_group(match)), f"pattern:{_group(match)}", silent
        parts = _without_system_dirs(path).split("/")
        for part in parts[:min(self.depth + 1, len(parts) - 1)]:
            match = MOODLE_FOLDER.match(part)
            if match:
                return (safe_id(match["id"]), f"moodle folder:{match['name']}_{match['id']}",
                        {**silent, "name": match["name"].strip()})
        folder = "/".join(parts[:-1])
        inner = parts[self.depth:]
        named = self._from_file_name(parts[-1]) if len(inner) == 1 or self.grouping_folders else None
        if named is not None:
            rule, student, raw, about = named
            about = {key: value for key, value in about.items() if key in silent}
            return safe_id(student), f"{rule}:{folder}/{raw}", {**silent, **about}
        if len(inner) > 1:
            submitter = self.submitters.get(inner[0])
            if submitter is not None and submitter.sid:
                return (safe_id(submitter.sid), f"gradescope:{'/'.join(parts[:self.depth + 1])}",
                        {**silent, "name": submitter.name, "time": submitter.created_at})
            about = {**silent, "name": submitter.name, "time": submitter.created_at} if submitter else silent
            return safe_id(inner[0]), f"folder:{'/'.join(parts[:self.depth + 1])}", about
        stem = os.path.splitext(parts[-1])[0]
        return safe_id(stem), f"file name:{folder}/{stem}", silent

    def _from_file_name(self, name):
        """(rule, student, raw owner, about) of the LMS prefix of a file name that ends first, or None."""
        found = []
        match = CANVAS.match(name)
        if match:
            found.append((match.start("original"), "canvas", match["id"], f"{match['name']}_{match['id']}",
                          {"name": match["name"], "late": bool(match["late"])}))
        match = MOODLE_PREFIX.match(name)
        if match:
            found.append((match.end(), "moodle", match["id"], f"{match['name']}_{match['id']}",
                          {"name": match["name"].strip(), "plugin": match["plugin"]}))
        match = BLACKBOARD.match(name)
        if match:
            found.append((match.end("date"), "blackboard", self._blackboard_user(match["head"]), match["head"],
                          {"time": blackboard_time(match["date"])}))
        if not found:
            return None
        _, rule, student, raw, about = min(found, key=lambda f: f[0])
        return rule, student, raw, about

    def _blackboard_user(self, head):
        if self.assignment and head.startswith(self.assignment + "_") and len(head) > len(self.assignment) + 1:
            return head[len(self.assignment) + 1:]
        return _blackboard_split(head)


def blackboard_time(stamp):
    """"2024-03-01-12-30-45" (Blackboard's attempt name) as ISO 8601 "2024-03-01T12:30:45"."""
    date = stamp[:10]
    return f"{date}T{stamp[11:13]}:{stamp[14:16]}:{stamp[17:19]}"


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
