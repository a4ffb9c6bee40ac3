"""Student returns plain Python lists (.tolist()) from every array step, thinking lists print more nicely; values are right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    X = np.array(X)
    return (X @ np.array(W_Q)).tolist(), (X @ np.array(W_K)).tolist(), (X @ np.array(W_V)).tolist()


def scores(Q, K):
    return (np.array(Q) @ np.array(K).T).tolist()


def softmax(x):
    x = np.array(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).tolist()


def mix(weights, V):
    return (np.array(weights) @ np.array(V)).tolist()


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = len(K[0])
    weights = softmax(np.array(scores(Q, K)) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
