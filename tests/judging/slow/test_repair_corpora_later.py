"""The later blind sets (tests/corpora/corpus_blind9 to 11), checked as test_repair_corpora.py checks
the earlier ones."""
import pytest

from test_repair_corpora import LABS, cases_of, check_blind_file, repaired_of
from autograder.grading.plan import Plan

SETS = ("corpus_blind9", "corpus_blind10", "corpus_blind11")
CASES = cases_of(SETS)
REPAIRED = repaired_of(SETS)


@pytest.fixture(scope="module")
def plans():
    return {name: Plan.build(lab) for name, lab in LABS.items()}


@pytest.mark.parametrize("name, row", CASES, ids=[f"{name}/{row['file']}" for name, row in CASES])
def test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named(zygote, plans, name, row, tmp_path,
                                                                              monkeypatch):
    check_blind_file(zygote, plans, name, row, tmp_path, REPAIRED, monkeypatch)
