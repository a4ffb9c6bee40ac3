"""The one declaration of the lab's steps: names, points, inputs, expected values, known mistakes.

Each step is graded on the reference's outputs of the steps before it, so one mistake costs one
step. A mistake's candidates are what a student making it would return for the probe.
"""

import numpy as np

from autograder.declaration import ErrorMistake, Mistake, Output, Probe, Step
from autograder.rubric import DEFAULT_SHARES, Rubric

from . import cases as lab_cases, page


def _quietly(function):
    """Candidates may overflow or give 0/0 on purpose (that is the mistake)."""
    def wrapped(*args):
        with np.errstate(all="ignore"):
            return list(function(*args))
    return wrapped


def _softmax(x, axis=-1):
    shifted = np.exp(x - x.max(axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


def _blocked(x, mask):
    """The scores with the cells the mask forbids set to -inf."""
    return np.where(mask, x, -np.inf)


def _merge(H):
    n_heads, n, d_head = H.shape
    return H.transpose(1, 0, 2).reshape(n, n_heads * d_head)


# split_heads -------------------------------------------------------------------------------

def _split_probes(step, case, t):
    return [Probe(step, case, t, (t.Q, case.n_heads), (t.Q_heads,))]


def _split_sizes(p):
    M, n_heads = p.args
    n, d_model = M.shape
    return M, n_heads, n, d_model // n_heads


@_quietly
def _split_no_transpose(p):
    M, n_heads, n, d_head = _split_sizes(p)
    yield (M.reshape(n_heads, n, d_head),)  # words and heads mixed up: rows cut across
    yield (M.reshape(n, n_heads, d_head),)  # the transpose to (n_heads, n, d_head) forgotten


@_quietly
def _split_interleaved(p):
    M, n_heads, _, _ = _split_sizes(p)
    yield (np.stack([M[:, h::n_heads] for h in range(n_heads)]),)


@_quietly
def _split_words(p):
    """np.split(M, n_heads) cuts along axis 0, the words, when the words divide evenly."""
    M, n_heads, n, _ = _split_sizes(p)
    if n % n_heads == 0:
        yield (np.stack(np.split(M, n_heads, axis=0)),)


def _split_words_error(probe):
    """np.split along the words, where the words do not divide into the heads."""
    M, n_heads = probe.args[0], probe.args[1]
    if M.shape[0] % n_heads != 0:
        yield "ValueError", r"array split does not result in an equal division"


def _float_division_error(probe):
    """d_head = d_model / n_heads is a float, and reshape refuses float sizes."""
    yield "TypeError", r"'float' object cannot be interpreted as an integer"


# causal_mask -------------------------------------------------------------------------------

def _mask_probes(step, case, t):
    return [Probe(step, case, t, (len(case.words),), (t.mask,))]


def _lower(n, k=0):
    return np.tril(np.ones((n, n), dtype=bool), k)


@_quietly
def _mask_transposed(p):
    (n,) = p.args
    yield (_lower(n).T,)


@_quietly
def _mask_no_diagonal(p):
    (n,) = p.args
    yield (_lower(n, -1),)


@_quietly
def _mask_inverted(p):
    """True where the word must NOT look (the convention of some libraries' attention masks)."""
    (n,) = p.args
    yield (~_lower(n),)


@_quietly
def _additive_mask(p):
    """The 0 / -inf table added to the scores, returned in place of the True/False mask. The
    judge matches a predicted -inf with any fill acting as it (-1e9, -1e10, np.finfo.min, ...)."""
    (n,) = p.args
    yield (np.where(_lower(n), 0.0, -np.inf),)


# masked_softmax ----------------------------------------------------------------------------

def _softmax_probes(step, case, t):
    probes = [Probe(step, case, t, (t.scaled[0], t.mask), (t.weights[0],), "2-D"),
              Probe(step, case, t, (t.scaled, t.mask), (t.weights,), "3-D")]
    if case.name == lab_cases.FORMS_CASE and not case.hidden:
        from solutions import masked_attention as solution

        whole = lab_cases.whole_scores(t)
        forms = (
            # The page says a 1/0 mask works as True/False does: `~mask` on integers does not.
            ("0/1", t.scaled, t.mask.astype(np.int64)),
            # A visible score of exactly 0 is a score like any other: its cell is not masked.
            ("zeros", whole, t.mask),
            # Masked cells get 0 whatever the visible scores: a large finite fill (-10000) does not.
            ("negative", whole - lab_cases.FAR_BELOW, t.mask),
        )
        probes += [Probe(step, case, t, (scores, mask), (solution.masked_softmax(scores, mask),), label)
                   for label, scores, mask in forms]
    return probes


def _after_softmax(x, mask):
    """Softmax over every score, then the forbidden weights zeroed; and that renormalised with
    the maximum taken over all scores (equal to the answer unless the allowed ones underflow)."""
    yield np.where(mask, _softmax(x), 0.0)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True)) * mask
    yield shifted / shifted.sum(axis=-1, keepdims=True)


