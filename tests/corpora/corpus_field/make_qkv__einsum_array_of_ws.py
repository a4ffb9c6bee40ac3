"""Student puts the three W into one np.array and uses einsum, which fails as soon as W_V is wider or narrower than W_K."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Ws = np.array([W_Q, W_K, W_V])
    Q, K, V = np.einsum("nd,wdk->wnk", X, Ws)
    return Q, K, V


def scores(Q, K):
    return np.einsum("id,jd->ij", Q, K)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.einsum("ij,jd->id", weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
