"""Prints hundreds of megabytes and writes a file far beyond the size limit."""
import numpy as np
import pandas as pd

import sys

LINE = "x" * (1024 * 1024)
for _ in range(200):
    print(LINE)
with open("flood.bin", "wb") as handle:
    for _ in range(64):
        handle.write(b"\0" * (16 * 1024 * 1024))


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    raised = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return raised / np.sum(raised, axis=-1, keepdims=True)


def mix(weights, V):
    for _ in range(50):
        sys.stdout.write(LINE)
        sys.stderr.write(LINE)
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[-1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    rows = np.asarray(weights)
    return {word: words[int(np.argmax(row))] for word, row in zip(words, rows)}
