"""Planted mistake in scores: Q @ K. Every other function is right."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    X32 = np.asarray(X, dtype=np.float32)
    return tuple(np.matmul(X32, np.asarray(W, dtype=np.float32)) for W in (W_Q, W_K, W_V))


def scores(Q, K):
    return np.matmul(Q, K)


def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        e = [math.exp(v - max(x)) for v in x]
        return np.array([v / sum(e) for v in e])
    return np.array([softmax(row) for row in x])


def mix(weights, V):
    return np.einsum("ij,jd->id", weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = Q.shape[1]
    weights = softmax(np.dot(Q, K.T) / d_k ** 0.5)
    return np.dot(weights, V), weights


def most_attended(weights, words):
    frame = pd.DataFrame(weights, columns=words)
    frame.index = words
    return {word: frame.loc[word].idxmax() for word in words}
