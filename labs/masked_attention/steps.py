"""The one declaration of the lab's steps: names, points, inputs, expected values, known mistakes.

Each step is graded on the reference's outputs of the steps before it, so one mistake costs one
step. A mistake's candidates are what a student making it would return for the probe.
"""

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from autograder.authoring.lab_kit import quietly
from autograder.core.declaration import Case, ErrorMistake, Mistake, Output, Prediction, Probe, Step, Trace
from autograder.core.rubric import DEFAULT_SHARES, Rubric

from . import cases as lab_cases, page


def _softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    shifted = np.exp(x - x.max(axis=axis, keepdims=True))
    weights: np.ndarray = shifted / shifted.sum(axis=axis, keepdims=True)
    return weights


def _blocked(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The scores with the cells the mask forbids set to -inf."""
    return np.where(mask, x, -np.inf)


def _merge(H: np.ndarray) -> np.ndarray:
    n_heads, n, d_head = H.shape
    return H.transpose(1, 0, 2).reshape(n, n_heads * d_head)


# split_heads -------------------------------------------------------------------------------

def _split_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    return [Probe(step=step, case=case, trace=t, args=(t.Q, case.n_heads), expected=(t.Q_heads,))]


def _split_sizes(p: Probe) -> tuple[np.ndarray, int, int, int]:
    M, n_heads = p.args
    n, d_model = M.shape
    return M, n_heads, n, d_model // n_heads


@quietly
def _split_no_transpose(p: Probe) -> Iterator[Prediction]:
    M, n_heads, n, d_head = _split_sizes(p)
    yield (M.reshape(n_heads, n, d_head),)  # words and heads mixed up: rows cut across
    yield (M.reshape(n, n_heads, d_head),)  # the transpose to (n_heads, n, d_head) forgotten


@quietly
def _split_interleaved(p: Probe) -> Iterator[Prediction]:
    M, n_heads, _, _ = _split_sizes(p)
    yield (np.stack([M[:, h::n_heads] for h in range(n_heads)]),)


@quietly
def _split_words(p: Probe) -> Iterator[Prediction]:
    """np.split(M, n_heads) cuts along axis 0, the words, when the words divide evenly."""
    M, n_heads, n, _ = _split_sizes(p)
    if n % n_heads == 0:
        yield (np.stack(np.split(M, n_heads, axis=0)),)


def _split_words_error(probe: Probe) -> Iterator[tuple[str, str]]:
    """np.split along the words, where the words do not divide into the heads."""
    M, n_heads = probe.args[0], probe.args[1]
    if M.shape[0] % n_heads != 0:
        yield "ValueError", r"array split does not result in an equal division"


def _float_division_error(probe: Probe) -> Iterator[tuple[str, str]]:
    """d_head = d_model / n_heads is a float, and reshape refuses float sizes."""
    yield "TypeError", r"'float' object cannot be interpreted as an integer"


# causal_mask -------------------------------------------------------------------------------

def _mask_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    return [Probe(step=step, case=case, trace=t, args=(len(case.words),), expected=(t.mask,))]


def _lower(n: int, k: int = 0) -> np.ndarray:
    return np.tril(np.ones((n, n), dtype=bool), k)


@quietly
def _mask_transposed(p: Probe) -> Iterator[Prediction]:
    (n,) = p.args
    yield (_lower(n).T,)


@quietly
def _mask_no_diagonal(p: Probe) -> Iterator[Prediction]:
    (n,) = p.args
    yield (_lower(n, -1),)


@quietly
def _mask_inverted(p: Probe) -> Iterator[Prediction]:
    """True where the word must NOT look (the convention of some libraries' attention masks)."""
    (n,) = p.args
    yield (~_lower(n),)


@quietly
def _additive_mask(p: Probe) -> Iterator[Prediction]:
    """The 0 / -inf table added to the scores, returned in place of the True/False mask. The
    judge matches a predicted -inf with any fill acting as it (-1e9, -1e10, np.finfo.min, ...)."""
    (n,) = p.args
    yield (np.where(_lower(n), 0.0, -np.inf),)


# masked_softmax ----------------------------------------------------------------------------

def _softmax_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    probes = [Probe(step=step, case=case, trace=t, args=(t.scaled[0], t.mask), expected=(t.weights[0],), label="2-D"),
              Probe(step=step, case=case, trace=t, args=(t.scaled, t.mask), expected=(t.weights,), label="3-D")]
    if case.name == lab_cases.FORMS_CASE and not case.hidden:
        from solutions import masked_attention as solution

        whole = lab_cases.whole_scores(t)
        forms = (
            # The page says a 1/0 mask works as True/False does: `~mask` on integers does not. Any
            # integer type: int32 here, so a test of numpy's default `dtype == int` does not pass.
            ("0/1", t.scaled, t.mask.astype(np.int32)),
            # A visible score of exactly 0 is a score like any other: its cell is not masked.
            ("zeros", whole, t.mask),
            # Masked cells get 0 whatever the visible scores: a large finite fill (-10000) does not.
            ("negative", whole - lab_cases.FAR_BELOW, t.mask),
            # The mask given is the one applied, causal or not: each word here sees itself and the
            # words after it (a softmax that builds its own causal mask ignores it).
            ("other_mask", t.scaled, t.mask.T.copy()),
            # Any mask, however few cells it shows: here each word sees only itself and the first
            # word, fewer cells True than False (a softmax that guesses the mask's meaning from
            # how many cells are True reads it the other way).
            ("few_visible", t.scaled, _few_visible(len(case.words))),
        )
        probes += [Probe(step=step, case=case, trace=t, args=(scores, mask), expected=(solution.masked_softmax(scores, mask),), label=label)
                   for label, scores, mask in forms]
    return probes


def _few_visible(n: int) -> np.ndarray:
    """(n, n) mask: each word sees itself and the first word (2n - 1 cells True of n²)."""
    seen: np.ndarray = np.eye(n, dtype=bool)
    seen[:, 0] = True
    return seen


def _after_softmax(x: np.ndarray, mask: np.ndarray) -> Iterator[np.ndarray]:
    """Softmax over every score, then the forbidden weights zeroed; and that renormalised with
    the maximum taken over all scores (equal to the answer unless the allowed ones underflow)."""
    yield np.where(mask, _softmax(x), 0.0)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True)) * mask
    yield shifted / shifted.sum(axis=-1, keepdims=True)


