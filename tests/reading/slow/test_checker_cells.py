"""Untagged copies of Otter's checker cells (Colab, pasted notebooks) are recognised by what they
do and left out; a notebook gets the names a Jupyter kernel gives (display, get_ipython)."""
import json

import pytest

from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.render.feedback import as_dict
from autograder.sandbox.runner import Limits
from autograder.core.reading.notebook import does_only_checking
from conftest import CORPORA, ROOT
from labs.self_attention import LAB

CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")


def notebook(*sources):
    cells = [{"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
             for source in sources]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()


@pytest.fixture(scope="module")
def graded(zygote):
    plan = Plan.build(LAB)
    return lambda data: grade_bytes("colab.ipynb", data, zygote, plan, Limits(step_seconds=5, load_seconds=5))


@pytest.mark.parametrize("cells", [
    ("import otter\ngrader = otter.Notebook('self_attention_lab.ipynb')", CORRECT, 'grader.check("softmax")',
     "grader.check_all()", "grader.export(pdf=False)"),
    ("from otter import Notebook\ncheck = Notebook()", CORRECT, 'print(check.check("mix"))',
     "display(check.check_all())"),
    ("import otter\ngrader = otter.Notebook()", CORRECT,
     'for q in ["make_qkv", "scores", "softmax"]:\n    grader.check(q)'),
])
def test_untagged_checker_cells_leave_no_notes_and_cost_nothing(graded, cells):
    result = graded(notebook(*cells))
    assert result.score == result.max_score and result.notes == []


def test_the_kernels_own_names_are_there(graded):
    result = graded(notebook(CORRECT, "import pandas as pd\ndisplay(pd.DataFrame([[1.0]]))",
                             "get_ipython().run_line_magic('matplotlib', 'inline')"))
    assert result.score == result.max_score and result.notes == []


def test_a_cell_with_work_besides_a_check_still_runs_and_its_error_is_noted(graded):
    result = graded(notebook(CORRECT, "x = 1\ngrader.check('softmax')"))
    assert result.score == result.max_score
    (note,) = as_dict(result, LAB, "en")["notes"]
    assert note["code"] == "load_error" and note["type"] == "NameError"


def test_only_checking_is_told_by_what_a_cell_does():
    graders = set()
    assert does_only_checking("import otter\ng = otter.Notebook()", graders) and graders == {"g"}
    assert does_only_checking("g.check('x')\nprint(g.check_all())", graders)
    assert not does_only_checking("other.check('x')", graders)
    assert not does_only_checking("import otter\ng.check('x')\ny = 2", graders)
    assert not does_only_checking("import numpy as np", graders)
    assert not does_only_checking("", graders) and not does_only_checking("def f(:", graders)
    assert does_only_checking("for q in ['a', 'b']:\n    g.check(q)", graders)
    assert not does_only_checking("for q in ['a', 'b']:\n    g.check(q)\n    print(q)", graders)


STACKED = CORRECT.replace("    return X @ W_Q, X @ W_K, X @ W_V",
                          "    Q, K, V = X @ np.stack([W_Q, W_K, W_V])\n    return Q, K, V")


# A loop over at most six columns of X: right on every public test (d_model ≤ 6), wrong on the
# hidden one where d_model = 8.
SIX_COLUMNS = CORRECT.replace("    return X @ W_Q, X @ W_K, X @ W_V", """    outputs = []
    for W in (W_Q, W_K, W_V):
        out = np.zeros((X.shape[0], W.shape[1]))
        for k in range(min(X.shape[1], 6)):
            out += np.outer(X[:, k], W[k])
        outputs.append(out)
    return tuple(outputs)""")


def test_a_failure_on_hidden_cases_names_their_shapes_never_their_values(zygote):
    """A loop that stops at six columns fails only where d_model = 8: the student learns which
    shapes those were."""
    from labs.self_attention.hidden import hidden_cases

    result = grade_bytes("six.py", SIX_COLUMNS.encode(), zygote, Plan.build(LAB), Limits(step_seconds=5))
    assert result.steps[0].status == "failed" and all(c.passed for c in result.steps[0].cases if not c.hidden)
    korean = as_dict(result, LAB, "ko")["steps"][0]["feedback"]
    english = as_dict(result, LAB, "en")["steps"][0]["feedback"]
    assert "숨은 테스트 '2번'에서 함수가 받은 인자의 모양: X (4, 8), W_Q (8, 5), W_K (8, 5), W_V (8, 6). 이 가운데 페이지의 예제와 모양이 다른 것: X, W_Q, W_K, W_V." in korean
    assert "Hidden case 'hidden-2' calls the function with arguments of shapes X (4, 8)" in english
    hidden = {case.name: case for case in hidden_cases()}
    for value in hidden["hidden-2"].X.ravel()[:6]:
        assert f"{value:.1f}" not in korean.split("'2번'")[1].split("\n")[0].replace("(4, 8)", "")


def test_stacked_weights_are_named_on_the_public_test_where_d_v_differs(zygote):
    result = grade_bytes("stack.py", STACKED.encode(), zygote, Plan.build(LAB), Limits(step_seconds=5))
    step = result.steps[0]
    assert step.mistakes == ["stacked_weights"]
    korean = as_dict(result, LAB, "ko")["steps"][0]["feedback"]
    assert "공개 테스트 '큰 값'" in korean and "d_k = 2, d_v = 5" in korean
    assert "의 입력 모양" not in korean  # the public test shows it already: no hidden shapes repeated


def test_a_misspelled_function_name_gets_a_did_you_mean(zygote):
    text = CORRECT.replace("def softmax(x):", "def sofmax(x):").replace("weights = softmax(", "weights = sofmax(")
    result = grade_bytes("s.py", text.encode(), zygote, Plan.build(LAB), Limits(step_seconds=5))
    softmax = next(s for s in as_dict(result, LAB, "ko")["steps"] if s["name"] == "softmax")
    assert softmax["status"] == "missing"
    assert "이름이 비슷한 함수가 있습니다: sofmax. 함수 이름을 softmax(으)로 고치십시오." in softmax["feedback"]


def test_a_module_the_grader_lacks_is_named_as_the_cause_of_the_steps_it_breaks(zygote):
    text = CORRECT.replace("import pandas as pd\n", "import pandas as pd\nfrom scipy.special import softmax as sp\n")
    text = text.replace("    x = np.asarray(x, dtype=float)\n", "    return sp(x, axis=-1)\n")
    result = grade_bytes("s.py", text.encode(), zygote, Plan.build(LAB), Limits(step_seconds=5))
    report = as_dict(result, LAB, "ko")
    softmax = next(s for s in report["steps"] if s["name"] == "softmax")
    assert softmax["mistakes"] == ["missing_module"]
    assert "짐작되는 원인: scipy 모듈을 불러오지 못해" in softmax["feedback"]
    assert [n["type"] for n in report["notes"]] == ["ModuleNotFoundError"]
    assert all(s["mistakes"] == [] for s in report["steps"] if s["name"] != "softmax")


# The course's own set-up cell, untagged (Colab drops cell metadata) --------------------------------

import importlib.util  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import nbformat  # noqa: E402
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from autograder.core.reading.submission import read_submission  # noqa: E402

AUTHORING = ROOT / "autograder" / "authoring"


def assignment_module(name):
    spec = importlib.util.spec_from_file_location(f"assignment_{name}", AUTHORING / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_notebook, fill = assignment_module("build_notebook"), assignment_module("fill")
# What Colab, a copy-paste or an old Jupyter leaves of a notebook: no cell metadata, no tags.
NOTES_OF_THE_SET_UP_CELL = ("PermissionError", "NameError", "grader", "pip", "otter", "site-packages",
                            "/usr/", "/tmp/", "/autograder")


def untagged(notebook):
    for cell in notebook.cells:
        cell.metadata = {}
    return notebook


# The set-up cell as notebooks handed out earlier have it (no stand-in: its pip install raises).
EARLIER_SET_UP = (CORPORA / "setup_cells" / "grader_setup_2024.py").read_text("utf-8")


def lab_notebook(filled=True, set_up=None):
    notebook = nbformat.read(str(LAB.assignment_file(LAB.notebook)), as_version=4)
    if set_up is not None:
        for cell in notebook.cells:
            if "grader-init" in cell.metadata.get("tags", []):
                cell.source = set_up
    return untagged(fill.fill_notebook(notebook) if filled else notebook)


@pytest.mark.parametrize("source", [build_notebook.grader_setup_source("ko"),
                                    build_notebook.grader_setup_source("en"), EARLIER_SET_UP,
                                    # as an older notebook has it: no version check, no stand-in
                                    "def _prepare_grader(key='check_kit'):\n    import os, otter\n"
                                    "    if os.path.isdir('tests'):\n        return otter.Notebook(tests_dir='tests')\n"
                                    "    raise RuntimeError('no data')\n\n\ngrader = _prepare_grader()\n"])
def test_the_set_up_cell_is_told_by_what_it_does(source):
    graders = set()
    assert does_only_checking(source, graders) and graders == {"grader"}
    assert does_only_checking('grader.check("softmax")', graders)
    assert does_only_checking("grader.check_all()", graders) and does_only_checking("grader.export(pdf=False)", graders)


@pytest.mark.parametrize("source", [
    "def make():\n    return otter.Notebook()\n",  # defined, never used to make a grader
    "def make():\n    global softmax\n    softmax = len\n    return otter.Notebook()\ng = make()",
    "def make():\n    return 1\ng = make()",
    "def make():\n    def inner():\n        return otter.Notebook()\n    return inner\ng = make()",
    "@decorated\ndef make():\n    return otter.Notebook()\ng = make()",
    "def make():\n    return otter.Notebook()\ng = make()\ndef softmax(x):\n    return x",
    "def make():\n    return otter.Notebook()\ng = make()\nX = 1",
    "def make():\n    return otter.Notebook()\ng = other()",
])
def test_work_beside_a_set_up_function_is_never_left_out(source):
    assert not does_only_checking(source, set())


TOKENS = list("abgrd_ .()=:\n\t'\"[]{}@#%!0123456789") + [
    "def ", "return ", "otter.Notebook(", "global ", "import otter\n", "grader", ".check(", "for q in x:\n    ",
    "class C:\n    ", "lambda: ", "    ", "\n"]
STATEMENTS = ["return otter.Notebook()", "return Notebook(tests_dir='t')", "return 1", "return", "x = 1",
              "global softmax", "nonlocal x", "import otter", "def helper():", "class Helper:", "if x:",
              "for q in y:", "while False:", "try:", "except Exception:", "grader.check(q)", "pass",
              "return NoChecks('m')", "yield 1", "lambda: otter.Notebook()", "async def a():", "await b"]


@st.composite
def cells(draw):
    """Cells shaped like set-up cells: a function of random statements at random depths, and
    what follows it (most parse; some do not, as pasted cells may not)."""
    lines = [f"def {draw(st.sampled_from(['make', '_prepare_grader', 'softmax']))}():"]
    for statement in draw(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=12)):
        lines.append("    " * draw(st.integers(1, 3)) + statement)
    lines += draw(st.lists(st.sampled_from(["grader = make()", "grader = _prepare_grader()", "g = softmax()",
                                            "grader.check('softmax')", "X = 1", "import otter"]), max_size=3))
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(st.sampled_from(TOKENS), max_size=80).map("".join), cells()))
def test_the_recogniser_never_raises(source):
    graders = {"grader"}
    assert does_only_checking(source, graders) in (True, False)
    # The student's work is never left out: a definition that makes no Notebook, a global, a value.
    if "X = 1" in source or "global softmax" in source or ("def softmax" in source and "Notebook(" not in source):
        assert not does_only_checking(source, set())


