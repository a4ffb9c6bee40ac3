"""Right values, but make_qkv returns a list [Q, K, V] and scores/mix return nested Python lists via .tolist()."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return [X @ W_Q, X @ W_K, X @ W_V]


def scores(Q, K):
    return (np.asarray(Q) @ np.asarray(K).T).tolist()


def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return (np.asarray(weights) @ np.asarray(V)).tolist()


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    w = softmax(np.asarray(scores(Q, K)) / np.sqrt(K.shape[1]))
    return np.asarray(mix(w, V)), w


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
