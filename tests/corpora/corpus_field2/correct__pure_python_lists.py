"""Correct: pure Python lists and loops with math.exp/math.sqrt; results turned into arrays only at the end."""
import math

import numpy as np
import pandas as pd


def _matmul(A, B):
    A = [list(map(float, row)) for row in A]
    B = [list(map(float, row)) for row in B]
    cols = len(B[0]) if B else 0
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(cols)]
            for i in range(len(A))]


def _transpose(A):
    return [list(col) for col in zip(*A)]


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.array(_matmul(X, W_Q))
    K = np.array(_matmul(X, W_K))
    V = np.array(_matmul(X, W_V))
    return Q, K, V


def scores(Q, K):
    return np.array(_matmul(Q, _transpose(K)))


def _softmax_row(row):
    m = max(row)
    exps = [math.exp(v - m) for v in row]
    s = sum(exps)
    return [e / s for e in exps]


def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        return np.array(_softmax_row(list(x)))
    return np.array([_softmax_row(list(r)) for r in x])


def mix(weights, V):
    return np.array(_matmul(weights, V))


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = len(K[0])
    scaled = [[v / math.sqrt(d_k) for v in row] for row in scores(Q, K)]
    weights = softmax(scaled)
    return mix(weights, V), weights


def most_attended(weights, words):
    result = {}
    for i, w in enumerate(words):
        row = list(weights[i])
        result[w] = words[row.index(max(row))]
    return result
