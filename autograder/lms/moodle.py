"""Moodle's offline grading worksheet (Assignment → View all submissions → Download grading
worksheet), filled for "Upload grading worksheet", and its feedback zip for "Upload multiple
feedback files in a zip".

Header, as Moodle 4.x writes it in English: Identifier ("Participant 123456"), Full name, Email
address (and the other identity fields the site shows), Status, Grade, Maximum grade, Grade can be
changed, Last modified (submission), Online text, Last modified (grade), Feedback comments. Moodle
3.x writes "Maximum Grade"; headers are matched ignoring case and spacing (sheet.header_key).
123456 is the participant number Moodle also puts in the folder names of the submissions download
("Full Name_123456_assignsubmission_file_"), so the run's ids.

Moodle writes the headers (and the word before the participant number) in the language of the
interface the worksheet was downloaded with, and reads them back in the language it is uploaded
with. A worksheet in another language is mapped with explicit columns (Columns: --id-column,
--column, --max-column, --feedback-column) and written back with its own headers.
"""
import re
from dataclasses import dataclass
from typing import cast

from ..core.render.messages import Messages
from .fill import CommentFor, Layout, Seat, UsageError, choose
from .graded import Graded
from ..said import Said, said
from .sheet import Sheet, SheetError, decimal_mark, header_key, number, points_text

# "Participant 123456" in English; another language puts its own word before the number.
PARTICIPANT = re.compile(r"^\D*?(?P<id>\d+)$")
IDENTIFIER, FULL_NAME, GRADE, MAXIMUM, FEEDBACK = ("Identifier", "Full name", "Grade", "Maximum grade",
                                                   "Feedback comments")
# What tells a Moodle worksheet from other sheets (recognise.py), by header_key: in English, and
# as Moodle writes it in Korean (식별자, 성명, ..., 성적, 최대 성적, ..., 피드백 코멘트).
# Moodle's own folder per student: "Full Name_123456_assignsubmission_file_" (the whole part).
FOLDER = re.compile(r"^(?P<name>.+)_(?P<id>\d+)_assign(?:submission|feedback)_(?P<plugin>[a-z]+)_?$", re.I)
# Moodle's prefix of a file name: "Full Name_123456_assignsubmission_file_attention.py".
FILE_PREFIX = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assign(?:submission|feedback)_(?P<plugin>[a-z]+)_", re.I)
SIGNATURES = ({header_key(IDENTIFIER), header_key(MAXIMUM)},
              {header_key(IDENTIFIER), header_key(FULL_NAME), header_key(GRADE)},
              {header_key("식별자"), header_key("최대 성적")},
              {header_key("식별자"), header_key("성명"), header_key("성적")})
# Characters Moodle's clean_filename() drops from a file or folder name.
NOT_IN_FILE_NAMES = re.compile(r'[\x00-\x1f\x7f"*/:<>?\\|]')

FEEDBACK_FILE = "feedback.html"


@dataclass(frozen=True, kw_only=True)
class Columns:
    """Headers the TA named for a worksheet not in English (None: the English header)."""

    id: str | None = None
    max: str | None = None
    feedback: str | None = None


