"""--out is a symbolic link whose target does not exist yet (`latest -> out/lab1-2026` made before
the first run, or a disk not mounted): a sentence, never a traceback. Control: a new plain folder."""
import pathlib

from helpers10 import CORRECT, cli, write_class

FACE = "autograder grade"
PROMISE = "a TA's slip gets a clear message, never a crash"


def attack(work):
    work = pathlib.Path(work)
    root = write_class(work / "class", {"s0.py": CORRECT, "s1.py": CORRECT})
    (work / "latest").symlink_to(work / "not-yet" / "lab1")
    done = cli("grade", root, "--out", work / "latest", "--lang", "en", "--jobs", "1")
    control = cli("grade", root, "--out", work / "plain", "--lang", "en", "--jobs", "1")
    if "Traceback" in done.stderr:
        return False, f"a traceback (exit {done.returncode}): {done.stderr.strip().splitlines()[-1][:200]}"
    return True, f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1][:160] if done.stderr.strip() else ''}" \
                 f" (control exit {control.returncode})"
