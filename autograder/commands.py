"""The five commands as Python functions: `check`, `grade`, `export`, `build` and `history`.

Each takes its options as one typed, frozen record and returns a typed result; a refusal (a TA's
slip: a bad option, a folder that is not a class, a sheet of another LMS) is raised as a
said.Refusal, whose sentences are said in the language the caller chooses (`refusal.told(Messages(lang))`)
and whose `status` is the exit status the command line ends with. The command line
(autograder/cli.py) is one face of these functions: it parses argv into the record, calls the
function, prints what it returns and turns a Refusal into stderr and an exit status. A course's own
script or a notebook calls them the same way:

    from autograder.commands import GradeOptions, grade
    result = grade(GradeOptions(submissions="lab1.zip", out="lab1-graded", lang="en"))
    print(result.status, result.grades)

The records are defined in autograder.options and named here too. Nothing here imports more than the
command needs, and only when it runs (a check starts fast).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .options import (DEFAULT_LIMITS, EXIT_ALL_PASSED, EXIT_CANNOT_RUN, EXIT_LOST_POINTS, LANGS, MIN_MEMORY_MB,
                      BuildOptions, BuildResult, CheckOptions, CheckResult, ExportOptions, ExportResult,
                      GradeOptions, GradeResult, HistoryOptions, HistoryResult, Lang, LimitOptions, Lms, Visibility)

if TYPE_CHECKING:
    from .sandbox.zygote_client import Zygote

__all__ = ["DEFAULT_LIMITS", "EXIT_ALL_PASSED", "EXIT_CANNOT_RUN", "EXIT_LOST_POINTS", "LANGS", "MIN_MEMORY_MB",
           "BuildOptions", "BuildResult", "CheckOptions", "CheckResult", "ExportOptions", "ExportResult",
           "GradeOptions", "GradeResult", "HistoryOptions", "HistoryResult", "Lang", "LimitOptions", "Lms",
           "Visibility", "check", "grade", "export", "build", "history"]


# The commands -----------------------------------------------------------------------------------


def check(options: CheckOptions) -> CheckResult:
    """Grade one student's file, step by step, in a sandbox; a Refusal when it cannot be graded."""
    from .checking import check_file

    return check_file(options)


def grade(options: GradeOptions, *, zygotes: Sequence[Zygote] = (),
          tell: Callable[[str], None] | None = None) -> GradeResult:
    """Grade a whole class into `options.out`; a Refusal, before anything is written, for a TA's slip.

    `zygotes`: sandboxes started earlier, adopted by the first workers; `tell`: called with each note
    as it is known (the command line prints it on stderr at once); every note is in the result too.
    """
    from .batch import run_batch

    return run_batch(options, zygotes=zygotes, tell=tell)


def export(options: ExportOptions) -> ExportResult:
    """Fill the LMS's grade sheet with a run's grades; a Refusal, with nothing written, when it cannot."""
    from .lms.export import run_export

    return run_export(options)


def build(options: BuildOptions) -> BuildResult:
    """Build the student half and the Otter autograder zip of one lab; a Refusal when it cannot."""
    from .otter.build import run_build

    return run_build(options)


def history(options: HistoryOptions) -> HistoryResult:
    """Write a course's history over several labs' runs; a Refusal, with nothing written, when it cannot."""
    from .batch.history import run_history

    return run_history(options)
