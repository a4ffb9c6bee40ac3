"""The fourth blind group's files whose first reading was misleading (tests/corpus_blind4/READING.csv):
each feedback now names what the values and the code show, and no longer says the false sentence.

Each mechanism is also checked on generated values, so it holds beyond these files: an axis of
length 1 added or taken away, an axis averaged away, mapping values that are objects and not names,
an input reshaped in place, a name a public test refutes, an error message alike by chance.
"""
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from autograder import explain, registry
from autograder.explain import Sample
from autograder.grading import Plan, grade_bytes
from autograder.render import step_feedback
from autograder.sandbox.runner import Limits

HERE = pathlib.Path(__file__).resolve().parent / "corpus_blind4"
LABS = {"lab1": "self_attention", "lab2": "masked_attention"}

# file -> (step, what the Korean feedback of that step says, what it must no longer say)
READINGS = {
    "lab1__make_qkv__keeps_batch_axis.py": ("make_qkv", ["길이가 1인 축이 axis=0 자리에 하나 더"], ["reshape, transpose"]),
    "lab2__split_heads__keeps_batch_axis.py": ("split_heads", ["길이가 1인 축이 axis=0 자리에 하나 더"], ["reshape, transpose"]),
    "lab1__make_qkv__returns_dict.py": ("make_qkv", ["튜플로"], ["str"]),
    "lab1__most_attended__nlargest_index_object.py": ("most_attended", ["이름(문자열)이 아니라 다른 객체"], ["np.random", "부를 때마다"]),
    "lab1__most_attended__frame_from_dict_of_rows.py": ("most_attended", ["dict의 키가 열 이름"], []),
    "lab1__self_attention__mix_args_swapped.py": ("self_attention", ["mix(V, weights)"], ["K를 전치하지 않고"]),
    "lab1__self_attention__sqrt_of_shape_tuple.py": ("self_attention", ["np.sqrt(K.shape)"], ["K를 전치하지 않고"]),
    "lab2__multi_head_attention__averaged_weights.py": ("multi_head_attention", ["평균 낸 값"], ["전치(.T)나 @"]),
    "lab2__multi_head_attention__double_scaling.py": ("multi_head_attention", ["한 번 더 나누고"], ["√d_model로 나눴습니다"]),
    "lab2__multi_head_attention__einsum_output_swapped.py": ("multi_head_attention", ["einsum의 출력 첨자"], []),
    "lab2__masked_softmax__inf_times_zero_nan.py": ("masked_softmax", ["0 × inf", "-np.inf를 곱한"], []),
    "lab2__split_heads__sets_shape_in_place.py": ("split_heads", ["모양을 제자리에서", ".shape"], ["x -= ..."]),
}


@pytest.fixture(scope="module")
def feedback(zygote):
    plans = {}

    def read(name):
        lab = LABS[name.split("__")[0]]
        plans.setdefault(lab, Plan.build(registry.load(lab)))
        path = HERE / name.split("__")[0] / name
        result = grade_bytes(name, path.read_bytes(), zygote, plans[lab], Limits(step_seconds=5, load_seconds=5))
        step = next(s for s in result.steps if s.name == READINGS[name][0])
        return step, step_feedback(step, registry.load(lab), "ko")
    return read


@pytest.mark.parametrize("name", sorted(READINGS))
def test_a_first_reading_that_misled_now_names_the_cause(feedback, name):
    step, text = feedback(name)
    _, said, unsaid = READINGS[name]
    assert step.score < step.max_score
    for words in said:
        assert words in text, text
    for words in unsaid:
        assert words not in text, text


def _sample(expected, got, **more):
    return Sample(case="c", hidden=False, passed=False, got=got, got_type="ndarray", expected=expected,
                  quantities=more.pop("quantities", {}), sizes=more.pop("sizes", {}), **more)


ARRAYS = st.tuples(st.integers(2, 4), st.integers(2, 4), st.integers(0, 2**32 - 1)).map(
    lambda t: np.random.default_rng(t[2]).normal(size=(t[0], t[1])))


@settings(max_examples=40, deadline=None)
@given(expected=ARRAYS, axis=st.integers(0, 2))
def test_an_axis_of_length_one_added_is_named_with_its_place(expected, axis):
    got = np.expand_dims(expected, axis)
    found = explain.explain("Q", [_sample(expected, got)])
    assert found.relation == "unit_axis_extra" and found.params["axis"] == axis


@settings(max_examples=40, deadline=None)
@given(expected=ARRAYS)
def test_an_axis_of_length_one_missing_is_named(expected):
    expected = expected[:, None, :]
    found = explain.explain("Q", [_sample(expected, expected[:, 0, :])])
    assert found.relation == "unit_axis_missing" and found.params["axis"] == 1


@settings(max_examples=40, deadline=None)
@given(heads=st.integers(2, 4), n=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_an_axis_averaged_away_is_named(heads, n, seed):
    expected = np.random.default_rng(seed).random((heads, n, n))
    found = explain.explain("weights", [_sample(expected, expected.mean(axis=0))])
    assert found.relation == "formula" and ("mean", 0) in found.parts


def test_mapping_values_that_are_objects_are_not_names():
    class Index:  # what the grader receives for an object it knows only by type
        pass
    sample = Sample(case="c", hidden=False, passed=False, got={"a": Index(), "b": Index()}, got_type="dict",
                    expected={"a": "b", "b": "a"}, quantities={}, sizes={}, labels=("a", "b"))
    assert explain.explain("most_attended", [sample]).relation == "values_not_words"


def test_unrelated_values_get_no_unit_axis_reading():
    rng = np.random.default_rng(3)
    expected = rng.normal(size=(3, 4))
    found = explain.explain("Q", [_sample(expected, rng.normal(size=(1, 3, 4)))])
    assert found is None or found.relation not in ("unit_axis_extra", "unit_axis_missing")
