"""The explainer's relations beyond formulas of sizes (autograder/core/explain/, trace_variants.py).

Generated: each relation applied to a reference-like value is named, and nothing smaller is (the
plain quantities, a constant ratio); an unrelated value gets none of them. The reference's trace
re-run with one input changed names the change, from the reference's inputs only. Real files of
the blind corpus: the slips nobody listed for the explainer are named through `autograder grade`'s
words, with the declared mistakes off; and the students' kit reads the same variants.
"""
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from autograder.core import trace_variants
from autograder.core.explain.formulas import factors, predict
from autograder.core.explain.quantities import case_variants
from autograder.core.explain.search import explain
from autograder.core.explain.shapes import _size_expressions
from autograder.core.explain.records import Sample, Vocabulary, close
from autograder.core.declaration import Case
from conftest import CORPORA, ROOT


@pytest.fixture(scope="module", autouse=True)
def _explainer_alone():
    """What the values show (autograder.core.explain) is told when no repair of the student's own code is
    found (autograder.repair names most of these files first: tests/judging/test_repair.py); read alone here."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AUTOGRADER_REPAIR", "off")
        yield

QUICK = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _sample(expected, got, quantities=None, sizes=None, passed=False, hidden=False, case="c", **more):
    return Sample(case=case, hidden=hidden, passed=passed, got=got, got_type="ndarray", expected=expected,
                  quantities=quantities or {}, sizes=sizes or {}, **more)


def _distribution_cases(seed, count, make_got):
    """Failing samples of softmax-like outputs: scores S (n, n), expected = softmax(S / √n)."""
    rng = np.random.default_rng(seed)
    samples = []
    for index in range(count):
        n = int(rng.integers(3, 7))
        scores = rng.normal(size=(n, n)) * 2
        expected = _softmax(scores / np.sqrt(n))
        sizes = {"n": n, "d": int(rng.integers(7, 12))}
        samples.append(_sample(expected, make_got(scores, expected, sizes), {"S": scores}, sizes,
                               case=f"c{index}", hidden=index % 2 == 1))
    return samples


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3))
def test_rows_not_divided_by_their_sum_are_named(seed, count):
    def unnormalised(scores, expected, sizes):
        return np.exp(scores / np.sqrt(sizes["n"]) - 1.0)
    found = explain("weights", _distribution_cases(seed, count, unnormalised))
    assert found.relation == "formula" and found.parts == (("base", "expected"), ("unnormalised",)), found


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3), kind=st.sampled_from(["divided", "times"]),
       factor=st.sampled_from(["n", "√n", "d", "√d"]))
def test_scores_divided_again_or_not_divided_are_named_by_the_size(seed, count, kind, factor):
    def tempered(scores, expected, sizes):
        value = factors(sizes)[factor]
        return _softmax(scores / np.sqrt(sizes["n"]) * (1 / value if kind == "divided" else value))
    samples = _distribution_cases(seed, count, tempered)
    assume(all(not close(s.got, s.expected) for s in samples))
    assume(all(np.all(s.got > 1e-9) for s in samples))  # a saturated row tells no power
    found = explain("weights", samples)
    assert found.relation == "formula" and found.parts[:1] == (("base", "expected"),), found
    (_, told_kind, told), = found.parts[1:]
    # Times a size is first read as times its root where that root divides (* in place of /).
    assert told_kind == kind or (kind, told_kind) == ("times", "inverted")
    power = 2 if told_kind == "inverted" else 1
    for sample in samples:  # sizes may coincide: the name told has the value applied
        assert np.isclose(factors(sample.sizes)[told] ** power, factors(sample.sizes)[factor])


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3))
def test_every_row_the_sum_of_all_rows_is_named(seed, count):
    rng = np.random.default_rng(seed)
    samples = []
    for index in range(count):
        expected = rng.normal(size=(int(rng.integers(2, 6)), int(rng.integers(2, 6))))
        got = np.broadcast_to(expected.sum(axis=0, keepdims=True), expected.shape).copy()
        samples.append(_sample(expected, got, case=f"c{index}"))
    found = explain("output", samples)
    assert found.parts == (("base", "expected"), ("row", "sum")), found


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3))
def test_a_product_summed_along_the_other_axis_is_named(seed, count):
    rng = np.random.default_rng(seed)
    samples = []
    for index in range(count):
        n, m = int(rng.integers(2, 6)), int(rng.integers(2, 6))
        weights, values = _softmax(rng.normal(size=(n, n))), rng.normal(size=(n, m))
        got = (weights[:, :, None] * values[None, :, :]).sum(axis=0)
        samples.append(_sample(weights @ values, got, {"weights": weights, "V": values}, case=f"c{index}"))
    assume(all(not close(s.got, s.expected) for s in samples))
    found = explain("output", samples)
    assert found.parts == (("product_axis", "weights", "V", False),), found


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3))
def test_float16_work_is_named_and_float32_passes_for_the_judge(seed, count):
    rng = np.random.default_rng(seed)
    samples = []
    for index in range(count):
        a, b = rng.normal(size=(4, 5)), rng.normal(size=(5, 3))
        expected = a @ b
        got = (a.astype(np.float16) @ b.astype(np.float16)).astype(float)
        samples.append(_sample(expected, got, {"A": a, "B": b}, case=f"c{index}"))
        # float32 stays within the judge's tolerance: it is never wrong, so never explained
        assert close((a.astype(np.float32) @ b.astype(np.float32)).astype(float), expected)
    assume(all(not close(s.got, s.expected) for s in samples))
    assert explain("output", samples).relation == "half_precision"


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3), saturated=st.booleans())
def test_weight_only_on_the_hidden_cells_is_named(seed, count, saturated):
    rng = np.random.default_rng(seed)
    samples = []
    for index in range(count):
        n = int(rng.integers(3, 6))
        scores = rng.normal(size=(n, n)) * (300 if saturated else 1)
        mask = np.tril(np.ones((n, n), dtype=bool))
        expected = _softmax(np.where(mask, scores, -np.inf))
        got = _softmax(np.where(mask & ~mask.all(axis=-1, keepdims=True), -np.inf, scores))
        samples.append(_sample(expected, got, {"scores": scores}, case=f"c{index}"))
    found = explain("weights", samples)
    if found.relation == "formula":  # saturated rows may be a smaller formula's values too: it must hold
        assert all(close(predict(s, found.parts), s.got) for s in samples), found
    else:
        assert found.relation == "support_swapped", found


@QUICK
@given(seed=SEEDS, n=st.integers(2, 6))
def test_row_maxima_returned_for_names_are_named(seed, n):
    rng = np.random.default_rng(seed)
    words = tuple(f"w{i}" for i in range(n))
    weights = _softmax(rng.normal(size=(n, n)))
    expected = {w: words[int(np.argmax(weights[i]))] for i, w in enumerate(words)}
    got = {w: float(weights[i].max()) for i, w in enumerate(words)}
    sample = Sample(case="c", hidden=False, passed=False, got=got, got_type="dict", expected=expected,
                    quantities={"weights": weights, "other": rng.normal(size=(n, n)) + 5}, sizes={}, labels=words)
    found = explain("most_attended", [sample])
    assert (found.relation, found.params) == ("row_max_values", {"quantity": "weights"}), found


@QUICK
@given(seed=SEEDS, n=st.integers(4, 7), data=st.data())
def test_rows_left_out_are_told_as_left_out_and_a_length_the_passing_tests_refute_is_never_named(seed, n, data):
    """A row dropped (a filter) or merged with an equal one (a dict of rows): the rest of the expected
    is there in order, told as parts left out, repeated ones when each equals one kept. The got's
    length then equals d_model by chance on the failing test; the passing test, where n ≠ d_model
    and the same code gave n rows, rules that name out."""
    rng = np.random.default_rng(seed)
    expected = np.round(rng.normal(size=(n, 4)), 2)
    repeated = data.draw(st.booleans())
    # Inside: the last one left out is the expected's first part (block_first), the first its last.
    dropped = data.draw(st.integers(2, n - 2))
    if repeated:
        expected[dropped] = expected[0]
    got = np.delete(expected, dropped, axis=0)
    failing = _sample(expected, got, sizes={"n": n, "d_model": n - 1}, case="wide")
    right = np.round(rng.normal(size=(3, 4)), 2)
    passing = _sample(right, right, sizes={"n": 3, "d_model": 4}, passed=True, case="page")
    found = explain("output", [failing, passing])
    assert found.relation == ("left_out_repeated" if repeated else "left_out") and found.params["axis"] == 0, found
    assert "got_length" not in found.params


def test_a_length_equal_to_a_size_on_the_failing_tests_alone_is_never_named_as_read_from_it():
    """Rows of another value (not the expected's): their count is d_model on the failing test, and n on
    the passing one, where n ≠ d_model: no size is named."""
    rng = np.random.default_rng(3)
    failing = _sample(rng.normal(size=(4, 5)), rng.normal(size=(3, 5)), sizes={"n": 4, "d_model": 3}, case="wide")
    right = rng.normal(size=(3, 5))
    passing = _sample(right, right, sizes={"n": 3, "d_model": 4}, passed=True, case="page")
    found = explain("output", [failing, passing])
    assert found is None or found.relation != "axis_length", found
    alone = explain("output", [failing])
    assert alone.relation == "axis_length" and alone.params["got_length"] == "d_model", alone


@QUICK
@given(seed=SEEDS, heads=st.lists(st.tuples(st.integers(3, 5), st.integers(1, 4)), min_size=1, max_size=3))
def test_a_first_part_of_the_expected_is_named_with_its_length_in_sizes(seed, heads):
    """Only the first two heads joined: the got is the expected's first 2 × d_head columns."""
    rng = np.random.default_rng(seed)
    samples = []
    for index, (n_heads, d_head) in enumerate(heads):
        n = int(rng.integers(2, 5))
        expected = rng.normal(size=(n, n_heads * d_head))
        sizes = {"n": n, "n_heads": n_heads, "d_head": d_head, "d_model": n_heads * d_head}
        samples.append(_sample(expected, expected[:, :2 * d_head], sizes=sizes, case=f"c{index}"))
    found = explain("merged", samples)
    assert found.relation == "block_first_length" and found.params["axis"] == 1, found
    for sample in samples:  # the named lengths are the lengths, on every test
        got_length = dict(_size_expressions(sample.sizes))[found.params["got_length"]]
        assert got_length == sample.got.shape[1]


def test_an_axis_length_read_from_the_wrong_axis_is_named():
    samples = []
    for n, n_heads, d_model in ((3, 2, 4), (5, 3, 6), (4, 2, 8)):
        d_head, wrong = d_model // n_heads, n // n_heads
        M = np.arange(n * d_model, dtype=float).reshape(n, d_model) + 0.5
        expected = np.stack([M[:, h * d_head:(h + 1) * d_head] for h in range(n_heads)])
        got = np.stack([M[:, h * wrong:(h + 1) * wrong] for h in range(n_heads)])
        sizes = {"n": n, "d_model": d_model, "n_heads": n_heads, "d_head": d_head}
        samples.append(_sample(expected, got, {"M": M}, sizes, case=f"c{n}"))
    found = explain("heads", samples)
    assert (found.relation, found.params) == (
        "axis_length", {"axis": 2, "got_length": "n // n_heads", "expected_length": "d_head"}), found


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3))
def test_unrelated_values_get_none_of_these_relations(seed, count):
    rng = np.random.default_rng(seed)
    samples = _distribution_cases(seed, count, lambda s, e, z: _softmax(rng.normal(size=e.shape) * 3))
    found = explain("weights", samples)
    if found is not None:
        assert found.relation not in ("support_swapped", "half_precision"), found
        assert not any(p[0] in ("unnormalised", "tempered", "row") for p in found.parts), found


