"""Readings that misled on the third blind group's files, each a class of mistake: the relation the
values show is named, and the misleading one is not. Codes and relations are asserted, not sentences."""
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.core.explain.formulas import factors
from autograder.core.explain.search import explain
from autograder.core.explain.records import Sample
from conftest import CORPORA


@pytest.fixture(scope="module", autouse=True)
def _explainer_alone():
    """What the values show (autograder.core.explain) is told when no repair of the student's own code is
    found (autograder.repair names most of these files first: tests/judging/test_repair.py); read alone here."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOGRADER_REPAIR", "off")
        yield

BLIND3 = CORPORA / "corpus_blind3"
QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

FILES = {
    "lab1__most_attended__frame_without_index.py",
    "lab1__most_attended__zip_index_not_values.py",
    "lab1__self_attention__multiplies_by_sqrt.py",
    "lab1__self_attention__dk_from_size.py",
    "lab2__merge_heads__reshape_order_F.py",
    "lab2__masked_softmax__boolean_index_3d.py",
}


def _lab_name(name):
    return "self_attention" if name.startswith("lab1") else "masked_attention"


@pytest.fixture(scope="module")
def results():
    from autograder import registry
    from autograder.grading import grade_file
    from autograder.grading.plan import Plan
    from autograder.sandbox.runner import Zygote
    plans = {lab: Plan.build(registry.load(lab)) for lab in ("self_attention", "masked_attention")}
    with Zygote() as zygote:
        return {name: grade_file(BLIND3 / name.split("__")[0] / name, zygote, plans[_lab_name(name)])
                for name in FILES}


def _step(results, name, step_name):
    return next(s for s in results[name].steps if s.name == step_name)


def _text(results, name, step_name, lang):
    from autograder import registry
    from autograder.core.render.feedback import as_text
    text = as_text(results[name], registry.load(_lab_name(name)), lang)
    return next(b for b in text.split("■ ") if b.startswith(step_name + " "))


# ----- keys that are positions, values that are right -----------------------------------------

def test_keys_as_positions_with_right_values_is_not_told_as_numbers_for_names(results):
    step = _step(results, "lab1__most_attended__frame_without_index.py", "most_attended")
    assert step.mistakes[0] == "keys_not_words", step.mistakes
    assert "indices_not_words" not in step.mistakes


WORDS = st.lists(st.text("가나다라마바사아자차", min_size=1, max_size=3), min_size=2, max_size=6, unique=True)


def _mapping_sample(labels, expected, got):
    return Sample(case="c", hidden=False, passed=False, got=got, got_type="dict", expected=expected,
                  quantities={}, sizes={}, labels=tuple(labels))


@QUICK
@given(labels=WORDS, data=st.data())
def test_keys_and_values_are_read_apart(labels, data):
    expected = {label: data.draw(st.sampled_from(labels)) for label in labels}
    keys_wrong = {i: expected[label] for i, label in enumerate(labels)}
    found = explain("most_attended", [_mapping_sample(labels, expected, keys_wrong)])
    assert found.relation == "keys_positions", found


# ----- every key mapped to itself ----------------------------------------------------------------

def test_a_mapping_of_every_key_to_itself_is_its_own_relation(results):
    step = _step(results, "lab1__most_attended__zip_index_not_values.py", "most_attended")
    assert "ignores_arguments" not in step.mistakes, step.mistakes
    assert [e["relation"] for e in step.explained][:1] == ["maps_to_itself"], step


@QUICK
@given(labels=WORDS, data=st.data())
def test_an_identity_mapping_is_named_whatever_the_expected(labels, data):
    from hypothesis import assume
    expected = {label: data.draw(st.sampled_from(labels)) for label in labels}
    assume(any(k != v for k, v in expected.items()))
    found = explain("most_attended", [_mapping_sample(labels, expected, {k: k for k in labels})])
    assert found.relation == "maps_to_itself", found


def test_the_judge_does_not_read_an_identity_mapping_as_arguments_ignored():
    from autograder.core.causes import _maps_to_itself
    assert _maps_to_itself({"a": "a", "b": "b"})
    assert not _maps_to_itself({"a": "b", "b": "b"}) and not _maps_to_itself({"a": "a"})
    assert not _maps_to_itself(np.eye(2))


# ----- × a size's root where ÷ belongs -------------------------------------------------------------

def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@QUICK
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 3))
def test_multiplying_by_a_root_where_it_divides_is_read_first(seed, count):
    rng = np.random.default_rng(seed)
    samples = []
    for index in range(count):
        n, d = int(rng.integers(3, 6)), int(rng.integers(2, 9))
        scores = rng.normal(size=(n, n))
        samples.append(Sample(case=f"c{index}", hidden=index == 1, passed=False,
                              got=_softmax(scores * np.sqrt(d)), got_type="ndarray",
                              expected=_softmax(scores / np.sqrt(d)), quantities={}, sizes={"n": n, "d_k": d}))
    found = explain("weights", samples)
    assert found.relation == "formula", found
    (_, kind, factor), = found.parts[1:]
    assert kind in ("inverted", "divided", "times"), found
    for sample in samples:  # another size of the same value may be named; its square is the ratio
        amount = {"inverted": factors(sample.sizes)[factor] ** 2, "times": factors(sample.sizes)[factor],
                  "divided": 1 / factors(sample.sizes)[factor]}[kind]
        assert np.isclose(amount, sample.sizes["d_k"])
    def alone(sample):  # no other size (nor 2) has d_k's value or its root's
        others = [v for k, v in factors(sample.sizes).items() if k not in ("d_k", "√d_k")]
        return sample.sizes["d_k"] > 1 and not any(np.isclose(v, sample.sizes["d_k"]) or
                                                   np.isclose(v, np.sqrt(sample.sizes["d_k"])) for v in others)
    if all(alone(s) for s in samples):
        assert found.parts[1] == ("tempered", "inverted", "√d_k"), found


def test_multiplies_by_sqrt_is_told_as_multiply_instead_of_divide(results):
    step = _step(results, "lab1__self_attention__multiplies_by_sqrt.py", "self_attention")
    parts = [tuple(map(tuple, e["parts"])) if e.get("parts") else () for e in step.explained]
    assert any(("tempered", "inverted", "√d_k") in [tuple(p) for p in ps] for ps in parts), step
    assert "*" in _text(results, "lab1__self_attention__multiplies_by_sqrt.py", "self_attention", "en")


# ----- a divisor too large, in a step whose input is not divided yet -------------------------------

def test_a_divisor_too_large_is_not_told_as_a_double_division(results):
    name = "lab1__self_attention__dk_from_size.py"
    step = _step(results, name, "self_attention")
    parts = [tuple(tuple(p) for p in e.get("parts") or ()) for e in step.explained]
    assert any(p[1:] == (("tempered", "divided", "√n"),) for p in parts), step
    assert "already divided" not in _text(results, name, "self_attention", "en")
    assert "이미 나눈" not in _text(results, name, "self_attention", "ko")
    assert ".size" in _text(results, name, "self_attention", "ko")


# ----- a permutation told by its relation, not by code nobody wrote --------------------------------

def test_a_permutation_is_told_as_the_expected_values_in_another_order(results):
    name = "lab2__merge_heads__reshape_order_F.py"
    step = _step(results, name, "merge_heads")
    assert step.mistakes[0] == "merge_interleaved", step.mistakes
    for lang in ("en", "ko"):
        text = _text(results, name, "merge_heads", lang)
        assert "transpose(1, 2, 0)" not in text, text
    assert "column-first" in _text(results, name, "merge_heads", "en")
    assert "열 우선" in _text(results, name, "merge_heads", "ko")


# ----- an error inside a helper that passes its own tests --------------------------------------------

def _errored_step(frames_per_case, own=("helper",), hidden_frames=None):
    from autograder.core.case_detail import Raised, RaisedError
    from autograder.core.verdict import CaseResult, HelperUse, StepResult
    cases = [CaseResult(case=f"c{i}", hidden=False, label="", passed=False, code="exception",
                        detail=Raised(error=RaisedError(type="ValueError", message="m",
                                                        frames=tuple(map(tuple, frames)))))
             for i, frames in enumerate(frames_per_case)]
    if hidden_frames is not None:
        cases.append(CaseResult(case="h", hidden=True, label="", passed=False, code="exception",
                                detail=Raised(error=RaisedError(type="ValueError", message="",
                                                                frames=tuple(map(tuple, hidden_frames))))))
    return StepResult(name="composed", score=0.0, max_score=3, status="error", mistakes=["exception"], cases=cases,
                      helpers=HelperUse(own=tuple(own)))


CALL = ["f.py", 10, "composed", "out = helper(a, b)"]
INSIDE = ["f.py", 3, "helper", "return x @ y"]


def test_an_error_inside_a_passing_helper_blames_the_composed_steps_call():
    from autograder.core.render.step import error_in_helper
    found = error_in_helper(_errored_step([[CALL, INSIDE], [CALL, INSIDE]]))
    assert found["helper"] == "helper" and found["number"] == 10 and found["arguments"] == ["a", "b"]
    # the step's own line raising first is the step's own error
    assert error_in_helper(_errored_step([[CALL], [CALL, INSIDE]])) is None
    # a helper that fails its own tests is blamed by its own step
    assert error_in_helper(_errored_step([[CALL, INSIDE]], own=())) is None


@QUICK
@given(arguments=st.lists(st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True), min_size=1, max_size=4),
       keyword=st.booleans())
def test_the_call_arguments_are_read_from_the_line(arguments, keyword):
    import keyword as python_keywords
    from hypothesis import assume
    from autograder.core.render.step import _call_arguments
    assume(not any(python_keywords.iskeyword(a) for a in arguments))
    written = ", ".join(arguments[:-1] + ([f"k={arguments[-1]}"] if keyword else arguments[-1:]))
    assert _call_arguments(f"w = helper({written})", "helper") == arguments
    assert _call_arguments("if helper(", "helper") == []


@pytest.mark.parametrize("path", ["corpus_blind3/lab2/lab2__multi_head_attention__mask_size_n_heads.py",
                                  "corpus_blind2/lab2/lab2__multi_head_attention__mask_size_from_global_words.py"])
def test_a_composed_step_passing_a_wrong_argument_is_told_at_its_call(path):
    from autograder import registry
    from autograder.grading import grade_file
    from autograder.grading.plan import Plan
    from autograder.core.render.feedback import as_text
    from autograder.core.render.step import error_in_helper
    from autograder.sandbox.runner import Zygote
    lab = registry.load("masked_attention")
    with Zygote() as zygote:
        result = grade_file(CORPORA / path, zygote, Plan.build(lab))
    step = next(s for s in result.steps if s.name == "multi_head_attention")
    found = error_in_helper(step)
    assert found and found["helper"] == "masked_softmax" and "mask" in found["arguments"], step
    for lang in ("en", "ko"):
        block = next(b for b in as_text(result, lab, lang).split("■ ") if b.startswith("multi_head_attention "))
        assert "mask.shape" in block
        # the values a wrong mask gave are not read as the helper's own mistake
        assert "as low as -inf" not in block and "-inf만큼" not in block, block


# ----- what a step's hidden tests show, and how tests are counted -----------------------------------

def test_hidden_shapes_are_those_of_the_arguments_the_step_receives(results):
    import re
    from autograder import registry
    for name, result in results.items():
        lab = registry.load(_lab_name(name))
        for step in result.steps:
            declared = lab.steps_by_name[step.name].params
            hidden = {c.case for c in step.cases if c.hidden}
            shapes = step.argument_shapes
            assert set(shapes) <= hidden
            for text, differ in shapes.values():
                assert {m.group(1) for m in re.finditer(r"(\w+) \(", text)} <= set(declared), (step.name, text)
                assert set(differ) <= set(declared)
    shapes = _step(results, "lab2__merge_heads__reshape_order_F.py", "merge_heads").argument_shapes
    assert shapes and all(text.startswith("H (") for text, _ in shapes.values()), shapes


def test_a_passed_step_counts_its_tests_as_a_failed_one_does(results):
    import re
    for name in results:
        for lang in ("en",):
            from autograder import registry
            from autograder.core.render.feedback import as_text
            lab = registry.load(_lab_name(name))
            blocks = {b.split(" ", 1)[0]: b for b in as_text(results[name], lab, lang).split("■ ")[1:]}
            for step in results[name].steps:
                block = blocks[step.name]
                if step.status == "passed":
                    assert f"all {len(step.cases)} cases" in block, block
                rule = (step.rubric or {})
                if rule.get("rule") == "cases":
                    assert rule["total"] + rule.get("uncounted", 0) == len(step.cases)
                hidden = re.search(r"(\d+) of (\d+) hidden cases failed", block)
                if hidden:
                    assert int(hidden.group(2)) == sum(c.hidden for c in step.cases)
                    assert int(hidden.group(1)) == sum(c.hidden and not c.passed for c in step.cases)


def test_a_hidden_test_is_told_by_the_shapes_its_step_receives(results):
    text = _text(results, "lab2__masked_softmax__boolean_index_3d.py", "masked_softmax", "en")
    line = next(l for l in text.splitlines() if "calls the function with arguments of shapes" in l)
    assert "scores (" in line and "mask (" in line and "X (" not in line, line
