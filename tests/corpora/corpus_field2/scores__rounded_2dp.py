"""Rounds the score table to 2 decimals inside scores so it 'matches the page' when printed."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    return Q, K, V


def scores(Q, K):
    # 교재처럼 소수 둘째 자리까지
    return np.round(Q @ K.T, 2)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax((Q @ K.T) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
