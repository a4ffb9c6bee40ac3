"""Builds Q, K, V row by row with range(len(X) - 1), so the last word's row stays zero."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    n = X.shape[0]
    Q = np.zeros((n, W_Q.shape[1]))
    K = np.zeros((n, W_K.shape[1]))
    V = np.zeros((n, W_V.shape[1]))
    # 한 낱말(행)씩 변환
    for i in range(n - 1):
        Q[i] = X[i] @ W_Q
        K[i] = X[i] @ W_K
        V[i] = X[i] @ W_V
    return Q, K, V


def scores(Q, K):
    n = Q.shape[0]
    S = np.zeros((n, K.shape[0]))
    for i in range(n):
        for j in range(K.shape[0]):
            S[i, j] = Q[i] @ K[j]
    return S


def softmax(x):
    x = np.asarray(x, dtype=float)
    shifted = x - x.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    out = np.zeros((weights.shape[0], V.shape[1]))
    for i in range(weights.shape[0]):
        for j in range(V.shape[0]):
            out[i] += weights[i, j] * V[j]
    return out


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    w = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(w, V), w


def most_attended(weights, words):
    frame = pd.DataFrame(weights, index=words, columns=words)
    return frame.idxmax(axis=1).to_dict()
