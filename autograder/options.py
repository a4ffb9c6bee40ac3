"""The commands' options and results: one typed, frozen, keyword-only record per command.

`autograder.commands` runs the commands and hands these records on; the modules that carry a command
out (checking, batch, batch.history, lms.export, otter.build) take their options and give their
results as these records, so nothing below the command line needs the commands themselves.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from .sandbox.limits import MB, Limits
from .said import Refusal, said

if TYPE_CHECKING:
    from .core.verdict import SubmissionResult
    from .core.lab import Lab

Lang = Literal["ko", "en"]
LANGS: tuple[Lang, ...] = ("ko", "en")
Visibility = Literal["visible", "after_published", "hidden"]
Lms = Literal["canvas", "moodle", "blackboard"]
DEFAULT_LIMITS = Limits()
EXIT_ALL_PASSED, EXIT_LOST_POINTS, EXIT_CANNOT_RUN = 0, 1, 2
MIN_MEMORY_MB = 256


# Options ----------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class LimitOptions:
    """What one submission may use while it is graded on this computer (`check`, `grade`)."""

    timeout: float = DEFAULT_LIMITS.step_seconds
    """Seconds each step may run (loading the file too)."""
    memory_mb: int = DEFAULT_LIMITS.memory_bytes // MB
    """Memory a submission may use, in MB (at least 256)."""
    processes: int = DEFAULT_LIMITS.processes
    """Processes a submission may start, when graded as root."""
    disk_mb: int = DEFAULT_LIMITS.disk_bytes // MB
    """Disk space a submission may write, in MB."""
    no_sandbox: bool = False
    """Run student code as yourself, unconfined (debugging only)."""

    def limits(self) -> Limits:
        """These options as sandbox Limits; a Refusal when one is out of range."""
        if self.timeout <= 0 or self.memory_mb < MIN_MEMORY_MB or self.processes < 1 or self.disk_mb < 1:
            raise Refusal(said("limits", "options", least=MIN_MEMORY_MB))
        return Limits.from_options(seconds=self.timeout, memory_mb=self.memory_mb, processes=self.processes,
                                   disk_mb=self.disk_mb, isolated=not self.no_sandbox)


@dataclass(frozen=True, kw_only=True)
class CheckOptions:
    """`autograder check`: one student's file, step by step."""

    submission: str
    """The student's .py or .ipynb file (or a .zip holding one)."""
    lab: str | None = None
    """Which lab (None: the only one installed, else the one the file is for)."""
    allow_other_lab: bool = False
    """Grade as `lab` even when the file is written for another lab (refused otherwise)."""
    lang: Lang = "ko"
    """The language of the feedback and of every message."""
    html: str | None = None
    """Also write the feedback as an HTML page with heat-maps to this file."""
    limits: LimitOptions = field(default_factory=LimitOptions)
    """What the submission may use."""


@dataclass(frozen=True, kw_only=True)
class GradeOptions:
    """`autograder grade`: a whole class, from a folder or an LMS's .zip export."""

    submissions: str
    """The class: a folder (searched recursively) or an LMS's .zip export."""
    out: str
    """The run's folder, for grades.csv, feedback/, results/ and report.html."""
    lab: str | None = None
    """Which lab (None: the only one installed, else the one the class's files are for)."""
    allow_other_lab: bool = False
    """Grade as `lab` even when the files are written for another lab (refused otherwise)."""
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    """Parallel graders (default: this computer's cores)."""
    lang: Lang = "ko"
    """The language of the feedback, the report and every message."""
    id_pattern: str | None = None
    """A regular expression whose group 'id' (or first group) is the student id."""
    allow_merged_ids: bool = False
    """Exit status 0 even when files of differently named students share an id."""
    allow_pattern_misses: bool = False
    """Go on (status 0) when `id_pattern` matches some or none of the files."""
    move_stale: bool = False
    """Move files in `out` that belong to no student of this run to out/stale/."""
    due: str | None = None
    """The deadline, ISO 8601 (2024-03-01T23:59+09:00)."""
    allow_unknown_times: bool = False
    """With `due`: count on time the students whose submission time the LMS does not state (a Moodle
    download, a plain folder); refused otherwise."""
    lms_timezone: str | None = None
    """The zone of the times an LMS writes without one (Asia/Seoul or +09:00)."""
    late_penalty: str | None = None
    """The late policy with `due`: 10%/day, 10%/day,max=50% or 20% (once)."""
    previous: str | None = None
    """An earlier run's folder: each student's feedback says what changed since then."""
    limits: LimitOptions = field(default_factory=LimitOptions)
    """What each submission may use."""


