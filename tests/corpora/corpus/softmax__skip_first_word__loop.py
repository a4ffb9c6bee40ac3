"""Planted mistake in softmax: the rows are filled in a loop that starts at 1, so the first row stays zero."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        e = np.exp(x - x.max())
        return e / e.sum()
    out = np.zeros_like(x)
    for i in range(1, x.shape[0]):
        e = np.exp(x[i] - x[i].max())
        out[i] = e / e.sum()
    return out


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()

