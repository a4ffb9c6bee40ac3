"""Wild: excludes_self in most_attended."""
import numpy as np


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    w = np.array(weights, dtype=float)
    np.fill_diagonal(w, -np.inf)
    return {word: words[int(np.argmax(w[i]))] for i, word in enumerate(words)}
