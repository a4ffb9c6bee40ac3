"""`pytest --submission PATH`: one test per step, failures carry the step's feedback."""
import subprocess
import sys

from conftest import ROOT

REFERENCE = ROOT / "solutions" / "attention.py"


def run_pytest(tmp_path, submission, *extra):
    report = tmp_path / "report.xml"
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--submission", str(submission),
         f"--junitxml={report}", "-o", "junit_family=xunit1", *extra],
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
    return process, report.read_text(encoding="utf-8") if report.exists() else ""


def test_reference_passes_six_tests(tmp_path):
    process, report = run_pytest(tmp_path, REFERENCE)
    assert process.returncode == 0, process.stdout
    assert "6 passed" in process.stdout
    for name in ("make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended"):
        assert f'name="{name}"' in report
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


def test_missing_submission_is_a_usage_error(tmp_path):
    process, _ = run_pytest(tmp_path, tmp_path / "nothing.py")
    assert process.returncode != 0
    assert "no such file" in process.stdout + process.stderr


def test_option_absent_leaves_ordinary_runs_alone(tmp_path):
    (tmp_path / "test_plain.py").write_text("def test_ok():\n    assert True\n")
    process = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                             capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert process.returncode == 0 and "1 passed" in process.stdout
