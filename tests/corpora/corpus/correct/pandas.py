"""Correct, with pandas for softmax and most_attended."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return np.matmul(Q, K.transpose())


def softmax(x):
    table = pd.DataFrame(np.atleast_2d(x))
    e = np.exp(table.sub(table.max(axis=1), axis=0))
    return e.div(e.sum(axis=1), axis=0).to_numpy().reshape(np.shape(x))


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    frame = pd.DataFrame(weights, columns=words)
    frame.index = words
    return {word: frame.loc[word].idxmax() for word in words}
