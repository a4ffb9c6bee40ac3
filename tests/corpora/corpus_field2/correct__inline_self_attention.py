"""Correct: self_attention re-implements every step inline (no calls to the other functions), with np.matmul and np.divide."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return np.matmul(X, W_Q), np.matmul(X, W_K), np.matmul(X, W_V)


def scores(Q, K):
    return np.matmul(Q, K.T)


def softmax(x):
    e = np.exp(np.subtract(x, np.max(x, axis=-1, keepdims=True)))
    return np.divide(e, np.sum(e, axis=-1, keepdims=True))


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q = np.matmul(X, W_Q)
    K = np.matmul(X, W_K)
    V = np.matmul(X, W_V)
    s = np.divide(np.matmul(Q, K.T), np.sqrt(K.shape[1]))
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    w = e / e.sum(axis=1, keepdims=True)
    return np.matmul(w, V), w


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
