"""Student computes weights and output in earlier notebook cells and self_attention just returns those global results."""
import numpy as np
import pandas as pd

words = ["나는", "사과를", "먹었다"]
X = np.array([[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, 2]], dtype=float)
np.random.seed(0)
W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
W_V = np.round(np.random.randn(4, 4) * 0.5, 1)


def make_qkv(X, W_Q, W_K, W_V):
    return X.dot(W_Q), X.dot(W_K), X.dot(W_V)


def scores(Q, K):
    return Q.dot(K.T)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights.dot(V)


# --- cell: step 4/5 as in the page ---
Q, K, V = make_qkv(X, W_Q, W_K, W_V)
score_table = scores(Q, K)
weights = softmax(score_table / np.sqrt(K.shape[1]))
output = mix(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    # already computed above
    return output, weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
