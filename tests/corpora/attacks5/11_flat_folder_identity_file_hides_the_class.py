"""A TA's flat folder of files the students named (`kim.py`, ...), downloaded into one folder and
graded by naming the folder above it (`autograder grade downloads`). One student names their file
`autograder-run.json`. A folder holding that name is a run's output folder and is left out of the
class "with all below it": here the folder is every classmate's, so nobody is graded (exit 2, "no
submission"), and the note naming the folder is never printed."""
import pathlib

from helpers5 import CORRECT, cli, write_class

FACE = "autograder grade"
PROMISE = ("a run folder planted among a student's files removes only their own submission, never another "
           "student's (an output folder is never a submission)")


def attack(work):
    work = pathlib.Path(work)
    files = {f"s{n:02d}": CORRECT for n in range(1, 10)}
    control = write_class(work / "control" / "lab1-downloads", files)
    done = cli("grade", control.parent, "--out", work / "control-run", "--lab", "self_attention", "--jobs", "2")
    if done.returncode != 0:
        return True, f"(setup: the control class exits {done.returncode}: {done.stderr[-300:]})"
    hostile = write_class(work / "hostile" / "lab1-downloads",
                          {**files, "autograder-run.json": '{"kind": "a student\'s notes"}\n'})
    done = cli("grade", hostile.parent, "--out", work / "hostile-run", "--lab", "self_attention", "--jobs", "2")
    graded = (work / "hostile-run" / "grades.csv").exists()
    if done.returncode != 0 or not graded:
        return False, (f"control: 9 students graded (exit 0); with one student's file named autograder-run.json "
                       f"beside theirs: exit {done.returncode}, grades.csv "
                       f"{'written' if graded else 'not written'}: {' '.join(done.stderr.split())[:240]!r}")
    return True, "graded"
