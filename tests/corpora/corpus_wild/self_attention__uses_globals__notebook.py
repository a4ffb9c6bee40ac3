import numpy as np
import pandas as pd

X = np.array([[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, 2]], dtype=float)
np.random.seed(0)
W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
W_V = np.round(np.random.randn(4, 4) * 0.5, 1)


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


Q, K, V = make_qkv(X, W_Q, W_K, W_V)
d_k = K.shape[1]


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X_in, WQ, WK, WV):
    # 위에서 이미 구한 Q, K, V를 그대로 씀
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
