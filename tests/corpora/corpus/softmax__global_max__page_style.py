"""Planted mistake in softmax: subtracts the whole table's maximum instead of each row's (named global_max, formerly only not_finite)."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.dot(X, W_Q)
    K = np.dot(X, W_K)
    V = np.dot(X, W_V)
    return Q, K, V


def scores(Q, K):
    return np.einsum("ik,jk->ij", Q, K)


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    return {word: words[int(np.argmax(row))] for word, row in zip(words, weights)}