# ----- the reference's trace with one input changed -------------------------------------------

def _toy_trace(case):
    """A lab-like reference: Q, K, V from X, an attention output, the heads a count splits into."""
    Q, K, V = (case.X @ case.inputs[w] for w in ("W_Q", "W_K", "W_V"))
    weights = _softmax(Q @ K.T / np.sqrt(K.shape[1]))
    heads = np.stack(np.split(weights @ V @ case.W_O, case.parts, axis=1))
    return type("Trace", (), {"__init__": lambda self, **kw: self.__dict__.update(kw)})(
        Q=Q, K=K, V=V, weights=weights, output=weights @ V @ case.W_O, heads=heads)


VOCABULARY = Vocabulary(sizes={"n": ("X", 0)}, trace=_toy_trace, quantities=("Q", "K", "V", "weights", "output",
                                                                             "heads"))


def _toy_case(rng, name, n, d, parts, hidden=False):
    inputs = {"X": np.round(rng.normal(size=(n, d)) * 2, 1)}
    inputs.update({w: np.round(rng.normal(size=(d, d)), 1) for w in ("W_Q", "W_K", "W_V", "W_O")})
    inputs["parts"] = parts
    return Case(name=name, words=tuple(f"w{i}" for i in range(n)), inputs=inputs, hidden=hidden)


