"""Student divides by math.sqrt(d_k) inside scores and self_attention divides again, so the student's own pipeline scales twice."""
import math
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return np.dot(X, W_Q), np.dot(X, W_K), np.dot(X, W_V)


def scores(Q, K):
    d_k = Q.shape[-1]
    return np.dot(Q, K.T) / math.sqrt(d_k)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / math.sqrt(d_k))
    output = mix(weights, V)
    return output, weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
