"""What a file's name says: whether the grader reads it, and the one order of kinds among one
attempt's files. Decided from names alone, before any file is read."""
from __future__ import annotations

GRADABLE_SUFFIXES = (".ipynb", ".py")
# The kinds of file a submission is graded from, in the order one attempt's files are preferred.
SUBMISSION_KINDS: tuple[tuple[str, ...], ...] = ((".ipynb",), (".py",), (".zip",))


def kind_rank(name: str) -> int | None:
    """INVARIANT (docs/ta/index.md, "Which file is graded"): the one order of kinds among one
    attempt's files, shared by `grade` (batch.collect.newest_first, on a tie in time) and the LMS's
    zip (otter.gradescope.file_choice): the notebook (0), then the .py (1), then a zip (2); None for
    any other file. The notebook comes first because it is what students are told to hand in (the
    .py twin is the same lab for those without Jupyter), and the choice is made from names alone,
    before any file is read, so that both faces choose the same file for the same attempt."""
    lower = name.lower()
    return next((rank for rank, suffixes in enumerate(SUBMISSION_KINDS) if lower.endswith(suffixes)), None)


def not_code(name: str) -> str:
    """"" for a name the grader reads (.ipynb, .py, or a .zip holding one); else the file's own name
    ("report.docx"), for the one sentence that says what to submit instead. Decided by the name,
    as students and the LMS name files: one rule for `check`, `grade`, the LMS and the kit."""
    base = basename(name)
    return "" if base.lower().endswith(GRADABLE_SUFFIXES + (".zip",)) else base


def basename(name: str) -> str:
    return name.replace("\\", "/").rsplit("/", 1)[-1] or "submission.py"