CHANGES = st.sampled_from([("transposed", "W_O"), ("transposed", "W_Q"), ("replaced", "W_V", "W_K"),
                           ("replaced", "W_K", "W_Q"), ("cast_int", "X"), ("page_value", "parts")])


@QUICK
@given(seed=SEEDS, change=CHANGES, output=st.sampled_from(["output", "weights", "heads"]))
def test_a_change_of_one_input_is_named_by_the_trace_re_run(seed, change, output):
    rng = np.random.default_rng(seed)
    page = _toy_case(rng, "page", 4, 4, 2)
    cases = [page, _toy_case(rng, "other", 6, 6, 3), _toy_case(rng, "hidden", 5, 6, 6, hidden=True)]
    samples = []
    for case in cases:
        variants = case_variants(case, page, VOCABULARY)
        expected = getattr(_toy_trace(case), output)
        made = dict(trace_variants.changes(case, page)).get(change)
        got = getattr(_toy_trace(Case(name=case.name, words=case.words, inputs=made, hidden=case.hidden)), output) if made else expected
        samples.append(_sample(expected, got, passed=close(got, expected), hidden=case.hidden,
                               case=case.name, variants=variants))
    assume(any(not s.passed for s in samples))
    found = explain(output, samples)
    assert found is not None and found.relation.startswith("variant_"), found
    told = found.parts[0][1:]
    for sample in samples:  # the change told reproduces the values on every test
        variant = sample.variants.get(told)
        value = variant["quantities"].get(output) if variant else None
        assert close(sample.expected if value is None else value, sample.got)
    # names only, and a number only from the page case
    assert set(found.params) <= {"input", "other", "quantity", "instead", "value"}
    assert found.params.get("value") in (None, page.inputs.get(found.params["input"]))


