"""Verification script for the blind11 test set.

Run:  /work/main/.venv/bin/python /tmp/blind11/check_set.py

1. The two reference solutions (_correct_lab1.py, _correct_lab2.py) are checked against
   every number printed on the lab pages and against independent loop implementations
   written below, on many inputs (other sizes, d_k != d_model, d_v != d_k, 1-D/2-D/3-D,
   int inputs, ties, n = 1, ...).
2. Every file in correct/ must agree with the reference on every input for every function.
3. Every file in lab1/ and lab2/ must differ from the reference file in exactly one
   function (AST comparison), that function must be the <step> in the file name, and it
   must give a different result (or raise, or mutate its input) on at least one input
   the docstring allows.  The script reports whether the difference already shows on the
   lab page's example inputs or only on other inputs.
4. MANIFEST.csv is checked (header, UTF-8, LF, one row per file, line numbers point at a
   changed line inside the step's function, kinds unique and not in the avoid list).
"""
import ast
import copy
import csv
import importlib.util
import io
import itertools
import os
import sys
import tokenize
import warnings
from collections import Counter, defaultdict

import numpy as np

sys.dont_write_bytecode = True

ROOT = os.path.dirname(os.path.abspath(__file__))
LAB_FUNCS = {
    "self_attention": ["make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended"],
    "masked_attention": ["split_heads", "causal_mask", "masked_softmax", "merge_heads", "multi_head_attention"],
}
LAB_OF_PREFIX = {"lab1": "self_attention", "lab2": "masked_attention"}
REF_FILE = {"self_attention": "_correct_lab1.py", "masked_attention": "_correct_lab2.py"}
AVOID = "/tmp/blind11_avoid.txt"

warnings.simplefilter("ignore")
np.seterr(all="ignore")
_counter = itertools.count()


def load(path):
    name = f"blind11_mod_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------ independent references
def naive_make_qkv(X, W_Q, W_K, W_V):
    def proj(W):
        n, d = X.shape[0], W.shape[1]
        out = np.zeros((n, d))
        for i in range(n):
            for k in range(d):
                out[i, k] = sum(float(X[i, j]) * float(W[j, k]) for j in range(X.shape[1]))
        return out
    return proj(W_Q), proj(W_K), proj(W_V)


def naive_scores(Q, K):
    n, m = Q.shape[0], K.shape[0]
    return np.array([[sum(float(a) * float(b) for a, b in zip(Q[i], K[j])) for j in range(m)]
                     for i in range(n)]).reshape(n, m)


