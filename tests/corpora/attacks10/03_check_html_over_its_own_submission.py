"""`autograder check kim.py --html kim.py` (the page named after the file, its extension
forgotten), and through a link to the submission's folder: the page must never replace the
submission it grades. Control: --html kim.html."""
import pathlib

from helpers10 import CORRECT, cli, write_class

FACE = "autograder check --html"
PROMISE = "no command destroys a TA's files: check --html never writes over the file it checks"


def attack(work):
    work = pathlib.Path(work)
    folder = write_class(work / "class", {"kim.py": CORRECT})
    (work / "here").symlink_to(folder)
    control = cli("check", folder / "kim.py", "--html", folder / "kim.html", "--lang", "en")
    tries = {"same path": folder / "kim.py", "through a linked folder": work / "here" / "kim.py"}
    replaced = []
    for label, page in tries.items():
        done = cli("check", folder / "kim.py", "--html", page, "--lang", "en")
        if (folder / "kim.py").read_text("utf-8") != CORRECT:
            replaced.append(f"{label} (exit {done.returncode})")
            (folder / "kim.py").write_text(CORRECT, "utf-8")
    if control.returncode not in (0, 1) or not (folder / "kim.html").exists():
        return True, f"(setup: the control page was not written: exit {control.returncode})"
    if replaced:
        return False, "the submission was replaced by its page: " + "; ".join(replaced)
    return True, "refused both ways; control page written"
