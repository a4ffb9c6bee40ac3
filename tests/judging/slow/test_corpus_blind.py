"""Submissions written by people who read only the student notebook and the lab page (four groups,
`corpus_blind/`, `corpus_blind2/`, `corpus_blind3/` and `corpus_blind4/`, each with its own MANIFEST.csv and READING.csv): every
correct file earns every point, and a file with one mistake loses points in that step only.

`MANIFEST.csv` names each file's lab, the step its mistake is in and the cause, in the author's
words; `REPAIRED.csv` the kinds of edit of each repair the search names in that step, which stay named. Files whose mistake no test of the lab can show yet are listed in NOT_SHOWN, each with why:
they keep full marks until a case shows them, and then this list shrinks (it is empty: each input
form the notebook promises has a public test, see below). ACCEPTED lists the files whose answer
differs from the reference's form but behaves as promised, each with why. CHARGED_ELSEWHERE lists
the files whose one mistake is charged to another step today. `READING.csv` is a TA's reading of
each wrong file's feedback for its step (named, vague, misleading, not shown), before and after
the value explainer (`autograder/core/explain/`); `benchmarks/explain_corpora.py --corpus
corpus_blind/lab1` counts what the explainer names with the declared mistakes on and off.
"""
import csv
import pathlib

import pytest

from autograder import registry
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.grading.repairs import REPAIR_SWITCH
from autograder.sandbox.runner import Limits
from conftest import CORPORA
from test_saved_results import check_rewritten_equal_fresh

# Four corpora, each written by a different group that read only the notebook and the lab page.
BLIND_GROUPS = ("corpus_blind", "corpus_blind2", "corpus_blind3", "corpus_blind4")
LABS = {"lab1": "self_attention", "lab2": "masked_attention",
        "self_attention": "self_attention", "masked_attention": "masked_attention"}


def _rows(corpus):
    rows = list(csv.DictReader((CORPORA / corpus / "MANIFEST.csv").open(encoding="utf-8")))
    return [{**row, "corpus": corpus, "lab": LABS[row["lab"]], "step": row["step"] or "-"} for row in rows]


ROWS = [row for corpus in BLIND_GROUPS for row in _rows(corpus)]
# The kinds of the repair the search names in each file's step, by (corpus, file), from each
# group's REPAIRED.csv: a named repair stays named, by the same edits. A file the search names
# nothing for is graded with the search off, as tests/judging/slow/test_repair_corpora.py grades
# the later sets: its words aside, the search changes nothing (tests/judging/test_repair.py), and
# its whole budget spent on each such file would be most of this module's time.
REPAIRED = {(corpus, row["file"].rsplit("/", 1)[-1]): row["kinds"].split() for corpus in BLIND_GROUPS
            for row in csv.DictReader((CORPORA / corpus / "REPAIRED.csv").open(encoding="utf-8"))}
# (lab 1 one-mistake files, lab 2 one-mistake files, correct files) each group wrote at least
AT_LEAST = {"corpus_blind": (40, 25, 10), "corpus_blind2": (40, 25, 10), "corpus_blind3": (24, 14, 6),
            "corpus_blind4": (30, 20, 8)}

NOT_SHOWN = {}

# Answers that differ from the reference's form but behave as the notebook promises: they keep full
# marks by decision, not for want of a test.
# - most_attended returning a pandas Series: the docstring asks for a dict {word: word} built with
#   idxmax; the Series idxmax gives is that mapping (`answer[word]`, `.items()`, `.to_dict()`,
#   printing word -> word), so nothing the lab does with the answer tells it apart.
# - causal_mask returning a 0/1 float table: the docstring asks for bool, but the page promises that
#   masked_softmax treats 1/0 exactly as True/False ("마스크가 True/False든 1/0이든 똑같이 동작합니다"),
#   so every use of the mask the lab asks for gives the same weights; the judge compares masks as
#   numbers. (masked_softmax itself is tested with a 0/1 integer mask: a `~mask` fails there.)
ACCEPTED = {
    "lab1__most_attended__series.py": "a pandas Series is the mapping idxmax gives: it behaves as the promised dict",
    "lab2__causal_mask__float_tril.py": "a 0/1 mask works wherever the page uses a mask, by the page's own promise",
    "lab1__most_attended__returns_series.py": "a pandas Series is the mapping idxmax gives: it behaves as the promised dict",
    "lab2__causal_mask__float_mask_dtype.py": "a 0/1 mask works wherever the page uses a mask, by the page's own promise",
    # The lab page's own code rounds the weights (to 3 decimals) before idxmax; rounding to 2 picks
    # the same words on every case the lab has, and the page's way is not a mistake to grade.
    "lab1__most_attended__rounds_before_idxmax.py": "the lab page itself rounds the weights before idxmax",
    # A list [Q, K, V] unpacks, indexes and iterates as the tuple the docstring asks for.
    "lab1__make_qkv__returns_list.py": "a list of Q, K, V behaves as the promised tuple wherever the lab uses it",
    # A nested list of True/False selects as the bool array does (np.where, indexing after np.asarray).
    "lab2__causal_mask__nested_list.py": "a nested list of booleans works wherever the page uses a mask",
}

