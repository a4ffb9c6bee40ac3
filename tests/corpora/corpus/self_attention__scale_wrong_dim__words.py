"""Planted mistake in self_attention: divides by √n (the number of words). Every other function is right."""
import math

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.dot(X, W_Q)
    K = np.dot(X, W_K)
    V = np.dot(X, W_V)
    return Q, K, V


def scores(Q, K):
    return np.einsum("ik,jk->ij", Q, K)


def softmax(x):
    shifted = np.subtract(x, np.max(x, axis=-1, keepdims=True))
    e = np.exp(shifted)
    return np.divide(e, np.sum(e, axis=-1, keepdims=True))


def mix(weights, V):
    return np.matmul(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(np.einsum("ik,jk->ij", Q, K) / np.sqrt(len(K)))
    return np.einsum("ij,jd->id", weights, V), weights


def most_attended(weights, words):
    return {word: words[int(np.argmax(row))] for word, row in zip(words, weights)}
