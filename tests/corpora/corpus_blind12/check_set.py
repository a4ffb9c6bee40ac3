"""Verification script for /tmp/blind12.

Checks
  * the two reference files (_correct_lab1.py, _correct_lab2.py) against every number the lab pages print
    and against the docstrings (shapes, row sums, masks, ties ...) on many inputs;
  * every mistake file: the module imports silently, every function other than <step> (and all other
    module-level code) is AST-identical to the reference, and <step> gives a different result (or raises)
    on at least one input its docstring allows; records whether the lab page's own example shows it;
  * the "fixed twin" of every mistake file (_work/fixed/, the same file with only the manifest line
    repaired) matches the reference on every input, and the manifest line is one of the changed lines;
  * every correct-but-unusual file matches the reference on every input for every function (strictly);
  * MANIFEST.csv format (UTF-8, LF, header, one row per file, line numbers, 합니다체 causes).

Run:  /work/main/.venv/bin/python /tmp/blind12/check_set.py
"""
import ast
import contextlib
import copy
import csv
import difflib
import importlib.util
import io
import os
import re
import sys
import warnings
from collections import Counter, defaultdict

import numpy as np
import pandas as pd

ROOT = os.path.dirname(os.path.abspath(__file__))
LABS = {
    "self_attention": dict(ref="_correct_lab1.py", prefix="lab1",
                           funcs=["make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended"]),
    "masked_attention": dict(ref="_correct_lab2.py", prefix="lab2",
                             funcs=["split_heads", "causal_mask", "masked_softmax", "merge_heads",
                                    "multi_head_attention"]),
}
warnings.simplefilter("ignore")
_counter = [0]


def load(path):
    _counter[0] += 1
    spec = importlib.util.spec_from_file_location(f"blind12_mod_{_counter[0]}", path)
    mod = importlib.util.module_from_spec(spec)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        spec.loader.exec_module(mod)
    if out.getvalue():
        raise AssertionError(f"{path} printed at import: {out.getvalue()[:200]!r}")
    return mod


# ------------------------------------------------------------------ inputs
WORD_POOL = ["나는", "사과를", "먹었다", "고양이가", "밥을", "빨리", "the", "cat", "sat", "on", "mat", "오늘"]


def rnd(rng, *shape, integer=False):
    if integer:
        return rng.integers(-3, 4, size=shape)
    return np.round(rng.normal(size=shape), 3)


