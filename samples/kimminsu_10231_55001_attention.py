# 김민수 - 셀프 어텐션 실습
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    Q = np.dot(X, W_Q)
    K = np.dot(X, W_K)
    V = np.dot(X, W_V)
    return Q, K, V


def scores(Q, K):
    return np.dot(Q, K.T)


def softmax(x):
    x = np.array(x, dtype=float)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def mix(weights, V):
    return np.dot(weights, V)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[-1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    best = np.argmax(weights, axis=1)
    return {word: words[i] for word, i in zip(words, best)}


if __name__ == "__main__":
    print("done")
