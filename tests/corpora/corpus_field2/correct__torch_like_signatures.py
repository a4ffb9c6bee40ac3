"""Correct: torch-style extra keyword arguments with defaults (dim=-1, mask=None, return_weights=True) and type hints."""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
import pandas as pd


def make_qkv(X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray, bias: bool = False):
    Q, K, V = (X @ W for W in (W_Q, W_K, W_V))
    return Q, K, V


def scores(Q: np.ndarray, K: np.ndarray, transpose_b: bool = True) -> np.ndarray:
    return Q @ (K.swapaxes(-1, -2) if transpose_b else K)


def softmax(x: np.ndarray, dim: int = -1) -> np.ndarray:
    x_max = np.amax(x, axis=dim, keepdims=True)
    e = np.exp(x - x_max)
    return e / np.sum(e, axis=dim, keepdims=True)


def mix(weights: np.ndarray, V: np.ndarray) -> np.ndarray:
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V, mask: Optional[np.ndarray] = None, return_weights: bool = True):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.size // K.shape[0]
    s = scores(Q, K) / math.sqrt(d_k)
    if mask is not None:
        s = np.where(mask, s, -1e9)
    attn = softmax(s, dim=-1)
    out = mix(attn, V)
    return (out, attn) if return_weights else out


def most_attended(weights, words: list[str]) -> dict[str, str]:
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis="columns").to_dict()
