# Attack 12 — the grading machine's folders in a message a student reads.
# README: "No message a student reads shows a folder of the machine that ran the code ... shows
# each path by its last part (…/data.csv), in every face". render.without_paths finds paths by
# their separators "/" and "\". This file raises, while loading, an error whose message spells
# the interpreter's, numpy's and the working folder's paths with U+2215 DIVISION SLASH, which
# looks like "/" but is not one, so nothing is cut. Every step is otherwise correct.
import os
import sys

import numpy as np
import pandas as pd

_SLASH = "\u2215"
raise RuntimeError("where: exe=" + sys.executable.replace("/", _SLASH)
                   + " numpy=" + os.path.dirname(np.__file__).replace("/", _SLASH)
                   + " cwd=" + os.getcwd().replace("/", _SLASH))


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
