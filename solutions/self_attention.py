"""Reference solution: self-attention for "나는 사과를 먹었다", one function per step.

This module is the single source of expected values for every grader. It must stay
importable with numpy alone: the grader loads it without pandas, which only students' code needs.
"""
import numpy as np


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    """Raw score table (n, n): how strongly each query matches each key."""
    return Q @ K.T


def softmax(x):
    """Softmax over the last axis; the row maximum is subtracted so exp never overflows."""
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    """Blend the value vectors row by row with the attention weights."""
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    """softmax(Q Kᵀ / √d_k) V; returns (output, weights)."""
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    """Map each word to the word its row gives the largest weight (the first of a tie)."""
    best = np.asarray(weights).argmax(axis=1)
    return {word: words[int(column)] for word, column in zip(words, best)}


def most_attended__pandas(weights, words):
    """most_attended as the page writes it, `pd` being the notebook's `import pandas as pd`: the
    grader never runs it (it loads no pandas), it reads it, to repair a student's pandas as it
    repairs numpy and to know the page's own code when it compares students' code."""
    table = pd.DataFrame(weights, index=words, columns=words)  # noqa: F821 (the notebook's pd)
    return table.idxmax(axis=1).to_dict()
