"""The reference run on a case, every intermediate value kept (the grader's side only)."""
from dataclasses import dataclass

import numpy as np

from autograder.core.declaration import Case
from autograder.core.stand_in import StandIn
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


def trace(case: Case) -> Trace:
    Q, K, V = case.X @ case.W_Q, case.X @ case.W_K, case.X @ case.W_V
    Q_heads, K_heads, V_heads = (solution.split_heads(M, case.n_heads) for M in (Q, K, V))
    scaled = Q_heads @ K_heads.transpose(0, 2, 1) / np.sqrt(Q_heads.shape[-1])
    mask = solution.causal_mask(len(case.words))
    weights = solution.masked_softmax(scaled, mask)
    heads_out = weights @ V_heads
    merged = solution.merge_heads(heads_out)
    return Trace(Q, K, V, Q_heads, K_heads, V_heads, mask, scaled, weights, heads_out, merged,
                 merged @ case.W_O)


def stand_ins(case: Case, t: Trace) -> list[StandIn]:
    """The calls the reference's multi_head_attention makes on `case`, as the grader's stand-ins
    answer them; masked_softmax also head by head, as a loop over the heads calls it."""
    n_heads = case.n_heads
    return ([StandIn(name="split_heads", args=(M, n_heads), value=heads)
             for M, heads in ((t.Q, t.Q_heads), (t.K, t.K_heads), (t.V, t.V_heads))]
            + [StandIn(name="causal_mask", args=(len(case.words),), value=t.mask),
               StandIn(name="masked_softmax", args=(t.scaled, t.mask), value=t.weights),
               StandIn(name="merge_heads", args=(t.heads_out,), value=t.merged)]
            + [StandIn(name="masked_softmax", args=(t.scaled[h], t.mask), value=t.weights[h])
               for h in range(len(t.weights))])
