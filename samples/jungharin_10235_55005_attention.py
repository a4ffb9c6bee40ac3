import numpy as np


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q * K


def softmax(x):
    raise NotImplementedError


def mix(weights, V):
    raise NotImplementedError
