"""Planted mistake in scores: forgets to return. Every other function is right."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    def times(A, B):
        return np.array([[sum(A[i][m] * B[m][j] for m in range(len(B)))
                          for j in range(len(B[0]))] for i in range(len(A))])
    return times(X, W_Q), times(X, W_K), times(X, W_V)


def scores(Q, K):
    table = Q @ K.T


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(np.einsum("ik,jk->ij", Q, K) / math.sqrt(W_K.shape[1]))
    output = np.einsum("ij,jd->id", weights, V)
    return output, weights


def most_attended(weights, words):
    best = np.asarray(weights).argmax(axis=1)
    return dict(zip(words, (words[j] for j in best)))
