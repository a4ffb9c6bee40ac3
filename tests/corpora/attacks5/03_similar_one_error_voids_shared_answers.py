"""Two students return the same rare wrong softmax (no mistake of the catalog names it) on every
hidden test; the copier wrote the code differently, so only the shared wrong answers can tell
(the control: listed). The copier then raises an error on one public test (the page's table):
the step already earns 0, so it costs nothing. The step's mistakes now hold `exception`, which is
not one of the four codes that name nothing, and every one of the step's hidden answers stops
counting, though none of them is a named mistake's value."""
import pathlib

from helpers5 import CORRECT, SOFTMAX, cli, listed_together, similar, write_class
from simclass import VARIED

FACE = "autograder grade (similar.csv)"
PROMISE = ("a wrong answer weighs nothing only when the grader names it as a known mistake (similar.py); "
           "copying is not hidden trivially")

RARE = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    total = e.sum(axis=-1, keepdims=True) + 0.37 * e.max(axis=-1, keepdims=True)
    return e / total
'''
REWRITTEN = '''def softmax(x):
    arr = np.array(x, dtype=np.float64)
    top = np.max(arr, axis=-1, keepdims=True)
    ex = np.exp(arr - top)
    denominator = np.sum(ex, axis=-1, keepdims=True) + 0.37 * np.max(ex, axis=-1, keepdims=True)
    result = ex / denominator
    return result
'''
ONE_ERROR = '''

_copied = softmax


def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.shape == (3, 3) and abs(x[0, 0] - 0.17) < 0.01:  # the page's scaled scores only
        raise ValueError("not today")
    return _copied(x)
'''


def listed(work, copy):
    files = {"s01": CORRECT.replace(SOFTMAX, RARE), "s02": copy,
             **{f"s{n + 3:02d}": CORRECT.replace(SOFTMAX, body) for n, body in enumerate(VARIED)}}
    root = write_class(work / "class", files)
    done = cli("grade", root, "--out", work / "run", "--jobs", "2", "--lab", "self_attention")
    assert done.returncode == 0, done.stderr[-500:]
    rows = {}
    import csv
    with open(work / "run" / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    return listed_together(similar(work / "run"), "s01", "s02"), rows["s02"]["softmax"], similar(work / "run")


def attack(work):
    work = pathlib.Path(work)
    control, control_points, control_groups = listed(work / "control", CORRECT.replace(SOFTMAX, REWRITTEN))
    if not control:
        return True, f"(setup: the copy of the wrong values is not listed even without the error: {control_groups})"
    hidden, points, groups = listed(work / "attack", CORRECT.replace(SOFTMAX, REWRITTEN) + ONE_ERROR)
    if not hidden:
        return False, (f"control listed ({control_groups}); with one ValueError on the page's test (softmax "
                       f"{control_points} -> {points} points) the pair is no longer listed (groups: {groups or 'none'})")
    return True, f"listed in both ({groups})"
