"""What a student's function computes (autograder.core.explain.computes): a known function of the
call's own arguments, named when it gives the student's value on every call read.

Generated: each entry of the engine's library and of a lab's own, on generated arguments, is named
by an entry whose expression, evaluated on those arguments, is the student's value (never one that
is not), with the parameters' own names; a passing call rules an entry out; what is named holds
names only. Real files: the sentences a TA and a student read, in Korean and in English.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.core.explain import computes
from autograder.core.explain.computes import AXES, LIBRARY, Known, search_known
from autograder.core.explain.records import Sample, Vocabulary, close
from autograder.core.explain.search import explain
from autograder.core.render.explained import explained_text
from autograder.core.render.messages import Messages, catalog
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan

QUICK = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _evaluate(expression, arguments):
    with np.errstate(all="ignore"):
        return np.asarray(eval(expression, {"np": np, "softmax": computes._softmax, "float": float}, dict(arguments)), float)


def _calls(seed, count, names, square=True):
    rng = np.random.default_rng(seed)
    calls = []
    for _ in range(count):
        n = int(rng.integers(3, 6))
        m = n if square else int(rng.integers(2, 6))
        calls.append(tuple((name, rng.normal(size=(n, m)) * 1.5) for name in names))
    return calls


def _samples(calls, student, reference, failing=True):
    samples = []
    for index, arguments in enumerate(calls):
        values = [value for _, value in arguments]
        got, expected = np.asarray(student(*values), float), np.asarray(reference(*values), float)
        samples.append(Sample(case=f"c{index}", hidden=index % 2 == 1, passed=not failing, got=got if failing else expected,
                              got_type="ndarray", expected=expected, quantities={}, sizes={}, arguments=arguments))
    return samples


def _student_of(entry, names, axis):
    """The entry as a student's function of the named arguments."""
    return lambda *values: _evaluate(entry.written(["a", "b"], axis), dict(zip("ab", values)))


UNARY = [entry for entry in LIBRARY if entry.arity == 1]
BINARY = [entry for entry in LIBRARY if entry.arity == 2]


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3), index=st.integers(0, len(UNARY) - 1), axis=st.sampled_from((0, 1, -1)))
def test_every_one_argument_entry_is_named_by_one_that_gives_the_students_value(seed, count, index, axis):
    entry = UNARY[index]
    student = _student_of(entry, ("x",), axis if entry.has_axis else None)
    calls = _calls(seed, count, ("x",))
    samples = _samples(calls, student, _softmax)
    if all(close(s.got, s.expected) for s in samples):
        return  # the entry is the reference here: nothing to name
    found = search_known(samples, [])
    assert found is not None, entry
    assert found.arguments == ("x",)
    for sample in samples:  # sound: what is named gives the student's value on every call
        assert close(sample.got, _evaluate(found.expression, sample.arguments))


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3), index=st.integers(0, len(BINARY) - 1))
def test_every_two_argument_entry_is_named_with_its_arguments_in_their_places(seed, count, index):
    entry = BINARY[index]
    calls = _calls(seed, count, ("weights", "V"))
    samples = _samples(calls, _student_of(entry, ("weights", "V"), None), lambda w, v: _softmax(w) @ v)
    found = search_known(samples, [])
    assert found is not None, entry
    assert set(found.arguments) == {"weights", "V"}
    for sample in samples:
        assert close(sample.got, _evaluate(found.expression, sample.arguments))


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3))
def test_a_value_no_entry_gives_is_never_named(seed, count):
    """Noise the student's code made up is no known function: nothing is named, never a near one."""
    calls = _calls(seed, count, ("x",))
    rng = np.random.default_rng(seed + 1)
    samples = _samples(calls, lambda x: rng.normal(size=x.shape), _softmax)
    assert search_known(samples, []) is None


@QUICK
@given(seed=SEEDS)
def test_a_passing_call_rules_an_entry_out(seed):
    """A function that is the sigmoid on the failing calls but right on a passing one is not the
    sigmoid: the entry must give the expected value wherever the student's value was right."""
    calls = _calls(seed, 3, ("x",))
    failing = _samples(calls[:2], lambda x: 1 / (1 + np.exp(-x)), _softmax)
    passing = _samples(calls[2:], _softmax, _softmax, failing=False)
    assert search_known(failing, []).name == "sigmoid"
    assert search_known(failing, passing) is None


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3), index=st.integers(0, len(LIBRARY) - 1))
def test_what_is_named_holds_names_only(seed, count, index):
    """INVARIANT (the explainer's, hidden tests): the record holds the entry's name, the
    parameters' names and an axis of AXES, and an expression written from those alone."""
    entry = LIBRARY[index]
    calls = _calls(seed, count, ("scores", "mask"))
    samples = _samples(calls, _student_of(entry, ("scores", "mask"), -1 if entry.has_axis else None),
                       lambda scores, mask: _softmax(scores))
    found = explain("weights", samples)
    if found is None or found.relation != "computes":
        return
    params = found.params
    known = {e.name: e for e in LIBRARY}
    assert params["known"] in known and set(params["arguments"]) <= {"scores", "mask"}
    assert params["axis"] is None or params["axis"] in AXES
    assert params["expression"] == known[params["known"]].written(params["arguments"], params["axis"])


