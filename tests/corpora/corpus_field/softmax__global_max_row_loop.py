"""Student takes m = x.max() once before looping over the rows, so every row is shifted by the table's maximum."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.array(x, dtype=float)
    m = x.max()
    if x.ndim == 1:
        e = np.exp(x - m)
        return e / e.sum()
    result = np.empty_like(x)
    for i, row in enumerate(x):
        e = np.exp(row - m)
        result[i] = e / e.sum()
    return result


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return {w: df.loc[w].idxmax() for w in words}
