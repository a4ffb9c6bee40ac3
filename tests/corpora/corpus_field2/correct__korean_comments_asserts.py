"""Correct: long Korean comments, shape asserts in every function, and a prints block at the bottom under __main__."""
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    # X: (낱말 수, d_model), W: (d_model, d_k) → 결과는 (낱말 수, d_k)
    assert X.shape[1] == W_Q.shape[0], "X의 열 수와 W_Q의 행 수가 같아야 함"
    Q = X @ W_Q   # 질문(query)
    K = X @ W_K   # 색인(key)
    V = X @ W_V   # 넘겨줄 정보(value)
    return Q, K, V


def scores(Q, K):
    # (i, j) 칸 = i번째 낱말의 Q 행 · j번째 낱말의 K 행
    assert Q.shape[1] == K.shape[1]
    점수표 = Q @ K.T
    return 점수표


def softmax(x):
    # 행마다 최댓값을 빼고 exp → 행 합으로 나눔 (마지막 축 기준)
    최댓값 = np.max(x, axis=-1, keepdims=True)
    지수 = np.exp(x - 최댓값)
    합 = np.sum(지수, axis=-1, keepdims=True)
    return 지수 / 합


def mix(weights, V):
    # (n, n) @ (n, d_v) → (n, d_v)
    assert weights.shape[1] == V.shape[0]
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]                       # 4를 직접 쓰지 않는다!
    가중치 = softmax(scores(Q, K) / np.sqrt(d_k))
    결과 = mix(가중치, V)
    return 결과, 가중치


def most_attended(weights, words):
    표 = pd.DataFrame(weights, index=words, columns=words)
    return 표.idxmax(axis=1).to_dict()


if __name__ == "__main__":
    words = ["나는", "사과를", "먹었다"]
    X = np.array([[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, 2]], dtype=float)
    np.random.seed(0)
    W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
    W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
    W_V = np.round(np.random.randn(4, 4) * 0.5, 1)
    out, w = self_attention(X, W_Q, W_K, W_V)
    print(most_attended(w, words))
