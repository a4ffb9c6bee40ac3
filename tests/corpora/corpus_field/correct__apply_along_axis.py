"""Student writes a 1-D softmax and applies it per row with np.apply_along_axis; np.matmul elsewhere; all right."""
import numpy as np
import pandas as pd


def _softmax_vec(v):
    v = v - np.max(v)
    e = np.exp(v)
    return e / np.sum(e)


def make_qkv(X, W_Q, W_K, W_V):
    return tuple(np.matmul(X, W) for W in (W_Q, W_K, W_V))


def scores(Q, K):
    return np.matmul(Q, K.T)


def softmax(x):
    return np.apply_along_axis(_softmax_vec, -1, np.asarray(x, dtype=float))


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    return {words[i]: words[j] for i, j in enumerate(np.argmax(weights, axis=1))}
