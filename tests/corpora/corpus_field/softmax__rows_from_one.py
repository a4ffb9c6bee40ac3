"""Student's softmax loops over the rows of a 2-D input with range(1, n), so the first row is left as zeros."""
import math
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def _softmax_1d(row):
    m = max(row)
    e = np.array([math.exp(v - m) for v in row])
    return e / e.sum()


def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        return _softmax_1d(x)
    out = np.zeros_like(x)
    for i in range(1, x.shape[0]):
        out[i] = _softmax_1d(x[i])
    return out


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / math.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