def _zero_filled(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Forbidden scores set to 0 (or the scores multiplied by the mask) before softmax."""
    return _softmax(np.where(mask, x, 0.0))


@quietly
def _softmax_after(p: Probe) -> Iterator[Prediction]:
    x, mask = p.args
    for weights in _after_softmax(x, mask):
        yield (weights,)


@quietly
def _softmax_zero(p: Probe) -> Iterator[Prediction]:
    x, mask = p.args
    yield (_zero_filled(x, mask),)


@quietly
def _softmax_no_mask(p: Probe) -> Iterator[Prediction]:
    x, _ = p.args
    yield (_softmax(x),)


@quietly
def _softmax_inverted(p: Probe) -> Iterator[Prediction]:
    x, mask = p.args
    yield (_softmax(_blocked(x, ~mask)),)


@quietly
def _softmax_unstable(p: Probe) -> Iterator[Prediction]:
    """exp of the masked scores without the row maximum subtracted: only a mistake where it overflows."""
    x, mask = p.args
    naive = np.exp(_blocked(x, mask))
    weights = naive / naive.sum(axis=-1, keepdims=True)
    if not np.all(np.isfinite(weights)):
        yield (weights,)


@quietly
def _softmax_wrong_axis(p: Probe) -> Iterator[Prediction]:
    """A fixed axis=0 or axis=1: along the heads or the columns of (heads, n, n), along the
    columns or (rightly) the rows of (n, n)."""
    x, mask = p.args
    for axis in range(min(x.ndim, 2)):
        yield (_softmax(_blocked(x, mask), axis=axis),)


# merge_heads -------------------------------------------------------------------------------

def _merge_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    return [Probe(step=step, case=case, trace=t, args=(t.heads_out,), expected=(t.merged,))]


@quietly
def _merge_no_transpose(p: Probe) -> Iterator[Prediction]:
    (H,) = p.args
    yield (H.reshape(H.shape[1], -1),)


@quietly
def _merge_reversed(p: Probe) -> Iterator[Prediction]:
    (H,) = p.args
    yield (np.concatenate(list(H[::-1]), axis=1),)


@quietly
def _merge_interleaved(p: Probe) -> Iterator[Prediction]:
    (H,) = p.args
    yield (H.transpose(1, 2, 0).reshape(H.shape[1], -1),)


@quietly
def _merge_rows(p: Probe) -> Iterator[Prediction]:
    (H,) = p.args
    yield (np.concatenate(list(H), axis=0),)


# multi_head_attention ----------------------------------------------------------------------

def _attention_probes(step: Step, case: Case, t: Trace) -> list[Probe]:
    args = (case.X, case.W_Q, case.W_K, case.W_V, case.W_O, case.n_heads)
    return [Probe(step=step, case=case, trace=t, args=args, expected=(t.output, t.weights))]


def _attention(p: Probe, divisor: float | None = None, mask: np.ndarray | None = None,
               weigh: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None, project: bool = True,
               heads: int | None = None) -> Prediction:
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


@quietly
def _attention_after(p: Probe) -> Iterator[Prediction]:
    for variant in range(2):
        def weigh(x: np.ndarray, m: np.ndarray, v: int = variant) -> np.ndarray:
            return list(_after_softmax(x, m))[v]
        yield _attention(p, weigh=weigh)


@quietly
def _attention_zero(p: Probe) -> Iterator[Prediction]:
    yield _attention(p, weigh=_zero_filled)


@quietly
def _attention_no_mask(p: Probe) -> Iterator[Prediction]:
    yield _attention(p, weigh=lambda x, m: _softmax(x))


@quietly
def _attention_mask_transposed(p: Probe) -> Iterator[Prediction]:
    yield _attention(p, mask=p.trace.mask.T)


@quietly
def _attention_no_diagonal(p: Probe) -> Iterator[Prediction]:
    yield _attention(p, mask=_lower(len(p.case.words), -1))


@quietly
def _attention_scale_d_model(p: Probe) -> Iterator[Prediction]:
    yield _attention(p, divisor=np.sqrt(p.case.X.shape[1]))


@quietly
def _attention_page_scale(p: Probe) -> Iterator[Prediction]:
    """The page's √d_head written in (d_model = 4 in two heads: √2), whatever the sizes."""
    yield _attention(p, divisor=np.sqrt(page.X.shape[1] // page.N_HEADS))


@quietly
def _attention_missing_scale(p: Probe) -> Iterator[Prediction]:
    yield _attention(p, divisor=1.0)


@quietly
def _attention_no_projection(p: Probe) -> Iterator[Prediction]:
    yield _attention(p, project=False)


@quietly
def _attention_single_head(p: Probe) -> Iterator[Prediction]:
    output, weights = _attention(p, heads=1)
    yield (output, weights[0])  # one (n, n) table, as single-head attention returns it
    yield (output, weights)


@quietly
def _attention_return_order(p: Probe) -> Iterator[Prediction]:
    yield (p.expected[1], p.expected[0])


# The shares of this lab's own mistakes, beside the engine's (every step without its own rubric).
SHARES = {**DEFAULT_SHARES, "unstable": 0.7}  # right formula, no max subtracted
RUBRIC = Rubric(shares=SHARES)

STEPS = (
    Step(name="split_heads", points=2, page_step=2, params=("M", "n_heads"),
         outputs=(Output(name="heads"),),
         mistakes=(Mistake(code="split_no_transpose", candidates=_split_no_transpose),
                   Mistake(code="split_interleaved", candidates=_split_interleaved),
                   Mistake(code="split_words", candidates=_split_words)),
         error_mistakes=(ErrorMistake(code="split_words", messages=_split_words_error),
                         ErrorMistake(code="float_division", messages=_float_division_error)),
         hint="split_heads_columns", make_probes=_split_probes),
    Step(name="causal_mask", points=1, page_step=3, params=("n",),
         outputs=(Output(name="mask", columns="words"),),
         mistakes=(Mistake(code="mask_transposed", candidates=_mask_transposed),
                   Mistake(code="mask_no_diagonal", candidates=_mask_no_diagonal),
                   Mistake(code="mask_inverted", candidates=_mask_inverted),
                   Mistake(code="additive_mask", candidates=_additive_mask)),
         hint="causal_mask_rows", make_probes=_mask_probes),
    Step(name="masked_softmax", points=2, page_step=4, params=("scores", "mask"),
         outputs=(Output(name="weights", columns="words", rows_sum_to_one=True),),
         mistakes=(Mistake(code="mask_after_softmax", candidates=_softmax_after),
                   Mistake(code="mask_zero", candidates=_softmax_zero),
                   Mistake(code="no_mask", candidates=_softmax_no_mask),
                   Mistake(code="mask_inverted", candidates=_softmax_inverted),
                   Mistake(code="unstable", candidates=_softmax_unstable),
                   Mistake(code="wrong_axis", candidates=_softmax_wrong_axis)),
         hint="masked_softmax_rows", make_probes=_softmax_probes),
    Step(name="merge_heads", points=2, page_step=5, params=("H",),
         outputs=(Output(name="merged"),),
         mistakes=(Mistake(code="merge_no_transpose", candidates=_merge_no_transpose),
                   Mistake(code="heads_reversed", candidates=_merge_reversed),
                   Mistake(code="merge_interleaved", candidates=_merge_interleaved),
                   Mistake(code="merge_rows", candidates=_merge_rows)),
         hint="merge_heads_columns", make_probes=_merge_probes),
    Step(name="multi_head_attention", points=3, page_step=6, params=("X", "W_Q", "W_K", "W_V", "W_O", "n_heads"),
         outputs=(Output(name="output"), Output(name="weights", columns="words", rows_sum_to_one=True)),
         mistakes=(Mistake(code="mask_after_softmax", candidates=_attention_after),
                   Mistake(code="mask_zero", candidates=_attention_zero),
                   Mistake(code="no_mask", candidates=_attention_no_mask),
                   Mistake(code="mask_transposed", candidates=_attention_mask_transposed),
                   Mistake(code="mask_no_diagonal", candidates=_attention_no_diagonal),
                   Mistake(code="scale_by_d_model", candidates=_attention_scale_d_model),
                   Mistake(code="missing_scale", candidates=_attention_missing_scale),
                   Mistake(code="hardcoded", candidates=_attention_page_scale),
                   Mistake(code="no_output_projection", candidates=_attention_no_projection),
                   Mistake(code="single_head", candidates=_attention_single_head),
                   Mistake(code="return_order", candidates=_attention_return_order)),
         error_mistakes=(ErrorMistake(code="float_division", messages=_float_division_error),),
         hint="multi_head_attention_flow", make_probes=_attention_probes,
         calls=("split_heads", "causal_mask", "masked_softmax", "merge_heads")),
)
