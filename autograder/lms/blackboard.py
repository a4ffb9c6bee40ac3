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

# Blackboard's export of the class: "Lab 1_jdoe_attempt_2024-03-01-12-30-45_attention.py" (head = assignment_username).
FILE_NAME = re.compile(r"^(?P<head>.+?)_attempt_(?P<date>\d{4}(?:-\d{2}){5})(?:[_.].*)?$")
# Blackboard's receipt of an attempt: the attempt's name and ".txt", nothing of the student's after it.
RECEIPT_NAME = re.compile(r"^(?P<head>.+?)_attempt_(?P<date>\d{4}(?:-\d{2}){5})\.txt$")
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


# Blackboard's receipt of an attempt (the .txt beside it in "Download Assignment"). Blackboard writes a
# header, one "label: value" line each in this order and in the course's language ("이름:", "제출 날짜:"
# in a Korean course), then a blank line, then what the student wrote (Submission Field, Comments), then
# the files. Only the header is Blackboard's: nothing after its first blank line is ever read.
RECEIPT_LABELS = ("Name", "Assignment", "Date Submitted", "Current Grade")
RECEIPT_LABEL_VARIANTS = {"Current Mark": "Current Grade"}  # Blackboard in British English
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LABELLED = re.compile(r"^(?P<label>[^:：\d][^:：]*?)\s*[:：][ \t]*(?P<value>.*?)\s*$")
_USERNAME = re.compile(r"^(?P<name>.*?)\s*\((?P<username>[^()\s]+)\)$")


@dataclass(frozen=True, kw_only=True)
class Receipt:
    """What Blackboard itself wrote at the top of an attempt's receipt; "" where it is not read."""

    name: str = ""  # "Kim Minsu" of "Name: Kim Minsu (kim_ms)"
    username: str = ""  # "kim_ms"
    assignment: str = ""  # "Lab1" of "Assignment: Lab1"
    submitted: str = ""  # the "Date Submitted" value, as written
    english: bool = False  # the labels are Blackboard's English ones (the date is read only then)


def receipt(text: str, attempt: str = "") -> Receipt:
    """The header of a Blackboard receipt (RECEIPT_LABELS): its first two to four lines, each
    "label: value", before the first blank line; in English by its labels, in another language by
    their order. Anything else in the file (the student's own text, whatever it looks like) is never
    read, and a file whose start is not such a header gives nothing. `attempt`: the receipt's name
    before "_attempt_" ("Lab 1_kim_ms"): a header naming another username gives no name."""
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    blank = next((index for index, line in enumerate(lines) if not line.strip()), len(lines))
    if not 2 <= blank <= len(RECEIPT_LABELS):
        return Receipt()
    found = [_LABELLED.match(line) for line in lines[:blank]]
    if not all(found):
        return Receipt()
    labels = [RECEIPT_LABEL_VARIANTS.get(m["label"], m["label"]) for m in found if m]
    values = [m["value"] for m in found if m]
    english = labels == list(RECEIPT_LABELS[:blank])
    if not english and set(labels) & set(RECEIPT_LABELS):
        return Receipt()  # English labels out of Blackboard's order: not its header
    name, username = values[0], ""
    named = _USERNAME.match(name)
    if named:
        name, username = named["name"], named["username"]
    if username and attempt and not attempt.casefold().endswith(("_" + username).casefold()):
        return Receipt()  # another account's receipt
    submitted = values[2] if blank > 2 else ""  # an older receipt stops after the assignment's name
    return Receipt(name=name.strip(), username=username, assignment=values[1].strip(), submitted=submitted,
                   english=english)


def receipt_name(text: str, attempt: str = "") -> str:
    """The student's name in a Blackboard receipt's header ("Name: Kim Minsu (kim_ms)" gives "Kim Minsu")."""
    return receipt(text, attempt).name
