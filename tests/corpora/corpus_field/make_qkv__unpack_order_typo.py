"""Student unpacks q, v, k from (X·W_Q, X·W_K, X·W_V) in one line, so k comes from W_V and v from W_K."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    q, v, k = np.dot(X, W_Q), np.dot(X, W_K), np.dot(X, W_V)
    return q, k, v


def scores(Q, K):
    return np.dot(Q, K.T)


def softmax(x):
    z = x - np.max(x, axis=-1, keepdims=True)
    ez = np.exp(z)
    return ez / np.sum(ez, axis=-1, keepdims=True)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    q, k, v = make_qkv(X, W_Q, W_K, W_V)
    w = softmax(scores(q, k) / np.sqrt(k.shape[1]))
    return mix(w, v), w


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
