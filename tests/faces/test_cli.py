"""`autograder check` as a student uses it: exit codes, the JSON contract, bad input."""
import ast
import json
import subprocess
import sys

import nbformat
import pytest

from conftest import ROOT

REFERENCE = ROOT / "solutions" / "self_attention.py"
STEP_NAMES = ["make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended"]
STATUSES = {"passed", "failed", "error", "timeout", "missing", "not_implemented"}


def check(*args):
    process = subprocess.run([sys.executable, "-m", "autograder", "check", *map(str, args)],
                             capture_output=True, text=True, timeout=120)
    return process


def check_json(path, *extra):
    process = check(path, "--json", *extra)
    return process.returncode, json.loads(process.stdout)


def stubbed_reference():
    """The reference with every step's body replaced by `raise NotImplementedError`."""
    tree = ast.parse(REFERENCE.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            node.body = [node.body[0], ast.parse("raise NotImplementedError").body[0]]
    return ast.unparse(tree)


def as_notebook(*sources):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    return nbformat.writes(notebook)


def assert_contract(report):
    assert set(report) == {"submission", "lab", "score", "max_score", "steps", "notes"}
    for note in report["notes"]:
        assert {"code", "text"} <= set(note) and isinstance(note["text"], str)
    assert [step["name"] for step in report["steps"]] == STEP_NAMES
    for step in report["steps"]:
        assert set(step) == {"name", "score", "max_score", "status", "mistakes", "feedback"}
        assert step["status"] in STATUSES
        assert isinstance(step["score"], float) and isinstance(step["max_score"], float)
        assert all(isinstance(code, str) for code in step["mistakes"])
        assert isinstance(step["feedback"], str) and step["feedback"]
    assert report["score"] == pytest.approx(sum(s["score"] for s in report["steps"]))
    assert report["max_score"] == sum(s["max_score"] for s in report["steps"])


def test_reference_gets_full_marks_and_exit_0():
    code, report = check_json(REFERENCE)
    assert code == 0
    assert_contract(report)
    assert report["score"] == report["max_score"] == 10.0
    assert all(step["status"] == "passed" and step["mistakes"] == [] for step in report["steps"])


def test_reference_as_notebook_with_magics_and_prints(tmp_path):
    marker = tmp_path / "shell-escape-ran"
    notebook = tmp_path / "filled.ipynb"
    notebook.write_text(as_notebook(
        "%matplotlib inline\nimport numpy as np\n!touch " + str(marker),
        "%%bash\ntouch " + str(marker),
        "files = !ls\nprint('demo output at the top level')\nnp.sum?",
        REFERENCE.read_text(encoding="utf-8"),
        "print(softmax(np.array([1.0, 2.0])))",
    ), encoding="utf-8")
    code, report = check_json(notebook)
    assert code == 0, report
    assert report["score"] == 10.0
    assert not marker.exists(), "shell escapes must not run"


def test_untouched_stubs_are_not_implemented(tmp_path):
    stubs = tmp_path / "stubs.py"
    stubs.write_text(stubbed_reference(), encoding="utf-8")
    code, report = check_json(stubs)
    assert code == 1
    assert_contract(report)
    assert [s["status"] for s in report["steps"]] == ["not_implemented"] * 6
    assert report["score"] == 0.0


def test_ellipsis_stubs_are_not_implemented(tmp_path):
    stubs = tmp_path / "dots.py"
    stubs.write_text("".join(f"def {name}(*args):\n    '''todo'''\n    ...\n" for name in STEP_NAMES))
    code, report = check_json(stubs)
    assert [s["status"] for s in report["steps"]] == ["not_implemented"] * 6


def test_text_feedback_is_korean_by_default_and_english_on_request(tmp_path):
    stubs = tmp_path / "stubs.py"
    stubs.write_text(stubbed_reference(), encoding="utf-8")
    korean = check(stubs)
    english = check(stubs, "--lang", "en")
    assert korean.returncode == english.returncode == 1
    assert "아직 구현" in korean.stdout and "합계" in korean.stdout
    assert "not implemented" in english.stdout and "Total" in english.stdout


@pytest.mark.parametrize("args", [["check"], ["check", "/no/such/file.py"], ["nope"],
                                  ["check", "x.py", "--lang", "fr"]])
def test_grader_cannot_run_exits_2(args):
    process = subprocess.run([sys.executable, "-m", "autograder", *args], capture_output=True,
                             text=True, timeout=60)
    assert process.returncode == 2
    assert "Traceback" not in process.stderr


@pytest.mark.parametrize("name, content, problem", [
    ("broken.ipynb", b'{"cells": [', "notebook_not_json"),
    ("empty.py", b"", "empty"),
    ("latin.py", "def softmax(x):\n    return 'caf\u00e9'\n".encode("latin-1"), "not_utf8"),
    ("weird.ipynb", b'{"cells": 3}', "notebook_malformed"),
])
def test_unreadable_files_are_graded_as_broken(tmp_path, name, content, problem):
    path = tmp_path / name
    path.write_bytes(content)
    # A broken file cannot say which lab it is for: with several labs installed, --lab does.
    unnamed = check(path, "--json")
    assert unnamed.returncode == 2 and "--lab" in unnamed.stderr and not unnamed.stdout
    code, report = check_json(path, "--lab", "self_attention")
    assert code == 1
    assert_contract(report)
    for step in report["steps"]:
        assert step["status"] == "error" and step["mistakes"] == [problem]
    assert "Traceback" not in json.dumps(report)


def test_syntax_error_names_the_line_and_other_cells_still_count(tmp_path):
    source = REFERENCE.read_text(encoding="utf-8")
    notebook = tmp_path / "syntax.ipynb"
    notebook.write_text(as_notebook(source.replace("def most_attended", "def unused"),
                                    "def most_attended(weights, words)\n    return {}\n"), encoding="utf-8")
    code, report = check_json(notebook, "--lang", "en")
    assert code == 1
    by_name = {s["name"]: s for s in report["steps"]}
    assert by_name["most_attended"]["status"] == "missing"
    assert "syntax_error" in by_name["most_attended"]["mistakes"]
    assert "<cell 2> line 1: syntax error" in by_name["most_attended"]["feedback"]
    assert all(by_name[n]["status"] == "passed" for n in STEP_NAMES[:-1])


def test_exception_shows_the_students_line_not_the_graders(tmp_path):
    source = REFERENCE.read_text(encoding="utf-8").replace(
        "return weights @ V", "return weights @ V[:, :, None].squeeze(3)")
    path = tmp_path / "raises.py"
    path.write_text(source, encoding="utf-8")
    code, report = check_json(path, "--lang", "en")
    mix = next(s for s in report["steps"] if s["name"] == "mix")
    assert mix["status"] == "error" and mix["mistakes"] == ["exception"]
    assert "raises.py line" in mix["feedback"] and "squeeze(3)" in mix["feedback"]
    assert "autograder/" not in mix["feedback"] and "Traceback" not in mix["feedback"]
    # self_attention is graded with the reference's mix, so it keeps its points.
    assert next(s for s in report["steps"] if s["name"] == "self_attention")["status"] == "passed"


def test_nan_and_wrong_type_are_named(tmp_path):
    source = REFERENCE.read_text(encoding="utf-8")
    source = source.replace("return Q @ K.T", "return (Q @ K.T) * float('nan')")
    source = source.replace("return weights @ V", "return 'weights @ V'")
    path = tmp_path / "odd.py"
    path.write_text(source, encoding="utf-8")
    _, report = check_json(path)
    by_name = {s["name"]: s for s in report["steps"]}
    assert by_name["scores"]["mistakes"] == ["not_finite"]
    assert by_name["mix"]["mistakes"] == ["wrong_type"]
    assert [n for n in STEP_NAMES if by_name[n]["status"] == "passed"] == [
        "make_qkv", "softmax", "self_attention", "most_attended"]


def test_missing_function_is_reported_as_missing(tmp_path):
    source = REFERENCE.read_text(encoding="utf-8").replace("def softmax", "def soft_max")
    path = tmp_path / "renamed.py"
    path.write_text(source, encoding="utf-8")
    _, report = check_json(path, "--lang", "en")
    softmax = next(s for s in report["steps"] if s["name"] == "softmax")
    assert softmax["status"] == "missing" and softmax["mistakes"] == ["missing"]
    assert "'softmax'" in softmax["feedback"]


def test_limit_flags_reach_the_sandbox(tmp_path):
    from autograder.cli import build_parser, options_of

    def limits_from(argv):
        return options_of(build_parser().parse_args(argv)).limits.limits()

    limits = limits_from(["check", "x.py", "--timeout", "3", "--memory-mb", "512",
                          "--processes", "8", "--disk-mb", "5", "--no-sandbox"])
    assert (limits.step_seconds, limits.memory_bytes, limits.processes, limits.disk_bytes) == (
        3.0, 512 * 1024 * 1024, 8, 5 * 1024 * 1024)
    assert limits.user is None and limits.confine is False
    assert limits_from(["check", "x.py"]).confine is True


def test_bad_limit_is_a_usage_error(tmp_path):
    path = tmp_path / "a.py"
    path.write_text("x = 1\n")
    process = check(path, "--timeout", "0")
    assert process.returncode == 2 and "--timeout" in process.stderr


def test_checker_cells_of_the_student_notebook_are_not_graded(tmp_path):
    """Cells tagged as the notebook's self-check plumbing never run as the student's work."""
    tagged = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("raise SystemExit('grader-init ran')", metadata={"tags": ["grader-init"]}),
        nbformat.v4.new_code_cell(REFERENCE.read_text(encoding="utf-8"), metadata={"tags": ["step:softmax"]}),
        nbformat.v4.new_code_cell("1 / 0", metadata={"tags": ["check:softmax"]}),
        nbformat.v4.new_code_cell("undefined_name", metadata={"tags": ["check-all"]}),
        nbformat.v4.new_code_cell("undefined_name", metadata={"tags": ["export"]}),
        nbformat.v4.new_code_cell("shown = 1 / 0"),
    ])
    tagged.cells[-1].metadata["tags"] = "not-a-list"  # as a hand-edited file might have it
    path = tmp_path / "tagged.ipynb"
    path.write_text(json.dumps(tagged), encoding="utf-8")
    code, report = check_json(path, "--lang", "en")
    assert code == 0 and report["score"] == 10.0
    text = check(path, "--lang", "en").stdout
    assert "<cell 6> line 1: ZeroDivisionError" in text
    assert "<cell 1>" not in text and "<cell 3>" not in text and "NameError" not in text


def test_a_sandbox_that_cannot_start_is_the_graders_failure(zygote, monkeypatch, tmp_path):
    """A child that dies before any student line runs is no student's fault: nothing is graded."""
    from autograder.grading import grade_bytes
    from autograder.grading.plan import Plan
    from autograder.grading.runs import SandboxError
    from labs.self_attention import LAB

    # A working directory that does not exist: every child fails while it is being set up.
    monkeypatch.setattr(zygote, "workdir_for", lambda limits: str(tmp_path / "gone"))
    with pytest.raises(SandboxError):
        grade_bytes("a.py", REFERENCE.read_bytes(), zygote, Plan.build(LAB))
