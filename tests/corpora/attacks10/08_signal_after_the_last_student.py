"""A rerun after one student resubmitted a worse file, ended by SIGTERM, SIGHUP or Ctrl-C the moment
the progress line says the last student is graded (grades.csv, similar.csv and report.html are being
written): exit 130, no temporary file, and no grades.csv that the results and feedback beside it
contradict (a TA uploads grades.csv by hand too)."""
import json
import pathlib

from helpers10 import CORRECT, LAST_STUDENT, SIGNALS, WORSE, cli, grade_signalled, grades, write_class

FACE = "autograder grade (ended by a signal)"
PROMISE = "an interrupted run ends as interrupted (exit 130) and leaves no grades.csv its results contradict"


def attack(work):
    work = pathlib.Path(work)
    problems = []
    for number in SIGNALS:
        root = write_class(work / number.name / "class", {f"s{n:02d}.py": CORRECT for n in range(8)})
        out = work / number.name / "out"
        first = cli("grade", root, "--out", out, "--lang", "en")
        assert first.returncode == 0, first.stderr[-300:]
        (root / "s07.py").write_text(WORSE, "utf-8")
        code, said = grade_signalled(root, out, number, LAST_STUDENT)
        recorded = json.loads((out / "results" / "s07.json").read_text("utf-8"))["score"]
        rows = grades(out)
        partial = [p for p in out.rglob("*") if p.name.endswith(".partial")]
        if code not in (0, 130):
            problems.append(f"{number.name}: exit {code}")
        if partial:
            problems.append(f"{number.name}: temporaries {partial[:2]}")
        if rows is not None and float(rows["s07"]["total"]) != recorded:
            problems.append(f"{number.name}: grades.csv says s07 {rows['s07']['total']}, results/s07.json {recorded}")
    if problems:
        return False, "; ".join(problems)
    return True, "every signal: exit 130 (or finished), grades.csv absent or the new grading's"