@pytest.mark.parametrize("source", [
    "x = " + "a." * 200_000 + "b",  # an attribute chain deeper than any recursion limit
    "g = " + "a." * 100_000 + "Notebook()",
    "def make():\n" + "    x = 1\n" * 20_000 + "    return otter.Notebook()\ng = make()",  # past the node budget
    "def make():\n    return " + "(" * 150 + "otter.Notebook()" + ")" * 150 + "\ng = make()",
])
def test_the_recogniser_neither_recurses_nor_raises_on_deep_or_long_cells(source):
    graders = set()
    assert does_only_checking(source, graders) in (True, False)
    assert not does_only_checking(source.replace("otter.Notebook()", "1"), set())


def test_an_untagged_notebook_reads_as_the_students_work_only():
    submission = read_submission("colab.ipynb", nbformat.writes(lab_notebook(filled=False)).encode())
    sources = "\n".join(cell["source"] for cell in submission.cells)
    assert "_prepare_grader" not in sources and "grader." not in sources and "import otter" not in sources
    assert all(f"def {name}(" in sources for name in LAB.function_names)


@pytest.mark.parametrize("set_up", [None, EARLIER_SET_UP], ids=["set-up", "earlier-set-up"])
@pytest.mark.parametrize("filled", [True, False], ids=["filled", "stubs"])
def test_an_untagged_notebook_is_graded_as_the_tagged_one(graded, filled, set_up):
    """The same score, steps and notes as the notebook with its tags: no note about the set-up or
    the check cells, and none about the stubs' demo cells either (each says in the student's kernel
    that its step is unfinished; while grading, display() shows nothing)."""
    tagged = nbformat.read(str(LAB.assignment_file(LAB.notebook)), as_version=4)
    tagged = fill.fill_notebook(tagged) if filled else tagged
    with_tags = graded(nbformat.writes(tagged).encode())
    without = graded(nbformat.writes(lab_notebook(filled, set_up)).encode())
    assert as_dict(without, LAB, "ko")["steps"] == as_dict(with_tags, LAB, "ko")["steps"]
    assert without.notes == with_tags.notes
    assert without.score == (without.max_score if filled else 0)
    assert without.notes == []


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "autograder", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd or ROOT)