def row_softmax(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def lab1_inputs(ref):
    """dict step -> (list of args tuples, number of leading page inputs)."""
    rng = np.random.default_rng(12)
    X, W_Q, W_K, W_V, words = ref.X, ref.W_Q, ref.W_K, ref.W_V, ref.words
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    page_scaled = (Q @ K.T) / np.sqrt(K.shape[1])
    page_w = row_softmax(page_scaled)
    inp = {}

    shapes = [(1, 4, 4, 4), (2, 3, 2, 5), (3, 4, 4, 4), (4, 2, 3, 1), (5, 6, 3, 4), (3, 3, 3, 3),
              (2, 2, 2, 2), (6, 5, 1, 2), (1, 2, 5, 3), (4, 4, 2, 2), (3, 2, 2, 2), (2, 5, 4, 3)]
    mq = [(X, W_Q, W_K, W_V)]
    for n, dm, dk, dv in shapes:
        for integer in (False, True):
            mq.append((rnd(rng, n, dm, integer=integer), rnd(rng, dm, dk, integer=integer),
                       rnd(rng, dm, dk, integer=integer), rnd(rng, dm, dv, integer=integer)))
    inp["make_qkv"] = (mq, 1)
    inp["self_attention"] = (mq, 1)

    sc = [(Q, K)]
    for n, dk in [(1, 1), (1, 4), (2, 3), (3, 4), (4, 2), (5, 5), (3, 1), (6, 2), (2, 2), (4, 4)]:
        for integer in (False, True):
            sc.append((rnd(rng, n, dk, integer=integer), rnd(rng, n, dk, integer=integer)))
    inp["scores"] = (sc, 1)

    sm = [(np.array([1.0, 2.0, 3.0]),), (np.array([1000.0, 1000.0]),), (page_scaled,)]
    for shape in [(1,), (2,), (4,), (6,), (1, 4), (3, 3), (2, 5), (4, 2), (5, 1), (4, 4)]:
        sm.append((rnd(rng, *shape) * 3,))
    sm += [(np.array([1, 2, 3]),), (np.array([[1, 2], [3, 4], [0, 0]]),), (np.array([[2, 0, 1], [1, 1, 1], [0, 5, 3]]),),
           (np.array([[1000, 999, -1000]]),), (np.array([-1000.0, -1000.0]),), (np.array([-1000.0, -999.0, -1001.0]),),
           (np.array([[-1000.0, -999.0, -1001.0], [0.0, 1.0, 2.0]]),), (np.array([[1000.0, 0.0], [500.0, 501.0]]),),
           (np.array([[0.5, 0.5, 0.5], [2.0, 2.0, -1.0], [7.0, 7.0, 7.0]]),), (np.array([5]),), (np.array([[3]]),),
           (np.array([[-800.0, -801.0], [-900.0, -899.0]]),)]
    inp["softmax"] = (sm, 3)

    mx = [(page_w, V)]
    for n, dv in [(1, 1), (1, 3), (2, 2), (3, 4), (4, 2), (5, 6), (3, 3), (6, 1), (2, 5)]:
        w = row_softmax(rnd(rng, n, n) * 2)
        mx.append((w, rnd(rng, n, dv)))
        mx.append((w, rnd(rng, n, dv, integer=True)))
    for n, dv in [(3, 4), (4, 4), (2, 3), (5, 2)]:
        tril = np.tril(np.ones((n, n), dtype=bool))
        w = row_softmax(np.where(tril, rnd(rng, n, n), -np.inf))
        mx.append((w, rnd(rng, n, dv)))
    mx.append((np.array([[0.0, 0.5, 0.5], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]), rnd(rng, 3, 4)))
    mx.append((np.array([[0.0, 1.0], [0.25, 0.75]]), rnd(rng, 2, 3)))
    inp["mix"] = (mx, 1)

    page_weights = row_softmax(page_scaled)
    ma = [(page_weights, list(words))]
    for n in [1, 2, 3, 4, 5, 6]:
        for _ in range(3):
            ws = list(rng.choice(WORD_POOL, size=n, replace=False))
            ma.append((row_softmax(rnd(rng, n, n) * 2), ws))
    ma += [
        (np.array([[0.4, 0.4, 0.2], [0.1, 0.45, 0.45], [1 / 3, 1 / 3, 1 / 3]]), ["a", "b", "c"]),
        (np.array([[0.5, 0.5], [0.5, 0.5]]), ["첫째", "둘째"]),
        (np.array([[0.5 - 5e-10, 0.5 + 5e-10], [0.5 + 5e-10, 0.5 - 5e-10]]), ["x", "y"]),
        (np.array([[0.3, 0.35 - 1e-11, 0.35 + 1e-11], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1]]), ["가", "나", "다"]),
        (np.array([[1.0]]), ["혼자"]),
        (np.array([[0.1, 0.2, 0.7], [0.6, 0.3, 0.1], [0.2, 0.5, 0.3]]), ["나는", "사과를", "먹었다"]),
        (np.tril(np.ones((4, 4))) / np.arange(1, 5)[:, None], ["w0", "w1", "w2", "w3"]),
    ]
    inp["most_attended"] = (ma, 1)
    return inp


