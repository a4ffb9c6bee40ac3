"""`autograder check FILE --html PAGE` refuses a PAGE that is one of a run's outputs. The run's
folder keeps, in stale/feedback/ and stale/results/, the outputs of students no longer in the class
(`grade --move-stale`: "never over another file, nothing is deleted"); stale/ is among the folders
whose every file is the run's (run_folder.RUN_FOLDERS). The refusal looks one folder up only, so a
page written to stale/feedback/<id>.html replaces the run's kept copy. The other spellings of a
run's output (a folder reached through a symbolic link, `..`) are tried as controls."""
import os
import pathlib

from helpers5 import CORRECT, STUB, cli, write_class

FACE = "autograder check --html"
PROMISE = "no command replaces another run's outputs: check --html refuses a file that is one of a run's outputs"


def attack(work):
    work = pathlib.Path(work)
    root = write_class(work / "class", {f"s{n:02d}": CORRECT for n in range(1, 5)})
    out = work / "run"
    done = cli("grade", root, "--out", out, "--lab", "self_attention", "--jobs", "2")
    assert done.returncode == 0, done.stderr[-300:]
    (root / "s04.py").unlink()  # s04 withdrew: the rerun keeps their outputs in stale/
    done = cli("grade", root, "--out", out, "--lab", "self_attention", "--jobs", "2", "--move-stale")
    assert done.returncode == 0, done.stderr[-300:]
    stale = out / "stale" / "feedback" / "s04.html"
    if not stale.exists():
        return True, f"(setup: no stale copy: {sorted(p.name for p in (out / 'stale').rglob('*'))})"
    (work / "latest").symlink_to(out)
    page = write_class(work / "mine", {"page": STUB}) / "page.py"
    tries = {
        "stale/feedback/s04.html": stale,
        "stale/results/s04.json": out / "stale" / "results" / "s04.json",
        "feedback/s01.html (control)": out / "feedback" / "s01.html",
        "latest/grades.csv through a linked folder (control)": work / "latest" / "grades.csv",
        "feedback/../report.html (control)": pathlib.Path(str(out / "feedback") + "/../report.html"),
    }
    replaced = []
    for label, target in tries.items():
        before = target.read_bytes() if target.exists() else None
        done = cli("check", page, "--lab", "self_attention", "--html", target, "--lang", "en")
        after = target.read_bytes() if target.exists() else None
        if before is not None and after != before:
            replaced.append(f"{label} (exit {done.returncode})")
    if replaced:
        return False, f"check --html wrote over the run's own files: {'; '.join(replaced)}"
    return True, f"every try refused ({', '.join(tries)})"
