"""Student keeps keepdims on the max but writes e / e.sum(axis=1) without it (and axis=1 fails on 1-D input)."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    # Q, K, V 만들기
    Q = np.matmul(X, W_Q)
    K = np.matmul(X, W_K)
    V = np.matmul(X, W_V)
    return (Q, K, V)


def scores(Q, K):
    # 점수표 = Q K^T
    return np.matmul(Q, K.transpose())


def softmax(x):
    # 최댓값 빼기 (overflow 방지)
    x = x - np.max(x, axis=-1, keepdims=True)
    ex = np.exp(x)
    return ex / ex.sum(axis=1)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    output = mix(weights, V)
    return (output, weights)


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