def naive_softmax(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        m = max(x)
        e = [np.exp(v - m) for v in x]
        s = sum(e)
        return np.array([v / s for v in e])
    return np.array([naive_softmax(r) for r in x]).reshape(x.shape)


def naive_mix(weights, V):
    n, d = weights.shape[0], V.shape[1]
    out = np.zeros((n, d))
    for i in range(n):
        for j in range(V.shape[0]):
            out[i] += float(weights[i, j]) * V[j].astype(float)
    return out


def naive_self_attention(X, W_Q, W_K, W_V):
    Q, K, V = naive_make_qkv(X, W_Q, W_K, W_V)
    w = naive_softmax(naive_scores(Q, K) / np.sqrt(K.shape[1]))
    return naive_mix(w, V), w


def naive_most_attended(weights, words):
    out = {}
    for i, w in enumerate(words):
        best = 0
        for j in range(len(words)):
            if weights[i][j] > weights[i][best]:
                best = j
        out[w] = words[best]
    return out


def naive_split_heads(M, n_heads):
    n, d = M.shape
    dh = d // n_heads
    out = np.zeros((n_heads, n, dh))
    for h in range(n_heads):
        for i in range(n):
            for k in range(dh):
                out[h, i, k] = M[i, h * dh + k]
    return out


def naive_causal_mask(n):
    out = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(n):
            out[i, j] = j <= i
    return out


def naive_masked_softmax(scores, mask):
    scores = np.asarray(scores, dtype=float)
    mask = np.asarray(mask)
    if scores.ndim == 3:
        return np.array([naive_masked_softmax(s, mask) for s in scores])
    out = np.zeros(scores.shape)
    for i in range(scores.shape[0]):
        vis = [j for j in range(scores.shape[1]) if mask[i, j]]
        m = max(scores[i, j] for j in vis)
        e = {j: np.exp(scores[i, j] - m) for j in vis}
        s = sum(e.values())
        for j in vis:
            out[i, j] = e[j] / s
    return out


def naive_merge_heads(H):
    h, n, d = H.shape
    out = np.zeros((n, h * d))
    for i in range(n):
        for hh in range(h):
            for k in range(d):
                out[i, hh * d + k] = H[hh, i, k]
    return out


def naive_mha(X, W_Q, W_K, W_V, W_O, n_heads):
    Q, K, V = naive_make_qkv(X, W_Q, W_K, W_V)
    Qh, Kh, Vh = naive_split_heads(Q, n_heads), naive_split_heads(K, n_heads), naive_split_heads(V, n_heads)
    dh = Qh.shape[-1]
    mask = naive_causal_mask(X.shape[0])
    weights = np.array([naive_masked_softmax(naive_scores(Qh[h], Kh[h]) / np.sqrt(dh), mask)
                        for h in range(n_heads)])
    heads = np.array([naive_mix(weights[h], Vh[h]) for h in range(n_heads)])
    return naive_mix(naive_merge_heads(heads), W_O), weights


NAIVE = {
    "make_qkv": naive_make_qkv, "scores": naive_scores, "softmax": naive_softmax, "mix": naive_mix,
    "self_attention": naive_self_attention, "most_attended": naive_most_attended,
    "split_heads": naive_split_heads, "causal_mask": naive_causal_mask,
    "masked_softmax": naive_masked_softmax, "merge_heads": naive_merge_heads,
    "multi_head_attention": naive_mha,
}


# ------------------------------------------------------------------ inputs
def page_lab1():
    X = np.array([[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, 2]], dtype=float)
    np.random.seed(0)
    W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
    W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
    W_V = np.round(np.random.randn(4, 4) * 0.5, 1)
    W_O = np.round(np.random.randn(4, 4) * 0.5, 1)
    return X, W_Q, W_K, W_V, W_O


WORDS = ["나는", "사과를", "먹었다"]


def build_inputs():
    """Returns {func: [(label, is_page, args), ...]}"""
    rng = np.random.default_rng(11)
    X, W_Q, W_K, W_V, W_O = page_lab1()
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    S = Q @ K.T
    weights = naive_softmax(S / 2.0)
    inp = defaultdict(list)

    def add(f, label, page, *args):
        inp[f].append((label, page, args))

    # make_qkv
    add("make_qkv", "page", True, X, W_Q, W_K, W_V)
    for (n, dm, dk, dv) in [(5, 3, 2, 6), (1, 4, 1, 3), (4, 6, 6, 6), (6, 4, 4, 2), (2, 5, 3, 3), (3, 1, 2, 2), (7, 4, 4, 4)]:
        add("make_qkv", f"rand n={n} dm={dm} dk={dk} dv={dv}", False,
            rng.normal(size=(n, dm)), rng.normal(size=(dm, dk)), rng.normal(size=(dm, dk)), rng.normal(size=(dm, dv)))
    add("make_qkv", "int X and int W", False, rng.integers(-3, 4, (4, 3)), rng.integers(-2, 3, (3, 2)),
        rng.integers(-2, 3, (3, 2)), rng.integers(-2, 3, (3, 5)))
    add("make_qkv", "int X float W", False, X.astype(int), W_Q, W_K, W_V)

    # scores
    add("scores", "page", True, Q, K)
    for (n, dk) in [(5, 3), (1, 2), (2, 7), (4, 4), (6, 1), (3, 3)]:
        add("scores", f"rand n={n} dk={dk}", False, rng.normal(size=(n, dk)), rng.normal(size=(n, dk)))
    add("scores", "int Q K", False, rng.integers(-3, 4, (4, 2)), rng.integers(-3, 4, (4, 2)))

    # softmax
    add("softmax", "page [1,2,3]", True, np.array([1.0, 2.0, 3.0]))
    add("softmax", "page [1000,1000]", True, np.array([1000.0, 1000.0]))
    add("softmax", "page scaled score table", True, S / 2.0)
    add("softmax", "1-D random", False, rng.normal(size=6) * 3)
    add("softmax", "1-D single", False, np.array([5.0]))
    add("softmax", "1-D negative big", False, np.array([-1000.0, -1001.0, -999.0]))
    add("softmax", "2-D 4x6", False, rng.normal(size=(4, 6)) * 4)
    add("softmax", "2-D 1x5", False, rng.normal(size=(1, 5)))
    add("softmax", "2-D 5x1", False, rng.normal(size=(5, 1)))
    add("softmax", "2-D big", False, np.array([[1000.0, 999.0, 0.0], [5.0, 5.0, 5.0]]))
    add("softmax", "int 1-D", False, np.array([1, 2, 3]))
    add("softmax", "int 2-D", False, np.array([[1, 0, 3], [2, 2, -1]]))
    add("softmax", "int 2-D large", False, np.array([[1000, 1000], [0, 2000]]))

    # mix
    add("mix", "page", True, weights, V)
    for (n, dv) in [(5, 2), (2, 7), (1, 3), (4, 4), (3, 1)]:
        add("mix", f"rand n={n} dv={dv}", False, naive_softmax(rng.normal(size=(n, n)) * 2), rng.normal(size=(n, dv)))
    add("mix", "one-hot weights int V", False, np.eye(3)[[2, 0, 1]], rng.integers(-5, 6, (3, 4)))
    add("mix", "float weights int V", False, naive_softmax(rng.normal(size=(4, 4))), rng.integers(-5, 6, (4, 2)))

    # self_attention
    add("self_attention", "page", True, X, W_Q, W_K, W_V)
    for (n, dm, dk, dv) in [(5, 3, 2, 6), (1, 4, 1, 3), (4, 6, 6, 6), (6, 4, 4, 2), (2, 5, 3, 3), (4, 4, 9, 4)]:
        add("self_attention", f"rand n={n} dm={dm} dk={dk} dv={dv}", False,
            rng.normal(size=(n, dm)), rng.normal(size=(dm, dk)), rng.normal(size=(dm, dk)), rng.normal(size=(dm, dv)))
    add("self_attention", "int X and int W", False, rng.integers(-2, 3, (4, 3)), rng.integers(-2, 3, (3, 2)),
        rng.integers(-2, 3, (3, 2)), rng.integers(-2, 3, (3, 5)))

    # most_attended
    add("most_attended", "page", True, weights, list(WORDS))
    w5 = ["오늘", "나는", "학교에", "일찍", "갔다"]
    add("most_attended", "rand n=5", False, naive_softmax(rng.normal(size=(5, 5)) * 2), list(w5))
    add("most_attended", "ties", False, np.array([[0.5, 0.5, 0.0], [0.2, 0.4, 0.4], [1 / 3, 1 / 3, 1 / 3]]), list(WORDS))
    add("most_attended", "n=1", False, np.array([[1.0]]), ["하나"])
    add("most_attended", "last column max", False, np.array([[0.1, 0.2, 0.7], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]]), ["a", "b", "c"])
    add("most_attended", "diagonal", False, np.array([[0.6, 0.4], [0.3, 0.7]]), ["x", "y"])
    add("most_attended", "rand n=4", False, naive_softmax(rng.normal(size=(4, 4)) * 3), ["w", "x", "y", "z"])

    # lab 2 -------------------------------------------------------------
    def heads(M, h):
        return naive_split_heads(M, h)

    for name, M_ in (("Q", Q), ("K", K), ("V", V)):
        add("split_heads", f"page {name}", True, M_, 2)
    for (n, d, h) in [(5, 6, 3), (2, 8, 4), (3, 4, 1), (1, 4, 2), (4, 6, 2), (3, 6, 6), (6, 9, 3), (2, 12, 3)]:
        add("split_heads", f"rand n={n} d={d} h={h}", False, rng.normal(size=(n, d)), h)
    add("split_heads", "int M", False, rng.integers(-5, 6, (3, 6)), 3)

    add("causal_mask", "page n=3", True, 3)
    for n in (1, 2, 4, 5, 8):
        add("causal_mask", f"n={n}", False, n)

    Qh, Kh, Vh = heads(Q, 2), heads(K, 2), heads(V, 2)
    scaled = np.array([naive_scores(Qh[h], Kh[h]) for h in range(2)]) / np.sqrt(2)
    cm3 = naive_causal_mask(3)
    add("masked_softmax", "page small", True, np.array([[1.0, 2.0, 3.0]]), np.array([[True, True, False]]))
    add("masked_softmax", "page big", True, np.array([[1000.0, 1000.0]]), np.array([[True, True]]))
    add("masked_softmax", "page 3-D heads", True, scaled, cm3)
    add("masked_softmax", "2-D causal", False, rng.normal(size=(4, 4)) * 3, naive_causal_mask(4))
    rm = rng.random((5, 5)) < 0.5
    rm[np.arange(5), np.arange(5)] = True
    add("masked_softmax", "2-D random mask", False, rng.normal(size=(5, 5)), rm)
    add("masked_softmax", "3-D h=3 random mask", False, rng.normal(size=(3, 5, 5)) * 2, rm)
    add("masked_softmax", "3-D h=4 causal int mask", False, rng.normal(size=(4, 3, 3)), naive_causal_mask(3).astype(int))
    add("masked_softmax", "2-D int mask", False, rng.normal(size=(3, 3)), np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]]))
    add("masked_softmax", "masked huge score", False, np.array([[0.0, 1000.0], [3.0, 1.0]]), np.array([[True, False], [True, True]]))
    add("masked_softmax", "3-D h=1", False, rng.normal(size=(1, 4, 4)), naive_causal_mask(4))
    add("masked_softmax", "2-D 1x1", False, np.array([[2.5]]), np.array([[True]]))

    add("merge_heads", "page Q_heads", True, Qh)
    w_heads = np.array([naive_masked_softmax(s, cm3) for s in scaled])
    add("merge_heads", "page weights @ V_heads", True, np.array([naive_mix(w_heads[h], Vh[h]) for h in range(2)]))
    for shape in [(3, 4, 2), (1, 5, 3), (4, 2, 1), (2, 2, 2), (3, 3, 3), (2, 1, 4), (5, 2, 3)]:
        add("merge_heads", f"rand {shape}", False, rng.normal(size=shape))
    add("merge_heads", "int H", False, rng.integers(-4, 5, (3, 2, 2)))

    add("multi_head_attention", "page", True, X, W_Q, W_K, W_V, W_O, 2)
    for (n, d, h) in [(5, 6, 3), (4, 6, 2), (3, 4, 1), (1, 4, 2), (6, 8, 4), (2, 6, 6), (3, 6, 3), (4, 4, 4), (2, 4, 2)]:
        add("multi_head_attention", f"rand n={n} d={d} h={h}", False,
            rng.normal(size=(n, d)), *(rng.normal(size=(d, d)) * 0.7 for _ in range(4)), h)
    return inp


