"""Correct: every product written with np.einsum, including the weighted mix."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.einsum("nm,mk->nk", X, W_Q)
    K = np.einsum("nm,mk->nk", X, W_K)
    V = np.einsum("nm,mv->nv", X, W_V)
    return Q, K, V


def scores(Q, K):
    return np.einsum("id,jd->ij", Q, K)


def softmax(x):
    z = x - np.max(x, axis=-1, keepdims=True)
    e = np.exp(z)
    return e / np.einsum("...i->...", e)[..., None]


def mix(weights, V):
    return np.einsum("ij,jv->iv", weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[-1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
