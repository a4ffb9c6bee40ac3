"""Student returns the column number of each row's maximum ({word: index}) instead of the word."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return np.dot(X, W_Q), np.dot(X, W_K), np.dot(X, W_V)


def scores(Q, K):
    return np.dot(Q, K.T)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words)      # 열 이름을 안 붙임
    return df.idxmax(axis=1).to_dict()
