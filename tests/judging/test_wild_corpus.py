"""Submissions written as students write them, outside the planted corpus: each is named by the
mistake its file name says (`step__code__style.py`), and the other steps keep full marks."""
import pathlib

import pytest

from autograder.grading import grade_file
from conftest import CORPORA, ROOT
from labs.self_attention import LAB
from test_saved_results import check_rewritten_equal_fresh

WILD = CORPORA / "corpus_wild"
# Values no detector can tell apart from another named mistake: the message names both.
SAME_VALUES = {"k_v_swapped": "qkv_order",
               # Seeded: the weights it draws are the same on every call, whatever it is given.
               "random_weights": "ignores_arguments"}
NOT_NAMED_YET = set()
FILES = sorted(WILD.glob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_wild_mistake_is_named_on_its_own_step(path, zygote, plan, tmp_path):
    step_name, code, _ = path.stem.split("__")
    result = grade_file(path, zygote, plan)
    # The outputs written from its saved result equal this grading's (test_saved_results_corpora).
    check_rewritten_equal_fresh(path, zygote, {LAB.name: plan}, tmp_path, result=result)
    by_name = {step.name: step for step in result.steps}
    assert by_name[step_name].status != "passed"
    if code not in NOT_NAMED_YET:
        assert by_name[step_name].mistakes[:1] == [SAME_VALUES.get(code, code)], by_name[step_name].mistakes
    for other, step in by_name.items():
        if other != step_name:
            assert step.status == "passed", (other, step.mistakes)


def test_most_of_the_wild_corpus_is_named():
    named = [p for p in FILES if p.stem.split("__")[1] not in NOT_NAMED_YET]
    assert len(named) >= 10 and len(named) / len(FILES) >= 0.9
