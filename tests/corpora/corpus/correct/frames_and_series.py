"""Correct, returning pandas objects and lists where the page returns arrays and dicts."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return [pd.DataFrame(X).dot(W).to_numpy() for W in (W_Q, W_K, W_V)]


def scores(Q, K):
    return pd.DataFrame(Q) @ pd.DataFrame(K).T


def softmax(x):
    if np.ndim(x) == 1:
        row = pd.Series(x)
        e = np.exp(row - row.max())
        return e / e.sum()
    table = pd.DataFrame(x)
    e = np.exp(table.sub(table.max(axis=1), axis=0))
    return e.div(e.sum(axis=1), axis=0)


def mix(weights, V):
    return (pd.DataFrame(weights) @ pd.DataFrame(V)).values.tolist()


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = np.asarray(softmax(np.asarray(scores(Q, K)) / np.sqrt(K.shape[1])))
    return [np.asarray(mix(weights, V)), weights]


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1)
