"""CONTROL: an honest file whose softmax is a plain sigmoid."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    """Raw score table (n, n): how strongly each query matches each key."""
    return Q @ K.T


def softmax(x):
    """Honest mistake: a sigmoid where a softmax was meant."""
    x = np.asarray(x, dtype=float)
    return 1 / (1 + np.exp(-x))


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
    """Map each word to the word its row gives the largest weight."""
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
