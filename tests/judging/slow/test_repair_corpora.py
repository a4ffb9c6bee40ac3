"""The blind sets written after the repair search existed (tests/corpora/corpus_blind5 and 6 here; 7
and 8, 9 to 11, 12 to 15, 16, 17, 18 in modules of their own, test_repair_corpora_*.py, so that the workers share
them: each module runs in one worker): written from
the notebook and the lab page only, one mistake per file, by people who never saw the grader's
detectors. Every correct file gets full marks; every mistake costs its own step only; and each file
whose mistake the smallest repair named on its line (REPAIRED.csv) keeps it named there. A file the
search names nothing for is graded with the search off: its words aside, the search changes nothing
(tests/judging/test_repair.py), and its full budget spent on each such file would be most of the time."""
import csv

import pytest

from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.grading.repairs import REPAIR_SWITCH
from conftest import CORPORA
from test_saved_results import check_rewritten_equal_fresh
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB

LABS = {LAB.name: LAB, MASKED.name: MASKED}
SETS = ("corpus_blind5", "corpus_blind6")


def _rows(name, table="MANIFEST.csv"):
    with open(CORPORA / name / table, encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def cases_of(sets):
    return [(name, row) for name in sets for row in _rows(name)]


def repaired_of(sets):
    return {(name, row["file"]): row["kinds"].split() for name in sets for row in _rows(name, "REPAIRED.csv")}


def check_blind_file(zygote, plans, name, row, tmp_path, repaired, monkeypatch):
    if row["step"] and (name, row["file"]) not in repaired:
        monkeypatch.setenv(REPAIR_SWITCH, "off")
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
    if (name, row["file"]) in repaired:
        step = next(s for s in result.steps if s.name == row["step"])
        assert step.repair is not None, row["file"]
        lines = {part.line for part in (*step.repair.parts, *step.repair.also)}
        assert int(row["line"]) in lines, (row["file"], step.repair)
        assert [part.kind for part in step.repair.parts] == repaired[name, row["file"]]


def blind_set_tests(sets):
    """(the `plans` fixture, the test) of a module that checks the blind sets `sets`: each module
    assigns both at its top, under these names, so that pytest finds them there."""
    cases, repaired = cases_of(sets), repaired_of(sets)

    @pytest.fixture(scope="module")
    def plans():
        return {name: Plan.build(lab) for name, lab in LABS.items()}

    @pytest.mark.parametrize("name, row", cases, ids=[f"{name}/{row['file']}" for name, row in cases])
    def test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named(zygote, plans, name, row,
                                                                                  tmp_path, monkeypatch):
        check_blind_file(zygote, plans, name, row, tmp_path, repaired, monkeypatch)

    return plans, test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named


plans, test_a_blind_file_costs_its_own_step_only_and_a_named_repair_stays_named = blind_set_tests(SETS)
