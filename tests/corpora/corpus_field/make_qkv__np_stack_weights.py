"""Student stacks W_Q, W_K, W_V with np.stack and does one batched matmul, which only works when all three have the same shape."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    W = np.stack([W_Q, W_K, W_V])      # (3, d_model, d_k)
    QKV = X @ W                         # (3, n, d_k)
    return QKV[0], QKV[1], QKV[2]


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()
