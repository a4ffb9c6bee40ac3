"""Verify the blind10 test set.

1. The two correct files are checked against independent loop implementations written
   from the docstrings, on the page example and on many other allowed inputs.
2. Every mistake file must (a) differ from its correct file only inside the function named
   in its file name (source check with ast), and (b) give a different result (or raise)
   for that function on at least one allowed input.  We also record whether the page
   example alone shows the mistake.
3. Every file in correct/ must agree with the correct file on every input tried.
4. MANIFEST.csv rows must match the files, and each mistake line must lie inside the step.

Run:  /work/main/.venv/bin/python /tmp/blind10/check_set.py
"""
import ast
import copy
import csv
import importlib.util
import io
import math
import os
import sys
import warnings
import contextlib

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
warnings.filterwarnings("ignore")
np.seterr(all="ignore")
sys.setrecursionlimit(5000)

STEPS = {
    "lab1": ["make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended"],
    "lab2": ["split_heads", "causal_mask", "masked_softmax", "merge_heads", "multi_head_attention"],
}
LABNAME = {"lab1": "self_attention", "lab2": "masked_attention"}

_counter = [0]


def load(path):
    _counter[0] += 1
    spec = importlib.util.spec_from_file_location(f"blind10_mod_{_counter[0]}", path)
    mod = importlib.util.module_from_spec(spec)
    with contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------ inputs
def rng(seed):
    return np.random.default_rng(seed)


def stochastic(r, n, m=None):
    w = r.random((n, m or n)) + 0.05
    return w / w.sum(axis=1, keepdims=True)


def page_lab1():
    X = np.array([[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, 0, 2]], dtype=float)
    np.random.seed(0)
    W_Q = np.round(np.random.randn(4, 4) * 0.5, 1)
    W_K = np.round(np.random.randn(4, 4) * 0.5, 1)
    W_V = np.round(np.random.randn(4, 4) * 0.5, 1)
    return X, W_Q, W_K, W_V


def page_lab2():
    X, W_Q, W_K, W_V = page_lab1()
    np.random.seed(0)
    for _ in range(3):
        np.random.randn(4, 4)
    W_O = np.round(np.random.randn(4, 4) * 0.5, 1)
    return X, W_Q, W_K, W_V, W_O


