"""Student uses np.dot for 2-D and X.dot chains, computes d_k with np.shape and sqrt via ** 0.5; all right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q, K, V = (X.dot(W) for W in [W_Q, W_K, W_V])
    return Q, K, V


def scores(Q, K):
    return Q.dot(K.transpose())


def softmax(x):
    x = np.array(x, dtype=float)
    shifted = x - x.max(-1, keepdims=True)
    num = np.exp(shifted)
    den = num.sum(-1, keepdims=True)
    return num / den


def mix(weights, V):
    return np.asarray(weights).dot(V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = np.shape(K)[-1]
    weights = softmax(scores(Q, K) / d_k ** 0.5)
    output = mix(weights, V)
    return output, weights


def most_attended(weights, words):
    s = pd.DataFrame(weights, index=words, columns=words).idxmax(axis="columns")
    return {k: v for k, v in s.items()}
