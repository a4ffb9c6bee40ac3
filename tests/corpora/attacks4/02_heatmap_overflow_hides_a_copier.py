"""A copier gives up one public test to hide: on the page's softmax input the copy returns a table
of ±1.7e308, whose heat-map overflows ((value - low) / (high - low) is nan, and round(nan) raises).
The record, the look-alike signal and the course history must still hold the copier."""
import csv
import pathlib

from common import CORRECT, RARE, SOFTMAX, cli, grades, write_class

FACE = "autograder grade (feedback page, similar.csv) and autograder history"
PROMISE = "a failure of the grader's own output costs that piece only, never the student's record"

# The page's scaled scores start with 0.17 (a 3×3 table); every other input gets the copied softmax.
TRAP = RARE + '''

_copied_softmax = softmax


def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.shape == (3, 3) and abs(x[0, 0] - 0.17) < 1e-9:
        return np.array([[1.7e308, -1.7e308, 1.7e308]] * 3)
    return _copied_softmax(x)
'''


def attack(work):
    work = pathlib.Path(work)
    files = {"s01": CORRECT.replace(SOFTMAX, RARE), "s02": CORRECT.replace(SOFTMAX, TRAP),
             **{f"s{n:02d}": CORRECT for n in range(3, 11)}}
    out = work / "course" / "self_attention"
    done = cli("grade", write_class(work / "class", files), "--out", out, "--jobs", "2")
    if done.returncode != 0:
        return False, f"grade exited {done.returncode}: {done.stderr[-500:]}"
    rows = grades(out)
    record = out / "results" / "s02.json"
    page = (out / "feedback" / "s02.html").read_text("utf-8") if (out / "feedback" / "s02.html").exists() else ""
    with open(out / "similar.csv", encoding="utf-8-sig", newline="") as handle:
        listed = [row["ids"] for row in csv.DictReader(handle)]
    history = cli("history", work / "course")
    with open(work / "course" / "history" / "course.csv", encoding="utf-8-sig", newline="") as handle:
        course = {row["id"] for row in csv.DictReader(handle)}
    problems = []
    if rows.get("s02", {}).get("status") != "graded":
        problems.append(f"s02's status is {rows.get('s02', {}).get('status')!r}")
    if not record.exists():
        problems.append("s02 has no results/s02.json")
    if 'id="step-softmax"' not in page:
        problems.append("s02 has no feedback page with its softmax")
    if not any({"s01", "s02"} <= set(ids.split()) for ids in listed):
        problems.append(f"s01 and s02 are not listed together (similar.csv: {listed or 'none'})")
    if history.returncode != 0 or "s02" not in course:
        problems.append(f"s02 is not in the course history (exit {history.returncode})")
    return not problems, "; ".join(problems) or "s02 graded, its page written, listed with s01, in the history"
