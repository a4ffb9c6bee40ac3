"""Got a shape error on Q @ K and 'fixed' it with K.reshape(d_k, n) instead of K.T, scrambling the values."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.einsum("nd,dk->nk", X, W_Q)
    K = np.einsum("nd,dk->nk", X, W_K)
    V = np.einsum("nd,dk->nk", X, W_V)
    return Q, K, V


def scores(Q, K):
    n, d_k = K.shape
    # Q @ K 하면 shape 에러 -> (d_k, n)으로 바꿔줌
    return Q @ K.reshape(d_k, n)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.einsum("ij,jd->id", weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    s = np.einsum("id,jd->ij", Q, K)
    weights = softmax(s / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
