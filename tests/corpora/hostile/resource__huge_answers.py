"""Answers scores with about 5 MB of random numbers per call and grows most_attended's word list by a
megabyte (10 000 long words) per call; a grader that kept such answers would grow with every student.
The other steps are correct."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return np.random.default_rng().random(650_000)


def softmax(x):
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(Q @ K.T / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    answer = pd.DataFrame(weights, index=list(words), columns=list(words)).idxmax(axis=1).to_dict()
    words.extend("w" * 100 for _ in range(9_999 - len(words)))
    return answer
