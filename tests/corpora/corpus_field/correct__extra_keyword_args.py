"""Student adds optional keyword arguments of their own (axis, temperature, scale, mask, return_weights) whose defaults give the lab's answer."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V, *, bias=None):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    if bias is not None:
        Q, K, V = Q + bias[0], K + bias[1], V + bias[2]
    return Q, K, V


def scores(Q, K, scale=None):
    s = Q @ K.T
    if scale is not None:
        s = s * scale
    return s


def softmax(x, axis=-1, temperature=1.0):
    z = np.asarray(x, dtype=float) / temperature
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def mix(weights, V, mask=None):
    if mask is not None:
        weights = np.where(mask, weights, 0.0)
    return weights @ V


def self_attention(X, W_Q, W_K, W_V, mask=None, return_weights=True):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    s = scores(Q, K, scale=1.0 / np.sqrt(K.shape[-1]))
    if mask is not None:
        s = np.where(mask, s, -1e9)
    weights = softmax(s, axis=-1)
    output = mix(weights, V)
    return (output, weights) if return_weights else output


def most_attended(weights, words, axis=1):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=axis).to_dict()
