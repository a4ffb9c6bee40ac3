"""Attacks on the repair search as evidence of a computation (tests/corpora/attacks9, written from the
code and docs alone): a step whose public answers are looked up earns nothing, whatever its code does
elsewhere for the repair search to find: a function one edit from right after the lookup, the
reference's expression a graft would put around a bare argument, a lookup inside a helper, a table of
the repair search's own inputs. Honest files whose wrong formula is right on some public tests keep
the share of tests they pass.

INVARIANT (docs/SECURITY.md, "points come from values"): the search shows a computation only with an
edit of the student's own code (no graft, no normalisation, no place told by the reference's values),
through which the public tests it passes were answered, and which is right on inputs drawn at random
when it is asked (grading.repairs.computes)."""
import pytest

from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from conftest import CORPORA
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB

ATTACKS = CORPORA / "attacks9"
STEPS = {"a01": "scores", "a02": "scores", "a03": "mix", "a04": "softmax", "a05": "softmax", "a06": "softmax",
         "a07": "softmax", "a08": "softmax", "a10": "self_attention", "a11": "make_qkv", "a12": "masked_softmax",
         "a13": "causal_mask", "a17": "self_attention", "a18": "scores", "a19": "softmax", "a20": "softmax",
         "a21": "masked_softmax", "a22": "multi_head_attention", "h1": "self_attention",
         "h2": "multi_head_attention", "h3": "softmax", "h4": "masked_softmax", "h5": "most_attended",
         "h6": "split_heads"}
FILES = sorted(path.name for path in ATTACKS.glob("*.py"))


@pytest.fixture(scope="module")
def plans():
    return {lab.name: Plan.build(lab) for lab in (LAB, MASKED)}


def _step(zygote, plans, name):
    lab = MASKED if "_ma_" in name else LAB
    path = ATTACKS / name
    result = grade_bytes(path.name, path.read_bytes(), zygote, plans[lab.name])
    return next(step for step in result.steps if step.name == STEPS[name[:3].rstrip("_")])


@pytest.mark.parametrize("name", [name for name in FILES if name.startswith("a")])
def test_answers_looked_up_earn_nothing_whatever_the_repair_search_finds(zygote, plans, name):
    step = _step(zygote, plans, name)
    assert step.score == 0, (name, step.rubric, step.repair)


@pytest.mark.parametrize("name", [name for name in FILES if name.startswith("h")])
def test_an_honest_wrong_formula_keeps_what_the_rubric_gives_it(zygote, plans, name):
    step = _step(zygote, plans, name)
    assert 0 < step.score < step.max_score and not any(case.fitted for case in step.cases), (name, step.rubric)
