"""Cases that catch every small mistake: the repair's edits made to the reference (autograder.mutants)."""
import dataclasses

import pytest

import positional_lab
from autograder.mutants import surviving_mutants
from autograder.otter.refusals import BuildError
from autograder.otter.self_check import check_mutants
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB


@pytest.mark.parametrize("lab", [LAB, MASKED], ids=lambda lab: lab.name)
def test_every_edit_of_the_reference_that_computes_something_else_fails_a_test(zygote, lab):
    found = surviving_mutants(lab, zygote)
    assert found.tried > 200
    assert found.survivors == ()
    assert found.caught > 0.85 * found.tried


@pytest.fixture
def positional(tmp_path):
    with positional_lab.installed(tmp_path) as lab:
        yield lab


def test_the_test_lab_holds_a_case_for_each_edit_of_its_reference(zygote, positional):
    assert surviving_mutants(positional, zygote).survivors == ()
    # Without its one-column case, layer_norm's eps could be left out: nothing else divides by 0.
    from positional.cases import hidden_cases
    without = dataclasses.replace(positional, hidden_cases=lambda: [c for c in hidden_cases() if c.name != "hidden-one-column"])
    survivors = surviving_mutants(without, zygote, steps=("layer_norm",)).survivors
    assert [(m.kind, m.before, m.after) for m in survivors] == [("term_removed", "variance + eps", "variance")]


def test_a_lab_whose_tests_let_an_edit_through_is_refused_by_the_build_with_each_survivor_named(zygote, positional):
    from positional.cases import make_case
    thin = dataclasses.replace(positional, public_cases=lambda: [make_case("page", 0, 2, 2)], hidden_cases=lambda: ())
    found = surviving_mutants(thin, zygote, steps=("positional_encoding",))
    assert found.survivors and {m.step for m in found.survivors} == {"positional_encoding"}
    with pytest.raises(BuildError) as refused:
        check_mutants(thin)
    first = found.survivors[0]
    assert f"{first.step}, line {first.line}: {first.before} → {first.after}" in str(refused.value)
