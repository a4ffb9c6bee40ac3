# 페이지처럼 소수 둘째 자리까지 반올림해서 돌려준 학생
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    # 낱말 벡터를 세 가지 역할로 바꾼다
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    # 모든 Query와 모든 Key의 내적
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    # 행마다 최댓값을 빼서 exp가 넘치지 않게
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    output = mix(weights, V)
    return np.round(output, 2), np.round(weights, 3)


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
