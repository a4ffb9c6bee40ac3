"""Correct formulas, but everything is cast to float32 'to save memory', as in PyTorch."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    X = X.astype(np.float32)
    Q = X @ W_Q.astype(np.float32)
    K = X @ W_K.astype(np.float32)
    V = X @ W_V.astype(np.float32)
    return Q, K, V


def scores(Q, K):
    return (Q @ K.T).astype(np.float32)


def softmax(x):
    x = np.asarray(x, dtype=np.float32)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.asarray(weights, dtype=np.float32) @ np.asarray(V, dtype=np.float32)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.float32(np.sqrt(d_k)))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
