"""Attack 10 — a Moodle export downloaded flat ("Full name_<id>_assignsubmission_file_<original>")
in which one student plants graded rows, and LMS grades, for two friends who handed in nothing.

Moodle's flat names carry no per-file number, so all of Kim's (participant 10231) files share one
prefix. Kim uploads, besides the real work, four files whose original names hold a backslash:
    A\\Friend One_10299_assignsubmission_file_attention.py   (a correct solution)
    A\\Friend Two_10298_assignsubmission_file_attention.py   (a correct solution)
    B\\Friend One_10299_assignsubmission_file_readme.txt
    B\\Friend Two_10298_assignsubmission_file_readme.txt
The backslash becomes a folder separator, so the class gets two folders (".._file_A", ".._file_B")
that each directly hold LMS-named files of two students: the section rule ("at least two of the
folders, and more than half of them") now reads them as section folders, and every file in them
as an LMS upload of the participant its prefix names. The docs say one student can neither switch
that rule nor make "a graded row for a friend who handed in nothing".
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from zips import text, write_zip  # noqa: E402

KIM = "Kim Minsu_10231_assignsubmission_file_"


def build(path):
    honest = text("honest_solution.py")
    when = (2024, 3, 1, 10, 0, 0)
    return write_zip(path, [
        (KIM + "attention.py", when, honest),
        (KIM + "A\\Friend One_10299_assignsubmission_file_attention.py", when, honest),
        (KIM + "A\\Friend Two_10298_assignsubmission_file_attention.py", when, honest),
        (KIM + "B\\Friend One_10299_assignsubmission_file_readme.txt", when, "notes\n"),
        (KIM + "B\\Friend Two_10298_assignsubmission_file_readme.txt", when, "notes\n"),
        ("Lee Jiwon_10232_assignsubmission_file_attention.py", when, honest),
        ("Park Seoyeon_10233_assignsubmission_file_attention.py", when, honest),
    ])


SHEET_HEADER = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade",
                "Grade can be changed", "Last modified (submission)", "Online text", "Last modified (grade)",
                "Feedback comments"]
SHEET_ROWS = [
    ["Participant 10231", "Kim Minsu", "kim@example.ac.kr", "Submitted for grading", "", "10.00", "Yes",
     "Friday, 1 March 2024, 10:00 AM", "", "-", ""],
    ["Participant 10232", "Lee Jiwon", "lee@example.ac.kr", "Submitted for grading", "", "10.00", "Yes",
     "Friday, 1 March 2024, 10:00 AM", "", "-", ""],
    ["Participant 10233", "Park Seoyeon", "park@example.ac.kr", "Submitted for grading", "", "10.00", "Yes",
     "Friday, 1 March 2024, 10:00 AM", "", "-", ""],
    ["Participant 10298", "Friend Two", "two@example.ac.kr", "No submission", "", "10.00", "Yes", "-", "", "-", ""],
    ["Participant 10299", "Friend One", "one@example.ac.kr", "No submission", "", "10.00", "Yes", "-", "", "-", ""],
]


def sheet(path):
    import csv
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([SHEET_HEADER, *SHEET_ROWS])
    return path


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else "class10.zip"))
