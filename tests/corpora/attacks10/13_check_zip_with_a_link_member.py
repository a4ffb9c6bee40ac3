"""A zip made by hand around one .py that is a symbolic link member (its content
"/proc/self/cwd/solutions/self_attention.py"), given to `check`. Control: the same zip holding the
correct file."""
import pathlib
import stat
import zipfile

from helpers10 import CORRECT, checked

FACE = "autograder check (a zip)"
PROMISE = "a submission never gains points it did not earn: a link inside a zip is never followed"


def attack(work):
    work = pathlib.Path(work)
    linked, control = work / "kim.zip", work / "control.zip"
    with zipfile.ZipFile(linked, "w") as archive:
        info = zipfile.ZipInfo("attention.py")
        info.create_system = 3
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "/proc/self/cwd/solutions/self_attention.py")
    with zipfile.ZipFile(control, "w") as archive:
        archive.writestr("attention.py", CORRECT)
    done, result = checked(linked)
    _, fine = checked(control)
    if result and result["score"] > 0:
        return False, f"the link member scored {result['score']}"
    if not fine or fine["score"] != fine["max_score"]:
        return True, f"(setup: the control zip scored {fine and fine['score']})"
    return True, f"exit {done.returncode}: {done.stderr.strip()[:140]!r}; control {fine['score']}"
