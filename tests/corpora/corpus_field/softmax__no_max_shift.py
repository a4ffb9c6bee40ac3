"""Student writes the textbook softmax exp(x) / sum(exp(x)) per row without subtracting the maximum, so large values overflow."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    ex = np.exp(x)
    return ex / ex.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    w = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(w, V), w


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
