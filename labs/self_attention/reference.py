"""The reference run on a case, every intermediate value kept (the grader's side only)."""
from dataclasses import dataclass

import numpy as np

from solutions import self_attention as solution


@dataclass(frozen=True)
class Trace:
    """Every value of the reference computation for one case."""

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    scores: np.ndarray
    scaled: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    most_attended: dict


def trace(case):
    Q, K, V = solution.make_qkv(case.X, case.W_Q, case.W_K, case.W_V)
    raw = solution.scores(Q, K)
    scaled = raw / np.sqrt(K.shape[1])
    weights = solution.softmax(scaled)
    return Trace(Q, K, V, raw, scaled, weights, solution.mix(weights, V),
                 solution.most_attended(weights, list(case.words)))


def helpers():
    """The reference's step functions a composed step may call."""
    return {name: getattr(solution, name) for name in ("make_qkv", "scores", "softmax", "mix", "most_attended")}
