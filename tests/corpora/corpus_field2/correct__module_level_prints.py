"""Correct: notebook export with module-level prints, a display() call and the page's variables, no __main__ guard."""
import numpy as np
import pandas as pd

np.set_printoptions(precision=2, suppress=True)
words = ["나는", "사과를", "먹었다"]
X = np.array([[1, 0, 1, 0],
              [0, 2, 0, 1],
              [1, 1, 0, 2]], dtype=float)
print(pd.DataFrame(X, index=words))

np.random.seed(0)
W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
W_V = np.round(np.random.randn(4, 4) * 0.5, 1)


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


Q, K, V = make_qkv(X, W_Q, W_K, W_V)
print("Q =\n", Q)


def scores(Q, K):
    return Q @ K.T


S = scores(Q, K)
display(pd.DataFrame(S, index=words, columns=words).round(2))  # noqa: F821 (노트북)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


print(softmax(np.array([1.0, 2.0, 3.0])))
print(softmax(np.array([1000.0, 1000.0])))


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


out, weights = self_attention(X, W_Q, W_K, W_V)
print(out)


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()


print(most_attended(weights, words))
