"""Attack 10 (one submission makes the grader fail): a lone UTF-16 surrogate in a forged event.

The child may write to its event pipe directly (docs/SECURITY.md, "Forged events"); the grader
"removes control characters from every string as it takes it in (codec.clean_text ...), so no
renderer, terminal or LMS page sees them". JSON's "\\ud800" escape decodes to a lone surrogate,
which is no control character: it passes codec.clean_text and render.printable, and no UTF-8
writer can encode it. The worker's own send() could never emit one (it encodes to UTF-8), so
only a forged line carries it. Everything else in this file is a correct solution.
"""
import os
import sys

import numpy as np
import pandas as pd


def _channel():
    frame = sys._getframe()
    while frame is not None:
        found = frame.f_locals.get("channel")
        if found is not None and hasattr(found, "_event_fd"):
            return found
        frame = frame.f_back
    return None


_c = _channel()
if _c is not None:
    os.write(_c._event_fd, b'{"ev": "load_error", "cell": 0, "stmt": 0, "line": 1, "type": "ValueError", '
                           b'"message": "a lone surrogate: \\ud800", "frames": []}\n')


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
    w = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(w, V), w


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
