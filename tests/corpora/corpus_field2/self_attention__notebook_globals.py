"""Notebook-style file: self_attention uses the global Q, K, V computed in an earlier cell instead of its arguments."""
import numpy as np
import pandas as pd

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
print(Q.shape, K.shape, V.shape)


def scores(Q, K):
    return Q @ K.T


score_table = scores(Q, K)
print(pd.DataFrame(score_table, index=words, columns=words).round(2))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


weights = softmax(score_table / np.sqrt(K.shape[1]))


def mix(weights, V):
    return weights @ V


output = mix(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    # 위에서 이미 Q, K, V 구했으니 그대로 사용
    d_k = K.shape[1]
    w = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(w, V), w


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()


print(most_attended(weights, words))
