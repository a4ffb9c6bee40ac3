"""Student returns [Q, K, V] as a list, uses np.inner for the scores and transposes twice in mix; all values right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return [X @ W for W in (W_Q, W_K, W_V)]


def scores(Q, K):
    return np.inner(Q, K)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return (V.T @ weights.T).T


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = W_K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    result = {}
    for word, row in zip(words, np.asarray(weights).tolist()):
        result[word] = words[row.index(max(row))]
    return result