def test_variants_are_the_reference_inputs_changed_and_computed_once():
    rng = np.random.default_rng(3)
    page, case = _toy_case(rng, "page", 4, 4, 2), _toy_case(rng, "other", 6, 6, 3)
    calls = []

    def counted(c):
        calls.append(c)
        return _toy_trace(c)
    vocabulary = Vocabulary(sizes={}, trace=counted, quantities=VOCABULARY.quantities)
    first = case_variants(case, page, vocabulary)
    again = case_variants(case, page, vocabulary)
    assert first is again and len(calls) == 1 + len(trace_variants.changes(case, page))
    for change, inputs in trace_variants.changes(case, page):
        changed = [k for k in inputs if inputs[k] is not case.inputs[k]]
        # One input, the one named; a swap changes the two it names, each into the other.
        named = list(change[1:3]) if change[0] == "swapped" else [change[1]]
        assert changed == [k for k in inputs if k in named]
        if change[0] == "swapped":
            assert np.array_equal(inputs[change[1]], case.inputs[change[2]])
            assert np.array_equal(inputs[change[2]], case.inputs[change[1]])
    assert first[("replaced", "W_V", "W_K")]["first"] == "V" and first[("replaced", "W_V", "W_K")]["as"] == "K"
    assert first[("page_value", "parts")]["value"] == 2


def test_a_trace_that_cannot_run_gives_no_variant():
    def broken(case):
        raise ValueError("no")
    rng = np.random.default_rng(4)
    case = _toy_case(rng, "other", 3, 3, 3)
    assert case_variants(case, None, Vocabulary(sizes={}, trace=broken)) == {}
    assert case_variants(case, None, Vocabulary(sizes={})) == {}


# ----- real files: the blind corpus, declared mistakes off ---------------------------------------

