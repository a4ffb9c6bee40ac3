"""Re-implements the steps inline with three mistakes: no division by sqrt(d_k), the whole-table max subtracted, and a column-wise (axis=0) normalisation."""
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
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    # 한 번에 다 계산해 보기
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    s = Q @ K.T
    e = np.exp(s - s.max())
    weights = e / e.sum(axis=0, keepdims=True)
    return weights @ V, weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
