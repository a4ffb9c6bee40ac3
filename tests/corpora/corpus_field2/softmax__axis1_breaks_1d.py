"""Hard-codes axis=1 in softmax, which is right for the table but raises an AxisError on 1-D input."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = X.dot(W_Q)
    K = X.dot(W_K)
    V = X.dot(W_V)
    return Q, K, V


def scores(Q, K):
    return Q.dot(K.T)


def softmax(x):
    # 행별로 (axis=1)
    x = x - x.max(axis=1, keepdims=True)
    ex = np.exp(x)
    return ex / ex.sum(axis=1, keepdims=True)


def mix(weights, V):
    return weights.dot(V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
