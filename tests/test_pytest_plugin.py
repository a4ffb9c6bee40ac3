"""`pytest --submission PATH`: one test per step, failures carry the step's feedback."""
import os
import re
import subprocess
import sys
import textwrap

import pytest

from labs.self_attention.steps import FUNCTION_NAMES, STEPS

from conftest import ROOT

REFERENCE = ROOT / "solutions" / "self_attention.py"
STUBS = ROOT / "assignments" / "self_attention" / "self_attention_lab.py"


def run_pytest(folder, submission, *extra, report_name="report.xml"):
    report = folder / report_name
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--submission", str(submission),
         f"--junitxml={report}", "-o", "junit_family=xunit1", *extra],
        capture_output=True, text=True, timeout=180, cwd=folder)
    return process, report.read_text(encoding="utf-8") if report.exists() else ""


def scores_in(report):
    """{step: (score, max_score)} from the JUnit properties."""
    found = {}
    for case in re.finditer(r'<testcase [^>]*name="(\w+)"[^>]*>(.*?)</testcase>', report, re.S):
        values = dict(re.findall(r'<property name="(\w+)" value="([^"]*)"', case.group(2)))
        if "score" in values:
            found[case.group(1)] = (float(values["score"]), float(values["max_score"]))
    return found


def test_reference_passes_six_tests(tmp_path):
    process, report = run_pytest(tmp_path, REFERENCE)
    assert process.returncode == 0, process.stdout
    assert "6 passed" in process.stdout
    assert scores_in(report) == {step.name: (step.points, step.points) for step in STEPS}
    assert "10 / 10" in process.stdout


def test_a_wrong_step_fails_alone_with_the_feedback(tmp_path):
    wrong = tmp_path / "wrong_axis.py"
    wrong.write_text(REFERENCE.read_text(encoding="utf-8").replace(
        "x.max(axis=-1, keepdims=True)", "x.max(axis=0, keepdims=True)").replace(
        "shifted.sum(axis=-1, keepdims=True)", "shifted.sum(axis=0, keepdims=True)"), encoding="utf-8")
    process, report = run_pytest(tmp_path, wrong, "--submission-lang", "en")
    assert process.returncode == 1
    assert "1 failed, 5 passed" in process.stdout
    assert "normalised over columns instead of rows" in process.stdout
    assert "Each row (axis=-1) must sum to 1" in process.stdout
    assert 'name="softmax"' in report and "failure" in report
    score, max_score = scores_in(report)["softmax"]
    assert score < max_score == 2.0


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_submission_that_cannot_be_read_is_a_usage_error(tmp_path, kind):
    path = tmp_path / "nothing.py"
    if kind == "folder":
        path.mkdir()
    process, report = run_pytest(tmp_path, path)
    assert process.returncode == 4, process.stdout + process.stderr
    assert ("no such file" if kind == "missing" else "a folder") in process.stderr
    assert "failed" not in process.stdout and report == ""


def test_collect_only_lists_the_steps(tmp_path):
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
         "--submission", str(REFERENCE)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert process.returncode == 0, process.stdout
    for name in FUNCTION_NAMES:
        assert f"attention.py::{name}\n" in process.stdout
    assert "6 tests collected" in process.stdout


def test_other_tests_of_the_run_are_kept_and_run(tmp_path):
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert True\n\n"
                                          "def test_own_failing():\n    assert False\n")
    process, report = run_pytest(tmp_path, REFERENCE)
    assert "1 failed, 7 passed" in process.stdout, process.stdout
    assert 'name="test_own"' in report and 'name="most_attended"' in report


def test_one_step_can_be_selected(tmp_path):
    process, report = run_pytest(tmp_path, STUBS, "--submission-step", "softmax",
                                 "--submission-step", "mix")
    assert process.returncode == 1
    assert "2 failed" in process.stdout
    assert scores_in(report) == {"softmax": (0.0, 2.0), "mix": (0.0, 1.0)}


