"""The one declaration of the lab's steps: names, points, inputs, expected values, known mistakes.

Every grader (CLI, pytest, Otter, batch) renders this list. Each step is graded on the
reference's outputs of the steps before it, so one mistake costs one step.
"""
import itertools

import numpy as np
import pandas as pd

from autograder.declaration import ErrorMistake, Link, Mistake, Output, Probe, Step
from autograder.rubric import DEFAULT_SHARES, Rubric

from . import cases as lab_cases, model


def _quietly(function):
    """Candidates may overflow or divide by zero on purpose (that is the mistake)."""
    def wrapped(*args):
        with np.errstate(all="ignore"):
            return list(function(*args))
    return wrapped


def _one(step, case, trace, args, expected, label=""):
    return Probe(step, case, trace, args, expected, label)




# make_qkv ----------------------------------------------------------------------------------

def _qkv_probes(step, case, t):
    return [_one(step, case, t, (case.X, case.W_Q, case.W_K, case.W_V), (t.Q, t.K, t.V))]


@_quietly
def _qkv_order(p):
    for order in itertools.permutations(range(3)):
        if order != (0, 1, 2):
            yield tuple(p.expected[i] for i in order)


@_quietly
def _same_weight(p):
    X = p.case.X
    projections = [X @ W for W in (p.case.W_Q, p.case.W_K, p.case.W_V)]
    # Shapes need not agree: with d_v ≠ d_k, V made with W_K is a (wrongly shaped) prediction too.
    for position, source in itertools.permutations(range(3), 2):
        candidate = list(projections)
        candidate[position] = projections[source]
        yield tuple(candidate)
    for source in range(3):  # one W pasted into all three
        yield (projections[source],) * 3


@_quietly
def _rounded(p):
    """Values rounded as the page prints them (1 to 3 decimals) before being returned."""
    for decimals in itertools.product((1, 2, 3), repeat=len(p.expected)):
        yield tuple(np.round(value, d) for value, d in zip(p.expected, decimals))


@_quietly
def _weights_transposed(p):
    """X @ W.T (a linear layer's habit): runs only where each W is square."""
    X, weights = p.case.X, (p.case.W_Q, p.case.W_K, p.case.W_V)
    if all(W.shape[0] == W.shape[1] for W in weights):
        yield tuple(X @ W.T for W in weights)


def _weights_transposed_error(probe):
    n, d_model = probe.case.X.shape
    for W in (probe.case.W_Q, probe.case.W_V):
        width = W.shape[1]
        if width != d_model:
            yield "ValueError", rf"^matmul\b.*\bsize {width} is different from {d_model}\b"
            yield "ValueError", rf"shapes \({n}, ?{d_model}\) and \({width}, ?{d_model}\) not aligned"


def _stacked_weights(probe):
    """W_Q, W_K, W_V stacked into one array: numpy refuses where d_v ≠ d_k."""
    yield "ValueError", r"all input arrays must have the same shape"
    yield "ValueError", r"inhomogeneous shape"
    yield "ValueError", r"could not broadcast input array from shape"


# scores ------------------------------------------------------------------------------------

def _scores_probes(step, case, t):
    return [_one(step, case, t, (t.Q, t.K), (t.scores,))]


def _untransposed_product(probe):
    """numpy's own words for Q @ K (or np.dot(Q, K)) with both operands (n, d_k)."""
    n, d_k = probe.trace.Q.shape
    yield "ValueError", rf"^matmul\b.*\bsize {n} is different from {d_k}\b"
    yield "ValueError", rf"shapes \({n}, ?{d_k}\) and \({n}, ?{d_k}\) not aligned"


# softmax -----------------------------------------------------------------------------------

def _softmax_probes(step, case, t):
    probes = [_one(step, case, t, (t.scaled,), (t.weights,), "2-D"),
              _one(step, case, t, (t.scaled[-1],), (t.weights[-1],), "1-D")]
    if case.name == lab_cases.FORMS_CASE and not case.hidden:
        # The docstring promises an array of scores, whatever its dtype: integers too.
        scores = lab_cases.integer_scores(t)
        probes.append(_one(step, case, t, (scores,), (_solution().softmax(scores),), "int"))
    return probes


def _solution():
    from solutions import self_attention as solution
    return solution


def _fixed_axis(probe):
    """axis=1 written in: the single row (a 1-D input) has no second axis."""
    yield "AxisError", r"axis 1 is out of bounds for array of dimension 1"


# mix ---------------------------------------------------------------------------------------

def _mix_probes(step, case, t):
    return [_one(step, case, t, (t.weights, t.V), (t.output,))]


def _mix_errors(probe, swapped):
    weights, V = probe.args
    n, d_v = V.shape
    if swapped:  # V @ weights
        yield "ValueError", rf"^matmul\b.*\bsize {n} is different from {d_v}\b"
        yield "ValueError", rf"shapes \({n}, ?{d_v}\) and \({n}, ?{n}\) not aligned"
    else:  # weights * V
        yield "ValueError", rf"could not be broadcast together with shapes \({n},{n}\) \({n},{d_v}\)"
        yield "ValueError", rf"could not be broadcast together with shapes \({n},{d_v}\) \({n},{n}\)"


@_quietly
def _operands_swapped(p):
    weights, V = p.args
    if V.shape[1] == weights.shape[0]:  # only then does V @ weights run instead of raising
        yield (V @ weights,)


# self_attention ----------------------------------------------------------------------------

def _attention_probes(step, case, t):
    return [_one(step, case, t, (case.X, case.W_Q, case.W_K, case.W_V), (t.output, t.weights))]


