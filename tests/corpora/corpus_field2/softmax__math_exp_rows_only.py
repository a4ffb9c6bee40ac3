"""Pure-Python softmax looping over rows with math.exp; it assumes 2-D input, so a 1-D vector crashes."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    return Q, K, V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    result = []
    for row in x:
        m = max(row)
        exps = [math.exp(v - m) for v in row]
        total = sum(exps)
        result.append([v / total for v in exps])
    return np.array(result)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / math.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
