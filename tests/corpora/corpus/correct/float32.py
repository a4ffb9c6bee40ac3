"""Correct, computed in float32 throughout."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    X32 = np.asarray(X, dtype=np.float32)
    return tuple(np.matmul(X32, np.asarray(W, dtype=np.float32)) for W in (W_Q, W_K, W_V))


def scores(Q, K):
    return np.matmul(Q, K.transpose())


def softmax(x):
    x32 = np.asarray(x, dtype=np.float32)
    e = np.exp(x32 - x32.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    X32 = np.asarray(X, dtype=np.float32)
    Q, K, V = (X32 @ np.asarray(W, dtype=np.float32) for W in (W_Q, W_K, W_V))
    weights = softmax(Q @ K.T / np.float32(np.sqrt(K.shape[1])))
    return weights @ V, weights


def most_attended(weights, words):
    frame = pd.DataFrame(weights, columns=words)
    frame.index = words
    return {word: frame.loc[word].idxmax() for word in words}
