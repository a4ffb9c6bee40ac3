"""Attack 11 — promise 3 (one student's file never changes another's grade or feedback).
Attacker in a batch with a victim whose `scores` has exactly the same text (same repair key).
At load, the attacker patches the child's codec.decode so every array argument becomes an ndarray
subclass whose @ sleeps 0.45 s whenever it runs inside a repair candidate: the attacker's search is
slow and holds the batch's claim on the shared key, so the victim's worker waits for it
(RepairCache.awaited) and then has a shortened search clock. Victim's feedback must be the same as
when graded alone."""
import sys as _sys, time as _time, numpy as _np
def _in_candidate():
    f = _sys._getframe(1)
    while f is not None:
        if f.f_code.co_filename == "<repair>":
            return True
        f = f.f_back
    return False
class _Slow(_np.ndarray):
    def __matmul__(self, other):
        if _in_candidate():
            _time.sleep(0.45)
        return _np.asarray(self) @ _np.asarray(other)
    def __rmatmul__(self, other):
        if _in_candidate():
            _time.sleep(0.45)
        return _np.asarray(other) @ _np.asarray(self)
try:
    from autograder.core.child import codec as _codec
    _dec = _codec.decode
    def _decode(x):
        v = _dec(x)
        return v.view(_Slow) if type(v) is _np.ndarray else v
    _codec.decode = _decode
except Exception:
    pass

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return K @ Q.T


def softmax(x):
    """Softmax over the last axis; the row maximum is subtracted so exp never overflows."""
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    """Blend the value vectors row by row with the attention weights."""
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    """softmax(Q Kᵀ / √d_k) V; returns (output, weights)."""
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    """Map each word to the word its row gives the largest weight."""
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
