"""Planted mistake in multi_head_attention: divides by the square root of X's width. Every other function is right."""
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
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    Q_h, K_h, V_h = split_heads(Q, n_heads), split_heads(K, n_heads), split_heads(V, n_heads)
    scores = Q_h @ K_h.transpose(0, 2, 1) / np.sqrt(X.shape[1])
    weights = masked_softmax(scores, causal_mask(X.shape[0]))
    return merge_heads(weights @ V_h) @ W_O, weights
