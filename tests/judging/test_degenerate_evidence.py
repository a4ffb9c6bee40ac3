"""A special case for the one-word tests (too small to tell formulas apart) is a wrong answer there,
never evidence that the function computes nothing: the step keeps the points of its other tests.
(Two one-word tests with other arguments and the same wrong values once made the whole step
"ignores its arguments", at 0 %, below a function that returns garbage there.)"""
import pathlib

import pytest

from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from labs.self_attention import LAB

CORRECT = pathlib.Path(__file__).parents[1] / "corpora" / "corpus_blind12" / "_correct_lab1.py"

SPECIAL_CASES = {
    "mix": "    if np.shape(weights)[0] == 1:\n        return np.zeros((1, np.shape(V)[1]))\n",
    "scores": "    if np.shape(Q)[0] == 1:\n        return np.zeros((1, 1))\n",
}


def _with_special_case(step: str, lines: str) -> bytes:
    source = CORRECT.read_text(encoding="utf-8")
    start = source.index(f"def {step}(")
    docstring_end = source.index('"""', source.index('"""', start) + 3) + 3
    return (source[:docstring_end] + "\n" + lines + source[docstring_end:]).encode("utf-8")


@pytest.fixture(scope="module")
def plan():
    return Plan.build(LAB)


@pytest.mark.parametrize("step", sorted(SPECIAL_CASES))
def test_a_wrong_one_word_special_case_keeps_the_points_of_the_other_tests(zygote, plan, step):
    result = grade_bytes(f"special_{step}.py", _with_special_case(step, SPECIAL_CASES[step]), zygote, plan)
    graded = next(s for s in result.steps if s.name == step)
    assert 0 < graded.score < graded.max_score, (graded.score, graded.rubric)
    assert all(s.score == s.max_score for s in result.steps if s.name != step)
    assert all(c.code != "ignores_arguments" for c in graded.cases)
