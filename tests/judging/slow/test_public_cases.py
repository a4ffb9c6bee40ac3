"""The public cases catch what the hidden ones catch, step by step, as far as public data allows."""
import pathlib

import numpy as np
import pytest

from labs.self_attention import reference
from labs.self_attention.cases import public_cases
from autograder.grading import grade_file
from autograder.grading.plan import Plan
from autograder.grading.repairs import REPAIR_SWITCH
from autograder.sandbox.runner import Limits
from labs.self_attention.hidden import hidden_cases

from conftest import CORPORA, ROOT
from labs.self_attention import LAB

# The limit is not what is compared: shorter than the default, so the file that loops forever
# waits it out in seconds.
LIMITS = Limits(step_seconds=3.0, load_seconds=3.0)
CORPUS = sorted(p for p in (CORPORA / "corpus").rglob("*") if p.suffix in (".py", ".ipynb"))
REFERENCE = (ROOT / "solutions" / "self_attention.py").read_text("utf-8")
# Mistakes only a case of another size shows: (line of the reference, what the student wrote).
SIZE_MISTAKES = {
    "scores_squeezed": ("return Q @ K.T", "return (Q @ K.T).squeeze()"),
    "mix_squeezed": ("return weights @ V", "return (weights @ V).squeeze()"),
    "scores_fixed_size": ("return Q @ K.T", "return (Q @ K.T)[:3, :3]"),
}


@pytest.fixture(scope="module")
def public_plan():
    return Plan.build(LAB, public_cases())


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_public_checks_fail_every_step_the_grade_fails(zygote, plan, public_plan, path, monkeypatch):
    # Points only: the repair search changes words, never points
    # (tests/judging/slow/test_repair_attacks.py::test_the_search_costs_the_student_neither_time_nor_points),
    # and searched twice per file it was most of this test's time.
    monkeypatch.setenv(REPAIR_SWITCH, "off")
    graded = grade_file(path, zygote, plan, LIMITS)
    public = grade_file(path, zygote, public_plan, LIMITS)
    lost = {step.name for step in graded.steps if step.score < step.max_score}
    lost_in_public = {step.name for step in public.steps if step.score < step.max_score}
    assert lost_in_public == lost


@pytest.mark.parametrize("mistake", sorted(SIZE_MISTAKES))
def test_public_checks_catch_mistakes_that_only_other_sizes_show(zygote, plan, public_plan, tmp_path,
                                                                 mistake):
    line, wrong = SIZE_MISTAKES[mistake]
    assert line in REFERENCE
    path = tmp_path / f"{mistake}.py"
    path.write_text(REFERENCE.replace(line, wrong), "utf-8")
    lost = {s.name for s in grade_file(path, zygote, plan=plan).steps if s.score < s.max_score}
    lost_in_public = {s.name for s in grade_file(path, zygote, plan=public_plan).steps
                      if s.score < s.max_score}
    assert lost and lost_in_public == lost


def test_a_public_case_overflows_a_naive_exp_on_both_softmax_probes():
    def large(case):  # inputs scaled up 30 times: scaled scores reach the hundreds
        return np.abs(case.X).max() > 10

    hidden_large = [case for case in hidden_cases() if large(case)]
    public_large = [case for case in public_cases() if large(case)]
    assert hidden_large and public_large
    for case in public_large:
        scaled = reference.trace(case).scaled
        with np.errstate(over="ignore"):
            assert not np.all(np.isfinite(np.exp(scaled)))  # the 2-D probe
            assert not np.all(np.isfinite(np.exp(scaled[-1])))  # the 1-D probe (last row)


def test_public_cases_cover_the_shapes_of_the_hidden_ones():
    """d_v ≠ d_k, n = 1 and n, d_model, d_k all different appear among the public cases too."""
    public = public_cases()
    assert any(case.X.shape[0] == 1 for case in public)
    assert any(case.W_V.shape[1] != case.W_K.shape[1] for case in public)
    assert any(len({case.X.shape[0], case.X.shape[1], case.W_K.shape[1]}) == 3 for case in public)
