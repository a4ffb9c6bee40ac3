"""The one declaration of the lab's steps: names, points, inputs, expected values, known mistakes.

Every grader (CLI, pytest, Otter, batch) renders this list. Each step is graded on the
reference's outputs of the steps before it, so one mistake costs one step.
"""
import itertools

import numpy as np
import pandas as pd

from autograder.declaration import ErrorMistake, Link, Mistake, Output, Probe, Step
from autograder.rubric import DEFAULT_SHARES, Rubric

from . import model


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
    return [_one(step, case, t, (t.scaled,), (t.weights,), "2-D"),
            _one(step, case, t, (t.scaled[-1],), (t.weights[-1],), "1-D")]


# mix ---------------------------------------------------------------------------------------

def _mix_probes(step, case, t):
    return [_one(step, case, t, (t.weights, t.V), (t.output,))]


# self_attention ----------------------------------------------------------------------------

def _attention_probes(step, case, t):
    return [_one(step, case, t, (case.X, case.W_Q, case.W_K, case.W_V), (t.output, t.weights))]


# most_attended -----------------------------------------------------------------------------

def _most_probes(step, case, t):
    return [_one(step, case, t, (t.weights, list(case.words)), (t.most_attended,))]


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


STEPS = (
    Step("make_qkv", 2, 2, ("X", "W_Q", "W_K", "W_V"),
         (Output("Q"), Output("K"), Output("V")),
         (Mistake("qkv_order", _qkv_order), Mistake("same_weight", _same_weight), Mistake("rounded", _rounded)),
         hint="make_qkv_shapes", make_probes=_qkv_probes),
    Step("scores", 1, 3, ("Q", "K"), (Output("scores", columns="words"),), model.SCORES.mistakes(),
         hint="scores_hand", make_probes=_scores_probes,
         error_mistakes=(ErrorMistake("missing_transpose", _untransposed_product),)),
    Step("softmax", 2, 4, ("x",), (Output("weights", columns="words", rows_sum_to_one=True),),
         model.SOFTMAX_STEP.mistakes(), hint="softmax_rows", make_probes=_softmax_probes),
    Step("mix", 1, 5, ("weights", "V"), (Output("output"),), model.MIX.mistakes(),
         hint="mix_row", make_probes=_mix_probes),
    Step("self_attention", 3, 4, ("X", "W_Q", "W_K", "W_V"),
         (Output("output"), Output("weights", columns="words", rows_sum_to_one=True)),
         (Mistake("uses_globals", _uses_globals),) + model.ATTENTION.mistakes(),
         needs_helpers=True, hint="self_attention_scale", make_probes=_attention_probes,
         error_mistakes=(ErrorMistake("missing_transpose", _untransposed_product),),
         # scores divided already, so this function does not: right together, each wrong alone.
         links=(Link("scores", "scaled_early", "missing_scale", "scale_moved"),),
         rubric=Rubric(shares={**DEFAULT_SHARES, "scale_moved": 0.8})),
    Step("most_attended", 1, 4, ("weights", "words"), (Output("most_attended", kind="mapping"),),
         (Mistake("wrong_axis", _most_wrong_axis), Mistake("indices_not_words", _indices_not_words),
          Mistake("argmin", _argmin), Mistake("excludes_self", _excludes_self)),
         hint="most_attended_idxmax", make_probes=_most_probes),
)

FUNCTION_NAMES = tuple(step.name for step in STEPS)
STEPS_BY_NAME = {step.name: step for step in STEPS}
TOTAL_POINTS = sum(step.points for step in STEPS)
