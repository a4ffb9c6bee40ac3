"""A copier appends a block of ASCII comments (about 150 000 characters: "notes") to the copied
file. A .py that compiles is one text, past the 128 KB the grader's own parser takes at once, so
the fingerprints read none of it: no step, no file, only `code.unread: 1` in results/<id>.json.
The copy is no longer listed, and nothing a TA reads (similar.csv, report.html, grade's stderr)
says that one student's code could not be compared. The sandbox still runs the file: full marks."""
import json
import pathlib
import re

from helpers5 import CORRECT, SOFTMAX, cli, grades, listed_together, similar, write_class
from simclass import VARIED

FACE = "autograder grade (similar.csv, report.html, stderr)"
PROMISE = ("what the budget or the parser left unparsed is counted, never dropped silently; a true copy is not "
           "hidden trivially (the look-alike signal is a hint for a person)")

ORIGINAL = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    peak = np.max(x, axis=-1, keepdims=True)
    lifted = np.exp(x - peak)
    denom = lifted.sum(axis=-1, keepdims=True)
    out = lifted / denom
    out = np.where(np.isfinite(out), out, 0.0)
    return out
'''
NOTES = "".join(f"# note {'keep working on the lab ' * 4}{n}\n" for n in range(1400))


def graded(work, copy):
    original = CORRECT.replace(SOFTMAX, ORIGINAL)
    files = {"s01": original, "s02": copy,
             **{f"s{n + 3:02d}": CORRECT.replace(SOFTMAX, body) for n, body in enumerate(VARIED)}}
    root = write_class(work / "class", files)
    done = cli("grade", root, "--out", work / "run", "--jobs", "2", "--lab", "self_attention", "--lang", "en")
    assert done.returncode == 0, done.stderr[-500:]
    return done, listed_together(similar(work / "run"), "s01", "s02")


def attack(work):
    work = pathlib.Path(work)
    original = CORRECT.replace(SOFTMAX, ORIGINAL)
    _, control = graded(work / "control", original)
    if not control:
        return True, "(setup: the exact copy is not listed)"
    done, listed = graded(work / "padded", original + "\n" + NOTES)
    if listed:
        return True, "the padded copy is still listed"
    run = work / "padded" / "run"
    code = json.loads((run / "results" / "s02.json").read_text("utf-8"))["extra_data"]["autograder"].get("code")
    said = [name for name, text in (("report.html", (run / "report.html").read_text("utf-8")),
                                    ("similar.csv", (run / "similar.csv").read_text("utf-8-sig")),
                                    ("stderr", done.stderr))
            if re.search(r"\bunread\b|not_computed|fingerprints? (of|for) s02|s02[^\n]{0,80}(unread|not compared)", text)]
    return False, (f"the exact copy is listed; with {len(NOTES)} characters of comments appended (s02 total "
                   f"{grades(run)['s02']['total']}) it is not; s02's record code = { {k: v for k, v in code.items() if k != 'steps'} }; "
                   f"told to the TA in: {said or 'nothing (report.html, similar.csv, stderr)'}")
