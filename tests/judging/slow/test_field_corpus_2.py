"""A second class written without the grader's mistake catalog in view (`tests/corpora/corpus_field2/`,
what each student did in MANIFEST.toml, with what the grader said when the corpus was written).

Kept as a measure, not tuned to file by file: no correct file loses a point, no mistake costs a
step it is not made in (beyond a composed step written to fit its helpers), and the share of
wrong files whose mistake gets a name only rises.
"""
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib

import pytest

from autograder.grading import grade_file
from conftest import CORPORA, ROOT
from labs.self_attention import LAB
from test_saved_results import check_rewritten_equal_fresh

FIELD = CORPORA / "corpus_field2"
MANIFEST = tomllib.loads((FIELD / "MANIFEST.toml").read_text("utf-8"))
# Accepted by design: a Series from idxmax answers like the dict the docstring asks for.
ACCEPTED = {"most_attended__returns_series.py"}
WRONG = sorted(n for n, e in MANIFEST.items() if e["step"] != "none" and n not in ACCEPTED)
CORRECT = sorted(n for n, e in MANIFEST.items() if e["step"] == "none") + sorted(ACCEPTED)
# What says only that something failed, not why.
GENERIC = {"wrong_values", "wrong_shape", "wrong_type", "exception", "not_finite", "crashed", "timeout",
           "not_run", "not_implemented"}
# A composed step that follows its helper's mistake is told so, and keeps most of its points.
FOLLOWS = {"fits_own_helpers", "scale_moved", "scale_in_softmax"}
NAMED_AT_LEAST = 0.6  # 40 of 63 when the corpus was written


@pytest.fixture(scope="module")
def results(zygote, plan):
    return {name: grade_file(FIELD / name, zygote, plan) for name in WRONG + CORRECT}


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_outputs_written_from_the_saved_result_equal_this_gradings(results, name, zygote, plan, tmp_path):
    """As tests/batch/slow/test_saved_results_corpora.py checks the corpora no test grades anyway."""
    check_rewritten_equal_fresh(FIELD / name, zygote, {LAB.name: plan}, tmp_path, result=results[name])


def test_the_manifest_lists_every_file():
    assert {p.name for p in FIELD.iterdir() if p.suffix in (".py", ".ipynb")} == set(MANIFEST)
    assert len(WRONG) >= 60 and len(CORRECT) >= 15


@pytest.mark.parametrize("name", CORRECT)
def test_a_correct_file_gets_full_marks_and_no_code(results, name):
    result = results[name]
    assert result.score == result.max_score, [(s.name, s.mistakes) for s in result.steps]
    assert all(step.mistakes == [] for step in result.steps)


@pytest.mark.parametrize("name", WRONG)
def test_a_mistake_costs_only_its_own_step(results, name):
    by_name = {step.name: step for step in results[name].steps}
    assert by_name[MANIFEST[name]["step"]].status != "passed", MANIFEST[name]["mistake"]
    for other, step in by_name.items():
        if other != MANIFEST[name]["step"]:
            assert step.status == "passed" or set(step.mistakes) <= FOLLOWS, (other, step.mistakes)


def test_most_wrong_files_get_a_named_mistake(results):
    named = [n for n in WRONG
             if {s.name: s for s in results[n].steps}[MANIFEST[n]["step"]].mistakes[:1] not in ([], *([c] for c in GENERIC))]
    assert len(named) / len(WRONG) >= NAMED_AT_LEAST, len(named)