def layout(sheet: Sheet, wanted: str | None, columns: Columns = Columns()) -> Layout:
    """The worksheet's grade column and seats. `wanted` (--column) names the grade column;
    `columns` the identifier, maximum and feedback columns when they are not in English."""
    identifier = _named(sheet, columns.id, "--id-column")
    maximum = _named(sheet, columns.max, "--max-column")
    identifier = sheet.column(IDENTIFIER) if identifier is None else identifier
    maximum = sheet.column(MAXIMUM) if maximum is None else maximum
    if identifier is None or maximum is None:
        raise SheetError(_not_english(sheet, identifier, maximum))
    grades: dict[str, set[str]] = {title: set() for title in sheet.header if header_key(title) == header_key(GRADE)}
    try:
        title = choose(grades, wanted, said("what_moodle"))
    except UsageError:
        if wanted is None or sheet.column(wanted) is None:
            if wanted is None and not grades:
                raise UsageError(said("moodle_no_grade", columns=_listed(sheet))) from None
            raise
        title = sheet.header[cast(int, sheet.column(wanted))]  # a worksheet whose grade column is named otherwise
    feedback = _named(sheet, columns.feedback, "--feedback-column")
    feedback = sheet.column(FEEDBACK) if feedback is None else feedback
    full_name = sheet.column(FULL_NAME)
    rows = [(index, row) for index, row in enumerate(sheet.rows[1:], start=1)
            if PARTICIPANT.match(row[identifier].strip())]
    # Moodle writes its numbers in the language of its interface: "100,00" where it uses a decimal comma.
    decimal = decimal_mark([row[maximum] for _, row in rows])
    seats = [Seat(index, (cast(re.Match[str], PARTICIPANT.match(row[identifier].strip()))["id"],),
                  row[full_name] if full_name is not None else "", number(row[maximum], decimal))
             for index, row in rows]
    return Layout(sheet.header.index(title), title, seats, identities=(sheet.header[identifier],),
                  comment=feedback, decimals_fixed=True, decimal=decimal)


def _named(sheet: Sheet, name: str | None, option: str) -> int | None:
    """The column an option names, None when the option is not given; a name not in the sheet is refused."""
    if name is None:
        return None
    index = sheet.column(name)
    if index is None:
        raise UsageError(said("moodle_option_unknown", option=option, name=name, columns=_listed(sheet)))
    return index


def _not_english(sheet: Sheet, identifier: int | None, maximum: int | None) -> Said:
    """The refusal of a worksheet whose identifier or maximum column is not found: which options to give."""
    missing = " / ".join(f'"{name}"' for name, index in ((IDENTIFIER, identifier), (MAXIMUM, maximum)) if index is None)
    guess = _identifier_guess(sheet) if identifier is None else None
    options = (f"--id-column {_quoted(guess or '<identifier column>')} --column <grade column> "
               "--max-column <maximum grade column> [--feedback-column <feedback comments column>]")
    if guess:
        return said("moodle_not_english_guess", missing=missing, options=options, guess=guess, columns=_listed(sheet))
    return said("moodle_not_english", missing=missing, options=options, columns=_listed(sheet))


def _identifier_guess(sheet: Sheet) -> str | None:
    """The column whose cells read like "Participant 123456" (a word, then a number), if one does."""
    rows = sheet.rows[1:]
    for index in range(len(sheet.header)):
        cells = [row[index].strip() for row in rows if row[index].strip()]
        if cells and all(re.fullmatch(r"\D+\s\d+", cell) for cell in cells):
            return sheet.header[index]
    return None


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _listed(sheet: Sheet) -> str:
    return ", ".join(sheet.header)


def comment(lang: str, decimal: str = ".") -> CommentFor:
    """The feedback comment of one student: the grade as written, and where the feedback is."""
    say = Messages(lang)

    def text(student: Graded, grade: str, seat: Seat) -> str:
        maximum = points_text(seat.maximum or 0.0, decimal=decimal)
        return say("export", "moodle_comment", grade=grade, maximum=maximum, file=FEEDBACK_FILE)
    return text


def feedback_folder(full_name: str, participant: str, graded_file: str = "") -> str:
    """The folder Moodle names a participant's files by, in downloads and in feedback uploads.

    The download's own folder name comes first: the graded file's path (`graded_file`, grades.csv's
    file) holds the folder Moodle wrote for this participant ("김민수_310001_assignsubmission_file_"),
    whatever the worksheet's language. Else the worksheet's full name: Moodle reads the participant
    number as the second '_'-separated part, so underscores in the name become spaces (as Moodle's
    own download does).
    """

    for part in graded_file.replace("\\", "/").split("/"):
        match = FOLDER.match(part) or FILE_PREFIX.match(part)
        if match and match["id"] == participant and match["name"].strip():
            return f"{match['name'].strip()}_{participant}_assignsubmission_file_"
    name = NOT_IN_FILE_NAMES.sub("", full_name.replace("_", " ")).strip() or "Participant"
    return f"{name}_{participant}_assignsubmission_file_"
