"""Student writes softmax with pandas as the page's note suggests (df.div(df.sum(axis=1), axis=0)) and returns numpy; all right."""
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
    arr = np.asarray(x, dtype=float)
    one_d = arr.ndim == 1
    df = pd.DataFrame(np.atleast_2d(arr))
    e = np.exp(df.sub(df.max(axis=1), axis=0))
    out = e.div(e.sum(axis=1), axis=0).to_numpy()
    return out[0] if one_d else out


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()
