"""Attack 09 — a Canvas export (flat zip) in which one student's uploaded file name holds a backslash.

Kim (Canvas user 10231) uploads, besides their real work, a second file whose original name is
    Lee Jiwon_10232_assignsubmission_file_\\attention.py
Canvas prefixes it: kimminsu_10231_55002_Lee Jiwon_10232_assignsubmission_file_\\attention.py.
The grader's zip reader turns every backslash of a member name into "/" (collect._member_name:
"some Windows tools also write backslashes as separators"), so the member becomes the file
attention.py inside a folder named "kimminsu_10231_55002_Lee Jiwon_10232_assignsubmission_file_",
which Moodle's folder pattern (unanchored name part) reads as Moodle participant 10232's folder.
Kim's planted file is then filed under Lee's id (10232). Kim uploaded it after Lee, so it is the
newest: it is graded as Lee's, and Lee's own file is "merged: superseded".
Whether a given LMS keeps a backslash in a student's file name is not verified here; the grader
reads it as a separator in any zip.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from zips import text, write_zip  # noqa: E402

PLANTED = "kimminsu_10231_55002_Lee Jiwon_10232_assignsubmission_file_\\attention.py"


def build(path):
    honest, junk = text("honest_solution.py"), text("junk_solution.py")
    return write_zip(path, [
        ("parkseoyeon_10233_55000_attention.py", (2024, 3, 1, 9, 0, 0), honest),
        ("leejiwon_10232_55001_attention.py", (2024, 3, 1, 10, 0, 0), honest),
        ("kimminsu_10231_55003_attention.py", (2024, 3, 1, 11, 0, 0), honest),
        (PLANTED, (2024, 3, 1, 12, 0, 0), junk),
    ])


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else "class09.zip"))