def lab2_inputs(ref):
    rng = np.random.default_rng(34)
    X, W_Q, W_K, W_V, W_O = ref.X, ref.W_Q, ref.W_K, ref.W_V, ref.W_O
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V

    def split(M, h):
        n, d = M.shape
        return M.reshape(n, h, d // h).transpose(1, 0, 2)

    Qh, Kh, Vh = split(Q, 2), split(K, 2), split(V, 2)
    mask3 = np.tril(np.ones((3, 3), dtype=bool))
    scaled = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)
    filled = np.where(mask3, scaled, -np.inf)
    page_w = np.exp(filled - filled.max(-1, keepdims=True))
    page_w = page_w / page_w.sum(-1, keepdims=True)
    inp = {}

    sh = [(Q, 2), (K, 2), (V, 2)]
    for n, dm, h in [(1, 4, 2), (3, 4, 1), (3, 4, 4), (2, 6, 3), (4, 6, 2), (5, 8, 4), (3, 6, 2), (2, 9, 3), (4, 4, 2),
                     (3, 8, 2), (2, 3, 3)]:
        sh.append((rnd(rng, n, dm), h))
        sh.append((rnd(rng, n, dm, integer=True), h))
    inp["split_heads"] = (sh, 3)

    inp["causal_mask"] = ([(3,)] + [(n,) for n in [1, 2, 4, 5, 6, 7, 10]], 1)

    ms = [(np.array([[1.0, 2.0, 3.0]]), np.array([[True, True, False]])),
          (np.array([[1000.0, 1000.0]]), np.array([[True, True]])),
          (scaled, mask3)]
    for n in [1, 2, 3, 4, 5]:
        tril = np.tril(np.ones((n, n), dtype=bool))
        ms.append((rnd(rng, n, n) * 2, tril))
        ms.append((rnd(rng, n, n) * 2, tril.astype(int)))
        for h in [1, 2, 3]:
            ms.append((rnd(rng, h, n, n) * 2, tril))
            ms.append((rnd(rng, h, n, n) * 2, tril.astype(int)))
    for n in [2, 3, 4]:
        m = rng.random((n, n)) < 0.5
        m[np.arange(n), rng.integers(0, n, size=n)] = True
        ms.append((rnd(rng, n, n), m))
        ms.append((rnd(rng, 2, n, n), m.astype(int)))
    big = np.array([[0.0, 500.0, 800.0], [1.0, 2.0, 900.0], [3.0, 1.0, 2.0]])
    ms += [(big, mask3), (np.stack([big, -big]), mask3), (np.array([[1000.0, -1000.0, 5.0]] * 3), mask3),
           (np.array([[-1000.0, 3.0, 3.0], [-999.0, -1000.0, 7.0], [2.0, 2.0, 2.0]]), mask3),
           (np.array([[1, 2, 3], [4, 5, 6], [0, 0, 9]]), mask3),
           (np.array([[[1, 2, 3], [4, 5, 6], [0, 0, 9]], [[3, 2, 1], [0, 0, 0], [1, 1, 1]]]), mask3.astype(int)),
           (np.array([[2, 7]]), np.array([[1, 0]]))]
    inp["masked_softmax"] = (ms, 3)

    mh = [(Qh,), (page_w @ Vh,)]
    for shape in [(1, 3, 2), (2, 3, 2), (3, 2, 2), (2, 1, 3), (4, 3, 1), (3, 4, 3), (2, 5, 4), (1, 1, 1), (3, 3, 3)]:
        mh.append((rnd(rng, *shape),))
        mh.append((rnd(rng, *shape, integer=True),))
    inp["merge_heads"] = (mh, 2)

    mha = [(X, W_Q, W_K, W_V, W_O, 2)]
    for n, dm, h in [(1, 4, 2), (2, 4, 1), (3, 6, 3), (4, 6, 2), (5, 8, 4), (3, 4, 4), (2, 2, 2), (4, 8, 2), (3, 4, 2),
                     (6, 6, 3), (2, 6, 1)]:
        Ws = [rnd(rng, dm, dm) * 0.7 for _ in range(4)]
        mha.append((rnd(rng, n, dm), *Ws, h))
        Wi = [rnd(rng, dm, dm, integer=True) for _ in range(4)]
        mha.append((rnd(rng, n, dm, integer=True), *Wi, h))
    inp["multi_head_attention"] = (mha, 1)
    return inp


# ------------------------------------------------------------------ comparison
def equal(ref, out, strict):
    """strict: exact container types / bool dtype, tight tolerance. lenient: what a forgiving grader would accept."""
    if isinstance(ref, tuple):
        if strict and not isinstance(out, tuple):
            return False
        if not isinstance(out, (tuple, list)) or len(out) != len(ref):
            return False
        return all(equal(r, o, strict) for r, o in zip(ref, out))
    if isinstance(ref, dict):
        if not isinstance(out, dict) and not (not strict and hasattr(out, "keys")):
            return False
        try:
            out = dict(out)
        except Exception:
            return False
        if set(out.keys()) != set(ref.keys()):
            return False
        for k, v in ref.items():
            o = out[k]
            if not isinstance(o, str) or o != v:
                return False
        return True
    if isinstance(ref, np.ndarray):
        if strict and not isinstance(out, np.ndarray):
            return False
        try:
            arr = np.asarray(out)
            if arr.dtype == object:
                return False
        except Exception:
            return False
        if arr.shape != ref.shape:
            return False
        if ref.dtype == bool:
            if strict and arr.dtype != bool:
                return False
            return bool(np.array_equal(arr.astype(bool), ref))
        try:
            arr = arr.astype(float)
        except Exception:
            return False
        if np.isnan(arr).any():
            return False
        if strict:
            return bool(np.allclose(arr, ref, rtol=1e-9, atol=1e-12))
        return bool(np.allclose(arr, ref))
    return ref == out


