"""Returns the three matrices in the order Q, V, K instead of Q, K, V."""
import numpy as np
import pandas as pd

# 3장 실습 1 - 김○○


def make_qkv(X, W_Q, W_K, W_V):
    # 쿼리, 값, 키 순서로 만든다
    Q = np.matmul(X, W_Q)
    V = np.matmul(X, W_V)
    K = np.matmul(X, W_K)
    return Q, V, K


def scores(Q, K):
    # 행렬곱으로 한 번에
    return np.matmul(Q, K.T)


def softmax(x):
    # 최댓값 빼기 (overflow 방지)
    x_max = np.max(x, axis=-1, keepdims=True)
    exps = np.exp(x - x_max)
    return exps / np.sum(exps, axis=-1, keepdims=True)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, V, K = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return dict(df.idxmax(axis=1))
