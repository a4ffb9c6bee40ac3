"""The one rule for a number a TA writes in a file (overrides.csv's `points` and `automatic`).

A number is read only when it can be read one way: ASCII digits with at most one decimal point
(`1.5`, `2`, `.5`, `-0.5`), blanks around it allowed. Everything `float()` would also take but a
TA does not mean as a plain number is refused with its reason: a decimal comma (`1,5`), digit
grouping (`1 000`, `1_000`), an exponent (`1e1`), `nan` or `inf`, other scripts' digits (`１`).

In a comma-separated row, a decimal comma splits a number over two cells: `s01,softmax,1,5,김조교`
fits a five-column header when the comment was forgotten, and would read as 1 point with the
comment "5". `split_number` finds that shape: a whole number and a cell of digits only side by
side, one in a number column, the other in a column of words (a comment, a name). The row is
refused; a comment or a name that is only digits says nothing anyway.

Pure data in and out: the reasons are codes (`Unreadable.code`) that the caller says in the TA's
language (the `[run_folder]` section of the catalogs).
"""
from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

Reason = Literal["empty", "decimal_comma", "grouping", "exponent", "not_finite", "not_ascii", "not_a_number"]

PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
WHOLE = re.compile(r"[+-]?[0-9]+")
DIGITS = re.compile(r"[0-9]+")
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]*,[0-9]+")
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(?:[ _'.,\u00a0\u202f][0-9]{3})+(?:[.,][0-9]+)?")
_EXPONENT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][+-]?[0-9]+")


@dataclass(frozen=True, kw_only=True)
class Unreadable:
    """Why a TA's cell is not read as a number: `code` (Reason) and the text as written."""

    code: Reason
    text: str


def read_number(text: str) -> float | Unreadable:
    """The number a TA wrote, or why it cannot be read one way."""
    cell = text.strip()
    if not cell:
        return Unreadable(code="empty", text=text)
    if PLAIN.fullmatch(cell):
        return float(cell)
    return Unreadable(code=_why(cell), text=text)


def _why(cell: str) -> Reason:
    if not cell.isascii():
        return "not_ascii"
    lowered = cell.lower().lstrip("+-")
    if lowered in ("nan", "inf", "infinity"):
        return "not_finite"
    if _EXPONENT.fullmatch(cell):
        return "exponent"
    if _DECIMAL_COMMA.fullmatch(cell):  # 1,5 and 1,500 alike: which one the TA meant is not known
        return "decimal_comma"
    if _GROUPED.fullmatch(cell):
        return "grouping"
    return "not_a_number"


@dataclass(frozen=True, kw_only=True)
class Split:
    """A number a decimal comma split over two cells of a row: cells `at` and `at + 1`."""

    at: int
    whole: str
    fraction: str


def split_number(cells: Sequence[str], numeric: Collection[int], words: Collection[int]) -> Split | None:
    """The first number split by a decimal comma in a row read from a comma-separated file: two
    cells side by side, one in a column that takes a number (`numeric`: their positions), the
    other in a column of words (`words`: a comment, a name), the first a whole number and the
    second digits only. None when there is none.

    `1,5` lands so when the TA also forgot a cell: after the number column (its cell the whole
    part, the next column's the fraction) or before it. Two number columns side by side
    (`points,automatic`) read as two numbers, and a column that may well hold digits (an id) is
    in neither collection.
    """
    for at in range(len(cells) - 1):
        pair = {at, at + 1}
        if not (pair & set(numeric) and pair & set(words)) or pair <= set(numeric):
            continue
        if WHOLE.fullmatch(cells[at].strip()) and DIGITS.fullmatch(cells[at + 1].strip()):
            return Split(at=at, whole=cells[at], fraction=cells[at + 1])
    return None