def _zero_filled(x, mask):
    """Forbidden scores set to 0 (or the scores multiplied by the mask) before softmax."""
    return _softmax(np.where(mask, x, 0.0))


@_quietly
def _softmax_after(p):
    x, mask = p.args
    for weights in _after_softmax(x, mask):
        yield (weights,)


@_quietly
def _softmax_zero(p):
    x, mask = p.args
    yield (_zero_filled(x, mask),)


@_quietly
def _softmax_no_mask(p):
    x, _ = p.args
    yield (_softmax(x),)


@_quietly
def _softmax_inverted(p):
    x, mask = p.args
    yield (_softmax(_blocked(x, ~mask)),)


@_quietly
def _softmax_unstable(p):
    """exp of the masked scores without the row maximum subtracted: only a mistake where it overflows."""
    x, mask = p.args
    naive = np.exp(_blocked(x, mask))
    weights = naive / naive.sum(axis=-1, keepdims=True)
    if not np.all(np.isfinite(weights)):
        yield (weights,)


@_quietly
def _softmax_wrong_axis(p):
    """A fixed axis=0 or axis=1: along the heads or the columns of (heads, n, n), along the
    columns or (rightly) the rows of (n, n)."""
    x, mask = p.args
    for axis in range(min(x.ndim, 2)):
        yield (_softmax(_blocked(x, mask), axis=axis),)


# merge_heads -------------------------------------------------------------------------------

def _merge_probes(step, case, t):
    return [Probe(step, case, t, (t.heads_out,), (t.merged,))]


@_quietly
def _merge_no_transpose(p):
    (H,) = p.args
    yield (H.reshape(H.shape[1], -1),)


@_quietly
def _merge_reversed(p):
    (H,) = p.args
    yield (np.concatenate(list(H[::-1]), axis=1),)


@_quietly
def _merge_interleaved(p):
    (H,) = p.args
    yield (H.transpose(1, 2, 0).reshape(H.shape[1], -1),)


@_quietly
def _merge_rows(p):
    (H,) = p.args
    yield (np.concatenate(list(H), axis=0),)


# multi_head_attention ----------------------------------------------------------------------

def _attention_probes(step, case, t):
    args = (case.X, case.W_Q, case.W_K, case.W_V, case.W_O, case.n_heads)
    return [Probe(step, case, t, args, (t.output, t.weights))]


def _attention(p, divisor=None, mask=None, weigh=None, project=True, heads=None):
    """(output, weights) of the composed step computed one wrong way.

    `weigh(scaled, mask)` turns the scaled scores into weights (the masked softmax by default);
    `heads` = 1 attends over whole rows instead of heads.
    """
    t, case = p.trace, p.case
    if heads is None:
        Q, K, V = t.Q_heads, t.K_heads, t.V_heads
    else:
        Q, K, V = (M.reshape(M.shape[0], heads, -1).transpose(1, 0, 2) for M in (t.Q, t.K, t.V))
    divisor = np.sqrt(Q.shape[-1]) if divisor is None else divisor
    scaled = Q @ K.transpose(0, 2, 1) / divisor
    mask = t.mask if mask is None else mask
    weights = (weigh or (lambda x, m: _softmax(_blocked(x, m))))(scaled, mask)
    output = _merge(weights @ V)
    return (output @ case.W_O if project else output, weights)


@_quietly
def _attention_after(p):
    for variant in range(2):
        yield _attention(p, weigh=lambda x, m, v=variant: list(_after_softmax(x, m))[v])


@_quietly
def _attention_zero(p):
    yield _attention(p, weigh=_zero_filled)


