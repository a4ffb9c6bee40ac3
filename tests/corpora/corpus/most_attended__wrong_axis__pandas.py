"""Planted mistake in most_attended: idxmax over columns. Every other function is right."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return np.dot(Q, K.T)


def softmax(x):
    table = pd.DataFrame(np.atleast_2d(x))
    e = np.exp(table.sub(table.max(axis=1), axis=0))
    return e.div(e.sum(axis=1), axis=0).to_numpy().reshape(np.shape(x))


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
    return table.idxmax().to_dict()
