"""The lab's computation written once with the places students get it wrong (the error model).

Each `at(point, right, mistake=wrong, ...)` is a choice point: the grader searches every single
mistake, then every pair, for the smallest change that reproduces a student's values
(see autograder.error_model). The steps `scores`, `softmax`, `mix` and `self_attention` are
slices of one computation, so a mistake made inside `self_attention` (a softmax written inline
along columns, say) is named with the same words as in its own step.
"""
import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from autograder.core.declaration import Prediction, Probe
from autograder.error_model import At, ErrorModel, Point, Several

PAGE_DIVISOR = 2.0  # √d_k for the page's d_k = 4: the number a page-fitted answer writes in


def scores_of(Q: np.ndarray, K: np.ndarray, at: At) -> Any:
    product = at("product", "matmul", elementwise=Several("cells", "diagonal", "diagonal_column"),
                 missing_transpose="untransposed", transposed_q="q_transposed")
    if product == "cells":
        return Q * K
    if product == "diagonal":  # summing each row of Q * K: only each word with itself
        return (Q * K).sum(axis=1)
    if product == "diagonal_column":
        return (Q * K).sum(axis=1, keepdims=True)
    if product == "untransposed":
        return Q @ K  # runs only where K's shape happens to allow it
    if product == "q_transposed":
        return Q.T @ K  # the transpose on the other operand: a (d_k, d_k) table
    return Q @ K.T


def softmax_of(x: np.ndarray, at: At) -> Any:
    axis = at("softmax_axis", -1, wrong_axis=0)
    # The whole table's sum (and, for some, its maximum too) in place of each row's.
    whole = at("normaliser", "rows", global_sum=Several("sum", "max_and_sum"))
    shift = at("shift", "own", unstable=Several("none", "row_min"), global_max="table")
    if whole == "max_and_sum":
        shift = "table"
    dropped = at("keepdims", (), no_keepdims=Several(("max", "sum"), ("max",), ("sum",)))
    form = at("exp", "exp", no_exp=Several("raw", "raw_shifted"))
    if form == "raw":
        e = x
    else:
        keep = "max" not in dropped
        tops: dict[str, Callable[[], Any]] = {
            "own": lambda: x.max(axis=axis, keepdims=keep), "row_min": lambda: x.min(axis=axis, keepdims=keep),
            "none": lambda: 0.0, "table": x.max}
        top = tops[shift]()
        e = np.exp(x - top) if form == "exp" else x - top
    weights = e / (e.sum() if whole != "rows" else e.sum(axis=axis, keepdims="sum" not in dropped))
    first_row = at("softmax_rows", "computed", skip_first_word=Several("zeros", "unchanged"))
    return _first_row(weights, first_row, x)


def mix_of(weights: np.ndarray, V: np.ndarray, at: At) -> Any:
    form = at("mixing", "rows", transposed_weights="transposed",
              skip_first_word=Several("first_term", "first_row"))
    if form == "transposed":
        return weights.T @ V
    if form == "first_term":  # a loop over range(1, n) in the sum: the first word's term is missing
        return weights[..., 1:] @ V[1:]
    output = weights @ V
    return _first_row(output, "zeros", None) if form == "first_row" else output


def _first_row(table: Any, how: str, before: Any) -> Any:
    """A loop over range(1, n) filling a table row by row: its first row stays zero, or as it was."""
    if how == "computed" or table.ndim < 2:
        return table
    first = np.zeros_like(table[0]) if how == "zeros" else before[0]
    return np.concatenate([first[None], table[1:]])


def wrong_divisors(*, d_k: int, d_model: int, d_v: int, n: int) -> dict[str, Any]:
    """What the scores are divided by instead of √d_k, per mistake (the "divisor" choice point)."""
    # `d_k ** 1/2` is d_k/2; `scores / d_k ** 1/2` is (scores / d_k) / 2
    return dict(missing_scale=1.0, scale_by_dk=d_k, scale_half_dk=Several(d_k / 2, 2 * d_k),
                scale_wrong_dim=Several(np.sqrt(d_model), np.sqrt(d_v), np.sqrt(n)), hardcoded=PAGE_DIVISOR)


