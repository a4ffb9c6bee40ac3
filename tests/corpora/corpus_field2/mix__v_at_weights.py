"""Writes V.T @ weights.T ("V times the weights"), which is the transpose of weights @ V."""
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
    # V에 가중치를 곱한다
    return V.T @ weights.T


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return weights @ V, weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
