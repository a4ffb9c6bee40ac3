"""A course folder where one lab's folder was never graded (the TA forgot `grade --out course/lab2`):
`history` must say so, not write a course total that silently leaves the lab out."""
import shutil

from common import cli, copy_base

FACE = "autograder history"
PROMISE = "a missing lab is told (a TA's slip is refused or named, never silent in the totals)"


def attack(work):
    root, out = copy_base(work, "missing")
    course = work / "missing" / "course"
    course.mkdir()
    out.rename(course / "lab1")
    shutil.copytree(root, course / "lab2")  # the submissions of lab 2, not graded yet
    done = cli("history", course)
    said = done.stdout + done.stderr
    if done.returncode != 0 or "lab2" in said:
        return True, f"exit {done.returncode}; told: {said.strip()[-200:]!r}"
    return False, f"exit 0 and nothing names lab2; stdout: {done.stdout.strip()!r}"
