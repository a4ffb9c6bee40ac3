"""The one guard between what a submission gives and the grader's own work on it.

Two promises (docs/SECURITY.md, "Invariant: one guard between a submission and the grader's own
work"):

- Every text and file name derived from a submission is `SafeText`, made once where it is read
  (`safe_text`, `safe_name`): valid Unicode, so no pipe, page, file or terminal that takes it
  can fail on it. Only this module makes a SafeText (tests/vocabulary/test_guard.py checks it), and the
  places that take text from a submission onwards take SafeText: the sandbox's command pipe
  (`sandbox.driver.run`'s cells), the judge's and renderers' results (`SubmissionResult.submission`)
  and the reader's output (`reading.submission.Submission`), so mypy refuses a path that skips the guard.
- Every computation of the grader's own on what a submission gave (a heat-map, a fingerprint, a
  feedback text, a history page) runs in `piece`: a failure of any kind costs that one piece of
  output, named by the exception's type, never the student's record.

Pure standard library: the sandbox's codec reads a child's text by this module's rule too
(`valid_text`), in the grader and in the child alike.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, NewType, TypeVar

T = TypeVar("T")

SURROGATE = re.compile("[\ud800-\udfff]")

# Text from a submission, made valid Unicode by this module; str everywhere it is read.
SafeText = NewType("SafeText", str)


def valid_text(value: str) -> str:
    """`value` with each lone surrogate as U+FFFD: the rule for any text from outside, the
    sandbox's events included (child.codec.loads)."""
    if not SURROGATE.search(value):
        return value
    return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def safe_text(text: str) -> SafeText:
    """`text` as valid Unicode: each lone surrogate (a notebook's JSON may escape one, "\\ud800")
    becomes U+FFFD. Everything else is kept as written."""
    return SafeText(valid_text(str.__str__(text)))


def safe_name(name: str | bytes) -> SafeText:
    """A file name from a disk, a zip or an LMS, as text: a part whose bytes are not UTF-8
    (os.listdir gives them as surrogates) is read as CP949 (Korean Windows), else shown with
    `\\xNN` escapes; any other lone surrogate becomes U+FFFD."""
    if isinstance(name, bytes):
        raw = name
    elif not SURROGATE.search(name):
        return SafeText(str.__str__(name))
    else:
        try:
            raw = name.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # surrogates that stand for no byte
            return safe_text(name)
    parts = []
    for part in raw.split(b"/"):
        for encoding, errors in (("utf-8", "strict"), ("cp949", "strict"), ("utf-8", "backslashreplace")):
            try:
                parts.append(part.decode(encoding, errors))
                break
            except UnicodeDecodeError:
                continue
    return safe_text("/".join(parts))


@dataclass(frozen=True)
class Piece(Generic[T]):
    """One piece of the grader's own output: its value, or why it was not made."""

    value: T | None = None
    failure: str | None = None  # the exception's type ("OverflowError") when the piece was not made

    @property
    def made(self) -> bool:
        return self.failure is None


def piece(what: str, work: Callable[..., T], *args: object, **kwargs: object) -> Piece[T]:
    """`work(*args, **kwargs)`, the grader's own computation on what a submission gave, as a
    Piece: any exception at all (an overflow on a student's 1.7e308, a RecursionError on a deep
    tree, a fault of the grader) becomes the piece's failure, told in one line on the grader's
    stderr (`what`: the piece, in the TA's words)."""
    try:
        return Piece(value=work(*args, **kwargs))
    except Exception as error:  # noqa: BLE001 (the point of this function: one piece, never the record)
        print(f"autograder: {what} not made ({error_name(error)})", file=sys.stderr)
        return Piece(failure=error_name(error))


def error_name(error: BaseException) -> str:
    """An exception's type as Python names it: "KeyError", "zlib.error"."""
    kind = type(error)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
