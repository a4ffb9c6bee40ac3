"""A student's repository holds its submission as a symbolic link to
/proc/self/cwd/solutions/self_attention.py; the TA, working in the grader's folder, runs `check` on
it: in the grader's own process the link leads to the reference. Also a folder of the repository
linked there (the file typed through it), and a link to a file that is no grader's (control: a stub)."""
import os
import pathlib

from helpers10 import STUB, checked, write_class

FACE = "autograder check (a TA's check of a student's file)"
PROMISE = "a submission never gains points it did not earn: no link makes the grader's own files a submission"


def attack(work):
    work = pathlib.Path(work)
    repo = write_class(work / "kim-repo", {"stub.py": STUB})
    (repo / "attention.py").symlink_to("/proc/self/cwd/solutions/self_attention.py")
    (repo / "lab").symlink_to("/proc/self/cwd/solutions")
    (repo / "mine.py").symlink_to(repo / "stub.py")
    scored = {}
    for label, path in (("file link", repo / "attention.py"), ("folder link", repo / "lab" / "self_attention.py"),
                        ("link to the student's own stub", repo / "mine.py")):
        done, result = checked(path)
        scored[label] = (done.returncode, result and result["score"], done.stderr.strip()[-160:])
    control = checked(repo / "stub.py")[1]
    gained = [f"{label}: {score} (exit {code})" for label, (code, score, _) in scored.items() if score]
    if control is None or control["score"] != 0:
        return True, f"(setup: the stub itself scored {control and control['score']})"
    if gained:
        return False, "points through a link: " + "; ".join(gained)
    return True, "; ".join(f"{label}: exit {code} {said!r}" for label, (code, _, said) in scored.items())
