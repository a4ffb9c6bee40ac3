"""An output folder belongs to one run: one lab, one class.

`autograder grade` writes the run's identity into its --out folder when it first fills it
(IDENTITY_FILE: a small typed, versioned record: the lab, the class's source, its students,
when), and every path of `grade` reads the folder through `admit` before anything is written:

- a folder that does not exist or holds nothing is new: the run is admitted; so is one holding only
  the TA's overrides.csv (the grader's input, put there before the first run; and the
  overrides.state.json the grader writes beside it);
- a run's folder of the same lab and the same class is admitted (a rerun updates its outputs);
- a run's folder of another lab or another class, a folder that is not empty and is no run's (a
  TA's documents), a file, an identity file that cannot be read: refused, with a sentence saying
  which run is there and how to choose another folder. Nothing is written then.

"The same class" (`same_class`): more than half of the students of the run in the folder are
students of this one. A class that gained students (an early run of the first few, then the whole
class), lost a few, or was downloaded again after resubmissions is the same class; another
course's export, which shares a few students at most, is not. The source's path is shown, never
used to decide: Canvas names every export `submissions.zip`, and a TA may unpack the zip they
graded before. The lab decides apart: a run's folder holds one lab.

A folder written by an older autograder (outputs, no identity file: results/ beside grades.csv or
feedback/) is read from its outputs: the lab and ids of results/<id>.json, else of grades.csv. The same `inspect` tells a run's folder met
while collecting a class (source.Source leaves it out of the class: an output folder is never a
submission), without reading the records there.
"""
from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from ..core.render.messages import Messages
from ..core.render.text import printable
from ..said import Refusal, Said, said
from ..core.reading.files import read_regular_file
from .naming import is_system_path
from ..whole_file import write_atomic
from .run_files import UNFINISHED_FILE, run_records

IDENTITY_FILE = "autograder-run.json"
KIND = "autograder grade output folder"
VERSION = 1
MAX_IDENTITY_BYTES = 8 * 1024 * 1024
SAME_CLASS_SHARE = 0.5  # more than this share of the earlier run's students must be in the class
GRADES = "grades.csv"
RESULTS = "results"
FEEDBACK = "feedback"
SHOWN_AT_MOST = 8  # names listed in a sentence
OVERRIDES = "overrides.csv"  # batch.overrides.FILE_NAME: the TA's input a run reads from its folder
# A folder holding only these is new for a first run: the TA's overrides.csv, and the state the
# grader writes beside it when it reads it (batch.overrides.STATE_NAME).
TA_INPUTS = frozenset({OVERRIDES, "overrides.state.json"})


@dataclass(frozen=True, kw_only=True)
class RunIdentity:
    """Which run a folder holds: its lab, the class it graded (source and students), when."""

    lab: str
    source: str  # the folder or .zip the class was graded from, as an absolute path
    students: tuple[str, ...]  # the ids of its students, sorted
    created: str  # ISO 8601 with offset: when the folder was first filled
    graded: str  # ISO 8601 with offset: the last run

    def as_json(self) -> str:
        return json.dumps({"kind": KIND, "version": VERSION, "lab": self.lab, "source": self.source,
                           "students": list(self.students), "created": self.created, "graded": self.graded},
                          ensure_ascii=False, indent=1) + "\n"


# Why an identity file cannot be used: each a key `identity_<problem>` of the catalogs' [run_folder].
Problem = Literal["not_json", "not_ours", "no_version", "wrong_field", "unreadable", "too_large", "newer"]


class IdentityUnreadable(ValueError):
    """An identity file that cannot be read as one: `problem` says why, `detail` what more is known
    (the version a newer autograder wrote, the system's reason)."""

    def __init__(self, problem: Problem, detail: str = "") -> None:
        super().__init__(f"{problem} {detail}".strip())
        self.problem: Problem = problem
        self.detail = detail


def identity_of(data: bytes) -> RunIdentity:
    """The RunIdentity an identity file holds; IdentityUnreadable when it holds none."""
    try:
        said = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise IdentityUnreadable("not_json", type(error).__name__) from None
    if not isinstance(said, dict) or said.get("kind") != KIND:
        raise IdentityUnreadable("not_ours")
    version = said.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise IdentityUnreadable("no_version")
    if version > VERSION:
        raise IdentityUnreadable("newer", str(version))
    texts = {key: said.get(key) for key in ("lab", "source", "created", "graded")}
    students = said.get("students")
    if not all(isinstance(value, str) for value in texts.values()) or not isinstance(students, list) \
            or not all(isinstance(student, str) for student in students):
        raise IdentityUnreadable("wrong_field")
    return RunIdentity(lab=str(texts["lab"]), source=str(texts["source"]), students=tuple(sorted(students)),
                       created=str(texts["created"]), graded=str(texts["graded"]))


