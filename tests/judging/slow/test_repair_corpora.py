"""The blind sets written after the repair search existed (tests/corpora/corpus_blind5 to 9):
written from the notebook and the lab page only, one mistake per file, by people who never saw the
grader's detectors. Every correct file gets full marks; every mistake costs its own step only; and
each file whose mistake the smallest repair named on its line (REPAIRED.csv) keeps it named there."""
import csv

import pytest

from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from conftest import CORPORA
from test_saved_results import check_rewritten_equal_fresh
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB

LABS = {LAB.name: LAB, MASKED.name: MASKED}
SETS = ("corpus_blind5", "corpus_blind6", "corpus_blind7", "corpus_blind8", "corpus_blind9")


def _rows(name, table="MANIFEST.csv"):
    with open(CORPORA / name / table, encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


CASES = [(name, row) for name in SETS for row in _rows(name)]
REPAIRED = {(name, row["file"]): row["kinds"].split() for name in SETS for row in _rows(name, "REPAIRED.csv")}


@pytest.fixture(scope="module")
def plans():
    return {name: Plan.build(lab) for name, lab in LABS.items()}


@pytest.mark.parametrize("name, row", CASES, ids=[f"{name}/{row['file']}" for name, row in CASES])
def test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named(zygote, plans, name, row, tmp_path):
    path = CORPORA / name / row["file"]
    result = grade_bytes(path.name, path.read_bytes(), zygote, plans[row["lab"]])
    # The outputs written from its saved result, as tests/batch/slow/test_saved_results_corpora.py
    # checks the other corpora's: on this grading.
    check_rewritten_equal_fresh(path, zygote, plans, tmp_path, result=result)
    if not row["step"]:
        assert result.score == result.max_score, row["file"]
        return
    lost = {step.name for step in result.steps if step.score < step.max_score}
    assert lost <= {row["step"]}, (row["file"], lost)
    if (name, row["file"]) in REPAIRED:
        step = next(s for s in result.steps if s.name == row["step"])
        assert step.repair is not None, row["file"]
        lines = {part.line for part in (*step.repair.parts, *step.repair.also)}
        assert int(row["line"]) in lines, (row["file"], step.repair)
        assert [part.kind for part in step.repair.parts] == REPAIRED[name, row["file"]]