def attention_of(X: np.ndarray, Q: np.ndarray, K: np.ndarray, V: np.ndarray, at: At) -> Prediction:
    """self_attention from X and its Q, K, V: (output, weights)."""
    n, d_k = K.shape
    d_model = X.shape[1]
    raw = scores_of(Q, at("key_matrix", K, scores_other_matrix=Several(Q, V)), at)
    divisor = at("divisor", np.sqrt(d_k), **wrong_divisors(d_k=d_k, d_model=d_model, d_v=V.shape[1], n=n))
    # After softmax instead of before, or after it as well (divided twice).
    place = at("scale_place", "scores", scale_after_softmax=Several("weights", "output", "weights_too"))
    weights = softmax_of(raw / divisor if place in ("scores", "weights_too") else raw, at)
    if place == "weights":
        weights = weights / divisor
    if place == "weights_too":
        weights = weights / np.sqrt(d_k)
    output = mix_of(weights, at("mixed_matrix", V, mixes_other_matrix=Several(X, Q, K)), at)
    if place == "output":
        output = output / divisor
    returned: Prediction = at("returned", (output, weights), return_order=(weights, output))
    return returned


def _rounded(values: Prediction, at: At) -> Prediction:
    """Values rounded as the page prints them (1 to 3 decimals, each output its own) before returning."""
    decimals = at("rounding", None, rounded=Several(*itertools.product((1, 2, 3), repeat=len(values))))
    return values if decimals is None else tuple(np.round(v, d) for v, d in zip(values, decimals))


def _scores_step(p: Probe, at: At) -> Prediction:
    Q, K = p.args
    divisor = at("scores_scale", 1.0, scaled_early=np.sqrt(K.shape[1]))
    return _rounded((scores_of(Q, at("key_matrix", K, scores_other_matrix=Q), at) / divisor,), at)


def _softmax_step(p: Probe, at: At) -> Prediction:
    (x,) = p.args
    # Scaling inside softmax, where only the scores' own width (the number of words) is at hand.
    divisor = at("softmax_scale", 1.0, scaled_inside=np.sqrt(x.shape[-1]))
    return _rounded((softmax_of(x / divisor, at),), at)


def _mix_step(p: Probe, at: At) -> Prediction:
    weights, V = p.args
    return _rounded((mix_of(weights, V, at),), at)


def _attention_step(p: Probe, at: At) -> Prediction:
    t = p.trace
    return _rounded(attention_of(p.case.X, t.Q, t.K, t.V, at), at)


ROUNDING = Point("rounding", ("rounded",))
PRODUCT = Point("product", ("elementwise", "missing_transpose", "transposed_q"))
SOFTMAX = (Point("softmax_axis", ("wrong_axis",)), Point("normaliser", ("global_sum",)),
           Point("shift", ("unstable", "global_max")),
           Point("keepdims", ("no_keepdims",)), Point("exp", ("no_exp",)),
           Point("softmax_rows", ("skip_first_word",)))
MIXING = Point("mixing", ("transposed_weights", "skip_first_word"))

KEY = Point("key_matrix", ("scores_other_matrix",))
SCORES = ErrorModel(_scores_step, (PRODUCT, KEY, Point("scores_scale", ("scaled_early",)), ROUNDING))
SOFTMAX_STEP = ErrorModel(_softmax_step, SOFTMAX + (Point("softmax_scale", ("scaled_inside",)), ROUNDING))
MIX = ErrorModel(_mix_step, (MIXING, ROUNDING))
ATTENTION = ErrorModel(_attention_step, (
    Point("divisor", ("missing_scale", "scale_by_dk", "scale_half_dk", "scale_wrong_dim", "hardcoded")),
    # Q @ K written inline raises rather than returns: the step's error mistakes tell it.
    Point("scale_place", ("scale_after_softmax",)), Point("product", ("elementwise",)), KEY, *SOFTMAX, MIXING,
    Point("mixed_matrix", ("mixes_other_matrix",)),
    Point("returned", ("return_order",)), ROUNDING))
