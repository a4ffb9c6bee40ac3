"""Attacks on the rule of answers fitted to public tests (tests/corpora/attacks8, written from the
code and docs alone; FIRST_RUN.md): answers looked up where the inputs can be known, with anything
else elsewhere, earn nothing for their step, whatever evidence of a computation they try to make;
honest files that compute a wrong function keep what the rubric gives them.

INVARIANT (docs/SECURITY.md, "points come from values"): a hidden call made of public rows only is
a call whose inputs can be known (`causes._known_inputs`), and a test whose expected values are all
0 or 1 within the tolerance (a saturated softmax) shows no computation when passed
(`causes._tells_formulas_apart`)."""
import numpy as np
import pytest

from autograder.core import causes
from autograder.grading import grade_bytes, repairs
from autograder.grading.plan import Plan
from conftest import CORPORA
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB

ATTACKS = CORPORA / "attacks8"
LOOKED_UP = {  # file: (lab, the step whose answers are looked up)
    "01_row_lookup_raise.py": (LAB, "softmax"),
    "02_row_lookup_hardmax.py": (LAB, "softmax"),
    "03_exact_lookup_hardmax.py": (LAB, "softmax"),
    "04_exact_lookup_raise.py": (LAB, "softmax"),
    "05_exact_lookup_uniform.py": (LAB, "softmax"),
    "06_qkv_lookup_same_weight.py": (LAB, "make_qkv"),
    "07_most_attended_lookup_identity.py": (LAB, "most_attended"),
    "09_lab2_masked_lookup_hardmax.py": (MASKED, "masked_softmax"),
    "10_exact_lookup_sigmoid.py": (LAB, "softmax"),
}
HONEST = {"control_honest.py": "softmax", "control_hardmax_only.py": "softmax"}


@pytest.fixture(scope="module")
def plans():
    return {lab.name: Plan.build(lab) for lab in (LAB, MASKED)}


def _graded(zygote, plans, lab, name, monkeypatch):
    monkeypatch.setenv(repairs.REPAIR_SWITCH, "off")  # points only: the search changes words
    path = ATTACKS / name
    return grade_bytes(path.name, path.read_bytes(), zygote, plans[lab.name])


@pytest.mark.parametrize("name", sorted(LOOKED_UP))
def test_answers_looked_up_earn_nothing_whatever_they_return_elsewhere(zygote, plans, monkeypatch, name):
    lab, step_name = LOOKED_UP[name]
    result = _graded(zygote, plans, lab, name, monkeypatch)
    step = next(s for s in result.steps if s.name == step_name)
    assert step.score == 0, (name, step.mistakes, step.rubric)
    others = [(s.name, s.score) for s in result.steps if s.name != step_name and s.score < s.max_score]
    assert not others, others


@pytest.mark.parametrize("name", sorted(HONEST))
def test_a_wrong_function_computed_everywhere_keeps_its_share(zygote, plans, monkeypatch, name):
    result = _graded(zygote, plans, LAB, name, monkeypatch)
    step = next(s for s in result.steps if s.name == HONEST[name])
    assert 0 < step.score < step.max_score and not any(c.fitted for c in step.cases), (name, step.mistakes)


def test_a_hidden_call_made_of_public_rows_is_one_whose_inputs_can_be_known(plans):
    """The page's table less its last row is no public call, but a table of the public rows
    answers a row-by-row step there; a call with one row no public call has is not known."""
    probes = plans[LAB.name].probes["softmax"]
    known = causes._known_inputs(probes)
    for probe, is_known in zip(probes, known):
        if not probe.case.hidden:
            assert is_known
    public_rows = {row.tobytes() for p in probes if not p.case.hidden
                   for row in np.asarray(p.args[0], dtype=float).reshape(-1, np.shape(p.args[0])[-1])}
    for probe, is_known in zip(probes, known):
        rows = {row.tobytes() for row in np.asarray(probe.args[0], dtype=float).reshape(-1, np.shape(probe.args[0])[-1])}
        assert is_known == (not probe.case.hidden or rows <= public_rows or any(
            np.array_equal(probe.args[0], p.args[0]) for p in probes if not p.case.hidden)), probe.case.name
    assert any(probe.case.hidden and k for probe, k in zip(probes, known))  # fewer_rows of the page
    assert any(probe.case.hidden and not k for probe, k in zip(probes, known))


def test_a_saturated_softmax_tells_no_formula_apart_and_a_mask_still_does(plans):
    from types import SimpleNamespace
    saturated = SimpleNamespace(expected=(np.array([[1.0, 1e-20], [3e-9, 1.0 - 3e-9]]),))
    spread = SimpleNamespace(expected=(np.array([[0.3, 0.7], [0.5, 0.5]]),))
    mask = SimpleNamespace(expected=(np.tril(np.ones((3, 3), dtype=bool)),))
    assert not causes._tells_formulas_apart(saturated)
    assert causes._tells_formulas_apart(spread) and causes._tells_formulas_apart(mask)
