"""Attack 12 (the grader never computes on student-chosen inputs; lab 2): the stand-ins as an oracle.

The four helper steps are stubs, so multi_head_attention is graded with the grader's stand-ins for
them. Before doing its own job, it asks each stand-in something the reference never asks on the
test: causal_mask of other sizes (n+1, 7, 10**6, True), masked_softmax of a made-up table with the
test's own mask, split_heads and merge_heads of made-up arrays, and the test's own values with a
row swapped, scaled, or another n_heads. Any value that comes back is an oracle; the public page
case then raises "ORACLE: <what answered>" so the answer shows in the feedback. Otherwise it
answers with the stand-ins' values for the reference's own calls.
"""
import numpy as np


def split_heads(M, n_heads):
    raise NotImplementedError


def causal_mask(n):
    raise NotImplementedError


def masked_softmax(scores, mask):
    raise NotImplementedError


def merge_heads(H):
    raise NotImplementedError


def _ask(what, call, answered):
    try:
        value = call()
    except Exception as error:  # the stand-in refused: a LookupError
        return None
    answered.append(what)
    return value


def multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):
    n = X.shape[0]
    answered = []
    _ask("causal_mask(n+1)", lambda: causal_mask(n + 1), answered)
    _ask("causal_mask(7)", lambda: causal_mask(7), answered)
    _ask("causal_mask(10**6)", lambda: causal_mask(10 ** 6), answered)
    _ask("causal_mask(True)", lambda: causal_mask(True), answered)
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    _ask("split_heads(made-up)", lambda: split_heads(np.arange(Q.size, dtype=float).reshape(Q.shape), n_heads),
         answered)
    _ask("split_heads(Q, n_heads+1)", lambda: split_heads(Q, n_heads + 1), answered)
    _ask("split_heads(Q rows swapped)", lambda: split_heads(Q[::-1].copy(), n_heads), answered)
    Qh, Kh, Vh = split_heads(Q, n_heads), split_heads(K, n_heads), split_heads(V, n_heads)
    mask = causal_mask(n)
    made_up = np.linspace(-3, 3, n_heads * n * n).reshape(n_heads, n, n)
    _ask("masked_softmax(made-up, mask)", lambda: masked_softmax(made_up, mask), answered)
    _ask("masked_softmax(made-up[0], mask)", lambda: masked_softmax(made_up[0], mask), answered)
    scaled = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(Qh.shape[-1])
    _ask("masked_softmax(scaled, all-True mask)", lambda: masked_softmax(scaled, np.ones((n, n), bool)), answered)
    _ask("masked_softmax(scaled*2, mask)", lambda: masked_softmax(scaled * 2, mask), answered)
    _ask("merge_heads(made-up)", lambda: merge_heads(np.ones((n_heads, n, Qh.shape[-1]))), answered)
    weights = masked_softmax(scaled, mask)
    _ask("merge_heads(weights)", lambda: merge_heads(weights), answered)
    if answered and n == 3:  # the page's case (public): show what answered
        raise ValueError("ORACLE: " + "; ".join(answered))
    merged = merge_heads(weights @ Vh)
    return merged @ W_O, weights