# ------------------------------------------------------------------ comparison
class Raised:
    def __init__(self, exc):
        self.exc = exc

    def __repr__(self):
        return f"raised {type(self.exc).__name__}: {str(self.exc)[:80]}"


def call(fn, args):
    args_copy = copy.deepcopy(args)
    try:
        out = fn(*args_copy)
    except Exception as exc:  # noqa: BLE001
        return Raised(exc), False
    mutated = False
    for a, b in zip(args, args_copy):
        if isinstance(a, np.ndarray):
            if a.shape != np.shape(b) or not np.array_equal(a, b, equal_nan=True):
                mutated = True
        elif a != b:
            mutated = True
    return out, mutated


# ------------------------------------------------------------------ checks
problems = []


def fail(msg):
    problems.append(msg)
    print("PROBLEM:", msg)


def close_to_page(values, expected, decimals):
    values = np.asarray(values, dtype=float)
    expected = np.asarray(expected, dtype=float)
    return values.shape == expected.shape and np.all(np.abs(values - expected) <= 0.5 * 10 ** -decimals + 1e-9)


def check_page_numbers(m1, m2):
    X, W_Q, W_K, W_V, W_O = page_lab1()
    Q, K, V = m1.make_qkv(X, W_Q, W_K, W_V)
    ok = [
        close_to_page(Q[0], [0.8, 0.4, 0.6, 1.8], 1),
        close_to_page(K[0], [1.8, -0.8, 0.2, -0.5], 1),
        Q.shape == K.shape == V.shape == (3, 4),
    ]
    S = m1.scores(Q, K)
    ok += [close_to_page(S[0, 0], 0.34, 2), close_to_page(S[0], [0.34, -1.46, 1.20], 2),
           close_to_page(S[1], [4.92, -4.05, 1.72], 2), close_to_page(S[2], [4.34, -4.39, 3.00], 2)]
    ok += [close_to_page(m1.softmax(np.array([1.0, 2.0, 3.0])), [0.09, 0.24, 0.67], 2),
           close_to_page(m1.softmax(np.array([1000.0, 1000.0])), [0.5, 0.5], 2)]
    w = m1.softmax(S / np.sqrt(K.shape[1]))
    ok += [close_to_page(w, [[0.340, 0.138, 0.522], [0.824, 0.009, 0.166], [0.656, 0.008, 0.336]], 3),
           close_to_page(w.sum(axis=-1), [1, 1, 1], 3)]
    out = m1.mix(w, V)
    ok += [close_to_page(out, [[-0.39, -0.86, -1.35, 0.74], [-0.8, -1.53, -1.18, 1.02], [-0.72, -1.38, -1.27, 0.96]], 2),
           out.shape == (3, 4)]
    att, aw = m1.self_attention(X, W_Q, W_K, W_V)
    ok += [np.allclose(att, out), np.allclose(aw, w)]
    ok += [m1.most_attended(aw, WORDS) == {"나는": "먹었다", "사과를": "나는", "먹었다": "나는"}]
    # lab 2
    ok += [close_to_page(m2.W_O[0], [-0.8, -0.1, -0.4, 0.2], 1)]
    Qh, Kh, Vh = (m2.split_heads(M_, 2) for M_ in (Q, K, V))
    ok += [Qh.shape == (2, 3, 2), close_to_page(Qh[0], [[0.8, 0.4], [2.2, -0.9], [2.6, -0.1]], 1),
           close_to_page(Qh[1], [[0.6, 1.8], [1.2, 0.0], [1.4, 1.4]], 1)]
    mask = m2.causal_mask(3)
    ok += [mask.dtype == bool, np.array_equal(mask, [[1, 0, 0], [1, 1, 0], [1, 1, 1]])]
    ok += [close_to_page(m2.masked_softmax(np.array([[1.0, 2.0, 3.0]]), np.array([[True, True, False]])), [[0.27, 0.73, 0.0]], 2),
           close_to_page(m2.masked_softmax(np.array([[1000.0, 1000.0]]), np.array([[True, True]])), [[0.5, 0.5]], 2)]
    sc = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(Qh.shape[-1])
    wts = m2.masked_softmax(sc, mask)
    ok += [close_to_page(sc[0], [[0.79, -0.65, 1.02], [3.31, -3.63, 0.54], [3.37, -3.40, 1.73]], 2),
           close_to_page(wts[0], [[1, 0, 0], [0.999, 0.001, 0], [0.837, 0.001, 0.162]], 3),
           close_to_page(sc[1], [[-0.55, -0.38, -0.17], [0.17, 0.76, 0.68], [-0.30, 0.30, 0.40]], 2),
           close_to_page(wts[1], [[1, 0, 0], [0.356, 0.644, 0], [0.208, 0.376, 0.416]], 3),
           close_to_page(wts.sum(axis=-1), np.ones((2, 3)), 3)]
    merged = m2.merge_heads(wts @ Vh)
    ok += [np.allclose(m2.merge_heads(Qh), Q),
           close_to_page(merged, [[-0.9, -1.7, -1.1, 1.1], [-0.9, -1.7, -1.04, 0.39], [-0.82, -1.55, -1.27, 0.52]], 2),
           merged.shape == (3, 4)]
    o, aw2 = m2.multi_head_attention(X, W_Q, W_K, W_V, W_O, 2)
    ok += [np.allclose(o, merged @ W_O), np.allclose(aw2, wts),
           close_to_page(o, [[0.9, 0.67, 0.25, -1.29], [1.11, 0.82, 0.51, -0.66], [0.96, 0.65, 0.5, -0.69]], 2)]
    if not all(ok):
        fail(f"reference files do not reproduce the page numbers: {[i for i, v in enumerate(ok) if not v]}")
    else:
        print(f"page numbers: all {len(ok)} checks reproduced by the reference files")


