"""Blackboard Grade Center download (Work Offline → Download), filled for Work Offline → Upload.

"Tab delimited" gives a .xls that is really UTF-16 LE text with a BOM, tabs between cells;
"Comma delimited" gives a .csv. Every cell is quoted. Header: "Last Name", "First Name",
"Username", "Student ID", "Last Access", "Availability", then one column per Grade Center column
named "Lab 1 [Total Pts: 10 Score] |123456" (calculated ones say "Total Pts: up to ..." and
cannot be uploaded). The run's ids are usernames, from Blackboard's submission file names (or
student numbers, matched with "Student ID", when the run was named by them).
"""
import re
from typing import cast

from .fill import Layout, Seat, choose
from .sheet import Sheet, SheetError, header_start

# What tells a Grade Center file from other sheets (recognise.py), by header_key.
SIGNATURES = ({"last name", "first name", "username"},)
GRADE_COLUMN = re.compile(r"^(?P<name>.*?) \[Total Pts: (?P<max>\d+(?:\.\d+)?) Score\] \|(?P<id>\d+)$")


def layout(sheet: Sheet, wanted: str | None) -> Layout:
    header = sheet.header
    username = sheet.column("Username")
    if username is None or sheet.column("Last Name") is None:
        raise SheetError(f"not a Blackboard Grade Center file: its header is {header_start(header)}, with no "
                         "\"Last Name\" and \"Username\" columns (Grade Center → Work Offline → Download in "
                         "Blackboard)")
    columns: dict[str, set[str]] = {}
    for title in header:
        match = GRADE_COLUMN.match(title)
        if match:
            columns[title] = {match["name"], match["id"]}
    title = choose(columns, wanted, "Grade Center column with points (\"[Total Pts: N Score]\")")
    column = header.index(title)
    maximum = float(GRADE_COLUMN.match(title)["max"])  # type: ignore[index]  # chosen among the matches
    first, last = sheet.column("First Name"), cast(int, sheet.column("Last Name"))  # there: checked above
    identities = ["Username"] + (["Student ID"] if "Student ID" in header else [])
    where = [header.index(name) for name in identities]
    seats = [Seat(index, tuple(row[i].strip() for i in where),
                  f"{row[last]}, {row[first]}" if first is not None else row[last], maximum)
             for index, row in enumerate(sheet.rows[1:], start=1) if row[username].strip()]
    return Layout(column, title, seats, identities=tuple(identities))
