"""Two mistakes in self_attention: divides the scores by d_k, and divides the weights by sqrt(d_k) again after softmax."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return np.matmul(X, W_Q), np.matmul(X, W_K), np.matmul(X, W_V)


def scores(Q, K):
    return np.matmul(Q, K.T)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    s = scores(Q, K) / d_k
    weights = softmax(s)
    weights = weights / np.sqrt(d_k)
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
