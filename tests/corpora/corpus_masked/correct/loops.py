"""Right, written with plain Python loops wherever a loop can stand."""
import math

import numpy as np


def split_heads(M, n_heads):
    n, d_model = M.shape
    d_head = d_model // n_heads
    heads = np.zeros((n_heads, n, d_head))
    for h in range(n_heads):
        for i in range(n):
            for k in range(d_head):
                heads[h, i, k] = M[i, h * d_head + k]
    return heads


def causal_mask(n):
    return np.array([[j <= i for j in range(n)] for i in range(n)])


def masked_softmax(scores, mask):
    scores = np.asarray(scores, dtype=float)
    flat = scores.reshape(-1, scores.shape[-1])
    n = mask.shape[0]
    out = np.zeros_like(flat)
    for r in range(flat.shape[0]):
        i = r % n
        visible = [j for j in range(flat.shape[1]) if mask[i][j]]
        top = max(flat[r, j] for j in visible)
        total = sum(math.exp(flat[r, j] - top) for j in visible)
        for j in visible:
            out[r, j] = math.exp(flat[r, j] - top) / total
    return out.reshape(scores.shape)


def merge_heads(H):
    n_heads, n, d_head = H.shape
    rows = []
    for i in range(n):
        row = []
        for h in range(n_heads):
            row.extend(H[h, i])
        rows.append(row)
    return np.array(rows)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    Q_h, K_h, V_h = split_heads(Q, n_heads), split_heads(K, n_heads), split_heads(V, n_heads)
    d_head = Q_h.shape[2]
    mask = causal_mask(len(X))
    all_weights, outs = [], []
    for h in range(n_heads):
        weights = masked_softmax(Q_h[h] @ K_h[h].T / math.sqrt(d_head), mask)
        all_weights.append(weights)
        outs.append(weights @ V_h[h])
    return merge_heads(np.array(outs)) @ W_O, np.array(all_weights)
