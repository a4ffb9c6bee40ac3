"""A .py is read as cells (its `# %%` marks, else its top-level definitions): one broken function
costs one step, and every message names the file's own line numbers."""
import pathlib
import sys
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.render.feedback import as_text
from autograder.sandbox.runner import Limits
from autograder.core.reading.budget import MAX_SCRIPT_CELLS
from autograder.core.reading.script import script_cells
from autograder.core.reading.submission import read_submission
from conftest import ROOT
from labs.self_attention import LAB

from autograder.authoring import fill


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
    from autograder.core.render.feedback import as_dict

    result = graded("mine.py", BROKEN_SOFTMAX)
    line = BROKEN_SOFTMAX.splitlines().index("    shifted = np.exp(x - x.max(axis=-1, keepdims=True)") + 1
    for lang, words in (("ko", "번째 줄"), ("en", "line")):
        (note,) = as_dict(result, LAB, lang)["notes"]
        assert note["code"] == "syntax_error" and note["line"] == line and note["file"] == "mine.py"
        assert "cell" not in note and words in note["text"]


# The cut never falls inside a string ------------------------------------------------------------
# A file is built from blocks whose lines inside a string (or any multi-line token) are known; a cell
# may start at none of them, whatever syntax errors surround them, on every Python the grader runs on.

BLOCKS = [  # (text, indexes of its lines that lie inside a string token)
    ("x = 1\n", ()),
    ("def f():\n    return 1\n", ()),
    ("@decorator\ndef g():\n    pass\n", ()),
    ("# %%\n", ()),
    ("    # %%\n", ()),  # indented: not a mark
    ("x = 1  # %%\n", ()),  # after code: not a mark
    ('S = """\n# %%\ndef softmax(x):\n    return x\n"""\n', (1, 2, 3, 4)),
    ("S = '''\n# %%\n@decorator\ndef h():\n'''\n", (1, 2, 3, 4)),
    ('B = rb"""\n# %%\nclass C:\n"""\n', (1, 2, 3)),
    ('F = f"""\n# %%\n{1 + 1}\ndef softmax(x):\n"""\n', (1, 2, 3, 4)),
    ("s = 'abc\\\n# %%\\\ndef f():\\\n'\n", (1, 2, 3)),  # a single-quoted string continued by backslashes
    ('N = """# %%"""\n', ()),
    ("def broken(:\n", ()),
    ("x = (]\n", ()),
    ("x = $\n", ()),
    ("  y = 2\n", ()),
    ("x = 1abc\n", ()),
    ("x = 'unterminated\n", ()),
    ("x = (1,\n", ()),
    ('x = f"{1 +"\n', ()),  # an f-string that never closes its field
    ("x = f'{'\n", ()),
    ("if x:\n\tif y:\n        pass\n", ()),  # tabs and spaces mixed
]
TAILS = [("", ()), ('tail = """\n# %%\ndef softmax(x):\n', (1, 2))]  # a string that never ends


def build(blocks, tail, crlf):
    text, inside = "", set()
    for block, lines in [*blocks, tail]:
        start = text.count("\n")
        inside |= {start + line for line in lines}
        text += block
    return (text.replace("\n", "\r\n") if crlf else text), inside


def cell_starts(cells):
    """The line each cell starts at: its padding (a cut line is never blank)."""
    return [len(cell["source"]) - len(cell["source"].lstrip("\n")) for cell in cells]


def assert_cut_outside_strings(text, inside, cells):
    starts = cell_starts(cells)
    assert not set(starts[1:]) & inside, (starts, sorted(inside))
    lines = text.split("\n")
    kept = []
    for cell, start in zip(cells, starts):
        own = cell["source"].split("\n")[start:]
        assert own[:-1] == lines[start:start + len(own) - 1]  # every line where it is in the file
        kept.extend(own)
    assert [line for line in kept if line.strip()] == [line for line in lines if line.strip()]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(BLOCKS), max_size=14), st.sampled_from(TAILS), st.booleans())