@_quietly
def _attention_no_mask(p):
    yield _attention(p, weigh=lambda x, m: _softmax(x))


@_quietly
def _attention_mask_transposed(p):
    yield _attention(p, mask=p.trace.mask.T)


@_quietly
def _attention_no_diagonal(p):
    yield _attention(p, mask=_lower(len(p.case.words), -1))


@_quietly
def _attention_scale_d_model(p):
    yield _attention(p, divisor=np.sqrt(p.case.X.shape[1]))


@_quietly
def _attention_page_scale(p):
    """The page's √d_head written in (d_model = 4 in two heads: √2), whatever the sizes."""
    yield _attention(p, divisor=np.sqrt(page.X.shape[1] // page.N_HEADS))


@_quietly
def _attention_missing_scale(p):
    yield _attention(p, divisor=1.0)


@_quietly
def _attention_no_projection(p):
    yield _attention(p, project=False)


@_quietly
def _attention_single_head(p):
    output, weights = _attention(p, heads=1)
    yield (output, weights[0])  # one (n, n) table, as single-head attention returns it
    yield (output, weights)


@_quietly
def _attention_return_order(p):
    yield (p.expected[1], p.expected[0])


# The shares of this lab's own mistakes, beside the engine's (every step without its own rubric).
SHARES = {**DEFAULT_SHARES, "unstable": 0.7}  # right formula, no max subtracted
RUBRIC = Rubric(shares=SHARES)

STEPS = (
    Step("split_heads", 2, 2, ("M", "n_heads"), (Output("heads"),),
         (Mistake("split_no_transpose", _split_no_transpose),
          Mistake("split_interleaved", _split_interleaved),
          Mistake("split_words", _split_words)),
         hint="split_heads_columns", make_probes=_split_probes,
         error_mistakes=(ErrorMistake("split_words", _split_words_error),
                         ErrorMistake("float_division", _float_division_error))),
    Step("causal_mask", 1, 3, ("n",), (Output("mask", columns="words"),),
         (Mistake("mask_transposed", _mask_transposed), Mistake("mask_no_diagonal", _mask_no_diagonal),
          Mistake("mask_inverted", _mask_inverted), Mistake("additive_mask", _additive_mask)),
         hint="causal_mask_rows", make_probes=_mask_probes),
    Step("masked_softmax", 2, 4, ("scores", "mask"),
         (Output("weights", columns="words", rows_sum_to_one=True),),
         (Mistake("mask_after_softmax", _softmax_after), Mistake("mask_zero", _softmax_zero),
          Mistake("no_mask", _softmax_no_mask), Mistake("mask_inverted", _softmax_inverted),
          Mistake("unstable", _softmax_unstable), Mistake("wrong_axis", _softmax_wrong_axis)),
         hint="masked_softmax_rows", make_probes=_softmax_probes),
    Step("merge_heads", 2, 5, ("H",), (Output("merged"),),
         (Mistake("merge_no_transpose", _merge_no_transpose), Mistake("heads_reversed", _merge_reversed),
          Mistake("merge_interleaved", _merge_interleaved), Mistake("merge_rows", _merge_rows)),
         hint="merge_heads_columns", make_probes=_merge_probes),
    Step("multi_head_attention", 3, 6, ("X", "W_Q", "W_K", "W_V", "W_O", "n_heads"),
         (Output("output"), Output("weights", columns="words", rows_sum_to_one=True)),
         (Mistake("mask_after_softmax", _attention_after), Mistake("mask_zero", _attention_zero),
          Mistake("no_mask", _attention_no_mask), Mistake("mask_transposed", _attention_mask_transposed),
          Mistake("mask_no_diagonal", _attention_no_diagonal),
          Mistake("scale_by_d_model", _attention_scale_d_model),
          Mistake("missing_scale", _attention_missing_scale),
          Mistake("hardcoded", _attention_page_scale),
          Mistake("no_output_projection", _attention_no_projection),
          Mistake("single_head", _attention_single_head),
          Mistake("return_order", _attention_return_order)),
         hint="multi_head_attention_flow", make_probes=_attention_probes,
         error_mistakes=(ErrorMistake("float_division", _float_division_error),),
         calls=("split_heads", "causal_mask", "masked_softmax", "merge_heads")),
)