def call(fn, args):
    args = copy.deepcopy(args)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return True, fn(*args)
    except Exception as exc:  # noqa: BLE001
        return False, exc


# ------------------------------------------------------------------ AST helpers
def fn_nodes(tree):
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def module_without(tree, name):
    t = copy.deepcopy(tree)
    for n in t.body:
        if isinstance(n, ast.FunctionDef) and n.name == name:
            n.body = [ast.Pass()]
    return ast.dump(t)


# ------------------------------------------------------------------ reference checks
def approx(a, b, tol=0.006):
    return np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), atol=tol)


def check_reference_lab1(ref, problems):
    Q, K, V = ref.make_qkv(ref.X, ref.W_Q, ref.W_K, ref.W_V)
    exp = [
        (approx(Q[0], [0.8, 0.4, 0.6, 1.8]), "Q first row"),
        (approx(K[0], [1.8, -0.8, 0.2, -0.5]), "K first row"),
        (Q.shape == K.shape == V.shape == (3, 4), "shapes"),
    ]
    S = ref.scores(Q, K)
    exp += [(approx(S[0, 0], 0.34), "hand 0.34"), (approx(S[0], [0.34, -1.46, 1.20]), "scores row 0"),
            (approx(S[1], [4.92, -4.05, 1.72]), "scores row 1"), (approx(S[2], [4.34, -4.39, 3.00]), "scores row 2 (page)")]
    exp += [(approx(ref.softmax(np.array([1.0, 2.0, 3.0])), [0.09, 0.24, 0.67]), "softmax 1-D"),
            (approx(ref.softmax(np.array([1000.0, 1000.0])), [0.5, 0.5]), "softmax big")]
    W = ref.softmax(S / np.sqrt(K.shape[1]))
    exp += [(approx(W[0], [0.340, 0.138, 0.522], 6e-4), "weights row 0"),
            (approx(W[1], [0.824, 0.009, 0.166], 6e-4), "weights row 1"),
            (approx(W[2], [0.656, 0.008, 0.336], 6e-4), "weights row 2 (page)"),
            (approx(W.sum(-1), [1, 1, 1], 1e-12), "row sums"),
            (approx(np.exp(S[0] / 2), [1.19, 0.48, 1.82], 0.006), "exp by hand")]
    out = ref.mix(W, V)
    blended = sum(W[1, j] * V[j] for j in range(3))
    exp += [(approx(out[1], [-0.8, -1.53, -1.18, 1.02]), "apple row"), (approx(blended, out[1], 1e-12), "hand blend"),
            (approx(out[0], [-0.39, -0.86, -1.35, 0.74]), "output row 0 (page)"),
            (approx(out[2], [-0.72, -1.38, -1.27, 0.96]), "output row 2 (page)"), (out.shape == (3, 4), "output shape")]
    o2, w2 = ref.self_attention(ref.X, ref.W_Q, ref.W_K, ref.W_V)
    exp += [(np.allclose(o2, out) and np.allclose(w2, W), "self_attention == steps")]
    exp += [(ref.most_attended(w2, ref.words) == {"나는": "먹었다", "사과를": "나는", "먹었다": "나는"}, "most_attended")]
    for ok, what in exp:
        if not ok:
            problems.append(f"reference lab1: page value mismatch: {what}")


