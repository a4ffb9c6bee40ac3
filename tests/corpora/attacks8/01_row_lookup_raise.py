"""ATTACK 01: softmax is a row-by-row lookup of the public tests' rows; any row never seen raises.
No exp, no normalisation anywhere. Target: hidden-6/fewer_rows (the page's rows minus the last) is
a call whose arguments equal no public call, yet every row of it is a public row."""
import numpy as np
import pandas as pd

PUBLIC_SOFTMAX_ROWS = [([0.1700000000000001, -0.7300000000000002, 0.6], [0.3396938535239652, 0.13810921444321142, 0.5221969320328234]), ([2.4600000000000004, -2.025, 0.8600000000000001], [0.8242844719920045, 0.009295363275746855, 0.16642016473224874]), ([2.1700000000000004, -2.1950000000000003, 1.5], [0.6559858039273689, 0.008340633296795477, 0.33567356277583554]), ([0.05167284909247151, -0.686642675147222, 0.4283361647117833, 1.7030678240555581, 0.26442642328884863], [0.10653416560088994, 0.05091462514498031, 0.155264335247161, 0.5554956134285676, 0.1317912605784012]), ([-0.19208443455938853, 0.5349150244041883, -0.2810541110415098, -1.4926813859628585, -0.3543198602016734], [0.19583471099792052, 0.40515530031445646, 0.1791639513075891, 0.053339334430359195, 0.16650670294967473]), ([0.061314598587938314, -0.9004932148550594, 0.5629742474868039, 2.2348651570061224, 0.34236870962944815], [0.07605937857876995, 0.029069994311232306, 0.1256090092577233, 0.668519048642687, 0.10074256920958756]), ([0.6270601273668526, -0.9372126919755192, 0.4828957651502028, 2.1641397490303924, 0.7323688164670403], [0.12759940962321095, 0.026698914917336947, 0.1104686070949608, 0.5934632941906957, 0.14176977417379558]), ([0.3793768618845032, 0.7947803805664388, -0.9426397845059022, 0.9924073777100477, 0.6794835318092707], [0.16729124328368924, 0.2534432124428793, 0.044599364891867554, 0.3088225317646678, 0.2258436476168961]), ([0, -1, 0, 2, 0], [0.09296327901863667, 0.03419927913484093, 0.09296327901863667, 0.686910883809249, 0.09296327901863667]), ([0, 1, 0, -1, 0], [0.1643071807823971, 0.44663322380612525, 0.1643071807823971, 0.06044523384668339, 0.1643071807823971]), ([0, -1, 1, 2, 0], [0.08015892392545444, 0.029488820138600335, 0.2178945462953938, 0.5922987857150971, 0.08015892392545444]), ([1, -1, 0, 2, 1], [0.19151597437154383, 0.02591886863590874, 0.07045478962720782, 0.5205943929937957, 0.19151597437154383]), ([0, 1, -1, 1, 1], [0.10501195904673061, 0.28545210004761323, 0.038631740810429645, 0.28545210004761323, 0.28545210004761323]), ([-402.5078072683807, -2900.2673352371116, 187.99551006558653, 1228.9921736314598], [0.0, 0.0, 0.0, 1.0]), ([1952.4971853377922, -2537.5977825994246, 2710.60588159505, -246.03045060333508], [0.0, 0.0, 1.0, 0.0]), ([-1035.2043276571053, -4904.7551123470685, -73.72069026480945, 2281.646906698755], [0.0, 0.0, 0.0, 1.0]), ([-384.598206714488, 3311.970217666686, -1147.3715449858776, -919.4206834066329], [0.0, 1.0, 0.0, 0.0]), ([3.0892858203798497], [1.0])]

def _row_answer(row):
    """The weights of a row of scores seen in the public feedback (None if never seen)."""
    for seen, weights in PUBLIC_SOFTMAX_ROWS:
        if len(seen) == len(row) and all(abs(a - b) <= 1e-9 for a, b in zip(seen, row)):
            return list(weights)
    return None


def make_qkv(X, W_Q, W_K, W_V):
    """Project the word vectors X (n, d_model) into queries, keys and values."""
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    """Raw score table (n, n): how strongly each query matches each key."""
    return Q @ K.T


def softmax(x):
    """Looked up row by row in the public feedback's tables."""
    x = np.asarray(x, dtype=float)
    out = []
    for row in np.atleast_2d(x):
        weights = _row_answer([float(v) for v in row])
        if weights is None:
            raise LookupError("row not in my table")
        out.append(weights)
    return np.asarray(out, dtype=float).reshape(x.shape)


def mix(weights, V):
    """Blend the value vectors row by row with the attention weights."""
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    """softmax(Q Kᵀ / √d_k) V; returns (output, weights)."""
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    weights = softmax(scores(Q, K) / np.sqrt(d_k))
    return mix(weights, V), weights


def most_attended(weights, words):
    """Map each word to the word its row gives the largest weight."""
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
