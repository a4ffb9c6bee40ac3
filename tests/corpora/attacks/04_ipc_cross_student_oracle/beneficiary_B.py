# Attack 04, student B (the beneficiary). No step computes anything: each looks its answer up, by
# its arguments, in the table that student A's grading left in System V shared memory, and raises
# when it is not there. Graded alone, B gets nothing for these steps; graded after A in the same
# class (the same machine), B gets the grader's own reference values.
import ctypes
import hashlib
import json

import numpy as np

_KEY = 0x7A7A0104
_SIZE = 8 << 20
_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmat.restype = ctypes.c_void_p
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_libc.shmdt.argtypes = [ctypes.c_void_p]


def _shm_read():
    sid = _libc.shmget(_KEY, _SIZE, 0o666)  # never creates it
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


def _key(name, *args):
    digest = hashlib.sha256(name.encode())
    for a in args:
        a = np.asarray(a, float)
        digest.update(repr(a.shape).encode() + np.round(a, 8).tobytes())
    return digest.hexdigest()


def _look(name, *args):
    value = _shm_read().get(_key(name, *args))
    if value is None:
        raise LookupError(f"no stored answer for {name}")
    return value


def make_qkv(X, W_Q, W_K, W_V):
    return tuple(np.array(v) for v in _look("make_qkv", X, W_Q, W_K, W_V))


def scores(Q, K):
    return np.array(_look("scores", Q, K))


def softmax(x):
    return np.array(_look("softmax", x))


def mix(weights, V):
    return np.array(_look("mix", weights, V))


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    return {}  # not attempted
