"""Lab 1's reference finds each word's most attended word without pandas (the grader's process loads
none: only students' code needs it, and the sandbox's zygote has it loaded), and finds the same word
pandas' idxmax does, the first of a tie, on any table of weights and any words."""
import ast
import pathlib
import subprocess
import sys

import numpy as np
import pandas as pd
from hypothesis import given, strategies as st

from labs.self_attention.steps import _tied_rows
from solutions import self_attention as solution

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORDS = st.lists(st.text(min_size=1, max_size=4), min_size=1, max_size=7, unique=True)


@given(WORDS, st.integers(0, 2 ** 32 - 1), st.sampled_from(["random", "tied", "grid"]))
def test_the_reference_picks_the_word_pandas_idxmax_picks(words, seed, form):
    n = len(words)
    rng = np.random.default_rng(seed)
    weights = rng.dirichlet(np.ones(n), size=n)
    if form == "tied":
        weights = _tied_rows(weights, words)
    elif form == "grid":  # few distinct values: ties on most rows, in any place
        weights = rng.integers(0, 3, size=(n, n)).astype(float)
    expected = pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
    assert solution.most_attended(weights, list(words)) == expected
    solution.pd = pd  # the notebook's `import pandas as pd`, which the written form reads
    try:
        assert solution.most_attended__pandas(weights, list(words)) == expected
    finally:
        del solution.pd


def test_every_written_form_of_a_step_is_read_for_grafts_under_the_step_s_name():
    from autograder.repair.grafts import written_forms

    forms = written_forms("solutions.self_attention", "most_attended")
    assert [form.name for form in forms] == ["most_attended"]
    assert "idxmax" in ast.unparse(forms[0])
    assert written_forms("solutions.self_attention", "softmax") == ()


def test_checking_a_file_loads_no_pandas_in_the_grader(tmp_path):
    """Every lab's plan built and a file graded, in a fresh process: pandas is never imported
    there (it would be a tenth of a second on every `check`, beside the zygote's own import)."""
    script = (
        "import sys\n"
        "from autograder import registry\n"
        "from autograder.grading import grade_bytes\n"
        "from autograder.grading.plan import Plan\n"
        "from autograder.sandbox.runner import Zygote\n"
        "from pathlib import Path\n"
        "with Zygote() as zygote:\n"
        "    for name in ('self_attention', 'masked_attention'):\n"
        "        plan = Plan.build(registry.load(name))\n"
        "        data = Path(f'solutions/{name}.py').read_bytes()\n"
        "        assert grade_bytes(f'{name}.py', data, zygote, plan).all_passed\n"
        "        wrong = data.replace(b'argmax(axis=1)', b'argmin(axis=1)')\n"
        "        if wrong != data:  # most_attended's explanations asked too\n"
        "            assert not grade_bytes(f'wrong_{name}.py', wrong, zygote, plan).all_passed\n"
        "assert b'argmax(axis=1)' in Path('solutions/self_attention.py').read_bytes()\n"
        "assert 'pandas' not in sys.modules, sorted(m for m in sys.modules if m.startswith('pandas'))[:5]\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
