"""Reference solution: masked multi-head self-attention for "나는 사과를 먹었다", one function per step.

The single source of expected values for the masked_attention lab. Plain numpy only.
"""
import numpy as np


def split_heads(M, n_heads):
    """(n, d) → (n_heads, n, d // n_heads): head h holds columns h*d_head:(h+1)*d_head."""
    M = np.asarray(M, dtype=float)
    n, d = M.shape
    d_head = d // n_heads
    return M.reshape(n, n_heads, d_head).transpose(1, 0, 2)


def causal_mask(n):
    """(n, n) booleans, True where word i may attend to word j: j ≤ i."""
    n = int(n)
    return np.arange(n)[None, :] <= np.arange(n)[:, None]


def masked_softmax(scores, mask):
    """Softmax over the last axis with the cells where `mask` is False left out (weight 0).

    `scores` is (n, n) or (heads, n, n); `mask` (n, n) broadcasts over the heads. The row
    maximum is taken over the allowed cells only, so exp never overflows.
    """
    scores = np.asarray(scores, dtype=float)
    allowed = np.asarray(mask).astype(bool)
    masked = np.where(allowed, scores, -np.inf)
    shifted = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def merge_heads(H):
    """(n_heads, n, d_head) → (n, n_heads * d_head): the inverse of split_heads."""
    H = np.asarray(H, dtype=float)
    n_heads, n, d_head = H.shape
    return H.transpose(1, 0, 2).reshape(n, n_heads * d_head)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):
    """Causal multi-head self-attention; returns (output (n, d_model), weights (n_heads, n, n))."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    Q_h, K_h, V_h = (split_heads(M, n_heads) for M in (Q, K, V))
    d_head = Q_h.shape[-1]
    scores = Q_h @ K_h.transpose(0, 2, 1) / np.sqrt(d_head)
    weights = masked_softmax(scores, causal_mask(X.shape[0]))
    return merge_heads(weights @ V_h) @ W_O, weights