def test_no_cell_starts_inside_a_string(blocks, tail, crlf):
    text, inside = build(blocks, tail, crlf)
    cells = script_cells(text, "a.py")
    assert_cut_outside_strings(text, inside, cells)
    if len(cells) > 1:  # cut because it does not compile: at every real mark before any endless string
        mark_lines = [i for i, line in enumerate(text.split("\n")) if line.rstrip("\r") == "# %%" and i not in inside]
        assert set(mark_lines) <= set(cell_starts(cells)) | {0}


def test_a_mark_inside_a_string_is_no_cell_boundary():
    text = 'x = 1\nNOTES = """\n# %%\ndef softmax(x):\n    return x\n"""\n# %%\ndef mix(w, V)\n    return w\n'
    cells = script_cells(text, "a.py")
    assert cell_starts(cells) == [0, 6]
    assert "def softmax" in cells[0]["source"]  # still inside NOTES, with the string around it


def test_only_a_comment_of_its_own_at_column_zero_is_a_mark():
    text = "x = (\n    # %%\n1)  # %%\ny = 'a # %%'\n# %%  the real one\ndef f(:\n"
    assert cell_starts(script_cells(text, "a.py")) == [0, 4]


def test_a_string_that_never_ends_is_never_cut_after_its_start():
    text = "# %%\ndef f(:\n# %%\ns = '''\n# %%\ndef softmax(x):\n    return 1\n"
    assert cell_starts(script_cells(text, "a.py")) == [0, 2]


def test_lines_too_long_to_tokenize_cheaply_or_ended_by_a_lone_cr_keep_the_file_whole():
    from autograder.core.reading.budget import BUDGET

    broken = "# %%\ndef f(:\n# %%\ndef g():\n    pass\n"
    assert len(script_cells(broken, "a.py")) == 2
    assert len(script_cells(broken + "x = " + "1" * BUDGET.token_line_chars + "\n", "a.py")) == 1
    assert len(script_cells(broken.replace("\n", "\r"), "a.py")) == 1


def test_tokenizer_errors_are_stepped_over_a_bounded_number_of_times():
    import tokenize

    from autograder.core.reading.budget import BUDGET

    calls = []
    real = tokenize.generate_tokens

    def counted(readline):
        calls.append(1)
        return real(readline)

    text = "".join(f"# %%\nx{i} = 'open\ndef f{i}(:\n" for i in range(40))
    with mock.patch.object(tokenize, "generate_tokens", counted):
        cells = script_cells(text, "a.py")
    assert len(calls) <= BUDGET.token_restarts + 1
    assert len(cells) >= 2


CROSS_VERSION = """
import json, sys
sys.path.insert(0, sys.argv[1])
from autograder.core.reading.script import script_cells
cases = json.loads(sys.stdin.read())
print(json.dumps([[len(c["source"]) - len(c["source"].lstrip("\\n")) for c in script_cells(text, "a.py")]
                  for text in cases]))
"""


def test_every_python_the_grader_runs_on_cuts_the_same_lines_outside_strings():
    import json
    import random
    import subprocess

    rng = random.Random(20)
    cases = [build([rng.choice(BLOCKS) for _ in range(rng.randint(1, 12))], rng.choice(TAILS), rng.random() < 0.2)
             for _ in range(150)]
    ran = 0
    for version in ("3.11", "3.12", "3.13"):
        pythons = sorted(pathlib.Path("/root/.pyenv/versions").glob(f"{version}.*/bin/python"))
        if not pythons:
            continue
        done = subprocess.run([str(pythons[-1]), "-I", "-c", CROSS_VERSION, str(ROOT)], capture_output=True,
                              text=True, input=json.dumps([text for text, _ in cases]), timeout=300)
        assert done.returncode == 0, done.stderr
        for (text, inside), starts in zip(cases, json.loads(done.stdout)):
            assert not set(starts[1:]) & inside, (version, text, starts)
            assert starts == cell_starts(script_cells(text, "a.py")), (version, text)
        ran += 1
    if not ran:
        pytest.skip("no pyenv Python 3.11-3.13 on this machine")