def check_reference_lab2(ref, problems):
    Q = ref.X @ ref.W_Q
    K, V = ref.X @ ref.W_K, ref.X @ ref.W_V
    Qh, Kh, Vh = (ref.split_heads(M, 2) for M in (Q, K, V))
    mask = ref.causal_mask(3)
    sm1 = ref.masked_softmax(np.array([[1.0, 2.0, 3.0]]), np.array([[True, True, False]]))
    sm2 = ref.masked_softmax(np.array([[1000.0, 1000.0]]), np.array([[True, True]]))
    scaled = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(Qh.shape[-1])
    W = ref.masked_softmax(scaled, mask)
    merged = ref.merge_heads(W @ Vh)
    out, aw = ref.multi_head_attention(ref.X, ref.W_Q, ref.W_K, ref.W_V, ref.W_O, 2)
    exp = [
        (approx(Q[0], [0.8, 0.4, 0.6, 1.8]), "Q row"), (approx(ref.W_O[0], [-0.8, -0.1, -0.4, 0.2]), "W_O row"),
        (Qh.shape == (2, 3, 2), "split shape"), (approx(Qh[0], [[0.8, 0.4], [2.2, -0.9], [2.6, -0.1]]), "head 1"),
        (approx(Qh[1], [[0.6, 1.8], [1.2, 0.0], [1.4, 1.4]]), "head 2"),
        (mask.dtype == bool and mask.tolist() == [[True, False, False], [True, True, False], [True, True, True]], "mask"),
        (approx(sm1, [[0.27, 0.73, 0.0]]), "small"), (approx(sm2, [[0.5, 0.5]]), "big"),
        (approx(scaled[0], [[0.79, -0.65, 1.02], [3.31, -3.63, 0.54], [3.37, -3.40, 1.73]]), "head1 scores"),
        (approx(scaled[1], [[-0.55, -0.38, -0.17], [0.17, 0.76, 0.68], [-0.30, 0.30, 0.40]]), "head2 scores"),
        (approx(W[0], [[1, 0, 0], [0.999, 0.001, 0], [0.837, 0.001, 0.162]], 6e-4), "head1 weights"),
        (approx(W[1], [[1, 0, 0], [0.356, 0.644, 0], [0.208, 0.376, 0.416]], 6e-4), "head2 weights"),
        (approx(W.sum(-1), np.ones((2, 3)), 1e-12), "row sums"),
        (np.allclose(ref.merge_heads(Qh), Q), "merge(split) == Q"),
        (approx(merged, [[-0.9, -1.7, -1.1, 1.1], [-0.9, -1.7, -1.04, 0.39], [-0.82, -1.55, -1.27, 0.52]]), "merged"),
        (np.allclose(merged[0], V[0]), "first row == V row"),
        (np.allclose(out, merged @ ref.W_O) and np.allclose(aw, W), "mha == steps"),
        (approx(out, [[0.9, 0.67, 0.25, -1.29], [1.11, 0.82, 0.51, -0.66], [0.96, 0.65, 0.5, -0.69]]), "output"),
    ]
    for ok, what in exp:
        if not ok:
            problems.append(f"reference lab2: page value mismatch: {what}")


