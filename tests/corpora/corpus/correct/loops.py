"""Correct, written with plain Python loops and comprehensions."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    def times(A, B):
        return np.array([[sum(A[i][m] * B[m][j] for m in range(len(B)))
                          for j in range(len(B[0]))] for i in range(len(A))])
    return times(X, W_Q), times(X, W_K), times(X, W_V)


def scores(Q, K):
    n = len(Q)
    table = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            table[i, j] = sum(q * k for q, k in zip(Q[i], K[j]))
    return table


def softmax(x):
    shifted = np.subtract(x, np.max(x, axis=-1, keepdims=True))
    e = np.exp(shifted)
    return np.divide(e, np.sum(e, axis=-1, keepdims=True))


def mix(weights, V):
    rows = []
    for w_row in weights:
        blended = np.zeros(V.shape[1])
        for w, v in zip(w_row, V):
            blended = blended + w * v
        rows.append(blended)
    return np.array(rows)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = Q.shape[1]
    weights = softmax(np.dot(Q, K.T) / d_k ** 0.5)
    return np.dot(weights, V), weights


def most_attended(weights, words):
    best = np.asarray(weights).argmax(axis=1)
    return dict(zip(words, (words[j] for j in best)))