def cases_lab1():
    """dict step -> list of (label, is_page, args)."""
    C = {s: [] for s in STEPS["lab1"]}
    X, W_Q, W_K, W_V = page_lab1()
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    S = Q @ K.T
    scaled = S / 2.0
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    words = ["나는", "사과를", "먹었다"]
    C["make_qkv"].append(("page", True, (X, W_Q, W_K, W_V)))
    C["scores"].append(("page", True, (Q, K)))
    C["softmax"] += [("page 1-D [1,2,3]", True, (np.array([1.0, 2.0, 3.0]),)),
                     ("page big [1000,1000]", True, (np.array([1000.0, 1000.0]),)),
                     ("page scaled table", True, (scaled,))]
    C["mix"].append(("page", True, (weights, V)))
    C["self_attention"].append(("page", True, (X, W_Q, W_K, W_V)))
    C["most_attended"].append(("page", True, (weights, list(words))))

    shapes = [(1, 4, 4, 4), (2, 3, 5, 2), (5, 2, 3, 3), (4, 4, 4, 4), (3, 3, 3, 3),
              (6, 8, 4, 2), (3, 4, 4, 4), (2, 6, 2, 6), (7, 5, 6, 1)]
    for k, (n, dm, dk, dv) in enumerate(shapes):
        r = rng(100 + k)
        Xr = r.normal(size=(n, dm))
        Ws = (r.normal(size=(dm, dk)) * 0.5, r.normal(size=(dm, dk)) * 0.5, r.normal(size=(dm, dv)) * 0.5)
        lab = f"n={n} d_model={dm} d_k={dk} d_v={dv}"
        C["make_qkv"].append((lab, False, (Xr,) + Ws))
        C["self_attention"].append((lab, False, (Xr,) + Ws))
    r = rng(7)
    Xi = r.integers(-2, 3, size=(3, 4))
    C["make_qkv"].append(("int X (3,4)", False, (Xi, W_Q, W_K, W_V)))
    C["self_attention"].append(("int X (3,4)", False, (Xi, W_Q, W_K, W_V)))
    Xi2 = r.integers(-2, 3, size=(4, 3))
    Wi = tuple(r.normal(size=(3, 5)) for _ in range(2)) + (r.normal(size=(3, 2)),)
    C["make_qkv"].append(("int X (4,3) d_k=5 d_v=2", False, (Xi2,) + Wi))

    for k, (n, dk) in enumerate([(1, 1), (2, 5), (5, 2), (4, 4), (3, 3), (6, 3), (3, 4)]):
        r = rng(200 + k)
        C["scores"].append((f"n={n} d_k={dk}", False, (r.normal(size=(n, dk)), r.normal(size=(n, dk)))))
    C["scores"].append(("int Q,K (3,2)", False, (rng(9).integers(-3, 4, (3, 2)), rng(10).integers(-3, 4, (3, 2)))))

    r = rng(300)
    C["softmax"] += [
        ("1-D len 1", False, (np.array([0.3]),)),
        ("1-D len 2", False, (np.array([-1.0, 2.5]),)),
        ("1-D len 5", False, (r.normal(size=5),)),
        ("1-D int", False, (np.array([1, 2, 3, 4]),)),
        ("1-D big mixed", False, (np.array([1000.0, 999.0, -1000.0]),)),
        ("2-D (1,4)", False, (r.normal(size=(1, 4)),)),
        ("2-D (4,1)", False, (r.normal(size=(4, 1)),)),
        ("2-D (3,3)", False, (r.normal(size=(3, 3)),)),
        ("2-D (2,5)", False, (r.normal(size=(2, 5)) * 3,)),
        ("2-D (5,2)", False, (r.normal(size=(5, 2)),)),
        ("2-D int (2,3)", False, (np.array([[1, 2, 3], [0, 0, 5]]),)),
        ("2-D big", False, (np.array([[1000.0, 0.0], [0.0, -1000.0], [-1000.0, -1001.0]]),)),
        ("2-D zero-sum rows", False, (np.array([[1.0, -1.0, 0.0], [2.0, -2.0, 0.0]]),)),
    ]
    for k, (n, dv) in enumerate([(1, 1), (2, 5), (4, 2), (3, 3), (5, 4), (3, 4), (6, 6)]):
        r = rng(400 + k)
        C["mix"].append((f"n={n} d_v={dv}", False, (stochastic(r, n), r.normal(size=(n, dv)))))

    word_sets = [["a"], ["zeta", "alpha"], ["the", "cat", "sat", "on"], ["나", "너", "우리", "그", "저"],
                 ["먹었다", "사과를", "나는"]]
    for k, ws in enumerate(word_sets):
        r = rng(500 + k)
        C["most_attended"].append((f"random n={len(ws)} {ws}", False, (stochastic(r, len(ws)), list(ws))))
    C["most_attended"].append(("ties", False, (np.array([[0.5, 0.5, 0.0], [0.2, 0.4, 0.4], [1 / 3, 1 / 3, 1 / 3]]),
                                                ["x", "y", "z"])))
    C["most_attended"].append(("same best word for every row", False,
                               (np.array([[0.1, 0.2, 0.7], [0.0, 0.3, 0.7], [0.2, 0.2, 0.6]]), ["b", "c", "a"])))
    return C


