"""Notebook-style file: Q, K, V and d_k are computed at top level from the page's values, and self_attention uses those globals instead of its arguments."""
import numpy as np
import pandas as pd

np.set_printoptions(precision=2, suppress=True)

words = ["나는", "사과를", "먹었다"]
X = np.array([[1, 0, 1, 0],
              [0, 2, 0, 1],
              [1, 1, 0, 2]], dtype=float)

np.random.seed(0)
W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
W_V = np.round(np.random.randn(4, 4) * 0.5, 1)


def make_qkv(X, W_Q, W_K, W_V):
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    return Q, K, V


Q, K, V = make_qkv(X, W_Q, W_K, W_V)
d_k = K.shape[1]


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    # 위에서 이미 Q, K, V, d_k 를 구해 놨으니 그대로 쓴다
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    output = mix(weights, V)
    return output, weights


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()
