"""Student's self_attention mixes X instead of V (mix(weights, X)); on the page d_model = d_v so the shape looks right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return np.matmul(X, W_Q), np.matmul(X, W_K), np.matmul(X, W_V)


def scores(Q, K):
    return np.matmul(Q, K.T)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    output = mix(weights, X)
    return output, weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