# What a folder is, as `inspect` finds it ------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Fresh:
    """No folder there yet, or a folder holding nothing (files an operating system left aside)."""

    exists: bool


@dataclass(frozen=True, kw_only=True)
class Run:
    """A run's folder. `identity` None: a run's outputs whose lab and students cannot be told (an
    older run stopped before its first student); `inferred`: read from the outputs of a folder an
    older autograder wrote, not from an identity file."""

    identity: RunIdentity | None
    inferred: bool


@dataclass(frozen=True, kw_only=True)
class Damaged:
    """An identity file that cannot be used: why (`problem`; "newer": a later autograder wrote it)."""

    problem: Problem
    detail: str = ""


@dataclass(frozen=True, kw_only=True)
class Other:
    """A folder that is not empty and holds no run (a TA's documents): what it holds."""

    entries: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class NotAFolder:
    """Something that is not a folder (a file) at that path."""


Found = Fresh | Run | Damaged | Other | NotAFolder


def inspect(folder: str, *, infer: bool = True) -> Found:
    """What `folder` is for a run: the one reader of a run's identity. `infer`: read the lab and
    students of a folder an older autograder wrote from its outputs (False in a class being
    collected: a run's marks are enough there, its records are never read)."""
    if not os.path.lexists(folder):
        return Fresh(exists=False)
    if not os.path.isdir(folder):
        return NotAFolder()
    try:
        entries = sorted(os.listdir(folder))
    except OSError:
        return Other(entries=())
    return inspect_listing(folder, entries, infer=infer)


def inspect_listing(folder: str, entries: Collection[str], *, infer: bool = True) -> Found:
    """`inspect` for a folder whose entries are already listed."""
    if IDENTITY_FILE in entries:
        try:
            data = read_regular_file(os.path.join(folder, IDENTITY_FILE), follow_links=False,
                                     limit=MAX_IDENTITY_BYTES)
        except OSError as error:
            return Damaged(problem="unreadable", detail=error.strerror or type(error).__name__)
        if len(data) > MAX_IDENTITY_BYTES:
            return Damaged(problem="too_large", detail=str(MAX_IDENTITY_BYTES))
        try:
            return Run(identity=identity_of(data), inferred=False)
        except IdentityUnreadable as unreadable:
            return Damaged(problem=unreadable.problem, detail=unreadable.detail)
    if _has_run_outputs(folder, entries):
        return Run(identity=_inferred(folder) if infer else None, inferred=True)
    kept = sorted(name for name in entries if not is_system_path(name))
    if not kept or set(kept) <= TA_INPUTS and OVERRIDES in kept:
        return Fresh(exists=True)  # nothing, or only the TA's overrides.csv put there for the first run
    return Other(entries=tuple(kept))


SUBMISSION_SUFFIXES = (".py", ".ipynb", ".zip")  # what a run never writes at its folder's top


def marks_a_run(folder: str, entries: Collection[str]) -> bool:
    """Whether a folder met inside a class (never its root) is a run's output folder, left out of
    the class: an identity file that reads as ours (identity_of) together with a run's outputs
    (results/ or feedback/), or an older run's outputs without one; and never a folder holding
    several submission files (.py, .ipynb, .zip) at its top, several students' files, which a run
    never writes there. A student's file named like the identity file, readable or not, marks
    nothing: their files are graded as any others. Left out, a folder costs one student's files at most."""
    if sum(1 for name in entries if name.lower().endswith(SUBMISSION_SUFFIXES)) > 1:
        return False
    if IDENTITY_FILE in entries:
        found = inspect_listing(folder, entries, infer=False)
        outputs = any(name in entries and os.path.isdir(os.path.join(folder, name)) for name in (RESULTS, FEEDBACK))
        return isinstance(found, Run) and not found.inferred and outputs
    return _has_run_outputs(folder, entries)


def _has_run_outputs(folder: str, entries: Collection[str]) -> bool:
    """A run's outputs without an identity file: results/ beside grades.csv as `grade` writes it, or
    beside feedback/ (an older run stopped before it wrote grades.csv)."""
    if RESULTS not in entries or not os.path.isdir(os.path.join(folder, RESULTS)):
        return False
    if FEEDBACK in entries and os.path.isdir(os.path.join(folder, FEEDBACK)):
        return True
    return GRADES in entries and _grades_header(folder)[:3] == ["id", "name", "file"]


