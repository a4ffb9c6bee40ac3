"""Student wraps the computation in a small SelfAttention class and the required functions delegate to it; all right."""
import numpy as np
import pandas as pd


class SelfAttention:
    """W 세 장을 들고 있는 작은 attention 층."""

    def __init__(self, W_Q, W_K, W_V):
        self.W_Q, self.W_K, self.W_V = W_Q, W_K, W_V

    @property
    def d_k(self):
        return self.W_K.shape[1]

    def project(self, X):
        return X @ self.W_Q, X @ self.W_K, X @ self.W_V

    @staticmethod
    def score(Q, K):
        return Q @ K.T

    @staticmethod
    def normalise(x):
        z = x - x.max(axis=-1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=-1, keepdims=True)

    @staticmethod
    def blend(weights, V):
        return weights @ V

    def __call__(self, X):
        Q, K, V = make_qkv(X, self.W_Q, self.W_K, self.W_V)
        weights = softmax(scores(Q, K) / np.sqrt(self.d_k))
        return mix(weights, V), weights


def make_qkv(X, W_Q, W_K, W_V):
    return SelfAttention(W_Q, W_K, W_V).project(X)


def scores(Q, K):
    return SelfAttention.score(Q, K)


def softmax(x):
    return SelfAttention.normalise(x)


def mix(weights, V):
    return SelfAttention.blend(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    return SelfAttention(W_Q, W_K, W_V)(X)


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
