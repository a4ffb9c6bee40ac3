"""Correct, written with np.einsum."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    project = lambda W: np.einsum("nd,dk->nk", X, W)
    return project(W_Q), project(W_K), project(W_V)


def scores(Q, K):
    return np.einsum("ik,jk->ij", Q, K)


def softmax(x):
    table = pd.DataFrame(np.atleast_2d(x))
    e = np.exp(table.sub(table.max(axis=1), axis=0))
    return e.div(e.sum(axis=1), axis=0).to_numpy().reshape(np.shape(x))


def mix(weights, V):
    return np.einsum("ij,jd->id", weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(np.einsum("ik,jk->ij", Q, K) / math.sqrt(W_K.shape[1]))
    output = np.einsum("ij,jd->id", weights, V)
    return output, weights


def most_attended(weights, words):
    answer = {}
    for i, word in enumerate(words):
        best = max(range(len(words)), key=lambda j: weights[i][j])
        answer[word] = words[best]
    return answer
