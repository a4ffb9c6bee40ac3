import math


def make_qkv(X, W_Q, W_K, W_V):
    def matmul(A, B):
        return [[sum(a * b for a, b in zip(row, col)) for col in zip(*B)] for row in A]
    X = [list(map(float, row)) for row in X]
    return tuple(matmul(X, [list(r) for r in W]) for W in (W_Q, W_K, W_V))


def scores(Q, K):
    return [[sum(q * k for q, k in zip(qr, kr)) for kr in K] for qr in Q]


def softmax(x):
    if len(x) and not hasattr(x[0], "__len__"):
        top = max(x)
        e = [math.exp(v - top) for v in x]
        return [v / sum(e) for v in e]
    return [softmax(list(row)) for row in x]


def mix(weights, V):
    return [[sum(w * v[j] for w, v in zip(row, V)) for j in range(len(V[0]))] for row in weights]


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = len(K[0])
    weights = softmax([[s / math.sqrt(d_k) for s in row] for row in scores(Q, K)])
    return mix(weights, V), weights


def most_attended(weights, words):
    return {word: words[max(range(len(row)), key=lambda j: row[j])] for word, row in zip(words, weights)}
