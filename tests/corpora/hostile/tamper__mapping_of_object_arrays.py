"""most_attended returns a mapping whose values are object arrays (a comparison that asks numpy
for the truth of an array), beside correct code for every other step: a wrong answer, never a
grader crash."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    """Raw score table (n, n): how strongly each query matches each key."""
    return Q @ K.T


def softmax(x):
    """Softmax over the last axis; the row maximum is subtracted so exp never overflows."""
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    """Blend the value vectors row by row with the attention weights."""
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    """softmax(Q Kᵀ / √d_k) V; returns (output, weights)."""
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    best = table.idxmax(axis=1)
    return {word: np.array([best[word], best[word]], dtype=object) for word in words}