@dataclass(frozen=True, kw_only=True)
class ExportOptions:
    """`autograder export`: a run's grades into the grade sheet downloaded from the LMS."""

    lms: Lms
    """Which LMS wrote the sheet."""
    graded: str
    """The run's folder (the `out` of `grade`)."""
    sheet: str
    """The grade sheet as downloaded from the LMS."""
    out: str
    """The file to write, for the LMS to import as it is."""
    lab: str | None = None
    """The lab whose grades go into the sheet (needed when several labs are installed)."""
    column: str | None = None
    """The sheet's column to fill (its header, name or id); needed when it has several."""
    lang: Lang = "ko"
    """The language of every message and of Moodle's feedback comment."""
    allow_unmatched: bool = False
    """Exit status 0 even when graded students are missing from the sheet."""
    id_column: str | None = None
    """Moodle: the worksheet's identifier column, when not "Identifier"."""
    max_column: str | None = None
    """Moodle: the worksheet's maximum grade column, when not "Maximum grade"."""
    feedback_column: str | None = None
    """Moodle: the worksheet's feedback comments column, when not "Feedback comments"."""


@dataclass(frozen=True, kw_only=True)
class BuildOptions:
    """`autograder build`: the student half and the Otter autograder zip of one lab."""

    out: str
    """The folder to write student/, classroom/ and autograder/ into: new, empty, or this lab's earlier build."""
    lab: str | None = None
    """The lab to build (needed when several labs are installed)."""
    lang: Lang = "ko"
    """The language of the student half's feedback and of every message."""
    timeout: float = DEFAULT_LIMITS.step_seconds
    """Seconds each step may run on the LMS."""
    memory_mb: int = DEFAULT_LIMITS.memory_bytes // MB
    """Memory a submission may use on the LMS, in MB (at least 256)."""
    visibility: Visibility = "after_published"
    """When students see each step's score and full feedback: at once, after grades are published, or never."""
    requirements: str | None = None
    """A file of more pip requirements for the grading image."""
    setup_script: str | None = None
    """A file of shell commands setup.sh runs before pip."""
    self_check: bool = True
    """Install the zip into a fresh environment and grade the solution and the stubs with it before returning."""


@dataclass(frozen=True, kw_only=True)
class HistoryOptions:
    """`autograder history`: a course's history over several labs' runs, one page per student."""

    course: str
    """The folder holding the `out` folders of several `grade` runs (one per lab)."""
    out: str | None = None
    """The folder to write into (None: course/history)."""
    join_by: Literal["id", "name"] = "id"
    """How the runs' students are joined: by the LMS's id, or by full name where the LMS numbers its
    students per assignment (Moodle's participant numbers)."""
    lang: Lang = "ko"
    """The language of the pages and of every message."""


# Results ----------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CheckResult:
    """What `check` found: the exit status, the judged result and the lab it was graded as."""

    status: int
    """0 every step passed, 1 points were lost."""
    result: SubmissionResult
    """The submission's judged result (render.feedback.as_text / as_dict say it)."""
    lab: Lab
    """The lab it was graded as."""
    html: str | None = None
    """The HTML page written, when asked for."""


@dataclass(frozen=True, kw_only=True)
class GradeResult:
    """What `grade` did: the exit status, the files it wrote, the class's counts."""

    status: int
    """0 done; 3 files of differently named students share an id; 4 `id_pattern` missed files; 130 interrupted."""
    out: str
    """The run's folder."""
    grades: str | None
    """grades.csv (None when interrupted before it was written)."""
    report: str | None
    """report.html (None when interrupted before it was written)."""
    counts: Mapping[str, int | str] = field(default_factory=dict)
    """The report's counts: students, files, graded, broken, errors, superseded, merged, ignored, mean, ..."""
    summary: str = ""
    """The summary line, in the options' language (what the command line prints on stdout)."""
    notes: tuple[str, ...] = ()
    """Notes and warnings, in the options' language (what the command line prints on stderr)."""


@dataclass(frozen=True, kw_only=True)
class ExportResult:
    """What `export` wrote and who matched."""

    status: int
    """0 done; 3 graded students' grades are not in the sheet (missing from it, or withheld)."""
    written: tuple[str, ...]
    """The files written: the sheet, Moodle's feedback zip, the report."""
    filled: int
    """Students whose cell was filled."""
    not_in_sheet: int
    """Graded students missing from the sheet."""
    withheld: int
    """Grades not written (an override under review, a failed grading)."""
    summary: str = ""
    """The summary line, in the options' language (stdout)."""
    notes: tuple[str, ...] = ()
    """Warnings, in the options' language (stderr); with status 3 the last says why."""


@dataclass(frozen=True, kw_only=True)
class BuildResult:
    """What `build` wrote."""

    status: int
    """0: built and self-checked."""
    student: str
    """The student half's folder."""
    classroom: str
    """The GitHub Classroom template's folder."""
    zip: str
    """The Otter autograder zip for the LMS."""
    checks: tuple[str, ...] = ()
    """The self-check's findings."""
    summary: str = ""
    """What the command line prints on stdout."""


@dataclass(frozen=True, kw_only=True)
class HistoryResult:
    """What `history` wrote."""

    status: int
    """0 done; 3 some lab grades are withheld from the course totals."""
    out: str
    """The folder written into."""
    students: int
    """Students in the course table."""
    course_csv: str
    """course.csv."""
    index: str
    """index.html."""
    summary: str = ""
    """The summary line, in the options' language (stdout)."""
    notes: tuple[str, ...] = ()
    """Notes and warnings, in the options' language (stderr)."""
