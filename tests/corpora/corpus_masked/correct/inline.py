"""Right; multi_head_attention does everything itself, calling none of the other functions;
causal_mask returns 1.0/0.0 and masked_softmax compares the mask with 0."""
import numpy as np


def split_heads(M, n_heads):
    n, d = M.shape
    return np.swapaxes(M.reshape(n, n_heads, d // n_heads), 0, 1)


def causal_mask(n):
    return np.tril(np.ones((n, n)))


def masked_softmax(scores, mask):
    x = np.array(scores, dtype=float)
    x[..., np.asarray(mask) == 0] = -np.inf
    x = x - x.max(axis=-1, keepdims=True)
    return np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)


def merge_heads(H):
    return np.swapaxes(H, 0, 1).reshape(H.shape[1], -1)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):
    n, d_model = X.shape
    d_head = d_model // n_heads
    heads = lambda M: M.reshape(n, n_heads, d_head).transpose(1, 0, 2)
    Q, K, V = heads(X @ W_Q), heads(X @ W_K), heads(X @ W_V)
    scores = Q @ K.transpose(0, 2, 1) / d_head ** 0.5
    scores = np.where(np.tri(n, dtype=bool), scores, -np.inf)
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    out = (weights @ V).transpose(1, 0, 2).reshape(n, d_model)
    return out @ W_O, weights
