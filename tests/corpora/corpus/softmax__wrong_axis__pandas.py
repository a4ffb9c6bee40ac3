"""Planted mistake in softmax: DataFrame.max() and .sum() work per column. Every other function is right."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return np.dot(Q, K.T)


def softmax(x):
    if np.ndim(x) == 1:
        e = np.exp(x - np.max(x))
        return e / e.sum()
    table = pd.DataFrame(x)
    e = np.exp(table - table.max())
    return (e / e.sum()).to_numpy()


def mix(weights, V):
    rows = []
    for w_row in weights:
        blended = np.zeros(V.shape[1])
        for w, v in zip(w_row, V):
            blended = blended + w * v
        rows.append(blended)
    return np.array(rows)


def self_attention(X, W_Q, W_K, W_V):
    X32 = np.asarray(X, dtype=np.float32)
    Q, K, V = (X32 @ np.asarray(W, dtype=np.float32) for W in (W_Q, W_K, W_V))
    weights = softmax(Q @ K.T / np.float32(np.sqrt(K.shape[1])))
    return weights @ V, weights


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
