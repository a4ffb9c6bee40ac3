"""Correct, with softmax written as exp(x - logsumexp(x)) and matmul spelled out."""
import numpy as np


def make_qkv(X, W_Q, W_K, W_V):
    Q, K, V = (np.matmul(X, W) for W in (W_Q, W_K, W_V))
    return Q, K, V


def scores(Q, K):
    return np.array([[np.dot(q, k) for k in K] for q in Q])


def softmax(x):
    top = np.max(x, axis=-1, keepdims=True)
    log_total = top + np.log(np.sum(np.exp(x - top), axis=-1, keepdims=True))
    return np.exp(x - log_total)


def mix(weights, V):
    return sum(np.outer(weights[:, j], V[j]) for j in range(V.shape[0]))


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[-1]
    weights = softmax(scores(Q, K) * d_k ** -0.5)
    return mix(weights, V), weights


def most_attended(weights, words):
    order = np.argsort(-np.asarray(weights), axis=1, kind="stable")
    return {word: words[int(order[i, 0])] for i, word in enumerate(words)}
