"""The fifteenth blind set (tests/corpora/corpus_blind19), checked as test_repair_corpora.py checks the
earlier ones, in a module of its own so that the workers share the blind sets."""
from test_repair_corpora import blind_set_tests

SETS = ("corpus_blind19",)
plans, test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named = blind_set_tests(SETS)

import pytest

from autograder.grading import grade_file
from autograder.grading.plan import Plan
from autograder.registry import load
from conftest import CORPORA

# Honest mistakes right on some public tests by chance: their own code computes (its smallest repair
# keeps what it computes), so they keep the share of tests passed; none is taken as fitted to the
# public tests or to the page's numbers (a fourth root of 4 is the page's √2).
HONEST = [("lab1/lab1__softmax__running_max_shift.py", "self_attention", "softmax"),
          ("lab2/lab2__masked_softmax__casts_scores_instead_of_mask.py", "masked_attention", "masked_softmax"),
          ("lab2/lab2__multi_head_attention__quarter_root_on_one_side.py", "masked_attention", "multi_head_attention")]


@pytest.mark.parametrize("file, lab, step", HONEST, ids=[row[0] for row in HONEST])
def test_an_honest_mistake_right_on_some_public_tests_by_chance_keeps_its_share(zygote, file, lab, step):
    result = grade_file(CORPORA / "corpus_blind19" / file, zygote, Plan.build(load(lab)))
    graded = next(s for s in result.steps if s.name == step)
    assert 0 < graded.score < graded.max_score, (graded.score, graded.rubric)
    assert graded.rubric is not None and graded.rubric["rule"] == "cases", graded.rubric
    assert not any(c.fitted or c.code in ("hardcoded", "fails_off_page", "fails_off_seen") for c in graded.cases)
