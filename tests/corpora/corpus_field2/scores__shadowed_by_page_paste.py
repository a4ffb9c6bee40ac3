"""Pasted the page's cells at module level after the functions, so `scores = Q @ K.T` replaces the function scores with an array."""
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


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax((Q @ K.T) / np.sqrt(d_k))
    return weights @ V, weights


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()


# ---- 교재 코드 그대로 붙여넣어 확인 ----
Q, K, V = make_qkv(X, W_Q, W_K, W_V)
# K.T: K 를 전치해 (4, 3). (3, 4) @ (4, 3) → (3, 3)
scores = Q @ K.T
print(pd.DataFrame(scores.round(2), index=words, columns=words))

d_k = K.shape[1]
weights = softmax(scores / np.sqrt(d_k))
attn = pd.DataFrame(weights.round(3), index=words, columns=words)
print(attn)
output = weights @ V
print("output =\n", output)
