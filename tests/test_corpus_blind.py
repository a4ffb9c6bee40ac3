"""Submissions written by people who read only the student notebook and the lab page: every
correct file earns every point, and a file with one mistake loses points in that step only.

`MANIFEST.csv` names each file's lab, the step its mistake is in and the cause, in the author's
words. Files whose mistake no test of the lab can show yet are listed in NOT_SHOWN, each with why:
they keep full marks until a case shows them, and then this list shrinks. CHARGED_ELSEWHERE lists
the files whose one mistake is charged to another step today.
"""
import csv
import pathlib

import pytest

from autograder import registry
from autograder.grading import Plan, grade_bytes
from autograder.sandbox.runner import Limits

FOLDER = pathlib.Path(__file__).resolve().parent / "corpus_blind"
LABS = {"lab1": "self_attention", "lab2": "masked_attention"}
ROWS = list(csv.DictReader((FOLDER / "MANIFEST.csv").open(encoding="utf-8")))

NOT_SHOWN = {
    # a mapping that behaves as the promised dict (a Series answers `[word]` the same way)
    "lab1__most_attended__series.py": "a pandas Series is accepted as the mapping",
    # ties: no case has two equal weights in a row
    "lab1__most_attended__tie_last.py": "no case has tied weights",
    # integer input to softmax: no case passes integers
    "lab1__softmax__zeros_like_int.py": "no case gives softmax integer scores",
    # a float 0/1 mask is accepted where a boolean one is promised
    "lab2__causal_mask__float_tril.py": "a 0/1 float mask is accepted as the mask",
    # needs visible scores far below -10000
    "lab2__masked_softmax__fill_minus_1e4.py": "no case has visible scores below -1e4",
    # needs a visible score of exactly 0
    "lab2__masked_softmax__zero_score_masked.py": "no case has a visible score of exactly 0",
}

CHARGED_ELSEWHERE = {
    # a list of head tables passes split_heads as array-like; the student's own
    # multi_head_attention then reads `.shape` from it and is charged instead
    "lab2__split_heads__list_not_array.py": "a list where an array is promised is charged to the step using it",
}


@pytest.fixture(scope="module")
def graded(zygote):
    plans = {}

    def grade(lab_name, path):
        if lab_name not in plans:
            plans[lab_name] = Plan.build(registry.load(lab_name))
        return grade_bytes(path.name, path.read_bytes(), zygote, plans[lab_name],
                           Limits(step_seconds=5, load_seconds=5))
    return grade


def _path(row):
    folder = "correct" if row["step"] == "-" else row["lab"]
    return FOLDER / folder / row["file"]


def test_the_manifest_lists_every_file_once():
    listed = sorted(row["file"] for row in ROWS)
    on_disk = sorted(p.name for p in FOLDER.glob("*/*.py"))
    assert listed == on_disk and len(set(listed)) == len(listed)
    assert sum(row["step"] == "-" for row in ROWS) >= 10
    assert sum(row["lab"] == "lab1" and row["step"] != "-" for row in ROWS) >= 40
    assert sum(row["lab"] == "lab2" and row["step"] != "-" for row in ROWS) >= 25


@pytest.mark.parametrize("row", [r for r in ROWS if r["step"] == "-"], ids=lambda r: r["file"])
def test_a_correct_file_earns_every_point(graded, row):
    result = graded(LABS[row["lab"]], _path(row))
    assert result.score == result.max_score, [(s.name, s.score) for s in result.steps if s.score < s.max_score]


def _marked(row):
    reason = CHARGED_ELSEWHERE.get(row["file"])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(row, id=row["file"], marks=marks)


@pytest.mark.parametrize("row", [_marked(r) for r in ROWS if r["step"] != "-"])
def test_one_mistake_costs_points_in_its_own_step_only(graded, row):
    result = graded(LABS[row["lab"]], _path(row))
    lost = [s.name for s in result.steps if s.score < s.max_score]
    expected = [] if row["file"] in NOT_SHOWN else [row["step"]]
    assert lost == expected, row["cause"]
