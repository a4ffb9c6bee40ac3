"""Planted mistake in self_attention: its softmax, written inline, normalises columns. The softmax step itself is right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    s = scores(Q, K) / np.sqrt(K.shape[1])
    e = np.exp(s - s.max(axis=0, keepdims=True))
    weights = e / e.sum(axis=0, keepdims=True)
    return weights @ V, weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()

