"""A text cell of a sheet the grader writes (grades.csv, the similarity and history tables) as no
spreadsheet runs it: one rule, `spreadsheet_text`, for every CSV cell that holds outside text."""
from __future__ import annotations

from typing import TypeVar, overload

from ..core.render.text import printable

T = TypeVar("T")


# A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


@overload
def spreadsheet_text(value: str) -> str: ...
@overload
def spreadsheet_text(value: T) -> T: ...
def spreadsheet_text(value: object) -> object:
    """A text cell no spreadsheet runs: control characters made visible, a formula start quoted
    with a leading "'" (OWASP's CSV injection advice). Numbers are left alone."""
    if not isinstance(value, str):
        return value
    text = printable(value, newlines=False)
    return "'" + text if text.startswith(FORMULA_STARTS) else text

