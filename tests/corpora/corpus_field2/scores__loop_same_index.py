"""Nested loop with a typo: S[i][j] = dot(Q[i], K[i]), so every row repeats one value."""
import math

import numpy as np
import pandas as pd


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def make_qkv(X, W_Q, W_K, W_V):
    return np.dot(X, W_Q), np.dot(X, W_K), np.dot(X, W_V)


def scores(Q, K):
    n = len(Q)
    m = len(K)
    S = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            S[i][j] = _dot(Q[i], K[i])
    return S


def softmax(x):
    x = np.array(x, dtype=float)
    mx = np.max(x, axis=-1, keepdims=True)
    ex = np.exp(x - mx)
    return ex / np.sum(ex, axis=-1, keepdims=True)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    w = softmax(scores(Q, K) / math.sqrt(d_k))
    return mix(w, V), w


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