def test_autograder_check_and_grade_leave_the_untagged_set_up_cell_out(tmp_path):
    path = tmp_path / "colab_copy.ipynb"
    nbformat.write(lab_notebook(set_up=EARLIER_SET_UP), path)
    checked = run_cli("check", str(path), "--lab", "self_attention")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "합계 10 / 10점" in checked.stdout
    for word in NOTES_OF_THE_SET_UP_CELL:
        assert word not in checked.stdout, word
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "kim_12345_99_lab.ipynb").write_bytes(path.read_bytes())
    graded_run = run_cli("grade", str(folder), "--out", str(tmp_path / "out"), "--lab", "self_attention")
    assert graded_run.returncode == 0, graded_run.stderr
    feedback = next((tmp_path / "out" / "feedback").glob("*.md")).read_text("utf-8")
    assert "합계 10 / 10점" in feedback and "불러오는 중에 생긴 문제" not in feedback


def test_the_students_own_check_leaves_the_untagged_set_up_cell_out(tmp_path):
    from autograder.otter import build as otter_build

    student = otter_build.build(tmp_path / "dist", LAB, self_check=False)["student"]
    path = tmp_path / "colab_copy.ipynb"
    nbformat.write(lab_notebook(set_up=EARLIER_SET_UP), path)
    done = subprocess.run([sys.executable, "-m", "lab_check", str(path)], cwd=student, capture_output=True,
                          text=True, timeout=300, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert done.returncode == 0, done.stdout + done.stderr
    for word in NOTES_OF_THE_SET_UP_CELL:
        assert word not in done.stdout, word


def test_on_the_gradescope_image_the_untagged_set_up_cell_is_left_out(gradescope_image):
    """Where otter-grader is not installed: the set-up cell would try pip, blocked by the sandbox."""
    image, zip_path = gradescope_image["image"], gradescope_image["zip"]

    def shown(notebook):
        run = image.grade(zip_path, {"self_attention_lab.ipynb": nbformat.writes(notebook).encode()},
                          private_mount=os.geteuid() == 0)
        assert run.returncode == 0, run.output
        return run.results["score"], json.dumps(
            [run.results.get("output", "")] + [t.get("output", "") for t in run.results["tests"]], ensure_ascii=False)

    for set_up in (None, EARLIER_SET_UP):
        score, filled = shown(lab_notebook(filled=True, set_up=set_up))
        assert score == 10
        for word in NOTES_OF_THE_SET_UP_CELL:
            assert word not in filled, word
    tagged_stubs = nbformat.read(str(LAB.assignment_file(LAB.notebook)), as_version=4)
    assert shown(lab_notebook(filled=False)) == shown(tagged_stubs)
    assert "'grader' is not defined" not in shown(lab_notebook(filled=False))[1]