def test_option_absent_leaves_ordinary_runs_alone(tmp_path):
    (tmp_path / "test_plain.py").write_text("def test_ok():\n    assert True\n")
    process = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                             capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert process.returncode == 0 and "1 passed" in process.stdout


# A student's repository that tries to grade its own stubs as correct -------------------------

FULL_MARKS_JSON = ('{"submission": "x", "score": 10.0, "max_score": 10.0, "steps": ['
                   + ", ".join(f'{{"name": "{s.name}", "score": {float(s.points)}, "max_score": '
                               f'{float(s.points)}, "status": "passed", "mistakes": [], "feedback": ""}}'
                               for s in STEPS) + "]}")

PATCH_GRADING = textwrap.dedent('''
    import os, sys
    here = os.path.dirname(os.path.abspath(__file__))
    # Anything started from this run would see this folder first, if it honoured PYTHONPATH.
    os.environ["PYTHONPATH"] = here
    os.environ["PYTHONSTARTUP"] = os.path.join(here, "sitecustomize.py")

    import autograder.grading, autograder.judge
    from autograder.judge import StepResult

    def passed_step(step, probes, outcomes, defined, is_stub, syntax_suspect=False):
        return StepResult(step.name, float(step.points), step.points, "passed", [], [], step.page_step)

    autograder.judge.judge_step = passed_step
    autograder.grading.judge_step = passed_step
    original = autograder.grading.grade_file

    def graded_as_correct(path, *args, **kwargs):
        return original(os.path.join(here, "reference_copy.py"), *args, **kwargs)

    autograder.grading.grade_file = graded_as_correct
    ''')

SHADOW_MODULE = f'''
import sys
print({FULL_MARKS_JSON!r})
sys.exit(0)
'''

SITECUSTOMIZE = f'''
import sys
if "autograder" in " ".join(sys.argv) or sys.argv[-1:] == ["-"]:
    print({FULL_MARKS_JSON!r})
    raise SystemExit(0)
'''


@pytest.fixture
def hostile_repository(tmp_path):
    """A student repository: stubs, and every file pytest or Python would pick up from it."""
    repo = tmp_path / "student-repo"
    repo.mkdir()
    (repo / "self_attention_lab.py").write_text(STUBS.read_text("utf-8"), "utf-8")
    (repo / "reference_copy.py").write_text(REFERENCE.read_text("utf-8"), "utf-8")
    (repo / "conftest.py").write_text(PATCH_GRADING, "utf-8")
    (repo / "pytest.ini").write_text(
        "[pytest]\naddopts = --submission reference_copy.py --submission-timeout 30\n",
        "utf-8")
    (repo / "autograder.py").write_text(SHADOW_MODULE, "utf-8")
    (repo / "sitecustomize.py").write_text(SITECUSTOMIZE, "utf-8")
    (repo / "usercustomize.py").write_text(SITECUSTOMIZE, "utf-8")
    return repo


def test_the_repositorys_shadow_module_is_live(hostile_repository):
    """Without -I and a folder of its own, a grading subprocess would print the forged result."""
    done = subprocess.run([sys.executable, "-m", "autograder", "check", "self_attention_lab.py", "--json"],
                          cwd=hostile_repository, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == FULL_MARKS_JSON


def test_the_students_own_repository_cannot_change_the_grade(hostile_repository):
    # The `pytest` script: the pytest process itself does not import from the repository's top
    # folder (`python -m pytest` would); the conftest, the ini file and PYTHONPATH still apply.
    process = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "pytest"), "-p", "no:cacheprovider", "--submission",
         "self_attention_lab.py", "--junitxml=report.xml", "-o", "junit_family=xunit1"],
        capture_output=True, text=True, timeout=180, cwd=hostile_repository)
    report = (hostile_repository / "report.xml").read_text("utf-8")
    assert process.returncode == 1, process.stdout + process.stderr
    assert "6 failed" in process.stdout, process.stdout
    assert scores_in(report) == {step.name: (0.0, step.points) for step in STEPS}
    assert "0 / 10" in process.stdout
