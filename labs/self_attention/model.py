"""The lab's computation written once with the places students get it wrong (the error model).

Each `at(point, right, mistake=wrong, ...)` is a choice point: the grader searches every single
mistake, then every pair, for the smallest change that reproduces a student's values
(see autograder.error_model). The steps `scores`, `softmax`, `mix` and `self_attention` are
slices of one computation, so a mistake made inside `self_attention` (a softmax written inline
along columns, say) is named with the same words as in its own step.
"""
import itertools

import numpy as np

from autograder.error_model import ErrorModel, Point, Several

PAGE_DIVISOR = 2.0  # √d_k for the page's d_k = 4: the number a page-fitted answer writes in


def scores_of(Q, K, at):
    product = at("product", "matmul", elementwise=Several("cells", "diagonal", "diagonal_column"),
                 missing_transpose="untransposed")
    if product == "cells":
        return Q * K
    if product == "diagonal":  # summing each row of Q * K: only each word with itself
        return (Q * K).sum(axis=1)
    if product == "diagonal_column":
        return (Q * K).sum(axis=1, keepdims=True)
    if product == "untransposed":
        return Q @ K  # runs only where K's shape happens to allow it
    return Q @ K.T


def softmax_of(x, at):
    axis = at("softmax_axis", -1, wrong_axis=0, global_sum=None)
    shift = at("shift", "own", unstable="none", global_max="table")
    dropped = at("keepdims", (), no_keepdims=Several(("max", "sum"), ("max",), ("sum",)))
    form = at("exp", "exp", no_exp=Several("raw", "raw_shifted"))
    if form == "raw":
        e = x
    else:
        top = {"own": x.max(axis=axis, keepdims="max" not in dropped), "none": 0.0, "table": x.max()}[shift]
        e = np.exp(x - top) if form == "exp" else x - top
    weights = e / e.sum(axis=axis, keepdims="sum" not in dropped)
    first_row = at("softmax_rows", "computed", skip_first_word=Several("zeros", "unchanged"))
    return _first_row(weights, first_row, x)


def mix_of(weights, V, at):
    form = at("mixing", "rows", transposed_weights="transposed",
              skip_first_word=Several("first_term", "first_row"))
    if form == "transposed":
        return weights.T @ V
    if form == "first_term":  # a loop over range(1, n) in the sum: the first word's term is missing
        return weights[..., 1:] @ V[1:]
    output = weights @ V
    return _first_row(output, "zeros", None) if form == "first_row" else output


def _first_row(table, how, before):
    """A loop over range(1, n) filling a table row by row: its first row stays zero, or as it was."""
    if how == "computed" or table.ndim < 2:
        return table
    first = np.zeros_like(table[0]) if how == "zeros" else before[0]
    return np.concatenate([first[None], table[1:]])


def attention_of(Q, K, V, d_model, at):
    """self_attention from Q, K, V: (output, weights)."""
    n, d_k = K.shape
    raw = scores_of(Q, K, at)
    divisor = at("divisor", np.sqrt(d_k), missing_scale=1.0, scale_by_dk=d_k,
                 # `d_k ** 1/2` is d_k/2; `scores / d_k ** 1/2` is (scores / d_k) / 2
                 scale_half_dk=Several(d_k / 2, 2 * d_k),
                 scale_wrong_dim=Several(np.sqrt(d_model), np.sqrt(V.shape[1]), np.sqrt(n)),
                 hardcoded=PAGE_DIVISOR)
    place = at("scale_place", "scores", scale_after_softmax=Several("weights", "output"))
    weights = softmax_of(raw / divisor if place == "scores" else raw, at)
    if place == "weights":
        weights = weights / divisor
    output = mix_of(weights, V, at)
    if place == "output":
        output = output / divisor
    return at("returned", (output, weights), return_order=(weights, output))


def _rounded(values, at):
    """Values rounded as the page prints them (1 to 3 decimals, each output its own) before returning."""
    decimals = at("rounding", None, rounded=Several(*itertools.product((1, 2, 3), repeat=len(values))))
    return values if decimals is None else tuple(np.round(v, d) for v, d in zip(values, decimals))


def _scores_step(p, at):
    Q, K = p.args
    divisor = at("scores_scale", 1.0, scaled_early=np.sqrt(K.shape[1]))
    return _rounded((scores_of(Q, K, at) / divisor,), at)


def _softmax_step(p, at):
    (x,) = p.args
    return _rounded((softmax_of(x, at),), at)


def _mix_step(p, at):
    weights, V = p.args
    return _rounded((mix_of(weights, V, at),), at)


def _attention_step(p, at):
    t = p.trace
    return _rounded(attention_of(t.Q, t.K, t.V, p.case.X.shape[1], at), at)


ROUNDING = Point("rounding", ("rounded",))
PRODUCT = Point("product", ("elementwise", "missing_transpose"))
SOFTMAX = (Point("softmax_axis", ("wrong_axis", "global_sum")), Point("shift", ("unstable", "global_max")),
           Point("keepdims", ("no_keepdims",)), Point("exp", ("no_exp",)),
           Point("softmax_rows", ("skip_first_word",)))
MIXING = Point("mixing", ("transposed_weights", "skip_first_word"))

SCORES = ErrorModel(_scores_step, (PRODUCT, Point("scores_scale", ("scaled_early",)), ROUNDING))
SOFTMAX_STEP = ErrorModel(_softmax_step, SOFTMAX + (ROUNDING,))
MIX = ErrorModel(_mix_step, (MIXING, ROUNDING))
ATTENTION = ErrorModel(_attention_step, (
    Point("divisor", ("missing_scale", "scale_by_dk", "scale_half_dk", "scale_wrong_dim", "hardcoded")),
    # Q @ K written inline raises rather than returns: the step's error mistakes tell it.
    Point("scale_place", ("scale_after_softmax",)), Point("product", ("elementwise",)), *SOFTMAX, MIXING,
    Point("returned", ("return_order",)), ROUNDING))
