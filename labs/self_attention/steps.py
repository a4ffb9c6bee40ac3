"""The one declaration of the lab's steps: names, points, inputs, expected values, known mistakes.

Every grader (CLI, pytest, Otter, batch) renders this list. Each step is graded on the
reference's outputs of the steps before it, so one mistake costs one step.
"""
import itertools

import numpy as np
import pandas as pd

from autograder.declaration import ErrorMistake, Mistake, Output, Probe, Step


def _softmax(x, axis=-1):
    shifted = np.exp(x - x.max(axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


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


@_quietly
def _elementwise(p):
    Q, K = p.args
    if Q.shape == K.shape:
        yield (Q * K,)
        # Summing each row of Q * K gives only the matching pairs: the diagonal of the table.
        yield ((Q * K).sum(axis=1),)
        yield ((Q * K).sum(axis=1, keepdims=True),)


@_quietly
def _scaled_early(p):
    Q, K = p.args
    yield (Q @ K.T / np.sqrt(K.shape[1]),)


@_quietly
def _untransposed(p):
    Q, K = p.args
    if Q.shape[1] == K.shape[0]:  # only then does Q @ K run instead of raising
        yield (Q @ K,)


def _untransposed_product(probe):
    """numpy's own words for Q @ K (or np.dot(Q, K)) with both operands (n, d_k)."""
    n, d_k = probe.args[0].shape
    yield "ValueError", rf"^matmul\b.*\bsize {n} is different from {d_k}\b"
    yield "ValueError", rf"shapes \({n}, ?{d_k}\) and \({n}, ?{d_k}\) not aligned"


# softmax -----------------------------------------------------------------------------------

def _softmax_probes(step, case, t):
    return [_one(step, case, t, (t.scaled,), (t.weights,), "2-D"),
            _one(step, case, t, (t.scaled[-1],), (t.weights[-1],), "1-D")]


@_quietly
def _wrong_axis(p):
    (x,) = p.args
    if x.ndim == 2 and x.shape[0] > 1:
        yield (_softmax(x, axis=0),)


@_quietly
def _global_sum(p):
    (x,) = p.args
    if x.ndim == 2 and x.shape[0] > 1:
        yield (np.exp(x) / np.exp(x).sum(),)
        yield (np.exp(x - x.max()) / np.exp(x - x.max()).sum(),)


@_quietly
def _no_exp(p):
    (x,) = p.args
    yield (x / x.sum(axis=-1, keepdims=True),)
    yield ((x - x.max(axis=-1, keepdims=True)) / (x - x.max(axis=-1, keepdims=True)).sum(axis=-1, keepdims=True),)


@_quietly
def _unstable(p):
    """exp without subtracting a maximum, along rows, along columns or over the whole table."""
    (x,) = p.args
    sums = [lambda e: e.sum(axis=-1, keepdims=True)]
    if x.ndim == 2 and x.shape[0] > 1:
        sums += [lambda e: e.sum(axis=0, keepdims=True), lambda e: e.sum()]
    for total in sums:
        naive = np.exp(x) / total(np.exp(x))
        if not np.all(np.isfinite(naive)):
            yield (naive,)


# mix ---------------------------------------------------------------------------------------

@_quietly
def _global_max(p):
    """The table's one maximum subtracted instead of each row's: rows far below it underflow."""
    (x,) = p.args
    shifted = np.exp(x - x.max())
    yield (shifted / shifted.sum(axis=-1, keepdims=True),)


def _mix_probes(step, case, t):
    return [_one(step, case, t, (t.weights, t.V), (t.output,))]


@_quietly
def _transposed_weights(p):
    weights, V = p.args
    yield (weights.T @ V,)


@_quietly
def _skip_first_word(p):
    """A loop over range(1, n): the first word's term left out of every sum."""
    weights, V = p.args
    yield (weights[:, 1:] @ V[1:],)


# self_attention ----------------------------------------------------------------------------

def _attention_probes(step, case, t):
    return [_one(step, case, t, (case.X, case.W_Q, case.W_K, case.W_V), (t.output, t.weights))]


def _attention_with(p, divisor):
    weights = _softmax(p.trace.scores / divisor)
    return (weights @ p.trace.V, weights)


@_quietly
def _scale_half_dk(p):
    # `scale = d_k ** 1/2` is d_k/2 (√d_k only where d_k = 4, as on the page), and
    # `scores / d_k ** 1/2` is (scores / d_k) / 2: a divisor of 2·d_k.
    d_k = p.case.W_K.shape[1]
    yield _attention_with(p, d_k / 2)
    yield _attention_with(p, 2 * d_k)


@_quietly
def _missing_scale(p):
    yield _attention_with(p, 1.0)


@_quietly
def _scale_by_dk(p):
    yield _attention_with(p, p.case.W_K.shape[1])


@_quietly
def _scale_wrong_dim(p):
    # X's width, V's width or the number of words (K.shape[0]) in place of K's width. Each is
    # yielded even where it equals d_k, so a case it gets right does not count against it.
    for wrong in (p.case.X.shape[1], p.trace.V.shape[1], p.trace.K.shape[0]):
        yield _attention_with(p, np.sqrt(wrong))


@_quietly
def _scale_after_softmax(p):
    plain = _softmax(p.trace.scores)
    root = np.sqrt(p.case.W_K.shape[1])
    yield ((plain / root) @ p.trace.V, plain / root)
    yield ((plain @ p.trace.V) / root, plain)


@_quietly
def _return_order(p):
    yield (p.expected[1], p.expected[0])


PAGE_DIVISOR = 2.0  # √d_k for the page's d_k = 4


@_quietly
def _fixed_page_scale(p):
    yield _attention_with(p, PAGE_DIVISOR)


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
def _no_keepdims(p):
    """The row maximum or the row sum taken without keepdims: it broadcasts along the other axis."""
    (x,) = p.args
    if x.ndim == 2 and x.shape[0] == x.shape[1] and x.shape[0] > 1:
        for flat_max, flat_sum in ((True, True), (True, False), (False, True)):
            top = x.max(axis=-1) if flat_max else x.max(axis=-1, keepdims=True)
            e = np.exp(x - top)
            yield (e / (e.sum(axis=-1) if flat_sum else e.sum(axis=-1, keepdims=True)),)


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
    Step("scores", 1, 3, ("Q", "K"), (Output("scores", columns="words"),),
         (Mistake("elementwise", _elementwise), Mistake("scaled_early", _scaled_early),
          Mistake("missing_transpose", _untransposed), Mistake("rounded", _rounded)),
         hint="scores_hand", make_probes=_scores_probes,
         error_mistakes=(ErrorMistake("missing_transpose", _untransposed_product),)),
    Step("softmax", 2, 4, ("x",), (Output("weights", columns="words", rows_sum_to_one=True),),
         (Mistake("unstable", _unstable), Mistake("wrong_axis", _wrong_axis),
          Mistake("global_sum", _global_sum), Mistake("no_exp", _no_exp),
          Mistake("global_max", _global_max), Mistake("no_keepdims", _no_keepdims), Mistake("rounded", _rounded)),
         hint="softmax_rows", make_probes=_softmax_probes),
    Step("mix", 1, 5, ("weights", "V"), (Output("output"),),
         (Mistake("transposed_weights", _transposed_weights), Mistake("skip_first_word", _skip_first_word),
          Mistake("rounded", _rounded)),
         hint="mix_row", make_probes=_mix_probes),
    Step("self_attention", 3, 4, ("X", "W_Q", "W_K", "W_V"),
         (Output("output"), Output("weights", columns="words", rows_sum_to_one=True)),
         (Mistake("missing_scale", _missing_scale), Mistake("scale_by_dk", _scale_by_dk),
          Mistake("scale_half_dk", _scale_half_dk), Mistake("hardcoded", _fixed_page_scale), Mistake("scale_wrong_dim", _scale_wrong_dim),
          Mistake("scale_after_softmax", _scale_after_softmax),
          Mistake("return_order", _return_order), Mistake("uses_globals", _uses_globals),
          Mistake("rounded", _rounded)),
         needs_helpers=True, hint="self_attention_scale", make_probes=_attention_probes),
    Step("most_attended", 1, 4, ("weights", "words"), (Output("most_attended", kind="mapping"),),
         (Mistake("wrong_axis", _most_wrong_axis), Mistake("indices_not_words", _indices_not_words),
          Mistake("argmin", _argmin), Mistake("excludes_self", _excludes_self)),
         hint="most_attended_idxmax", make_probes=_most_probes),
)

FUNCTION_NAMES = tuple(step.name for step in STEPS)
STEPS_BY_NAME = {step.name: step for step in STEPS}
TOTAL_POINTS = sum(step.points for step in STEPS)
