"""Attack 13 — a Blackboard export (flat zip) in which one student replaces a classmate's graded
file, submission time and late flag.

Blackboard names every file of one attempt "<assignment>_<user>_attempt_<date>_<original>", so all
files of one of Kim's attempts share a prefix. Kim makes two attempts, each with two files whose
original names hold a backslash:
    attempt 1: A\\Lab 1_lee_jw_attempt_2030-01-01-00-00-00_attention.py, A\\Lab 1_park_sy_attempt_...
    attempt 2: B\\Lab 1_lee_jw_attempt_2030-01-01-00-00-00_notes.txt,     B\\Lab 1_park_sy_attempt_...
The backslashes make two folders that each hold two students' Blackboard names: section folders.
The planted files become Blackboard uploads of lee_jw and park_sy, with the attempt time the name
claims (2030): newer than their real attempts, so they are graded as theirs, with that time and
a late flag (and the late penalty) under --due.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from zips import text, write_zip  # noqa: E402


def build(path):
    honest, junk = text("honest_solution.py"), text("junk_solution.py")
    one, two = "Lab 1_kim_ms_attempt_2024-03-01-11-00-00_", "Lab 1_kim_ms_attempt_2024-03-01-11-30-00_"
    fake = "attempt_2030-01-01-00-00-00_"
    return write_zip(path, [
        ("Lab 1_kim_ms_attempt_2024-03-01-10-00-00_attention.py", (2024, 3, 1, 10, 0, 0), honest),
        (one + "A\\Lab 1_lee_jw_" + fake + "attention.py", (2024, 3, 1, 11, 0, 0), junk),
        (one + "A\\Lab 1_park_sy_" + fake + "attention.py", (2024, 3, 1, 11, 0, 0), junk),
        (two + "B\\Lab 1_lee_jw_" + fake + "notes.txt", (2024, 3, 1, 11, 30, 0), "notes\n"),
        (two + "B\\Lab 1_park_sy_" + fake + "notes.txt", (2024, 3, 1, 11, 30, 0), "notes\n"),
        ("Lab 1_lee_jw_attempt_2024-03-01-09-00-00_attention.py", (2024, 3, 1, 9, 0, 0), honest),
        ("Lab 1_park_sy_attempt_2024-03-01-09-30-00_attention.py", (2024, 3, 1, 9, 30, 0), honest),
    ])


if __name__ == "__main__":
    print(build(sys.argv[1] if len(sys.argv) > 1 else "class13.zip"))
