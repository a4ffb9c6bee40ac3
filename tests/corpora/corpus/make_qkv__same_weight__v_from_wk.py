"""Planted mistake in make_qkv: V is made with W_K (its shape is wrong where d_v differs from d_k).
Every other function is right."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q, K = [np.dot(X, W) for W in (W_Q, W_K)]
    V = np.dot(X, W_K)
    return Q, K, V


def scores(Q, K):
    return np.einsum("ik,jk->ij", Q, K)


def softmax(x):
    e = np.exp(x - np.amax(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return np.einsum("ij,jd->id", weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
