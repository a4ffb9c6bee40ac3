"""Untagged copies of Otter's checker cells (Colab, pasted notebooks) are recognised by what they
do and left out; a notebook gets the names a Jupyter kernel gives (display, get_ipython)."""
import json

import pytest

from autograder.grading import Plan, grade_bytes
from autograder.render import as_dict
from autograder.sandbox.runner import Limits
from autograder.submission import does_only_checking
from conftest import ROOT
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
    assert "숨은 테스트 'hidden-2'에 쓴 입력의 모양: X (4, 8), W_Q (8, 5), W_K (8, 5), W_V (8, 6). 이 가운데 페이지의 예제와 모양이 다른 것: X, W_Q, W_K, W_V." in korean
    assert "Hidden case 'hidden-2' has inputs of shapes X (4, 8)" in english
    hidden = {case.name: case for case in hidden_cases()}
    for value in hidden["hidden-2"].X.ravel()[:6]:
        assert f"{value:.1f}" not in korean.split("hidden-2")[1].split("\n")[0].replace("(4, 8)", "")


def test_stacked_weights_are_named_on_the_public_test_where_d_v_differs(zygote):
    result = grade_bytes("stack.py", STACKED.encode(), zygote, Plan.build(LAB), Limits(step_seconds=5))
    step = result.steps[0]
    assert step.mistakes == ["stacked_weights"]
    korean = as_dict(result, LAB, "ko")["steps"][0]["feedback"]
    assert "공개 테스트 'large'" in korean and "d_k = 2, d_v = 5" in korean
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
