"""Uses weights.T @ V, thinking the columns of the weight table are the words being mixed."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.matmul(X, W_Q)
    K = np.matmul(X, W_K)
    V = np.matmul(X, W_V)
    return Q, K, V


def scores(Q, K):
    return np.matmul(Q, K.T)


def softmax(x):
    shift = x - np.max(x, axis=-1, keepdims=True)
    e = np.exp(shift)
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    # 열 방향으로 합이 1이니까 전치해서 곱함
    return np.matmul(weights.T, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    output = np.matmul(weights, V)
    return output, weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
