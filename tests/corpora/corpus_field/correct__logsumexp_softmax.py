"""Student writes softmax as exp(x - logsumexp(x)) with a hand-made log-sum-exp (no scipy); all right."""
import numpy as np
import pandas as pd


def logsumexp(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    return m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    return np.exp(x - logsumexp(x, axis=-1))


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()
