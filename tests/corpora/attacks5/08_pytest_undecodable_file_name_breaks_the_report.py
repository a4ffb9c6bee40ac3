"""A submission whose file name is not UTF-8 (`김.py` as Korean Windows writes it, cp949 bytes
b"\\xb1\\xe8", the case the batch and the Gradescope entry point read as cp949) graded with the
documented `pytest --submission FILE --junitxml=...`: the plugin gives pytest the raw path as the
item's node id and location, pytest's JUnit writer cannot encode it, and the run ends in a Python
traceback (exit 1, the code for failed tests) with a JUnit file holding no score. The file is 10/10."""
import os
import pathlib
import re
import subprocess

from helpers5 import CORRECT, PYTEST

FACE = "pytest --submission FILE --junitxml=... (run by staff)"
PROMISE = ("every file name derived from a submission is made safe once, where it is read (the guard); "
           "pytest --submission never ends in an INTERNALERROR")


def run(folder, name):
    done = subprocess.run([str(PYTEST), "-p", "no:cacheprovider", "--submission", name, "--junitxml=report.xml",
                           "-o", "junit_family=xunit1"], capture_output=True, cwd=folder, timeout=600)
    report = (folder / "report.xml").read_bytes() if (folder / "report.xml").exists() else b""
    scores = re.findall(rb'<property name="score" value="([^"]+)"', report)
    out = (done.stdout + done.stderr).decode("utf-8", "replace")
    last = [line for line in out.splitlines() if line.strip()][-1:] or [""]
    return done.returncode, [s.decode() for s in scores], last[0][:160], "Traceback" in out


def attack(work):
    work = pathlib.Path(work)
    plain, korean = work / "plain", work / "korean"
    plain.mkdir()
    korean.mkdir()
    (plain / "kim.py").write_text(CORRECT, "utf-8")
    raw = os.fsdecode(b"\xb1\xe8.py")  # cp949 for "김.py"
    (korean / raw).write_text(CORRECT, "utf-8")
    code0, scores0, last0, _ = run(plain, "kim.py")
    code1, scores1, last1, traceback = run(korean, raw)
    if code1 != 0 or len(scores1) != len(scores0):
        return False, (f"the reference as kim.py: exit {code0}, {len(scores0)} JUnit scores ({last0!r}); as "
                       f"b'\\xb1\\xe8.py': exit {code1}, {len(scores1)} JUnit scores, "
                       f"{'a Python traceback: ' if traceback else ''}{last1!r}")
    return True, f"exit {code1}, scores {scores1}"
