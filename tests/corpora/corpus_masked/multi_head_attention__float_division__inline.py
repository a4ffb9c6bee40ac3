"""Planted mistake in multi_head_attention: d_head = d_model / n_heads used as a size. Every other function is right."""
import numpy as np


def split_heads(M, n_heads):
    n, d_model = M.shape
    d_head = d_model // n_heads
    return M.reshape(n, n_heads, d_head).transpose(1, 0, 2)


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def masked_softmax(scores, mask):
    masked = np.where(mask, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def merge_heads(H):
    n_heads, n, d_head = H.shape
    return H.transpose(1, 0, 2).reshape(n, n_heads * d_head)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):
    n, d_model = X.shape
    d_head = d_model / n_heads
    Q = (X @ W_Q).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    K = (X @ W_K).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    V = (X @ W_V).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    weights = masked_softmax(Q @ K.transpose(0, 2, 1) / np.sqrt(d_head), causal_mask(n))
    return merge_heads(weights @ V) @ W_O, weights