def check_reference_docstrings(lab, ref, inputs, problems):
    """Properties straight from the docstrings, on every generated input."""
    for step, (cases, _) in inputs.items():
        fn = getattr(ref, step)
        for args in cases:
            snapshot = copy.deepcopy(args)
            ok, res = call(fn, args)
            if not ok:
                problems.append(f"reference {step} raised {res!r}")
                continue
            res2 = fn(*args)
            for a, b in zip(args, snapshot):
                if isinstance(a, np.ndarray) and not np.array_equal(a, b):
                    problems.append(f"reference {step} modified its input")
            if step == "make_qkv":
                X, Wq, Wk, Wv = args
                good = isinstance(res2, tuple) and len(res2) == 3 and all(
                    np.allclose(r, X @ W) for r, W in zip(res2, (Wq, Wk, Wv)))
            elif step == "scores":
                Qa, Ka = args
                good = res2.shape == (len(Qa), len(Ka)) and all(
                    np.isclose(res2[i, j], sum(Qa[i, t] * Ka[j, t] for t in range(Qa.shape[1])))
                    for i in range(len(Qa)) for j in range(len(Ka)))
            elif step == "softmax":
                x = np.asarray(args[0], dtype=float)
                good = (res2.shape == x.shape and np.allclose(res2.sum(-1), 1) and np.isfinite(res2).all()
                        and np.allclose(res2 * np.exp(-(x - x.max(-1, keepdims=True))),
                                        (res2 * np.exp(-(x - x.max(-1, keepdims=True)))).mean(-1, keepdims=True))
                        if np.all(np.abs(x - x.max(-1, keepdims=True)) < 600) else
                        res2.shape == x.shape and np.allclose(res2.sum(-1), 1) and np.isfinite(res2).all())
            elif step == "mix":
                w, Va = args
                good = res2.shape == (w.shape[0], Va.shape[1]) and all(
                    np.allclose(res2[i], sum(w[i, j] * Va[j] for j in range(len(Va)))) for i in range(len(w)))
            elif step == "self_attention":
                X, Wq, Wk, Wv = args
                Qa, Ka, Va = X @ Wq, X @ Wk, X @ Wv
                wt = row_softmax(Qa @ Ka.T / np.sqrt(Ka.shape[1]))
                good = isinstance(res2, tuple) and np.allclose(res2[1], wt) and np.allclose(res2[0], wt @ Va)
            elif step == "most_attended":
                w, ws = args
                good = res2 == {ws[i]: ws[int(np.flatnonzero(w[i] == w[i].max())[0])] for i in range(len(ws))}
            elif step == "split_heads":
                Ma, h = args
                d = Ma.shape[1] // h
                good = res2.shape == (h, Ma.shape[0], d) and all(
                    np.array_equal(res2[k], Ma[:, k * d:(k + 1) * d]) for k in range(h))
            elif step == "causal_mask":
                n = args[0]
                good = res2.dtype == bool and res2.shape == (n, n) and all(
                    res2[i, j] == (j <= i) for i in range(n) for j in range(n))
            elif step == "masked_softmax":
                s, m = args
                mb = np.broadcast_to(np.asarray(m).astype(bool), np.shape(s))
                good = (res2.shape == np.shape(s) and np.allclose(res2.sum(-1), 1) and np.all(res2[~mb] == 0)
                        and np.isfinite(res2).all())
            elif step == "merge_heads":
                H = args[0]
                good = res2.shape == (H.shape[1], H.shape[0] * H.shape[2]) and all(
                    np.array_equal(res2[i], np.concatenate([H[k, i] for k in range(H.shape[0])]))
                    for i in range(H.shape[1]))
            elif step == "multi_head_attention":
                X, Wq, Wk, Wv, Wo, h = args
                n, dm = X.shape
                d = dm // h
                outs, wts = [], []
                for k in range(h):
                    sl = slice(k * d, (k + 1) * d)
                    q, kk, v = (X @ Wq)[:, sl], (X @ Wk)[:, sl], (X @ Wv)[:, sl]
                    s = q @ kk.T / np.sqrt(d)
                    s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
                    wk = row_softmax(s)
                    wts.append(wk)
                    outs.append(wk @ v)
                good = np.allclose(res2[1], np.stack(wts)) and np.allclose(res2[0], np.hstack(outs) @ Wo)
            else:
                good = True
            if not good:
                problems.append(f"reference {lab}.{step} fails docstring property on args shapes "
                                f"{[getattr(a, 'shape', a) for a in args]}")


