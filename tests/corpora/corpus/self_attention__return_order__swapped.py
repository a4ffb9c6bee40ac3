"""Planted mistake in self_attention: returns (weights, output). Every other function is right."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    project = lambda W: np.einsum("nd,dk->nk", X, W)
    return project(W_Q), project(W_K), project(W_V)


def scores(Q, K):
    n = len(Q)
    table = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            table[i, j] = sum(q * k for q, k in zip(Q[i], K[j]))
    return table


def softmax(x):
    x32 = np.asarray(x, dtype=np.float32)
    e = np.exp(x32 - x32.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return weights, mix(weights, V)


def most_attended(weights, words):
    answer = {}
    for i, word in enumerate(words):
        best = max(range(len(words)), key=lambda j: weights[i][j])
        answer[word] = words[best]
    return answer
