"""Attack 08 (no folder of the grading machine in what a student reads): the machine's folders
printed with separators that look like slashes but are not in render.SLASHES.

render.without_paths shows a path by its last part, its separators being "/", "\\" and a fixed list
of look-alikes (U+2215, U+2044, U+FF0F, ...). Unicode has more: U+27CB MATHEMATICAL RISING
DIAGONAL "⟋" and U+1735 PHILIPPINE SINGLE PUNCTUATION "᜵" are drawn as slashes too. A load error
whose message is the interpreter's path, numpy's folder and the sandbox's working folder written
with them reaches every face whole.
"""
import os
import sys

import numpy as np
import pandas as pd


def _drawn(path, mark):
    return path.replace("/", mark)


raise ValueError("where: exe=" + _drawn(sys.executable, "\u27cb") + " numpy="
                 + _drawn(os.path.dirname(np.__file__), "\u27cb") + " cwd=" + _drawn(os.getcwd(), "\u1735"))


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
