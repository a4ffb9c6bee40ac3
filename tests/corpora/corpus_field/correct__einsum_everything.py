"""Student writes every product with np.einsum, all right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.einsum("nd,dk->nk", X, W_Q)
    K = np.einsum("nd,dk->nk", X, W_K)
    V = np.einsum("nd,dv->nv", X, W_V)
    return Q, K, V


def scores(Q, K):
    return np.einsum("ik,jk->ij", Q, K)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.einsum("...j->...", e)[..., None]


def mix(weights, V):
    return np.einsum("ij,jv->iv", weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[-1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