def behaviour(mod, func, inputs):
    """list of (label, is_page, out, mutated)"""
    res = []
    for label, page, args in inputs[func]:
        out, mutated = call(getattr(mod, func), args)
        res.append((label, page, out, mutated))
    return res


def check_reference(refs, inputs):
    for lab, funcs in LAB_FUNCS.items():
        mod = refs[lab]
        for f in funcs:
            for label, page, out, mutated in behaviour(mod, f, inputs):
                args = [a for (l, p, a) in inputs[f] if l == label][0]
                exp = NAIVE[f](*copy.deepcopy(args))
                if isinstance(out, Raised) or mutated or not equal_loose(out, exp):
                    fail(f"reference {lab}.{f} disagrees with the naive version on '{label}': {out!r}")
        # extra: merge(split(M)) round trip and the docstring promise on the masked rows
    m2 = refs["masked_attention"]
    rng = np.random.default_rng(3)
    for (n, d, h) in [(3, 4, 2), (5, 6, 3), (2, 8, 8)]:
        M_ = rng.normal(size=(n, d))
        if not np.allclose(m2.merge_heads(m2.split_heads(M_, h)), M_):
            fail("merge_heads(split_heads(M)) != M")
    print("reference files: agree with the naive loop versions on every input")


def equal_loose(out, exp):
    if isinstance(exp, tuple):
        return isinstance(out, (tuple, list)) and len(out) == len(exp) and all(equal_loose(o, e) for o, e in zip(out, exp))
    if isinstance(exp, dict):
        return out == exp
    if isinstance(exp, np.ndarray):
        if not isinstance(out, np.ndarray) or out.shape != exp.shape:
            return False
        if exp.dtype == bool:
            return out.dtype == bool and np.array_equal(out, exp)
        return np.allclose(out.astype(float), exp.astype(float), rtol=1e-7, atol=1e-10, equal_nan=True)
    return out == exp


