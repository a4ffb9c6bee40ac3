"""Moodle's offline grading worksheet (Assignment → View all submissions → Download grading
worksheet), filled for "Upload grading worksheet", and its feedback zip for "Upload multiple
feedback files in a zip".

Header: Identifier ("Participant 123456"), Full name, Email address, Status, Grade, Maximum grade,
Grade can be changed, Last modified (submission), Online text, Last modified (grade), Feedback
comments. 123456 is the participant number Moodle also puts in the folder names of the
submissions download ("Full Name_123456_assignsubmission_file_"), so the run's ids.
"""
import re

from .fill import Layout, Seat, UsageError, choose
from .sheet import SheetError, number

PARTICIPANT = re.compile(r"^Participant (?P<id>\d+)$")
GRADE, MAXIMUM, FEEDBACK = "Grade", "Maximum grade", "Feedback comments"
# Characters Moodle's clean_filename() drops from a file or folder name.
NOT_IN_FILE_NAMES = re.compile(r'[\x00-\x1f\x7f"*/:<>?\\|]')

COMMENT = {
    "ko": "자동 채점 총점은 {grade}/{maximum}점입니다. 단계별 피드백은 함께 올린 피드백 파일({file})에 있습니다.",
    "en": "Autograder total: {grade}/{maximum}. Step-by-step feedback is in the attached feedback file ({file}).",
}
FEEDBACK_FILE = "feedback.html"


def layout(sheet, wanted):
    identifier, maximum = sheet.column("Identifier"), sheet.column(MAXIMUM)
    if identifier is None or maximum is None:
        raise SheetError("not a Moodle grading worksheet: its header has no \"Identifier\" and "
                         "\"Maximum grade\" columns (download it with Moodle in English)")
    columns = {title: set() for title in sheet.header if title == GRADE}
    try:
        title = choose(columns, wanted, "grade column (\"Grade\")")
    except UsageError:
        if wanted is None or wanted not in sheet.header:
            raise
        title = wanted  # a worksheet whose grade column is named otherwise
    full_name = sheet.column("Full name")
    seats = []
    for index, row in enumerate(sheet.rows[1:], start=1):
        match = PARTICIPANT.match(row[identifier].strip())
        if match:
            seats.append(Seat(index, (match["id"],), row[full_name] if full_name is not None else "",
                              number(row[maximum])))
    return Layout(sheet.header.index(title), title, seats, identities=("Identifier",),
                  comment=sheet.column(FEEDBACK), decimals_fixed=True)


def comment(lang):
    """The feedback comment of one student: the grade as written, and where the feedback is."""
    def text(student, grade, seat):
        return COMMENT[lang].format(grade=grade, maximum=_plain(seat.maximum), file=FEEDBACK_FILE)
    return text


def feedback_folder(full_name, participant):
    """The folder Moodle names a participant's files by, in downloads and in feedback uploads.

    Moodle reads the participant number as the second '_'-separated part, so underscores in the
    name become spaces (as Moodle's own download does).
    """
    name = NOT_IN_FILE_NAMES.sub("", full_name.replace("_", " ")).strip() or "Participant"
    return f"{name}_{participant}_assignsubmission_file_"


def _plain(value):
    return f"{value:g}"