BLIND = CORPORA / "corpus_blind"
NAMED_BLIND = {  # file: (step, relation, a words the Korean and the English sentence hold)
    "lab1__softmax__returns_exp.py": ("softmax", "computes", ("합으로 나누", "division by the sum")),
    "lab1__mix__list_mul_alias.py": ("mix", "formula", ("[np.zeros(d)] * n", "[np.zeros(d)] * n")),
    "lab1__mix__broadcast_sum_axis0.py": ("mix", "formula", ("axis=0", "axis=0")),
    "lab1__mix__float16.py": ("mix", "half_precision", ("float16", "float16")),
    "lab1__most_attended__returns_max_value.py": ("most_attended", "row_max_values", ("idxmax", "idxmax")),
    "lab1__make_qkv__int_cast_x.py": ("make_qkv", "variant_cast_int", ("정수", "int")),
    "lab2__split_heads__rows_as_dhead.py": ("split_heads", "axis_length", ("n // n_heads", "n // n_heads")),
    "lab2__masked_softmax__double_scale.py": ("masked_softmax", "formula", ("√n의 값으로 한 번 더", "once more by √n")),
    "lab2__masked_softmax__additive_inverted.py": ("masked_softmax", "support_swapped", ("뒤바뀌", "swapped")),
    "lab2__merge_heads__hstack_two_heads.py": ("merge_heads", "block_first_length", ("2 × d_head", "2 × d_head")),
    "lab2__multi_head_attention__WO_transposed.py": ("multi_head_attention", "variant_transposed", ("W_O", "W_O")),
    "lab2__multi_head_attention__weights_times_K.py": ("multi_head_attention", "variant_replaced_as",
                                                        ("K(X @ W_K)", "K (X @ W_K)")),
}


@pytest.fixture(scope="module")
def blind_results():
    from autograder import registry
    from autograder.grading import grade_file
    from autograder.grading.plan import Plan
    from autograder.core.predictions import DECLARED_MISTAKES_SWITCH
    from autograder.sandbox.runner import Zygote
    previous = os.environ.get(DECLARED_MISTAKES_SWITCH)
    os.environ[DECLARED_MISTAKES_SWITCH] = "off"
    try:
        plans = {lab: Plan.build(registry.load(lab)) for lab in ("self_attention", "masked_attention")}
        with Zygote() as zygote:
            return {name: grade_file(BLIND / name.split("__")[0] / name, zygote,
                                     plans["self_attention" if name.startswith("lab1") else "masked_attention"])
                    for name in NAMED_BLIND}
    finally:
        if previous is None:
            os.environ.pop(DECLARED_MISTAKES_SWITCH, None)
        else:
            os.environ[DECLARED_MISTAKES_SWITCH] = previous


@pytest.mark.parametrize("name", sorted(NAMED_BLIND))
def test_a_blind_file_nobody_listed_is_named_by_its_values(blind_results, name):
    from autograder import registry
    from autograder.core.render.feedback import as_text
    step_name, relation, words = NAMED_BLIND[name]
    result = blind_results[name]
    step = next(s for s in result.steps if s.name == step_name)
    assert relation in [e["relation"] for e in step.explained], step
    lab = registry.load("self_attention" if name.startswith("lab1") else "masked_attention")
    for lang, word in zip(("ko", "en"), words):
        block = next(b for b in as_text(result, lab, lang).split("■ ") if b.startswith(step_name + " "))
        assert word in block, (lang, block)


# ----- the students' kit reads the same variants ---------------------------------------------------

@pytest.mark.parametrize("lab_name", ["self_attention", "masked_attention"])
def test_the_kit_reads_the_variants_the_engine_computes(lab_name):
    import json

    from autograder import registry
    from autograder.kit.public import _explainer
    from autograder.otter.public_data import public_data
    lab = registry.load(lab_name)
    data = json.loads(json.dumps(public_data(lab)))
    vocabulary, _ = _explainer(data["explain"])
    outputs = {o.name for step in lab.steps for o in step.outputs}
    cases = list(lab.public_cases())
    page = cases[0]
    for case in cases:
        engine = case_variants(case, page, lab.vocabulary)
        kit = case_variants(case, page, vocabulary)
        assert set(kit) == set(engine)
        for change, variant in engine.items():
            assert {k: v for k, v in kit[change].items() if k != "quantities"} == \
                {k: v for k, v in variant.items() if k != "quantities"}
            for name in set(variant["quantities"]) & outputs:
                assert np.array_equal(kit[change]["quantities"][name], variant["quantities"][name])
    assert all(not case.hidden for case in cases)
    assert set(data["explain"]["tests"]) == {case.name for case in cases}  # no hidden test's variants
