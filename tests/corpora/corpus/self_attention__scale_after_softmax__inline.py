"""Planted mistake in self_attention: divides the weights after softmax. Every other function is right."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    def times(A, B):
        return np.array([[sum(A[i][m] * B[m][j] for m in range(len(B)))
                          for j in range(len(B[0]))] for i in range(len(A))])
    return times(X, W_Q), times(X, W_K), times(X, W_V)


def scores(Q, K):
    return np.matmul(Q, K.transpose())


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    raw = Q @ K.T
    e = np.exp(raw - raw.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True) / np.sqrt(K.shape[1])
    return weights @ V, weights


def most_attended(weights, words):
    best = np.asarray(weights).argmax(axis=1)
    return dict(zip(words, (words[j] for j in best)))
