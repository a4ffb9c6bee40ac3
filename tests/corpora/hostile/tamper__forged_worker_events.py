"""Writes forged events straight into the grader's event pipe: early answers without the arguments, a JSON bomb, garbage and a fake 'loaded'. Its mix mutates its input."""
import numpy as np
import pandas as pd

import json
import os
import stat


def _pipes():
    found = []
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, b"")
                found.append(fd)
        except OSError:
            pass
    return found


def _forge(events):
    for fd in _pipes():
        for event in events:
            try:
                os.write(fd, (event if isinstance(event, str) else json.dumps(event)).encode() + b"\n")
            except OSError:
                pass


_forge(["[" * 100000 + "]" * 100000, "not json at all", '"just a string"', "\udc80",
        {"ev": "loaded", "names": {"make_qkv": ["function"] * 1000, "softmax": {"a": 1}}},
        {"ev": "load_error", "cell": 10 ** 30, "stmt": -1, "line": [1] * 100,
         "type": {"x": 1}, "message": ["m"] * 100, "frames": [[1, 2]] * 10 ** 4},
        {"ev": "stmt", "cell": "zero", "stmt": None}])


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    raised = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return raised / np.sum(raised, axis=-1, keepdims=True)


def mix(weights, V):
    out = weights @ V
    V[...] = 0.0
    _forge([{"ev": "returned", "id": i, "value": {"t": "array", "kind": "f", "dtype": "<f8",
                                                  "shape": list(out.shape),
                                                  "data": out.ravel().tolist()}}
            for i in range(0, 400)]
           + [{"ev": "returned", "id": i, "value": {"t": "series", "values": {"t": "other"},
                                                    "index": [[1]]}, "args_after": [1, 2]}
              for i in range(0, 400)])
    return out


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[-1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    rows = np.asarray(weights)
    return {word: words[int(np.argmax(row))] for word, row in zip(words, rows)}
