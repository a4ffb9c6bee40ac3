"""Student casts everything to float32 (habit from GPU code) and returns float32 arrays; the math is right."""
import numpy as np
import pandas as pd

DTYPE = np.float32


def make_qkv(X, W_Q, W_K, W_V):
    X = X.astype(DTYPE)
    return X @ W_Q.astype(DTYPE), X @ W_K.astype(DTYPE), X @ W_V.astype(DTYPE)


def scores(Q, K):
    Q = np.asarray(Q, dtype=DTYPE)
    K = np.asarray(K, dtype=DTYPE)
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=DTYPE)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(DTYPE)


def mix(weights, V):
    return np.asarray(weights, dtype=DTYPE) @ np.asarray(V, dtype=DTYPE)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.float32(np.sqrt(d_k)))
    return mix(weights, V), weights


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()
