# Attack 07 — a student's .py that keeps full marks and still holds the grader far longer than
# docs/SECURITY.md's bound ("a hostile file can cost up to about (1 + 12 restarts) x timeout of
# grading time before the restart cap stops it; it cannot block the grader beyond that").
# * Eleven top-level statements sleep: the first child hangs on the file run whole, each next one
#   on the next statement; each costs a load deadline and a restart (12 restarts, the cap), and
#   each is skipped afterwards, so nothing is lost.
# * Then, in the child that loads, the first public and the first hidden call of every step sleep
#   a little less than the step deadline: every step group is answered, right, just in time.
# The restart cap bounds restarts, not the deadlines each child may use (one per step group, plus
# its load), nor the runs (the composed step runs in a child of its own).
import time

import numpy as np
import pandas as pd

_TIMEOUT = 2.0  # the TA's --timeout; a student can read it off the "did not finish in N s" message
_PUBLIC = {"make_qkv": 4, "scores": 4, "softmax": 8, "mix": 4, "self_attention": 4, "most_attended": 4}
_CALLS = {name: 0 for name in _PUBLIC}


def _slow(name):
    number = _CALLS[name]
    _CALLS[name] += 1
    if number in (0, _PUBLIC[name]):  # the first call of its public group, of its hidden group
        time.sleep(0.8 * _TIMEOUT)


def _hang():
    time.sleep(3600)


def make_qkv(X, W_Q, W_K, W_V):
    _slow("make_qkv")
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    _slow("scores")
    return Q @ K.T


def softmax(x):
    _slow("softmax")
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    _slow("mix")
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    _slow("self_attention")
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    scaled = Q @ K.T / np.sqrt(K.shape[1])
    e = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V, weights


def most_attended(weights, words):
    _slow("most_attended")
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()


_hang()
_hang()
_hang()
_hang()
_hang()
_hang()
_hang()
_hang()
_hang()
_hang()
_hang()