# ------------------------------------------------------------------ main
def main():
    problems = []
    refs, inputs, ref_out, trees = {}, {}, {}, {}
    for lab, info in LABS.items():
        path = os.path.join(ROOT, info["ref"])
        refs[lab] = load(path)
        trees[lab] = ast.parse(open(path, encoding="utf-8").read())
        inputs[lab] = lab1_inputs(refs[lab]) if lab == "self_attention" else lab2_inputs(refs[lab])
        ref_out[lab] = {}
        for step, (cases, _) in inputs[lab].items():
            ref_out[lab][step] = [call(getattr(refs[lab], step), a) for a in cases]
        check_reference_docstrings(lab, refs[lab], inputs[lab], problems)
    check_reference_lab1(refs["self_attention"], problems)
    check_reference_lab2(refs["masked_attention"], problems)

    # manifest format
    raw = open(os.path.join(ROOT, "MANIFEST.csv"), "rb").read()
    if b"\r" in raw:
        problems.append("MANIFEST has CR characters")
    raw.decode("utf-8")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8"))))
    header = raw.decode("utf-8").split("\n", 1)[0]
    if header != "file,lab,step,cause,kind,line":
        problems.append(f"bad header {header!r}")
    listed = {r["file"] for r in rows}
    on_disk = {f"{d}/{f}" for d in ("lab1", "lab2", "correct") for f in os.listdir(os.path.join(ROOT, d)) if f.endswith(".py")}
    if listed != on_disk:
        problems.append(f"manifest/disk mismatch: {sorted(listed ^ on_disk)}")

    counts = defaultdict(Counter)
    off_page = []
    for r in rows:
        rel, lab, step, kind = r["file"], r["lab"], r["step"], r["kind"]
        info = LABS[lab]
        path = os.path.join(ROOT, rel)
        name = os.path.basename(rel)
        if not re.fullmatch(r"[a-z0-9_]+", kind):
            problems.append(f"{rel}: kind not snake_case")
        try:
            mod = load(path)
        except Exception as exc:  # noqa: BLE001
            problems.append(f"{rel}: import failed {exc!r}")
            continue
        src = open(path, encoding="utf-8").read()
        tree = ast.parse(src)
        if not step:  # correct-but-unusual
            if name != f"{info['prefix']}__correct__{kind}.py" or r["line"] or r["cause"]:
                problems.append(f"{rel}: correct row malformed")
            for fname in info["funcs"]:
                for args, (rok, rres) in zip(inputs[lab][fname][0], ref_out[lab][fname]):
                    ok, res = call(getattr(mod, fname), args)
                    if not ok or not equal(rres, res, strict=True):
                        problems.append(f"{rel}: {fname} differs from reference ({res!r:.80})")
                        break
                    if not equal(rres, res, strict=False):
                        problems.append(f"{rel}: {fname} lenient mismatch")
            counts[lab]["correct"] += 1
            continue
        # mistake file
        if name != f"{info['prefix']}__{step}__{kind}.py" or step not in info["funcs"]:
            problems.append(f"{rel}: name/step mismatch")
        if not r["cause"].strip().endswith("니다.") or r["cause"].count("니다.") != 1:
            problems.append(f"{rel}: cause is not one 합니다체 sentence")
        if "#" in ast.get_source_segment(src, fn_nodes(tree)[step]).replace("# %%", ""):
            problems.append(f"{rel}: comment inside mistaken function")
        if module_without(tree, step) != module_without(trees[lab], step):
            problems.append(f"{rel}: code outside {step} differs from reference")
        if ast.dump(fn_nodes(tree)[step]) == ast.dump(fn_nodes(trees[lab])[step]):
            problems.append(f"{rel}: {step} identical to reference")
        cases, n_page = inputs[lab][step]
        differs, page_diff = [], False
        for k, (args, (rok, rres)) in enumerate(zip(cases, ref_out[lab][step])):
            ok, res = call(getattr(mod, step), args)
            if not ok or not equal(rres, res, strict=False):
                differs.append(k)
                if k < n_page:
                    page_diff = True
        if not differs:
            problems.append(f"{rel}: never differs from reference")
        if not page_diff:
            off_page.append(rel)
        # fixed twin
        fixed = os.path.join(ROOT, "_work", "fixed", name)
        if os.path.exists(fixed):
            fmod = load(fixed)
            for args, (rok, rres) in zip(cases, ref_out[lab][step]):
                ok, res = call(getattr(fmod, step), args)
                if not ok or not equal(rres, res, strict=True):
                    problems.append(f"{rel}: fixed twin differs ({res!r:.100})")
                    break
            a = src.splitlines()
            b = open(fixed, encoding="utf-8").read().splitlines()
            changed = set()
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
                if tag != "equal":
                    changed.update(range(i1 + 1, i2 + 1))
            line = int(r["line"])
            if line not in changed or min(changed) != line:
                problems.append(f"{rel}: manifest line {line} not the first changed line {sorted(changed)}")
            node = fn_nodes(tree)[step]
            if not node.lineno <= line <= node.end_lineno:
                problems.append(f"{rel}: line {line} outside {step}")
        else:
            problems.append(f"{rel}: no fixed twin")
        counts[lab][step] += 1

    for lab, c in counts.items():
        print(lab, dict(c))
    kinds = [(r["lab"], r["kind"]) for r in rows if r["step"]]
    dup = [k for k, v in Counter(kinds).items() if v > 1]
    if dup:
        problems.append(f"duplicate kinds {dup}")
    avoid_path = "/tmp/blind12_avoid.txt"
    if os.path.exists(avoid_path):
        avoid = {line.strip().split("__")[-1] for line in open(avoid_path, encoding="utf-8") if line.strip()}
        clash = [r["file"] for r in rows if r["kind"] in avoid]
        if clash:
            problems.append(f"kind names already in avoid list: {clash}")
    print("mistakes that the page example does not show:")
    for rel in off_page:
        print("  ", rel)
    print("PROBLEMS:" if problems else "OK: no problems")
    for p in problems:
        print("  -", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
