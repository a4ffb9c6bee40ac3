"""Fair points as invariants (autograder.core.rubric): closer answers never earn less, and the right values in
another shape earn at least what wrong values earn."""
import dataclasses

from hypothesis import given, settings, strategies as st

from autograder.core import rubric
from autograder.core.verdict import CaseResult
from autograder.core.rubric import Rubric

CODES = ["wrong_values", "wrong_shape", "exception", "timeout", "transposed", "mutates_input", "hardcoded",
         "extra_unit_axes", "some_mistake", "other_mistake", "ignores_arguments"]
NAMED = frozenset(rubric.ALWAYS_NAMED | {"some_mistake", "other_mistake"})
# A lab's rubric keeps the engine's shares and adds its own (labs/*/steps.py: {**DEFAULT_SHARES, ...}).
RUBRICS = st.builds(lambda own, formula: Rubric(shares={**rubric.DEFAULT_SHARES, **own}, formula=formula),
                    st.dictionaries(st.sampled_from(["some_mistake", "other_mistake"]), st.floats(0, 1)),
                    st.floats(0, 1))


@st.composite
def step_tests(draw):
    """One step's judged tests: each passed, or failed with a code (raised for an error)."""
    count = draw(st.integers(1, 8))
    made = []
    for number in range(count):
        passed = draw(st.booleans())
        code = None if passed else draw(st.sampled_from(CODES))
        made.append(CaseResult(case=f"c{number}", hidden=draw(st.booleans()), label="", passed=passed, code=code,
                               raised=code in ("exception", "timeout"), degenerate=draw(st.booleans())))
    return made


def _points(cases, shares):
    return rubric.score(2.0, cases, NAMED, (), shares)[0]


@settings(max_examples=400, deadline=None)
@given(step_tests(), RUBRICS, st.data())
def test_a_test_answered_right_never_lowers_the_points(cases, shares, data):
    failing = [i for i, c in enumerate(cases) if not c.passed]
    if not failing:
        return
    i = data.draw(st.sampled_from(failing))
    closer = list(cases)
    closer[i] = dataclasses.replace(cases[i], passed=True, code=None, raised=False)
    assert _points(closer, shares) >= _points(cases, shares) - 1e-9


@settings(max_examples=400, deadline=None)
@given(step_tests(), RUBRICS, st.data())
def test_the_right_values_in_another_shape_never_earn_less_than_a_wrong_value(cases, shares, data):
    failing = [i for i, c in enumerate(cases) if not c.passed and c.code != "extra_unit_axes"]
    if not failing:
        return
    i = data.draw(st.sampled_from(failing))
    reshaped = list(cases)
    reshaped[i] = dataclasses.replace(cases[i], code="extra_unit_axes", raised=False)
    assert _points(reshaped, shares) >= _points(cases, shares) - 1e-9


def test_the_right_values_in_another_shape_keep_the_largest_share_of_the_rubric():
    assert Rubric().share_of("extra_unit_axes") == rubric.RIGHT_VALUES_SHARE
    assert Rubric(shares={"x": 0.9}).share_of("extra_unit_axes") == 0.9
