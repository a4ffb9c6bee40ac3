"""Planted mistake in make_qkv: K is made with W_Q. Every other function is right."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.einsum("nd,dk->nk", X, W_Q)
    K = np.einsum("nd,dk->nk", X, W_Q)
    V = np.einsum("nd,dk->nk", X, W_V)
    return Q, K, V


def scores(Q, K):
    return np.matmul(Q, K.transpose())


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
