"""Student names the last function most_attented (typo); every computation is right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return np.matmul(X, W_Q), np.matmul(X, W_K), np.matmul(X, W_V)


def scores(Q, K):
    return np.matmul(Q, K.T)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attented(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()
