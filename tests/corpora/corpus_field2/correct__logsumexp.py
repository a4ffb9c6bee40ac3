"""Correct: softmax through log-sum-exp (exp(x - logsumexp)), d_k via K.shape[-1] ** 0.5."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return tuple(np.dot(X, W) for W in (W_Q, W_K, W_V))


def scores(Q, K):
    return np.dot(Q, np.transpose(K))


def softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    lse = m + np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))
    return np.exp(x - lse)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / K.shape[-1] ** 0.5)
    return mix(weights, V), weights


def most_attended(weights, words):
    s = pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1)
    return dict(zip(s.index, s.values))
