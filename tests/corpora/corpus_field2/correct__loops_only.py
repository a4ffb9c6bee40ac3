"""Correct: explicit triple loops for every product with numpy arrays as buffers, softmax with np.exp row by row."""
import numpy as np
import pandas as pd


def matmul(A, B):
    n, m = A.shape
    m2, p = B.shape
    C = np.zeros((n, p))
    for i in range(n):
        for j in range(p):
            total = 0.0
            for k in range(m):
                total += A[i, k] * B[k, j]
            C[i, j] = total
    return C


def make_qkv(X, W_Q, W_K, W_V):
    return matmul(X, W_Q), matmul(X, W_K), matmul(X, W_V)


def scores(Q, K):
    n = Q.shape[0]
    m = K.shape[0]
    S = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            S[i, j] = np.sum(Q[i] * K[j])
    return S


def softmax(x):
    x = np.array(x, dtype=float)
    if x.ndim == 1:
        e = np.exp(x - x.max())
        return e / e.sum()
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        e = np.exp(x[i] - x[i].max())
        out[i] = e / e.sum()
    return out


def mix(weights, V):
    return matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    w = softmax(scores(Q, K) / d_k ** 0.5)
    return mix(w, V), w


def most_attended(weights, words):
    df = pd.DataFrame(weights, index=words, columns=words)
    answer = {}
    for word in df.index:
        answer[word] = df.loc[word].idxmax()
    return answer
