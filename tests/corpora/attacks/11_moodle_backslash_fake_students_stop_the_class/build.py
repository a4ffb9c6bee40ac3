"""Attack 11 — one student stops a whole class from being graded (exit 2, nothing written).

The same backslash trick as attack 10 in a flat Moodle export: Kim's original file names
A\\Fake One_10291_assignsubmission_file_lab2.py, A\\Fake Two_10292_..., B\\Fake Three_10293_...,
B\\Fake Four_10294_... make two section folders, so four made-up participants appear, each with
a file that defines lab 2's (masked_attention) functions. `grade --lab self_attention` casts one
vote per student: 3 real students for self_attention (Kim's own real file among them), 4 fake
ones for masked_attention, so the run is refused as "written for masked_attention". The docs:
"fake students cannot be made, so one student has one vote"; "one student's file cannot stop an
evenly split class" (this class is not even split: every real student wrote lab 1).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from zips import text, write_zip  # noqa: E402

KIM = "Kim Minsu_10231_assignsubmission_file_"


def build(path):
    honest, lab2 = text("honest_solution.py"), text("masked_lab_stub.py")
    when = (2024, 3, 1, 10, 0, 0)
    return write_zip(path, [
        (KIM + "attention.py", when, honest),
        (KIM + "A\\Fake One_10291_assignsubmission_file_lab2.py", when, lab2),
        (KIM + "A\\Fake Two_10292_assignsubmission_file_lab2.py", when, lab2),
        (KIM + "B\\Fake Three_10293_assignsubmission_file_lab2.py", when, lab2),
        (KIM + "B\\Fake Four_10294_assignsubmission_file_lab2.py", when, lab2),
        ("Lee Jiwon_10232_assignsubmission_file_attention.py", when, honest),
        ("Park Seoyeon_10233_assignsubmission_file_attention.py", when, honest),
    ])


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else "class11.zip"))
