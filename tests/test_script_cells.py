"""A .py is read as cells (its `# %%` marks, else its top-level definitions): one broken function
costs one step, and every message names the file's own line numbers."""
import sys

import pytest

from autograder.grading import Plan, grade_bytes
from autograder.render import as_text
from autograder.sandbox.runner import Limits
from autograder.submission import MAX_SCRIPT_CELLS, read_submission, script_cells
from conftest import ROOT
from labs.self_attention import LAB

sys.path.insert(0, str(ROOT / "assignments"))
import fill  # noqa: E402

sys.path.remove(str(ROOT / "assignments"))

PLAIN = (ROOT / "samples" / "correct.py").read_text("utf-8")
BROKEN_SOFTMAX = PLAIN.replace("    shifted = np.exp(x - x.max(axis=-1, keepdims=True))",
                               "    shifted = np.exp(x - x.max(axis=-1, keepdims=True)")


@pytest.fixture(scope="module")
def graded(zygote):
    plan = Plan.build(LAB)
    return lambda name, text: grade_bytes(name, text.encode(), zygote, plan, Limits(step_seconds=5, load_seconds=5))


def statuses(result):
    return {step.name: step.status for step in result.steps}


def test_one_unclosed_bracket_costs_its_own_step_only(graded):
    result = graded("mine.py", BROKEN_SOFTMAX)
    assert statuses(result) == {"make_qkv": "passed", "scores": "passed", "softmax": "missing", "mix": "passed",
                                "self_attention": "passed", "most_attended": "passed"}
    line = BROKEN_SOFTMAX.splitlines().index("    shifted = np.exp(x - x.max(axis=-1, keepdims=True)") + 1
    korean = as_text(result, LAB, "ko")
    assert f"mine.py {line}번째 줄: 문법 오류" in korean and "파일의 나머지는 실행했습니다" in korean
    assert "셀" not in korean.split("■")[0]  # a .py has no cells to speak of
    assert result.score == 8


def test_the_twin_splits_at_its_cell_marks(graded):
    twin = fill.fill_script(LAB.assignment_file(LAB.script).read_text("utf-8"), keep_checks=False, lab=LAB)
    broken = twin.replace("return weights @ V", "return weights @ V)", 1)
    assert broken != twin
    result = graded("self_attention_lab.py", broken)
    assert statuses(result)["mix"] == "missing"
    assert [s for s, status in statuses(result).items() if status != "passed"] == ["mix"]


def test_a_runtime_error_names_the_files_own_line(graded):
    text = PLAIN.replace("def mix(weights, V):\n    return weights @ V",
                         "def mix(weights, V):\n    raise ValueError('no')")
    line = text.splitlines().index("    raise ValueError('no')") + 1
    result = graded("mine.py", text)
    assert f"mine.py {line}번째 줄(mix)" in as_text(result, LAB, "ko")


def test_a_file_that_compiles_stays_one_cell():
    assert len(script_cells(PLAIN, "a.py")) == 1
    # A string that only looks like definitions is never cut.
    assert len(script_cells('"""\ndef f(:\n"""\ndef g():\n    pass\n', "a.py")) == 1


def test_decorators_and_comments_stay_with_their_function():
    text = "import functools\n\n# the row softmax\n@functools.lru_cache\ndef f(x):\n    return x(\n\n\nclass A:\n    pass\n"
    cells = script_cells(text, "a.py")
    assert len(cells) == 3
    assert all(cell["source"].splitlines()[:0] == [] for cell in cells)
    decorated = next(cell["source"] for cell in cells if "def f" in cell["source"])
    assert "@functools.lru_cache" in decorated
    # Padding keeps every line where it was in the file.
    for cell in cells:
        for number, line in enumerate(cell["source"].splitlines()):
            assert not line.strip() or line == text.splitlines()[number]


def test_files_split_too_finely_or_too_long_stay_whole():
    many = "".join(f"def f{i}():\n    pass\n" for i in range(MAX_SCRIPT_CELLS + 5))
    assert len(script_cells(many, "a.py")) == 1
    assert len(read_submission("x.py", ("x = 1\n" * 10_000 + "def f():\n    pass\n").encode()).cells) == 1


def test_json_output_carries_the_load_notes_with_their_line_and_cause(graded):
    from autograder.render import as_dict

    result = graded("mine.py", BROKEN_SOFTMAX)
    line = BROKEN_SOFTMAX.splitlines().index("    shifted = np.exp(x - x.max(axis=-1, keepdims=True)") + 1
    for lang, words in (("ko", "번째 줄"), ("en", "line")):
        (note,) = as_dict(result, LAB, lang)["notes"]
        assert note["code"] == "syntax_error" and note["line"] == line and note["file"] == "mine.py"
        assert "cell" not in note and words in note["text"]
