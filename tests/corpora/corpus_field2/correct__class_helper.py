"""Correct: an OOP student wraps the math in a small Attention class and the six functions delegate to it."""
import numpy as np
import pandas as pd


class Attention:
    def __init__(self, W_Q, W_K, W_V):
        self.W_Q, self.W_K, self.W_V = W_Q, W_K, W_V

    def project(self, X):
        return X @ self.W_Q, X @ self.W_K, X @ self.W_V

    @staticmethod
    def softmax(x):
        shifted = x - np.max(x, axis=-1, keepdims=True)
        ex = np.exp(shifted)
        return ex / np.sum(ex, axis=-1, keepdims=True)

    def __call__(self, X):
        Q, K, V = self.project(X)
        w = self.softmax((Q @ K.T) / np.sqrt(K.shape[1]))
        return w @ V, w


def make_qkv(X, W_Q, W_K, W_V):
    return Attention(W_Q, W_K, W_V).project(X)


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    return Attention.softmax(x)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    return Attention(W_Q, W_K, W_V)(X)


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
