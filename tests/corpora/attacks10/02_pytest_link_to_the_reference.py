"""The link of 01 given to `pytest --submission` started in the grader's folder (SECURITY.md's own
example path `subs/kim/attention.py`). Control: the correct file as a regular file passes every step."""
import pathlib
import re
import subprocess

from helpers10 import BIN, CORRECT, ROOT, write_class

FACE = "pytest --submission"
PROMISE = "a submission never gains points it did not earn: no link makes the grader's own files a submission"


def _passed(path):
    done = subprocess.run([str(BIN / "pytest"), "-p", "no:cacheprovider", "--submission", str(path), "-q"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    found = re.findall(r"(\d+) passed", done.stdout)
    return done, int(found[-1]) if found else 0


def attack(work):
    work = pathlib.Path(work)
    kim = write_class(work / "subs" / "kim", {})
    (kim / "attention.py").symlink_to("/proc/self/cwd/solutions/self_attention.py")
    lee = write_class(work / "subs" / "lee", {"attention.py": CORRECT})
    linked, linked_passed = _passed(kim / "attention.py")
    _, control_passed = _passed(lee / "attention.py")
    if linked_passed:
        return False, f"the link passed {linked_passed} steps (exit {linked.returncode})"
    if control_passed != 6:
        return True, f"(setup: the correct file passed {control_passed} steps)"
    return True, f"link: exit {linked.returncode} {(linked.stdout + linked.stderr).strip().splitlines()[-1:]}; " \
                 f"control passed {control_passed}"
