"""Student blanks the diagonal with -inf before idxmax (thinking self-attention to itself is noise), so a word is never its own answer."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return np.matmul(X, W_Q), np.matmul(X, W_K), np.matmul(X, W_V)


def scores(Q, K):
    return np.matmul(Q, K.T)


def softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    exps = np.exp(shifted)
    return exps / exps.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    scaled = scores(Q, K) / np.sqrt(K.shape[-1])
    weights = softmax(scaled)
    output = mix(weights, V)
    return output, weights


def most_attended(weights, words):
    w = np.array(weights, dtype=float).copy()
    np.fill_diagonal(w, -np.inf)   # exclude the word itself
    df = pd.DataFrame(w, index=words, columns=words)
    return df.idxmax(axis=1).to_dict()