def is_changed_line(ref_func_lines, mut_func_lines, idx):
    """True if line idx of the mutant function is new/changed (difflib), or is a line that
    also exists in the reference but was moved before a line it used to follow."""
    import difflib
    if not mut_func_lines[idx].strip():
        return False
    sm = difflib.SequenceMatcher(a=ref_func_lines, b=mut_func_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal" and j1 <= idx < j2:
            return True
    text = mut_func_lines[idx]
    if text in ref_func_lines:
        r = ref_func_lines.index(text)
        for later in mut_func_lines[idx + 1:]:
            if later.strip() and later in ref_func_lines and ref_func_lines.index(later) < r:
                return True
    return False


def func_nodes(path):
    tree = ast.parse(open(path, encoding="utf-8").read())
    funcs = {}
    others = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            funcs[node.name] = node
        else:
            others.append(ast.dump(node))
    return funcs, others


def comment_lines(path, start, end):
    lines = []
    with open(path, encoding="utf-8") as fh:
        for tok in tokenize.generate_tokens(fh.readline):
            if tok.type == tokenize.COMMENT and start <= tok.start[0] <= end:
                lines.append(tok.start[0])
    return lines


def check_files(refs, inputs, manifest):
    ref_nodes = {lab: func_nodes(os.path.join(ROOT, REF_FILE[lab])) for lab in LAB_FUNCS}
    ref_lines = {lab: open(os.path.join(ROOT, REF_FILE[lab]), encoding="utf-8").read().split("\n") for lab in LAB_FUNCS}
    ref_out = {}
    for lab, funcs in LAB_FUNCS.items():
        for f in funcs:
            ref_out[f] = behaviour(refs[lab], f, inputs)
    summary = []
    # correct-but-unusual
    for fn in sorted(os.listdir(os.path.join(ROOT, "correct"))):
        path = os.path.join(ROOT, "correct", fn)
        lab = LAB_OF_PREFIX[fn.split("__")[0]]
        mod = load(path)
        bad = []
        for f in LAB_FUNCS[lab]:
            for (label, page, out, mut), (_, _, rout, _) in zip(behaviour(mod, f, inputs), ref_out[f]):
                if mut or not equal_loose(out, rout):
                    bad.append(f"{f} on '{label}': {out!r}"[:160])
        funcs, _ = func_nodes(path)
        changed = [f for f in LAB_FUNCS[lab] if ast.dump(funcs[f]) != ast.dump(ref_nodes[lab][0][f])]
        if bad:
            fail(f"correct/{fn} is not correct: {bad[:3]}")
        else:
            print(f"OK correct/{fn}: all functions match on every input; rewritten: {', '.join(changed)}")
        if manifest.get(f"correct/{fn}") is None:
            fail(f"correct/{fn} missing from MANIFEST")
    # mutants
    for sub in ("lab1", "lab2"):
        for fn in sorted(os.listdir(os.path.join(ROOT, sub))):
            rel = f"{sub}/{fn}"
            path = os.path.join(ROOT, rel)
            lab = LAB_OF_PREFIX[sub]
            _, step, kind = fn[:-3].split("__")
            funcs, others = func_nodes(path)
            rfuncs, rothers = ref_nodes[lab]
            changed = [f for f in rfuncs if ast.dump(funcs.get(f, ast.Pass())) != ast.dump(rfuncs[f])]
            if others != rothers or set(funcs) != set(rfuncs):
                fail(f"{rel}: module-level code differs from the reference")
            if changed != [step]:
                fail(f"{rel}: changed functions {changed}, expected [{step}]")
            node = funcs[step]
            body_start = node.body[1].lineno if len(node.body) > 1 else node.body[0].lineno
            cl = comment_lines(path, body_start, node.end_lineno)
            if cl:
                fail(f"{rel}: comments inside the mistaken function at lines {cl}")
            mod = load(path)
            res = behaviour(mod, step, inputs)
            diffs = []
            for (label, page, out, mut), (_, _, rout, _) in zip(res, ref_out[step]):
                if mut or not equal_loose(out, rout):
                    why = "mutates its input" if mut else (repr(out)[:70] if isinstance(out, Raised) else "wrong value/shape/type")
                    diffs.append((label, page, why))
            if not diffs:
                fail(f"{rel}: no input shows the mistake")
            row = manifest.get(rel)
            if row is None:
                fail(f"{rel}: missing from MANIFEST")
            else:
                if row["step"] != step or row["kind"] != kind or row["lab"] != lab:
                    fail(f"{rel}: MANIFEST step/kind/lab mismatch")
                ln = int(row["line"])
                lines = open(path, encoding="utf-8").read().split("\n")
                if not (body_start <= ln <= node.end_lineno):
                    fail(f"{rel}: MANIFEST line {ln} is outside {step} ({body_start}-{node.end_lineno})")
                rnode = rfuncs[step]
                if not is_changed_line(ref_lines[lab][rnode.lineno - 1:rnode.end_lineno],
                                       lines[node.lineno - 1:node.end_lineno], ln - node.lineno):
                    fail(f"{rel}: MANIFEST line {ln} is not a changed line: {lines[ln - 1]!r}")
            page_hit = [d for d in diffs if d[1]]
            summary.append((rel, step, kind, bool(page_hit), diffs))
    return summary


def read_manifest():
    path = os.path.join(ROOT, "MANIFEST.csv")
    raw = open(path, "rb").read()
    raw.decode("utf-8")
    if b"\r" in raw:
        fail("MANIFEST.csv has CR characters")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8"))))
    if list(rows[0].keys()) != ["file", "lab", "step", "cause", "kind", "line"]:
        fail("MANIFEST header wrong")
    by_file = {}
    for r in rows:
        if r["file"] in by_file:
            fail(f"duplicate MANIFEST row {r['file']}")
        by_file[r["file"]] = r
        if not os.path.exists(os.path.join(ROOT, r["file"])):
            fail(f"MANIFEST names a missing file {r['file']}")
        if r["step"]:
            c = r["cause"]
            if not c.endswith("니다.") or not any("\uac00" <= ch <= "\ud7a3" for ch in c):
                fail(f"{r['file']}: cause is not a Korean 합니다체 sentence")
        else:
            if r["line"] or r["cause"]:
                fail(f"{r['file']}: correct file must have empty cause/line")
    return by_file


def check_avoid(manifest):
    if not os.path.exists(AVOID):
        return
    avoid = [l.strip() for l in open(AVOID, encoding="utf-8") if l.strip()]
    avoid_kinds = {a.split("__")[-1] for a in avoid}
    kinds = Counter(r["kind"] for r in manifest.values())
    for r in manifest.values():
        if r["kind"] in avoid_kinds:
            fail(f"{r['file']}: kind {r['kind']} is in the avoid list")
    dup = [k for k, c in kinds.items() if c > 1]
    if dup:
        fail(f"kinds used twice: {dup}")
    print(f"kinds: {len(kinds)} distinct, none in the avoid list" if not dup else "")


def main():
    refs = {lab: load(os.path.join(ROOT, REF_FILE[lab])) for lab in LAB_FUNCS}
    inputs = build_inputs()
    check_page_numbers(refs["self_attention"], refs["masked_attention"])
    check_reference(refs, inputs)
    manifest = read_manifest()
    summary = check_files(refs, inputs, manifest)
    check_avoid(manifest)
    counts = Counter((s[0].split("/")[0], s[1]) for s in summary)
    print("\ncounts per step:")
    for (sub, step), c in sorted(counts.items()):
        print(f"  {sub} {step}: {c}")
    print("\nmistakes that do NOT show on the lab page's example inputs:")
    for rel, step, kind, page_hit, diffs in summary:
        if not page_hit:
            print(f"  {rel}: only on {', '.join(d[0] for d in diffs)}  ({diffs[0][2]})")
    if "-v" in sys.argv:
        print("\nall mistakes:")
        for rel, step, kind, page_hit, diffs in summary:
            print(f"  {rel}: page={page_hit}; {len(diffs)} inputs; e.g. {diffs[0]}")
    print(f"\n{len(summary)} mistake files, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