def _grades_header(folder: str) -> list[str]:
    rows = _grades_rows(folder, header_only=True)
    return rows[0] if rows else []


def _grades_rows(folder: str, header_only: bool = False) -> list[list[str]]:
    try:
        data = read_regular_file(os.path.join(folder, GRADES), follow_links=False,
                                 limit=4096 if header_only else MAX_IDENTITY_BYTES)
    except OSError:
        return []
    text = data.decode("utf-8-sig", errors="replace")
    lines = text.splitlines()[:1] if header_only else text.splitlines()
    try:
        return list(csv.reader(io.StringIO("\n".join(lines))))
    except csv.Error:
        return []


def _inferred(folder: str) -> RunIdentity | None:
    """The identity of a folder an older autograder wrote: from results/<id>.json, else grades.csv."""
    labs: Counter[str] = Counter()
    students: set[str] = set()
    for record in run_records(folder):
        students.add(record["id"])
        if isinstance(record.get("lab"), str):
            labs[record["lab"]] += 1
    if not labs:
        rows = _grades_rows(folder)
        header = rows[0] if rows else []
        if "id" in header and "lab" in header:
            at_id, at_lab = header.index("id"), header.index("lab")
            for row in rows[1:]:
                if len(row) > max(at_id, at_lab) and row[at_id] and row[at_lab]:
                    students.add(row[at_id].removeprefix("'"))
                    labs[row[at_lab]] += 1
    if not labs:
        return None
    when = _modified(os.path.join(folder, GRADES)) or _modified(os.path.join(folder, RESULTS))
    return RunIdentity(lab=labs.most_common(1)[0][0], source="", students=tuple(sorted(students)),
                       created=when, graded=when)


def _modified(path: str) -> str:
    try:
        return datetime.fromtimestamp(os.stat(path).st_mtime).astimezone().isoformat(timespec="seconds")
    except (OSError, OverflowError, ValueError):
        return ""


# The rule ------------------------------------------------------------------------------------------

def same_class(earlier: Collection[str], now: Collection[str]) -> bool:
    """Whether a class with students `now` is the class an earlier run graded (`earlier`): more
    than SAME_CLASS_SHARE of the earlier run's students are in it. An earlier run whose students
    are not known is taken for it."""
    if not earlier:
        return True
    kept = len(set(earlier) & set(now))
    return kept > SAME_CLASS_SHARE * len(set(earlier))


Verdict = Literal["new", "same", "other_lab", "other_class", "not_a_run", "damaged", "newer", "not_a_folder"]


def verdict(found: Found, *, lab: str, students: Collection[str]) -> Verdict:
    """Whether a run of `lab` over `students` may write into a folder found so (pure)."""
    if isinstance(found, Fresh):
        return "new"
    if isinstance(found, NotAFolder):
        return "not_a_folder"
    if isinstance(found, Other):
        return "not_a_run"
    if isinstance(found, Damaged):
        return "newer" if found.problem == "newer" else "damaged"
    if found.identity is None:
        return "same"  # an older run's outputs that name no lab nor student: nothing to tell apart
    if found.identity.lab != lab:
        return "other_lab"
    return "same" if same_class(found.identity.students, students) else "other_class"


# The edge: what `grade` calls ----------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Admitted:
    """A run allowed to write into `folder`, and the identity it writes there (`record`)."""

    folder: str
    identity: RunIdentity


def admit(out: str, *, lab: str, students: Sequence[str], source: str) -> Admitted:
    """The run's claim on `out`, checked before anything is written; a Refusal when the folder
    belongs to another run or to no run."""
    found = inspect(out)
    kind = verdict(found, lab=lab, students=students)
    if kind not in ("new", "same"):
        raise Refusal(refusal(out, kind, found, lab=lab, students=students, source=source))
    now = datetime.now().astimezone().isoformat(timespec="seconds")
    identity = RunIdentity(lab=lab, source=os.path.abspath(source), students=tuple(sorted(set(students))),
                           created=now, graded=now)
    earlier = found.identity if isinstance(found, Run) else None
    if earlier is not None and earlier.created:
        identity = replace(identity, created=earlier.created)
    return Admitted(folder=out, identity=identity)


def record(admitted: Admitted) -> None:
    """Write the run's identity into its folder (the folder exists by now)."""
    write_atomic(os.path.join(admitted.folder, IDENTITY_FILE), admitted.identity.as_json())


