"""Student multiplies by d_k ** -1/2 to avoid a division, which Python reads as (1/d_k) / 2."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    q = np.dot(X, W_Q)
    k = np.dot(X, W_K)
    v = np.dot(X, W_V)
    return q, k, v


def scores(Q, K):
    return np.dot(Q, K.T)


def softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    q, k, v = make_qkv(X, W_Q, W_K, W_V)
    dk = k.shape[-1]
    scale = dk ** -1/2          # 1/sqrt(dk)
    w = softmax(scores(q, k) * scale)
    return mix(w, v), w


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return dict(df.idxmax(axis=1))
