import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    q, k, v = (np.matmul(X, w) for w in (W_Q, W_K, W_V))
    return q, k, v


def scores(Q, K):
    return np.matmul(Q, K.swapaxes(-2, -1))


def softmax(x, dim=-1):
    x = np.asarray(x, dtype=np.float64)
    z = x - x.max(axis=dim, keepdims=True)
    return np.exp(z) / np.exp(z).sum(axis=dim, keepdims=True)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    q, k, v = make_qkv(X, W_Q, W_K, W_V)
    attn = softmax(scores(q, k) / math.sqrt(k.shape[-1]), dim=-1)
    return mix(attn, v), attn


def most_attended(weights, words):
    frame = pd.DataFrame(weights, index=words, columns=words)
    return {word: frame.loc[word].idxmax() for word in words}
