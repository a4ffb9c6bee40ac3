"""Student fills every table with explicit index loops on numpy arrays and uses math.sqrt; all right."""
import math
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    n, d_model = X.shape
    outs = []
    for W in (W_Q, W_K, W_V):
        out = np.zeros((n, W.shape[1]))
        for i in range(n):
            for j in range(W.shape[1]):
                for k in range(d_model):
                    out[i, j] += X[i, k] * W[k, j]
        outs.append(out)
    return outs[0], outs[1], outs[2]


def scores(Q, K):
    n = Q.shape[0]
    m = K.shape[0]
    S = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            S[i, j] = np.sum(Q[i] * K[j])
    return S


def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        e = np.exp(x - x.max())
        return e / e.sum()
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        e = np.exp(x[i] - x[i].max())
        out[i] = e / e.sum()
    return out


def mix(weights, V):
    n = weights.shape[0]
    out = np.zeros((n, V.shape[1]))
    for i in range(n):
        for j in range(weights.shape[1]):
            out[i] += weights[i, j] * V[j]
    return out


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    S = scores(Q, K)
    for i in range(S.shape[0]):
        for j in range(S.shape[1]):
            S[i, j] = S[i, j] / math.sqrt(d_k)
    weights = softmax(S)
    return mix(weights, V), weights


def most_attended(weights, words):
    answer = {}
    for i in range(len(words)):
        j = int(np.argmax(weights[i]))
        answer[words[i]] = words[j]
    return answer