# most_attended -----------------------------------------------------------------------------

def _most_probes(step, case, t):
    probes = [_one(step, case, t, (t.weights, list(case.words)), (t.most_attended,))]
    if case.name == lab_cases.FORMS_CASE and not case.hidden:
        # Weights of whole-number scores tie within a row; idxmax, as the docstring asks, picks
        # the first of the tied words.
        weights = _solution().softmax(lab_cases.integer_scores(t))
        probes.append(_one(step, case, t, (weights, list(case.words)),
                           (_solution().most_attended(weights, list(case.words)),), "ties"))
    return probes


def _table(p):
    weights, words = p.args
    return pd.DataFrame(weights, index=words, columns=words)


def _most_wrong_axis(p):
    table = _table(p)
    if table.shape[0] > 1:
        yield (table.idxmax(axis=0).to_dict(),)


def _indices_not_words(p):
    weights, words = p.args
    best = weights.argmax(axis=1)
    yield ({word: int(i) for word, i in zip(words, best)},)
    yield ({i: int(j) for i, j in enumerate(best)},)
    yield ({i: words[j] for i, j in enumerate(best)},)


def _argmin(p):
    if len(p.args[1]) > 1:
        yield (_table(p).idxmin(axis=1).to_dict(),)


def _excludes_self(p):
    """Each word's own column left out of its candidates (the diagonal masked)."""
    weights, words = p.args
    if len(words) > 1:
        masked = np.array(weights, dtype=float)
        np.fill_diagonal(masked, -np.inf)
        yield (pd.DataFrame(masked, index=words, columns=words).idxmax(axis=1).to_dict(),)


@_quietly
def _uses_globals(p):
    """self_attention computed from the notebook's page values, whatever its arguments: on every
    case it returns what the page's case gives."""
    page = _page_trace()
    yield (page.output, page.weights)


def _page_trace():
    from . import cases, reference

    global _PAGE_TRACE
    if _PAGE_TRACE is None:
        _PAGE_TRACE = reference.trace(cases.page_case())
    return _PAGE_TRACE


_PAGE_TRACE = None


# The shares of this lab's own mistakes, beside the engine's (every step without its own rubric).
SHARES = {
    **DEFAULT_SHARES,
    "unstable": 0.7,  # right formula, no max subtracted
    "global_max": 0.7,
    "rounded": 0.7,  # right values, rounded as the page prints them
    "uses_globals": 0.0,  # the page's values whatever the arguments: nothing computed from them
}
RUBRIC = Rubric(shares=SHARES)

STEPS = (
    Step("make_qkv", 2, 2, ("X", "W_Q", "W_K", "W_V"),
         (Output("Q"), Output("K"), Output("V")),
         (Mistake("qkv_order", _qkv_order), Mistake("same_weight", _same_weight), Mistake("rounded", _rounded),
          Mistake("weights_transposed", _weights_transposed)),
         hint="make_qkv_shapes", make_probes=_qkv_probes,
         error_mistakes=(ErrorMistake("weights_transposed", _weights_transposed_error),
                         ErrorMistake("stacked_weights", _stacked_weights))),
    Step("scores", 1, 3, ("Q", "K"), (Output("scores", columns="words"),), model.SCORES.mistakes(),
         hint="scores_hand", make_probes=_scores_probes,
         error_mistakes=(ErrorMistake("missing_transpose", _untransposed_product),)),
    Step("softmax", 2, 4, ("x",), (Output("weights", columns="words", rows_sum_to_one=True),),
         model.SOFTMAX_STEP.mistakes(), hint="softmax_rows", make_probes=_softmax_probes,
         # Told by its error only: it costs the 1-D tests, as any error there does (autograder/rubric.py).
         error_mistakes=(ErrorMistake("fixed_axis", _fixed_axis),),
         rubric=Rubric(shares=SHARES)),
    Step("mix", 1, 5, ("weights", "V"), (Output("output"),),
         model.MIX.mistakes() + (Mistake("operands_swapped", _operands_swapped),),
         hint="mix_row", make_probes=_mix_probes,
         error_mistakes=(ErrorMistake("elementwise", lambda p: _mix_errors(p, swapped=False)),
                         ErrorMistake("operands_swapped", lambda p: _mix_errors(p, swapped=True)))),
    Step("self_attention", 3, 4, ("X", "W_Q", "W_K", "W_V"),
         (Output("output"), Output("weights", columns="words", rows_sum_to_one=True)),
         (Mistake("uses_globals", _uses_globals),) + model.ATTENTION.mistakes(),
         hint="self_attention_scale", make_probes=_attention_probes,
         error_mistakes=(ErrorMistake("missing_transpose", _untransposed_product),),
         # scores divided already, so this function does not: right together, each wrong alone.
         links=(Link("scores", "scaled_early", "missing_scale", "scale_moved"),
                Link("softmax", "scaled_inside", "missing_scale", "scale_in_softmax")),
         rubric=Rubric(shares={**SHARES, "scale_moved": 0.8}),
         calls=("make_qkv", "scores", "softmax", "mix")),
    Step("most_attended", 1, 4, ("weights", "words"), (Output("most_attended", kind="mapping"),),
         (Mistake("wrong_axis", _most_wrong_axis), Mistake("indices_not_words", _indices_not_words),
          Mistake("argmin", _argmin), Mistake("excludes_self", _excludes_self)),
         hint="most_attended_idxmax", make_probes=_most_probes),
)

FUNCTION_NAMES = tuple(step.name for step in STEPS)
STEPS_BY_NAME = {step.name: step for step in STEPS}
TOTAL_POINTS = sum(step.points for step in STEPS)