def test_a_labs_own_entry_is_tried_before_the_library_and_told_by_the_labs_catalog():
    from labs.masked_attention import LAB, KNOWN
    rng = np.random.default_rng(3)
    calls = []
    for n in (3, 4, 5):
        mask = np.tril(np.ones((n, n), dtype=bool))
        calls.append((("scores", rng.normal(size=(n, n))), ("mask", mask)))
    reference = lambda s, m: _softmax(np.where(m, s, -np.inf))  # noqa: E731
    samples = _samples(calls, lambda s, m: _softmax(s + m), reference)
    assert search_known(samples, []) is None  # the library alone has no word for it
    found = explain("weights", samples, known=KNOWN)
    assert found.params["known"] == "mask_added"
    assert found.params["expression"] == "softmax(scores + mask)"
    for lang in ("ko", "en"):
        assert "mask_added" in catalog(lang, LAB)["computes"]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_entry_has_a_sentence_in_each_language_with_only_its_own_placeholders(lang):
    from labs.masked_attention import LAB, KNOWN
    table = catalog(lang, LAB)["computes"]
    for entry in (*LIBRARY, *KNOWN):
        assert entry.name in table, entry.name
        table[entry.name].format(a="x", b="y", axis=1)  # no placeholder but {a}, {b}, {axis}


SIGMOID = '''
import numpy as np

def softmax(x):
    x = np.asarray(x, dtype=float)
    out = np.empty_like(x)
    for index, value in np.ndenumerate(x):
        out[index] = 1.0 / (1.0 + np.exp(-value))
    return out
'''


@pytest.fixture(scope="module")
def plan():
    from labs.self_attention import LAB
    return Plan.build(LAB)


def test_a_sigmoid_written_as_a_loop_is_told_as_the_function_it_computes(zygote, plan):
    """A softmax written as a sigmoid, cell by cell in a loop no small edit repairs: the feedback
    says what the function computes, with the parameter's own name, in both languages, and the
    points are those of a wrong computation, not of answers looked up."""
    from labs.self_attention import LAB
    result = grade_bytes("sigmoid.py", SIGMOID.encode(), zygote, plan)
    step = next(s for s in result.steps if s.name == "softmax")
    assert step.score < step.max_score
    # Right by chance on one public test (large values: the sigmoid's 1 and 0 are the softmax's),
    # wrong elsewhere: still no answer fitted to the public tests, since its value on every hidden
    # test is a known function of inputs nobody could know. It keeps what the rubric gives.
    assert not any(c.fitted for c in step.cases) and step.score > 0
    assert "fails_off_seen" not in step.mistakes
    assert [e["relation"] for e in step.explained] == ["computes"], step.explained
    assert step.explained[0]["params"]["expression"] == "1 / (1 + np.exp(-x))"
    ko, en = (explained_text(Messages(lang, LAB), step) for lang in ("ko", "en"))
    assert "`1 / (1 + np.exp(-x))`" in ko and "시그모이드" in ko
    assert "`1 / (1 + np.exp(-x))`" in en and "sigmoid" in en


@pytest.mark.parametrize("entry", [e for e in LIBRARY if e.arity == 1], ids=lambda e: e.name)
def test_a_softmax_that_computes_any_known_function_is_never_told_as_answers_fitted(zygote, plan, monkeypatch, entry):
    """INVARIANT (causes.mark_fitted_to_public): a step whose function computes a known function of
    its arguments, whichever, is wrong or right by its values, never "right only where the inputs
    can be known"; and each such file is told what it computes, or something more exact."""
    from autograder.grading import repairs
    from labs.self_attention import LAB
    monkeypatch.setenv(repairs.REPAIR_SWITCH, "off")  # the words of the values alone, and quicker
    expression = entry.written(["x"], -1)
    source = f"import numpy as np\n\ndef softmax(x):\n    x = np.asarray(x, dtype=float)\n    return {expression}\n"
    result = grade_bytes("known.py", source.encode(), zygote, plan)
    step = next(s for s in result.steps if s.name == "softmax")
    assert not any(c.fitted for c in step.cases), (expression, step.mistakes)
    assert "fails_off_seen" not in step.mistakes and "hardcoded" not in step.mistakes
    from autograder.core.judge import EXPLAINABLE
    if step.status == "failed" and set(step.mistakes) <= EXPLAINABLE and not any(c.raised for c in step.cases):
        assert step.explained, expression  # a declared mistake keeps its own words


