"""softmax never returns."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    while True:
        pass


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[-1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    rows = np.asarray(weights)
    return {word: words[int(np.argmax(row))] for word, row in zip(words, rows)}
