"""A TA keeps a short link to a run's feedback folder (`fb -> out/lab1/feedback`) and writes a trial
page for a resubmission there: `check new.py --html fb/s00.html`. Control: the real path (refused)."""
import hashlib
import pathlib

from helpers10 import CORRECT, STUB, cli, write_class

FACE = "autograder check --html"
PROMISE = "no command replaces another run's outputs, by any path or link"


def attack(work):
    work = pathlib.Path(work)
    root = write_class(work / "class", {f"s{n:02d}.py": CORRECT for n in range(3)})
    out = work / "out" / "lab1"
    done = cli("grade", root, "--out", out, "--lang", "en", "--jobs", "2")
    assert done.returncode == 0, done.stderr[-300:]
    page = out / "feedback" / "s00.html"
    before = hashlib.sha256(page.read_bytes()).hexdigest()
    other = write_class(work / "mine", {"resubmitted.py": STUB}) / "resubmitted.py"
    control = cli("check", other, "--html", page, "--lang", "en")
    (work / "fb").symlink_to(out / "feedback")
    linked = cli("check", other, "--html", work / "fb" / "s00.html", "--lang", "en")
    if hashlib.sha256(page.read_bytes()).hexdigest() != before:
        return False, f"the run's feedback/s00.html replaced through fb/s00.html (exit {linked.returncode}); " \
                      f"the real path: exit {control.returncode}"
    return True, f"refused (exit {linked.returncode}): {linked.stderr.strip()[:140]!r}"