def cases_lab2():
    C = {s: [] for s in STEPS["lab2"]}
    X, W_Q, W_K, W_V, W_O = page_lab2()
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    heads = lambda M: np.stack([M[:, :2], M[:, 2:]])
    Qh, Kh, Vh = heads(Q), heads(K), heads(V)
    scaled = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)
    mask = np.tril(np.ones((3, 3), dtype=bool))
    s = np.where(mask, scaled, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    C["split_heads"] += [("page Q", True, (Q, 2)), ("page K", True, (K, 2)), ("page V", True, (V, 2))]
    C["causal_mask"].append(("page n=3", True, (3,)))
    C["masked_softmax"] += [("page small", True, (np.array([[1.0, 2.0, 3.0]]), np.array([[True, True, False]]))),
                            ("page big", True, (np.array([[1000.0, 1000.0]]), np.array([[True, True]]))),
                            ("page heads", True, (scaled, mask))]
    C["merge_heads"] += [("page Q_heads", True, (Qh,)), ("page weights@V_heads", True, (weights @ Vh,))]
    C["multi_head_attention"].append(("page", True, (X, W_Q, W_K, W_V, W_O, 2)))

    for k, (n, dm, h) in enumerate([(3, 4, 2), (2, 6, 3), (5, 8, 4), (1, 4, 1), (4, 4, 4), (3, 6, 2),
                                    (6, 4, 2), (2, 2, 1), (4, 8, 2), (3, 9, 3)]):
        r = rng(600 + k)
        lab = f"n={n} d_model={dm} n_heads={h}"
        C["split_heads"].append((lab, False, (r.normal(size=(n, dm)), h)))
        Ws = tuple(r.normal(size=(dm, dm)) * 0.5 for _ in range(4))
        C["multi_head_attention"].append((lab, False, (r.normal(size=(n, dm)),) + Ws + (h,)))
    for n in [1, 2, 4, 5, 6, 10]:
        C["causal_mask"].append((f"n={n}", False, (n,)))

    def rand_mask(r, n):
        m = r.random((n, n)) < 0.5
        m[np.arange(n), r.integers(0, n, n)] = True
        return m

    for k, n in enumerate([1, 2, 4, 5]):
        r = rng(700 + k)
        sc = r.normal(size=(n, n)) * 2
        C["masked_softmax"].append((f"2-D n={n} causal bool", False, (sc, np.tril(np.ones((n, n), dtype=bool)))))
        C["masked_softmax"].append((f"2-D n={n} causal int", False, (sc, np.tril(np.ones((n, n), dtype=int)))))
        C["masked_softmax"].append((f"2-D n={n} random bool", False, (sc, rand_mask(r, n))))
    for k, (h, n) in enumerate([(1, 3), (2, 4), (3, 3), (4, 2), (2, 5)]):
        r = rng(800 + k)
        sc = r.normal(size=(h, n, n)) * 2
        C["masked_softmax"].append((f"3-D h={h} n={n} causal bool", False, (sc, np.tril(np.ones((n, n), dtype=bool)))))
        C["masked_softmax"].append((f"3-D h={h} n={n} causal int", False, (sc, np.tril(np.ones((n, n), dtype=int)))))
        C["masked_softmax"].append((f"3-D h={h} n={n} random int", False, (sc, rand_mask(r, n).astype(int))))
    C["masked_softmax"].append(("3-D big values", False, (np.array([[[1000.0, 5.0], [-1000.0, -999.0]],
                                                                    [[0.0, 1000.0], [700.0, 710.0]]]),
                                                          np.array([[True, False], [True, True]]))))
    C["masked_softmax"].append(("2-D all visible", False, (rng(9).normal(size=(3, 3)), np.ones((3, 3), dtype=bool))))
    for k, (h, n, d) in enumerate([(2, 3, 2), (1, 4, 3), (3, 2, 5), (4, 5, 1), (2, 2, 2), (3, 3, 3), (2, 6, 4)]):
        r = rng(900 + k)
        C["merge_heads"].append((f"h={h} n={n} d_head={d}", False, (r.normal(size=(h, n, d)),)))
    return C


# ------------------------------------------------------------------ independent references (from docstrings)
def ref_make_qkv(X, W_Q, W_K, W_V):
    def proj(W):
        n, dm = X.shape
        out = np.zeros((n, W.shape[1]))
        for i in range(n):
            for j in range(W.shape[1]):
                out[i, j] = sum(X[i, m] * W[m, j] for m in range(dm))
        return out
    return proj(W_Q), proj(W_K), proj(W_V)


def ref_scores(Q, K):
    n = Q.shape[0]
    return np.array([[sum(Q[i, t] * K[j, t] for t in range(Q.shape[1])) for j in range(n)] for i in range(n)],
                    dtype=float)


def ref_softmax(x):
    x = np.asarray(x, dtype=float)
    rows = x.reshape(-1, x.shape[-1])
    out = []
    for row in rows:
        mx = max(row)
        ex = [math.exp(v - mx) for v in row]
        tot = sum(ex)
        out.append([v / tot for v in ex])
    return np.array(out).reshape(x.shape)


def ref_mix(weights, V):
    n, dv = V.shape
    out = np.zeros((weights.shape[0], dv))
    for i in range(weights.shape[0]):
        for j in range(n):
            out[i] += weights[i, j] * V[j]
    return out


def ref_self_attention(X, W_Q, W_K, W_V):
    Q, K, V = ref_make_qkv(X, W_Q, W_K, W_V)
    w = ref_softmax(ref_scores(Q, K) / math.sqrt(K.shape[1]))
    return ref_mix(w, V), w


def ref_most_attended(weights, words):
    res = {}
    for i, w in enumerate(words):
        best = 0
        for j in range(len(words)):
            if weights[i][j] > weights[i][best]:
                best = j
        res[w] = words[best]
    return res


def ref_split_heads(M, n_heads):
    d = M.shape[1] // n_heads
    return np.stack([M[:, h * d:(h + 1) * d] for h in range(n_heads)])


def ref_causal_mask(n):
    m = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(n):
            m[i, j] = j <= i
    return m


def ref_masked_softmax(scores, mask):
    sc = np.asarray(scores, dtype=float)
    mk = np.asarray(mask)
    out = np.zeros_like(sc)
    flat_s = sc.reshape(-1, sc.shape[-2], sc.shape[-1])
    flat_o = out.reshape(-1, sc.shape[-2], sc.shape[-1])
    for h in range(flat_s.shape[0]):
        for i in range(flat_s.shape[1]):
            vis = [j for j in range(flat_s.shape[2]) if mk[i, j]]
            mx = max(flat_s[h, i, j] for j in vis)
            ex = {j: math.exp(flat_s[h, i, j] - mx) for j in vis}
            tot = sum(ex.values())
            for j in vis:
                flat_o[h, i, j] = ex[j] / tot
    return out


def ref_merge_heads(H):
    h, n, d = H.shape
    return np.array([np.concatenate([H[k, i] for k in range(h)]) for i in range(n)])


def ref_mha(X, W_Q, W_K, W_V, W_O, n_heads):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    d = X.shape[1] // n_heads
    n = X.shape[0]
    ws, outs = [], []
    for h in range(n_heads):
        q, k, v = (M[:, h * d:(h + 1) * d] for M in (Q, K, V))
        w = ref_masked_softmax(ref_scores(q, k) / math.sqrt(d), ref_causal_mask(n))
        ws.append(w)
        outs.append(ref_mix(w, v))
    return np.concatenate(outs, axis=1) @ W_O, np.stack(ws)


REFS = {
    "make_qkv": ref_make_qkv, "scores": ref_scores, "softmax": ref_softmax, "mix": ref_mix,
    "self_attention": ref_self_attention, "most_attended": ref_most_attended,
    "split_heads": ref_split_heads, "causal_mask": ref_causal_mask, "masked_softmax": ref_masked_softmax,
    "merge_heads": ref_merge_heads, "multi_head_attention": ref_mha,
}


# ------------------------------------------------------------------ comparison
def differ(a, b, bool_dtype=False):
    """None if a (candidate) matches b (expected), else a short reason."""
    if isinstance(b, tuple):
        if not isinstance(a, tuple):
            return f"type {type(a).__name__} not tuple"
        if len(a) != len(b):
            return f"tuple length {len(a)} != {len(b)}"
        for x, y in zip(a, b):
            r = differ(x, y, bool_dtype)
            if r:
                return r
        return None
    if isinstance(b, dict):
        if not isinstance(a, dict):
            return f"type {type(a).__name__} not dict"
        try:
            if a != b:
                return f"dict {a!r} != {b!r}"
        except Exception as exc:  # e.g. comparing arrays inside
            return f"dict compare error {exc!r}"
        if not all(type(v) is str for v in a.values()) and all(isinstance(v, str) for v in b.values()):
            pass
        return None
    if isinstance(b, np.ndarray):
        if not isinstance(a, np.ndarray):
            return f"type {type(a).__name__} not ndarray"
        if a.shape != b.shape:
            return f"shape {a.shape} != {b.shape}"
        if bool_dtype and a.dtype != np.bool_:
            return f"dtype {a.dtype} not bool"
        if a.dtype == object:
            return "object dtype"
        if not np.allclose(a.astype(float), b.astype(float), rtol=1e-6, atol=1e-9):
            with np.errstate(all="ignore"):
                diff = np.nanmax(np.abs(a.astype(float) - b.astype(float))) if a.size else 0
            return f"values (max |diff| {diff:.3g})"
        return None
    return None if a == b else f"{a!r} != {b!r}"


def same_inputs(x, y):
    for a, b in zip(x, y):
        if isinstance(a, np.ndarray):
            if not (isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype
                    and np.array_equal(a, b)):
                return False
        elif a != b:
            return False
    return True


def call(fn, args):
    args_copy = copy.deepcopy(args)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            out = fn(*args_copy)
    except RecursionError:
        return "raise", "RecursionError", True
    except Exception as exc:  # noqa: BLE001
        return "raise", f"{type(exc).__name__}: {str(exc)[:80]}", True
    return "ok", out, same_inputs(args_copy, args)


def compare_step(mod, ref_mod, step, cases):
    """list of (label, is_page, reason) where mod differs from ref_mod."""
    diffs = []
    for label, is_page, args in cases:
        st_r, exp, _ = call(getattr(ref_mod, step), args)
        assert st_r == "ok", (step, label, exp)
        st, got, kept = call(getattr(mod, step), args)
        if st == "raise":
            diffs.append((label, is_page, "raises " + got))
            continue
        r = differ(got, exp, bool_dtype=(step == "causal_mask"))
        if r:
            diffs.append((label, is_page, r))
        elif not kept:
            diffs.append((label, is_page, "mutates its input"))
    return diffs


# ------------------------------------------------------------------ source check
def function_sources(path):
    text = open(path, encoding="utf-8").read()
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    funcs, spans = {}, {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            seg = "".join(lines[node.lineno - 1:node.end_lineno])
            funcs[node.name] = seg
            spans[node.name] = (node.lineno, node.end_lineno)
    rest = text
    for name, seg in funcs.items():
        rest = rest.replace(seg, f"<<{name}>>")
    return funcs, spans, rest


# ------------------------------------------------------------------ main
def main():
    ok = True
    cases = {"lab1": cases_lab1(), "lab2": cases_lab2()}
    correct = {"lab1": load(os.path.join(HERE, "_correct_lab1.py")),
               "lab2": load(os.path.join(HERE, "_correct_lab2.py"))}
    ref_mod = {}
    for lab in ("lab1", "lab2"):
        class R:  # namespace of independent references
            pass
        for s in STEPS[lab]:
            setattr(R, s, staticmethod(REFS[s]))
        ref_mod[lab] = R

    # 1. correct files vs independent references
    print("== 1. correct files vs independent loop references")
    for lab in ("lab1", "lab2"):
        n_cases = 0
        for step in STEPS[lab]:
            d = compare_step(correct[lab], ref_mod[lab], step, cases[lab][step])
            n_cases += len(cases[lab][step])
            if d:
                ok = False
                print("  FAIL", lab, step, d)
        print(f"  {lab}: {n_cases} inputs, all agree" if ok else f"  {lab}: problems above")
    # page numbers printed by the lab page
    c1 = correct["lab1"]
    X, W_Q, W_K, W_V = page_lab1()
    out, w = c1.self_attention(X, W_Q, W_K, W_V)
    page_checks = [
        np.allclose(c1.make_qkv(X, W_Q, W_K, W_V)[0][0], [0.8, 0.4, 0.6, 1.8]),
        np.allclose(c1.make_qkv(X, W_Q, W_K, W_V)[1][0], [1.8, -0.8, 0.2, -0.5]),
        np.allclose(np.round(c1.scores(*c1.make_qkv(X, W_Q, W_K, W_V)[:2]), 2),
                    [[0.34, -1.46, 1.20], [4.92, -4.05, 1.72], [4.34, -4.39, 3.00]]),
        np.allclose(np.round(c1.softmax(np.array([1.0, 2.0, 3.0])), 2), [0.09, 0.24, 0.67]),
        np.allclose(c1.softmax(np.array([1000.0, 1000.0])), [0.5, 0.5]),
        np.allclose(np.round(w, 3), [[0.340, 0.138, 0.522], [0.824, 0.009, 0.166], [0.656, 0.008, 0.336]]),
        np.allclose(np.round(out, 2), [[-0.39, -0.86, -1.35, 0.74], [-0.8, -1.53, -1.18, 1.02],
                                       [-0.72, -1.38, -1.27, 0.96]]),
        c1.most_attended(w, ["나는", "사과를", "먹었다"]) == {'나는': '먹었다', '사과를': '나는', '먹었다': '나는'},
    ]
    c2 = correct["lab2"]
    X, W_Q, W_K, W_V, W_O = page_lab2()
    out2, w2 = c2.multi_head_attention(X, W_Q, W_K, W_V, W_O, 2)
    Qh = c2.split_heads(X @ W_Q, 2)
    page_checks += [
        np.allclose(W_O[0], [-0.8, -0.1, -0.4, 0.2]),
        Qh.shape == (2, 3, 2) and np.allclose(Qh[0], [[0.8, 0.4], [2.2, -0.9], [2.6, -0.1]]),
        np.array_equal(c2.causal_mask(3), [[True, False, False], [True, True, False], [True, True, True]]),
        np.allclose(np.round(c2.masked_softmax(np.array([[1.0, 2.0, 3.0]]), np.array([[True, True, False]])), 2),
                    [[0.27, 0.73, 0.0]]),
        np.allclose(np.round(w2, 3), [[[1, 0, 0], [0.999, 0.001, 0], [0.837, 0.001, 0.162]],
                                      [[1, 0, 0], [0.356, 0.644, 0], [0.208, 0.376, 0.416]]]),
        np.allclose(c2.merge_heads(Qh), X @ W_Q),
        np.allclose(np.round(c2.merge_heads(w2 @ c2.split_heads(X @ W_V, 2)), 2),
                    [[-0.9, -1.7, -1.1, 1.1], [-0.9, -1.7, -1.04, 0.39], [-0.82, -1.55, -1.27, 0.52]]),
        np.allclose(np.round(out2, 2), [[0.9, 0.67, 0.25, -1.29], [1.11, 0.82, 0.51, -0.66],
                                        [0.96, 0.65, 0.5, -0.69]]),
    ]
    print("  page numbers:", "all match" if all(page_checks) else f"MISMATCH {page_checks}")
    ok &= all(page_checks)

    # manifest
    with open(os.path.join(HERE, "MANIFEST.csv"), encoding="utf-8") as fh:
        manifest = {row["file"]: row for row in csv.DictReader(fh)}

    # 2. mistake files
    print("== 2. mistake files")
    page_silent = []
    counts = {}
    for lab in ("lab1", "lab2"):
        cfuncs, _, crest = function_sources(os.path.join(HERE, f"_correct_{lab}.py"))
        for f in sorted(os.listdir(os.path.join(HERE, lab))):
            if not f.endswith(".py"):
                continue
            rel = f"{lab}/{f}"
            _, step, kind = f[:-3].split("__")
            path = os.path.join(HERE, rel)
            funcs, spans, rest = function_sources(path)
            changed = [n for n in STEPS[lab] if funcs.get(n) != cfuncs.get(n)]
            problems = []
            if rest != crest:
                problems.append("text outside functions changed")
            if changed != [step]:
                problems.append(f"changed functions {changed}")
            mod = load(path)
            diffs = compare_step(mod, correct[lab], step, cases[lab][step])
            if not diffs:
                problems.append("no input shows the mistake")
            row = manifest.get(rel)
            if row is None:
                problems.append("missing from MANIFEST")
            else:
                line = int(row["line"])
                lo, hi = spans[step]
                if not (lo < line <= hi):
                    problems.append(f"line {line} outside {step} {lo}-{hi}")
                if row["step"] != step or row["kind"] != kind or row["lab"] != LABNAME[lab]:
                    problems.append("manifest fields disagree")
            page_d = [d for d in diffs if d[1]]
            status = "OK " if not problems else "BAD"
            ok &= not problems
            counts.setdefault(lab, {}).setdefault(step, 0)
            counts[lab][step] += not problems
            first = diffs[0] if diffs else None
            print(f"  {status} {rel}: {len(diffs)}/{len(cases[lab][step])} inputs differ"
                  f"{' (page: ' + page_d[0][2] + ')' if page_d else ' (NOT on page)'}"
                  f"{'' if not problems else '  <-- ' + '; '.join(problems)}")
            if diffs and not page_d:
                page_silent.append((rel, [d[0] + ": " + d[2] for d in diffs]))
            # other functions of the same file must agree with the correct file where they do not
            # call the mistaken one (composed functions naturally inherit a helper's mistake)
            for other in STEPS[lab]:
                if other == step:
                    continue
                composed = other in ("self_attention", "multi_head_attention")
                if composed and step not in ("self_attention", "multi_head_attention"):
                    continue
                d2 = compare_step(mod, correct[lab], other, cases[lab][other])
                if d2:
                    ok = False
                    print(f"      !! {other} also differs: {d2[:2]}")

    # 3. correct-but-unusual files
    print("== 3. correct-but-unusual files")
    for f in sorted(os.listdir(os.path.join(HERE, "correct"))):
        if not f.endswith(".py"):
            continue
        lab = f.split("__")[0]
        rel = f"correct/{f}"
        mod = load(os.path.join(HERE, rel))
        n_in, bad = 0, []
        for step in STEPS[lab]:
            n_in += len(cases[lab][step])
            d = compare_step(mod, correct[lab], step, cases[lab][step])
            if d:
                bad.append((step, d[:3]))
        # also compare the composed functions with the correct helpers swapped in and vice versa
        ok &= not bad and rel in manifest
        print(f"  {'OK ' if not bad else 'BAD'} {rel}: {n_in} inputs" + ("" if not bad else f"  <-- {bad}"))

    # 4. manifest consistency
    files = {f"{d}/{f}" for d in ("lab1", "lab2", "correct") for f in os.listdir(os.path.join(HERE, d))
             if f.endswith(".py")}
    if set(manifest) != files:
        ok = False
        print("MANIFEST mismatch:", set(manifest) ^ files)

    print("== counts")
    for lab, d in counts.items():
        print(f"  {lab}: {sum(d.values())}  " + ", ".join(f"{k}={v}" for k, v in d.items()))
    print("== mistakes that the page example does not show")
    for rel, ds in page_silent:
        print(f"  {rel}")
        for d in ds[:6]:
            print(f"      {d}")
    print("ALL OK" if ok else "SOME CHECKS FAILED")
    return ok


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
