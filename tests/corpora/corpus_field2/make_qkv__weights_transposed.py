"""Multiplies by the transposed weight matrices (X @ W.T), as in torch's nn.Linear."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    # nn.Linear 처럼 y = x W^T
    Q = X @ W_Q.T
    K = X @ W_K.T
    V = X @ W_V.T
    return Q, K, V


def scores(Q, K):
    return Q @ K.transpose()


def softmax(x):
    z = x - np.max(x, axis=-1, keepdims=True)
    num = np.exp(z)
    den = np.sum(num, axis=-1, keepdims=True)
    return num / den


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[-1]
    attn = softmax(scores(Q, K) / np.sqrt(d_k))
    out = mix(attn, V)
    return out, attn


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    best = table.idxmax(axis=1)
    return best.to_dict()
