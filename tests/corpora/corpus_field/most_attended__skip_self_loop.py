"""Student loops over each row and only looks at the other words, so a word can never pick itself."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    return Q, K, V


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
    # 자기 자신을 참고하는 건 당연하니까 빼고, 다른 낱말 중에서 가장 큰 것을 찾는다
    result = {}
    for i, w in enumerate(words):
        best_j = None
        best_val = -1.0
        for j in range(len(words)):
            if j == i:
                continue
            if weights[i][j] > best_val:
                best_val = weights[i][j]
                best_j = j
        result[w] = words[best_j]
    return result