def refusal(out: str, kind: Verdict, found: Found, *, lab: str, students: Collection[str], source: str) -> Said:
    """The sentence for a folder a run may not write into: which run is there, and what to do."""
    folder = os.path.normpath(out)
    suggestion = other_folder(folder, _class_name(source) if kind == "other_class" else lab)
    if kind == "not_a_folder":
        text = said("not_a_folder", "run_folder", folder=folder, suggestion=suggestion)
    elif kind in ("damaged", "newer"):
        assert isinstance(found, Damaged)
        problem = said(f"identity_{found.problem}", "run_folder", detail=found.detail)
        text = said(kind, "run_folder", folder=folder, identity=IDENTITY_FILE, problem=problem,
                    suggestion=suggestion)
    elif kind == "not_a_run":
        assert isinstance(found, Other)
        shown = ", ".join(found.entries[:SHOWN_AT_MOST]) + (", ..." if len(found.entries) > SHOWN_AT_MOST else "")
        key = "is_the_class" if same_path(out, source) else "not_a_run"
        text = said(key, "run_folder", folder=folder, count=len(found.entries), listing=shown,
                    suggestion=suggestion)
    else:
        assert isinstance(found, Run) and found.identity is not None
        earlier = found.identity
        there = said("run_there" if earlier.source else "run_there_unknown_source", "run_folder",
                     lab=earlier.lab, source=earlier.source, when=_shown_time(earlier.graded),
                     count=len(earlier.students))
        if kind == "other_lab":
            text = said("other_lab", "run_folder", folder=folder, there=there, lab=lab, suggestion=suggestion)
        else:
            kept = len(set(earlier.students) & set(students))
            text = said("other_class", "run_folder", folder=folder, there=there, kept=kept,
                        count=len(set(students)), earlier=len(earlier.students), suggestion=suggestion)
    return text


def other_folder(folder: str, tail: str) -> str:
    """A folder name beside `folder` that nothing holds yet, ending in `tail` (the lab, the class):
    `lab1-masked_attention`."""
    if os.path.basename(os.path.normpath(folder)) in ("", ".", ".."):
        folder = os.path.abspath(folder)  # "." names no folder to put a tail on
    base = f"{os.path.normpath(folder)}-{tail}"
    candidate, number = base, 2
    while os.path.lexists(candidate):
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def _class_name(source: str) -> str:
    """A short name for the class, from its folder or .zip: `canvas-lab1`."""
    name = os.path.splitext(os.path.basename(os.path.normpath(os.path.abspath(source))))[0]
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:40] or "class"


def same_path(one: str, other: str) -> bool:
    """Whether two paths name the same file or folder (False when either is missing)."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def _shown_time(iso: str) -> str:
    from .outputs import shown_time

    return shown_time(iso)


# What a run writes into its folder (the files and the folders whose every file is the run's).
RUN_FILES = frozenset({IDENTITY_FILE, UNFINISHED_FILE, GRADES, "report.html", "similar.csv", "overrides.csv",
                       "overrides.state.json"})
RUN_FOLDERS = frozenset({FEEDBACK, RESULTS, "stale"})


def replaced_output(path: str) -> Said | None:
    """For a file another command is about to write (`check --html`): the sentence
    refusing it when it is one of a run's outputs (grades.csv, report.html, feedback/<id>.html,
    the TA's overrides.csv, ...) in a run's folder, None when writing it replaces no run's output.
    The path is read with its links resolved: a run's folder, or its feedback/ folder, reached
    through a link under another name is that run's still."""
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    candidates = [(folder, name)]
    parent, inner = os.path.split(folder)
    if inner in RUN_FOLDERS:
        candidates.append((parent, f"{inner}/{name}"))
    for run_folder, relative in candidates:
        owns = relative in RUN_FILES or relative.split("/", 1)[0] in RUN_FOLDERS and "/" in relative
        found = inspect(run_folder, infer=False) if owns else None
        if isinstance(found, Run | Damaged):
            there = found.identity.lab if isinstance(found, Run) and found.identity is not None else "?"
            suggestion = os.path.join(os.path.dirname(run_folder), f"{os.path.basename(run_folder)}-{name}")
            return said("replaced_output", "run_folder", path=path, folder=run_folder, output=relative, lab=there,
                        suggestion=suggestion)
    return None


def left_out_note(folders: Sequence[str], lang: str) -> str:
    """The note for run folders met in the class and left out of it ("" when none)."""
    if not folders:
        return ""
    shown = ", ".join(folders[:SHOWN_AT_MOST]) + (", ..." if len(folders) > SHOWN_AT_MOST else "")
    message: str = printable("autograder: " + Messages(lang)("run_folder", "left_out", count=len(folders),
                                                             listing=shown, identity=IDENTITY_FILE))
    return message
