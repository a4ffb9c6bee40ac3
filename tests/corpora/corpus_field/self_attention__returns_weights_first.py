"""Student returns (weights, output) instead of (output, weights)."""
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
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    output = mix(weights, V)
    return weights, output


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()
