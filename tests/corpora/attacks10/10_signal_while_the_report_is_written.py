"""SIGHUP once the last student is graded (the run writes grades.csv and report.html, loading
matplotlib) and, as a control, mid-grading: exit 130 both times, nothing left in TMPDIR."""
import os
import pathlib
import signal

from helpers10 import CORRECT, LAST_STUDENT, grade_signalled, write_class

FACE = "autograder grade (ended by a signal)"
PROMISE = "SIGINT, SIGTERM and SIGHUP end a run the same way: exit 130, no temporary folder left"


def attack(work):
    work = pathlib.Path(work)
    root = write_class(work / "class", {f"s{n:02d}.py": CORRECT for n in range(6)})
    temp = work / "tmp"
    temp.mkdir()
    temp.chmod(0o1777)
    os.chmod(work, 0o755)
    results = {}
    for label, when in (("late", LAST_STUDENT), ("mid", lambda line: "(16%)" in line or "(17%)" in line)):
        code, said = grade_signalled(root, work / f"out-{label}", signal.SIGHUP, when, env={"TMPDIR": str(temp)})
        results[label] = (code, sorted(os.listdir(temp)), said[-1].strip()[:100] if said else "")
    broken = [f"{label}: exit {code}, left {left[:2]}" for label, (code, left, _) in results.items()
              if code not in (0, 130) or left]
    if broken:
        return False, "; ".join(broken)
    return True, "; ".join(f"{label}: exit {code}" for label, (code, _, _) in results.items())
