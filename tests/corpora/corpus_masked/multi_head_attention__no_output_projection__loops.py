"""Planted mistake in multi_head_attention: a loop over the heads, W_O forgotten. Every other function is right."""
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
    d_head = d_model // n_heads
    mask = causal_mask(n)
    outputs, all_weights = [], []
    for h in range(n_heads):
        columns = slice(h * d_head, (h + 1) * d_head)
        Q = X @ W_Q[:, columns]
        K = X @ W_K[:, columns]
        V = X @ W_V[:, columns]
        weights = masked_softmax(Q @ K.T / np.sqrt(d_head), mask)
        outputs.append(weights @ V)
        all_weights.append(weights)
    return np.concatenate(outputs, axis=1), np.array(all_weights)
