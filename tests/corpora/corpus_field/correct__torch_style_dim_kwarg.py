"""Student writes PyTorch-flavoured numpy: softmax(x, dim=-1), matmul/transpose helpers with dim arguments, all right."""
import numpy as np
import pandas as pd


def transpose(t, dim0=-2, dim1=-1):
    return np.swapaxes(t, dim0, dim1)


def matmul(a, b):
    return np.matmul(a, b)


def make_qkv(X, W_Q, W_K, W_V):
    return matmul(X, W_Q), matmul(X, W_K), matmul(X, W_V)


def scores(Q, K):
    return matmul(Q, transpose(K, -2, -1))


def softmax(x, dim=-1):
    x = np.asarray(x, dtype=np.float64)
    x_max = x.max(axis=dim, keepdims=True)
    e = np.exp(x - x_max)
    return e / e.sum(axis=dim, keepdims=True)


def mix(weights, V):
    return matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.size(-1) if callable(getattr(K, "size", None)) else K.shape[-1]
    attn = softmax(scores(Q, K) / np.sqrt(d_k), dim=-1)
    return mix(attn, V), attn


def most_attended(weights, words):
    idx = np.asarray(weights).argmax(axis=-1)
    return {w: words[int(i)] for w, i in zip(words, idx)}
