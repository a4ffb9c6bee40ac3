"""Fills Q, K, V into np.zeros(..., dtype=int) buffers, so every value is truncated to an integer."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    n, d_model = X.shape
    d_k = W_Q.shape[1]
    d_v = W_V.shape[1]
    Q = np.zeros((n, d_k), dtype=int)
    K = np.zeros((n, d_k), dtype=int)
    V = np.zeros((n, d_v), dtype=int)
    for i in range(n):
        for j in range(d_k):
            Q[i, j] = sum(X[i, m] * W_Q[m, j] for m in range(d_model))
            K[i, j] = sum(X[i, m] * W_K[m, j] for m in range(d_model))
        for j in range(d_v):
            V[i, j] = sum(X[i, m] * W_V[m, j] for m in range(d_model))
    return Q, K, V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
