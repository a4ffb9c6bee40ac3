"""Blackboard Grade Center download (Work Offline → Download), filled for Work Offline → Upload.

"Tab delimited" gives a .xls that is really UTF-16 LE text (with a byte order mark, or without one
when saved again), tabs between cells; "Comma delimited" gives a .csv. Every cell is quoted. Header:
"Last Name", "First Name", "Username", "Student ID", "Last Access", "Availability", then one column
per Grade Center column named "Lab 1 [Total Pts: 10 Score] |123456": its points possible and its
primary display (Score, Percentage, Letter, Text, Complete/Incomplete; older downloads write none:
"[Total Pts: 10] |123456"); calculated ones say "Total Pts: up to ..." and cannot be uploaded. The
run's ids are usernames, from Blackboard's submission file names (or student numbers, matched with
"Student ID", when the run was named by them).

What a column takes (Blackboard reads an uploaded value by the column's primary display): Score (or
no display written) takes points, Percentage a percentage of its points ("75%"). A column shown as
Letter, Text or Complete/Incomplete is refused with what to do: Blackboard would read the value as a
letter of the course's grading schema (which the sheet does not hold), a text, or complete/incomplete.
"""
import re
from dataclasses import dataclass
from typing import cast

from .fill import Layout, Seat, UsageError, choose, listed
from ..said import said
from .sheet import Sheet, SheetError, header_start

# What tells a Grade Center file from other sheets (recognise.py), by header_key.
SIGNATURES = ({"last name", "first name", "username"},)
GRADE_COLUMN = re.compile(r"^(?P<name>.*?)\s*\[Total Pts:\s*(?P<upto>up to\s+)?(?P<max>\d+(?:[.,]\d+)?)"
                          r"(?:\s+(?P<display>[^\]|]*?))?\s*\]\s*\|\s*(?P<id>\d+)\s*$")
FILLED_DISPLAYS = {"": "points", "score": "points", "percentage": "percent"}


@dataclass(frozen=True, kw_only=True)
class Column:
    """A Grade Center column as its header says: "Lab 1 [Total Pts: 10 Score] |123456"."""

    title: str  # the whole header
    name: str  # "Lab 1"
    id: str  # "123456"
    points: float
    display: str  # "Score", "Percentage", "Letter", ..., "" when the header says none
    calculated: bool  # "Total Pts: up to ...": Blackboard computes it


def columns(header: list[str]) -> list[Column]:
    """Every Grade Center column of a header (not the user columns)."""
    found: list[Column] = []
    for title in header:
        match = GRADE_COLUMN.match(title.replace("\ufeff", ""))
        if match:
            found.append(Column(title=title, name=match["name"].strip(), id=match["id"],
                                points=float(match["max"].replace(",", ".")), display=(match["display"] or "").strip(),
                                calculated=bool(match["upto"])))
    return found


def layout(sheet: Sheet, wanted: str | None) -> Layout:
    header = sheet.header
    username = sheet.column("Username")
    if username is None or sheet.column("Last Name") is None:
        raise SheetError(said("blackboard_not", header=header_start(header)))
    every = columns(header)
    choices = {column.title: {column.name, column.id} for column in every if not column.calculated}
    if wanted is not None and not any(wanted == t or wanted in aliases for t, aliases in choices.items()):
        calculated = [c for c in every if c.calculated and wanted in (c.title, c.name, c.id)]
        if calculated:
            raise UsageError(said("blackboard_calculated", column=calculated[0].name, choices=listed(choices)))
    title = choose(choices, wanted, said("what_blackboard"))
    column = next(c for c in every if c.title == title)
    unit = FILLED_DISPLAYS.get(column.display.casefold())
    if unit is None:
        raise UsageError(said("blackboard_display", column=column.name, display=column.display))
    if column.points <= 0:
        raise UsageError(said("blackboard_no_points", column=column.name))
    first, last = sheet.column("First Name"), cast(int, sheet.column("Last Name"))  # there: checked above
    identities = ["Username"] + (["Student ID"] if "Student ID" in header else [])
    where = [header.index(name) for name in identities]
    seats = [Seat(index, tuple(row[i].strip() for i in where),
                  f"{row[last]}, {row[first]}" if first is not None else row[last], column.points)
             for index, row in enumerate(sheet.rows[1:], start=1) if row[username].strip()]
    return Layout(header.index(title), title, seats, identities=tuple(identities), percent=unit == "percent")