def test_answers_looked_up_where_the_inputs_are_known_and_a_known_function_elsewhere_stay_fitted(zygote, plan, monkeypatch):
    """INVARIANT (causes.mark_fitted_to_public): the known function must give the step's values on
    every test, those it passes too. A table of the public tests' answers with a sigmoid for any
    other input earns nothing: the sigmoid is not what it returned where it passed."""
    from autograder.grading import repairs
    monkeypatch.setenv(repairs.REPAIR_SWITCH, "off")
    table = {}
    for probe in plan.probes["softmax"]:
        if not probe.case.hidden:
            x = np.asarray(probe.args[0], dtype=float)
            table[repr(np.round(x, 6).tolist())] = np.asarray(probe.expected[0], dtype=float).tolist()
    source = ("import numpy as np\n\nANSWERS = " + repr(table) + "\n\n"
              "def softmax(x):\n    x = np.asarray(x, dtype=float)\n"
              "    key = repr(np.round(x, 6).tolist())\n"
              "    if key in ANSWERS:\n        return np.array(ANSWERS[key])\n"
              "    return 1 / (1 + np.exp(-x))\n")
    result = grade_bytes("table.py", source.encode(), zygote, plan)
    step = next(s for s in result.steps if s.name == "softmax")
    assert step.score == 0 and any(c.fitted for c in step.cases), step.mistakes


def _mix(weights, V):
    return weights @ V


@QUICK
@given(seed=SEEDS, count=st.integers(1, 3), index=st.integers(0, len(UNARY) - 1), axis=st.sampled_from((0, 1, -1)))
def test_the_step_computed_right_on_a_known_function_of_one_argument_is_named_so(seed, count, index, axis):
    """The reference's own step given a known function of one argument in its place (the weights
    made a hard maximum before they mix the values) is named by an entry that, put in that place,
    gives the student's value on every call: never one that does not."""
    entry = UNARY[index]
    calls = [(("weights", w), ("V", v)) for (_, w), (_, v) in _calls(seed, count, ("weights", "V"))]
    changed = _student_of(entry, ("weights",), axis if entry.has_axis else None)
    samples = _samples(calls, lambda w, v: _mix(changed(w), v), _mix)
    if all(close(s.got, s.expected) for s in samples) or any(s.got.shape != s.expected.shape for s in samples):
        return  # the entry changes nothing here, or is a reduction the step cannot take
    if not any(np.unique(s.got[np.isfinite(s.got)]).size > 1 for s in samples):
        return  # nothing but nan or one number: told as what it is, never as a function
    found = computes.search_known_argument(samples, [], _mix, 0)
    if found is None:
        # Only when the entry's value on the weights is one a function of the whole call names first.
        assert search_known(samples, []) is not None, entry
        return
    for sample in samples:
        arguments = dict(sample.arguments)
        arguments[found.arguments[0]] = _evaluate(found.expression, sample.arguments)
        assert close(sample.got, _mix(arguments["weights"], arguments["V"]))


def test_a_mix_that_picks_each_rows_largest_weight_is_told_as_the_weights_made_a_hard_maximum(zygote, plan, monkeypatch):
    """tests/corpora/corpus_blind15: a mix that takes the value row of each row's largest weight,
    in a loop no small edit repairs."""
    from autograder.grading import repairs
    from conftest import CORPORA
    monkeypatch.setenv(repairs.REPAIR_SWITCH, "off")
    path = CORPORA / "corpus_blind15" / "lab1" / "lab1__mix__hard_attention.py"
    result = grade_bytes(path.name, path.read_bytes(), zygote, plan)
    step = next(s for s in result.steps if s.name == "mix")
    assert [(e["relation"], e["params"]["known"]) for e in step.explained] == [("computes_on", "hardmax_first")]


@pytest.mark.parametrize("name, known", [("lab1__scores__neg_distance.py", "negative_row_distance"),
                                         ("lab1__scores__product_of_sums.py", "product_of_row_sums")])
def test_scores_measured_otherwise_than_by_dot_products_are_told_what_they_measure(zygote, plan, monkeypatch, name, known):
    """tests/corpora/corpus_blind15: scores written in loops or from sums, which no small edit
    repairs, are told the known function of Q and K they equal on every test."""
    from autograder.grading import repairs
    from conftest import CORPORA
    monkeypatch.setenv(repairs.REPAIR_SWITCH, "off")
    path = CORPORA / "corpus_blind15" / "lab1" / name
    result = grade_bytes(path.name, path.read_bytes(), zygote, plan)
    step = next(s for s in result.steps if s.name == "scores")
    assert [(e["relation"], e["params"]["known"], e["params"]["arguments"]) for e in step.explained] == \
        [("computes", known, ["Q", "K"])]
    assert {s.name for s in result.steps if s.score < s.max_score} == {"scores"}
