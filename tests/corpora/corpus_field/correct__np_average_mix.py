"""Student mixes each row with np.average(V, axis=0, weights=...) and stacks the rows; softmax via np.exp with a row-max shift; all right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.dot(X, W_Q)
    K = np.dot(X, W_K)
    V = np.dot(X, W_V)
    return Q, K, V


def scores(Q, K):
    return np.dot(Q, K.T)


def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    rows = [np.average(V, axis=0, weights=w) for w in weights]
    return np.vstack(rows)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(Q.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    best = pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1)
    return dict(zip(best.index, best.values))