# Input forms the notebook promises, each tested on a public case (labs/*/steps.py labels the calls):
# softmax on integer scores ("int"), most_attended on a row with tied weights ("ties": idxmax, as the
# docstring asks, picks the first), masked_softmax with a 0/1 integer mask ("0/1"), with visible
# scores of exactly 0 ("zeros") and with scores far below -10000 ("negative": a finite fill of
# -10000 gives the masked cells weight there). The files that fail only there lose points in their
# own step.

CHARGED_ELSEWHERE = {
    # a list of head tables passes split_heads as array-like; the student's own
    # multi_head_attention then reads `.shape` from it and is charged instead
    "lab2__split_heads__list_not_array.py": "a list where an array is promised is charged to the step using it",
    "lab2__split_heads__returns_list.py": "a list where an array is promised is charged to the step using it",
}


@pytest.fixture(scope="module")
def plans():
    return {name: Plan.build(registry.load(name)) for name in set(LABS.values())}


@pytest.fixture
def graded(zygote, plans, tmp_path):
    """A file's grading; the outputs written from its saved result are checked on it too (the
    check tests/batch/slow/test_saved_results_corpora.py makes of the other corpora)."""
    def grade(lab_name, path):
        result = grade_bytes(path.name, path.read_bytes(), zygote, plans[lab_name],
                             Limits(step_seconds=5, load_seconds=5))
        check_rewritten_equal_fresh(path, zygote, plans, tmp_path, result=result)
        return result
    return grade


def _path(row):
    folder = "correct" if row["step"] == "-" else row["file"].split("__")[0]
    return CORPORA / row["corpus"] / folder / row["file"]


@pytest.mark.parametrize("corpus", BLIND_GROUPS)
def test_the_manifest_lists_every_file_once(corpus):
    rows = [row for row in ROWS if row["corpus"] == corpus]
    listed = sorted(row["file"] for row in rows)
    on_disk = sorted(p.name for p in (CORPORA / corpus).glob("*/*.py"))
    assert listed == on_disk and len(set(listed)) == len(listed)
    assert all(_path(row).is_file() for row in rows)
    lab1, lab2, correct = AT_LEAST[corpus]
    assert sum(row["step"] == "-" for row in rows) >= correct
    assert sum(row["lab"] == "self_attention" and row["step"] != "-" for row in rows) >= lab1
    assert sum(row["lab"] == "masked_attention" and row["step"] != "-" for row in rows) >= lab2


@pytest.mark.parametrize("row", [r for r in ROWS if r["step"] == "-"], ids=lambda r: r["file"])
def test_a_correct_file_earns_every_point(graded, row):
    result = graded(LABS[row["lab"]], _path(row))
    assert result.score == result.max_score, [(s.name, s.score) for s in result.steps if s.score < s.max_score]


def _marked(row):
    reason = CHARGED_ELSEWHERE.get(row["file"])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(row, id=row["file"], marks=marks)


@pytest.mark.parametrize("row", [_marked(r) for r in ROWS if r["step"] != "-"])
def test_one_mistake_costs_points_in_its_own_step_only(graded, row, monkeypatch):
    repaired = REPAIRED.get((row["corpus"], row["file"]))
    if repaired is None:
        monkeypatch.setenv(REPAIR_SWITCH, "off")
    result = graded(LABS[row["lab"]], _path(row))
    lost = [s.name for s in result.steps if s.score < s.max_score]
    expected = [] if row["file"] in NOT_SHOWN or row["file"] in ACCEPTED else [row["step"]]
    assert lost == expected, row["cause"]
    if repaired is not None:
        step = next(s for s in result.steps if s.name == row["step"])
        assert step.repair is not None and [part.kind for part in step.repair.parts] == repaired, row["file"]


def test_every_listed_exception_is_a_file_of_a_corpus():
    files = {row["file"] for row in ROWS}
    assert set(NOT_SHOWN) | set(ACCEPTED) | set(CHARGED_ELSEWHERE) <= files
    assert set(REPAIRED) <= {(row["corpus"], row["file"]) for row in ROWS if row["step"] != "-"}
