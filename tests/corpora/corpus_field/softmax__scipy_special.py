"""Student uses scipy.special.softmax(x, axis=-1) instead of writing softmax (scipy is imported at the top)."""
import numpy as np
import pandas as pd
from scipy.special import softmax as sp_softmax


def make_qkv(X, W_Q, W_K, W_V):
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    return Q, K, V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    return sp_softmax(x, axis=-1)


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
