"""The reference run on a case, every intermediate value kept (the grader's side only)."""
from dataclasses import dataclass

import numpy as np

from autograder.core.declaration import Case
from autograder.core.stand_in import StandIn
from solutions import self_attention as solution

from .model import wrong_divisors


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
    most_attended: dict[str, str]


def trace(case: Case) -> Trace:
    Q, K, V = solution.make_qkv(case.X, case.W_Q, case.W_K, case.W_V)
    raw = solution.scores(Q, K)
    scaled = raw / np.sqrt(K.shape[1])
    weights = solution.softmax(scaled)
    return Trace(Q, K, V, raw, scaled, weights, solution.mix(weights, V),
                 solution.most_attended(weights, list(case.words)))


def stand_ins(case: Case, t: Trace) -> list[StandIn]:
    """The calls the grader's stand-ins answer in self_attention on `case`: the reference's own,
    and softmax of the scores divided by what the error model's mistakes divide them by (the
    division forgotten or moved into another step, d_k for √d_k, ...), so that such a
    self_attention is named even where the student's softmax did not pass. softmax and mix
    are answered row by row too, as a loop over the words calls them. Every value is computed
    here, from the test's own inputs: never from what a submission asks."""
    n, d_k = t.K.shape
    divisors = [np.sqrt(d_k)] + [value for way in wrong_divisors(d_k=d_k, d_model=case.X.shape[1], d_v=t.V.shape[1],
                                                                 n=n).values()
                                 for value in (way if isinstance(way, tuple) else (way,))]
    tables = [(t.scores / divisor, solution.softmax(t.scores / divisor)) for divisor in dict.fromkeys(divisors)]
    rows = range(n)
    return ([StandIn(name="make_qkv", args=(case.X, case.W_Q, case.W_K, case.W_V), value=(t.Q, t.K, t.V)),
             StandIn(name="scores", args=(t.Q, t.K), value=t.scores),
             StandIn(name="mix", args=(t.weights, t.V), value=t.output),
             StandIn(name="most_attended", args=(t.weights, list(case.words)), value=t.most_attended)]
            + [StandIn(name="softmax", args=(scaled,), value=weights) for scaled, weights in tables]
            + [StandIn(name="softmax", args=(scaled[i],), value=weights[i]) for scaled, weights in tables for i in rows]
            + [StandIn(name="mix", args=(t.weights[i], t.V), value=t.output[i]) for i in rows])
