"""Correct: one fused product X @ [W_Q | W_K | W_V], split at the real widths (works when d_v differs)."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    W = np.hstack([W_Q, W_K, W_V])
    QKV = X @ W
    d_k = W_Q.shape[1]
    Q = QKV[:, :d_k]
    K = QKV[:, d_k:2 * d_k]
    V = QKV[:, 2 * d_k:]
    return Q, K, V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(Q.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
