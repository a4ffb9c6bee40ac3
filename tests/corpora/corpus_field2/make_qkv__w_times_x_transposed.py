"""Computes W_Q.T @ X.T style products, returning Q, K, V transposed (d_k, n)."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    # 교재 그림처럼 열벡터로 생각: q = W x
    Q = W_Q.T @ X.T
    K = W_K.T @ X.T
    V = W_V.T @ X.T
    return Q, K, V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
