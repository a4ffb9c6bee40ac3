"""Notebook export with the page's globals and prints at top level (Korean comments), but every function uses only its own arguments; all right."""
# 3장 실습 1 - 제출용
import numpy as np
import pandas as pd

np.set_printoptions(precision=2, suppress=True)

# 1단계: 낱말 벡터
words = ["나는", "사과를", "먹었다"]
X = np.array([[1, 0, 1, 0],
              [0, 2, 0, 1],
              [1, 1, 0, 2]], dtype=float)
print(pd.DataFrame(X, index=words, columns=["f0", "f1", "f2", "f3"]))

# 2단계: 가중치
np.random.seed(0)
W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
W_V = np.round(np.random.randn(4, 4) * 0.5, 1)


def make_qkv(X, W_Q, W_K, W_V):
    # 같은 X 에 규칙표 세 장
    Q = np.dot(X, W_Q)
    K = np.dot(X, W_K)
    V = np.dot(X, W_V)
    return Q, K, V


Q, K, V = make_qkv(X, W_Q, W_K, W_V)
print("Q =\n", Q)


def scores(Q, K):
    # (n, d_k) @ (d_k, n) → (n, n)
    return np.dot(Q, K.T)


score_table = scores(Q, K)
print(pd.DataFrame(score_table.round(2), index=words, columns=words))


def softmax(x):
    # 행마다 최댓값 빼고 exp → 행마다 합으로 나누기
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


d_k = K.shape[1]
weights = softmax(score_table / np.sqrt(d_k))
print(pd.DataFrame(weights.round(3), index=words, columns=words))


def mix(weights, V):
    # 비율만큼 V 를 섞는다
    return np.dot(weights, V)


output = mix(weights, V)
print("output =\n", output)


def self_attention(X, W_Q, W_K, W_V):
    # 인자로 받은 것만 쓴다 (위의 전역 변수와 이름이 같지만 지역 변수)
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    attn = pd.DataFrame(weights, index=words, columns=words)
    return attn.idxmax(axis=1).to_dict()


print("가장 많이 참고한 낱말:", most_attended(weights, words))
