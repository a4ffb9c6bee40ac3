"""The reference run on a case, every intermediate value kept (the grader's side only)."""
from dataclasses import dataclass

import numpy as np

from solutions import masked_attention as solution


@dataclass(frozen=True)
class Trace:
    """Every value of the reference computation for one case."""

    Q: np.ndarray  # (n, d_model)
    K: np.ndarray
    V: np.ndarray
    Q_heads: np.ndarray  # (n_heads, n, d_head)
    K_heads: np.ndarray
    V_heads: np.ndarray
    mask: np.ndarray  # (n, n) booleans
    scaled: np.ndarray  # (n_heads, n, n): Q_h @ K_h.T / √d_head
    weights: np.ndarray  # (n_heads, n, n)
    heads_out: np.ndarray  # (n_heads, n, d_head): weights @ V_h
    merged: np.ndarray  # (n, d_model)
    output: np.ndarray  # (n, d_model): merged @ W_O


def trace(case):
    Q, K, V = case.X @ case.W_Q, case.X @ case.W_K, case.X @ case.W_V
    Q_heads, K_heads, V_heads = (solution.split_heads(M, case.n_heads) for M in (Q, K, V))
    scaled = Q_heads @ K_heads.transpose(0, 2, 1) / np.sqrt(Q_heads.shape[-1])
    mask = solution.causal_mask(len(case.words))
    weights = solution.masked_softmax(scaled, mask)
    heads_out = weights @ V_heads
    merged = solution.merge_heads(heads_out)
    return Trace(Q, K, V, Q_heads, K_heads, V_heads, mask, scaled, weights, heads_out, merged,
                 merged @ case.W_O)


def helpers():
    """The reference's step functions the composed step may call."""
    return {name: getattr(solution, name)
            for name in ("split_heads", "causal_mask", "masked_softmax", "merge_heads")}
