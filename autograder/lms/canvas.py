"""Canvas gradebook export (Grades → Export → CSV), filled for Grades → Import.

Header: Student, ID, SIS User ID, SIS Login ID, Section, then one column per assignment named
"Lab 1 (12345)" (12345 is the assignment's id), then read-only totals. Under it a
"    Points Possible" row, sometimes a "Manual Posting" row, then one row per student; the test
student ("Student, Test") is not a student. `ID` is the Canvas user id that Canvas puts in the
names of downloaded submissions (lastfirst_<user id>_<submission id>_file), so the run's ids;
a run named by student numbers or logins is matched by SIS User ID or SIS Login ID instead.
"""
import re

from .fill import Layout, Seat, UsageError, choose
from ..said import said
from .sheet import Sheet, SheetError, header_key, header_start, number

ASSIGNMENT = re.compile(r"^(?P<name>.+) \((?P<id>\d+)\)$")
TEST_STUDENT = {"student, test", "test student"}
# What tells a Canvas gradebook from other sheets (recognise.py), by header_key.
# Canvas: "lastfirst_12345_67890_attention.ipynb", late ones "lastfirst_LATE_12345_67890_...".
FILE_NAME = re.compile(r"^(?P<name>[^_/]+?)(?P<late>_late)?_(?P<id>\d+)_(?P<file_id>\d+)_(?P<original>.+)$", re.I)
SIGNATURES = ({"student", "id", "sis user id"}, {"student", "id", "section"})


def layout(sheet: Sheet, wanted: str | None) -> Layout:
    header = sheet.header
    id_column = sheet.column("ID")
    if not header or header_key(header[0]) != "student" or id_column is None:
        raise SheetError(said("canvas_not", header=header_start(header)))
    columns: dict[str, set[str]] = {}
    for index, title in enumerate(header):
        match = ASSIGNMENT.match(title)
        if match and index > id_column:
            columns[title] = {match["name"], match["id"]}
    title = choose(columns, wanted, said("what_canvas"))
    column = header.index(title)
    possible = next((row for row in sheet.rows[1:] if row[0].strip() == "Points Possible"), None)
    if possible is None:
        raise UsageError(said("canvas_no_points_possible"))
    maximum = number(possible[column])
    identities = ["ID"] + [name for name in ("SIS User ID", "SIS Login ID") if name in header]
    where = [header.index(name) for name in identities]
    seats = [Seat(index, tuple(row[i].strip() for i in where), row[0], maximum)
             for index, row in enumerate(sheet.rows[1:], start=1)
             if row[id_column].strip().isdigit() and row[0].strip().lower() not in TEST_STUDENT]
    return Layout(column, title, seats, identities=tuple(identities))
