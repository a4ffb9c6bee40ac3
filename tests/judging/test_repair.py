"""Diagnosis by the smallest repair of the student's own function (autograder.repair)."""
import ast
import dataclasses
import json
import os
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from autograder.grading import repairs, runs
from autograder.core.child import codec as _codec
from autograder.sandbox.runner import Limits as _Limits
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.lab import LabError
from autograder.core.declaration import Case
from autograder.core.render.step import step_feedback
from autograder.repair import RepairCache, Target, repair_cases, search, single_edits
from autograder.repair.cases import without_hidden
from autograder.repair.edits import moved_operations, normalisations, paired_edits, repeated_edits
from autograder.core.repair_record import EDIT_KINDS
from autograder.core.repair_record import Repair, RepairPart
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB

from conftest import ROOT

CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")


def _function(source: str) -> ast.FunctionDef:
    node = ast.parse(source).body[-1]
    assert isinstance(node, ast.FunctionDef)
    return node


def _with(step_source: str, name: str) -> str:
    """The correct sample with `name` replaced by `step_source` (defined after it: the last wins)."""
    return CORRECT + "\n\n" + step_source


@pytest.mark.parametrize("source, kind, after", [
    ("def f(x):\n    return x.sum(axis=0)\n", "axis", "x.sum(axis=-1)"),
    ("def f(Q, K):\n    return Q @ K\n", "transpose_added", "Q @ K.T"),
    ("def f(x):\n    return x / x.max(axis=-1, keepdims=True)\n", "reduction", "x.sum(axis=-1, keepdims=True)"),
    ("def f(x):\n    return x - x.max(axis=-1)\n", "keepdims", "x.max(axis=-1, keepdims=True)"),
    ("def f(Q, K):\n    return Q @ K.transpose(0, 1)\n", "torch_idiom", "K.swapaxes(0, 1)"),
    ("def f(S, d_k):\n    return S / d_k ** 1 / 2\n", "grouping", "S / d_k ** (1 / 2)"),
    ("def f(x):\n    e = np.exp(x) - x.max()\n    return e\n", "order_of_operations", "np.exp(x - x.max())"),
    ("def f(x):\n    return max(x)\n", "function", "np.max(x, axis=-1, keepdims=True)"),
    ("def f(m):\n    return np.triu(m, k=1)\n", "function", "np.tril(m, k=1)"),
    ("def f(x, y):\n    return x // y\n", "operator", "x / y"),
    ("def f(x):\n    return np.round(x, 1)\n", "call_removed", "x"),
    ("def f(i, j):\n    return (j <= i) & (j >= i - 1)\n", "condition_removed", "j <= i"),
    ("def f(i, j):\n    return j <= i and j >= i - 1\n", "condition_removed", "j <= i"),
    ("def f(X, W):\n    return W.T @ X.T\n", "product_transposed", "X @ W"),
    ("def f(x):\n    return x - np.median(x, axis=-1, keepdims=True)\n", "reduction", "np.max(x, axis=-1, keepdims=True)"),
    ("def f(x):\n    return x / x.prod(axis=-1, keepdims=True)\n", "reduction", "x.sum(axis=-1, keepdims=True)"),
    ("def f(n):\n    return np.ones((n, n), dtype=bool)\n", "call_added", "return np.tril(np.ones((n, n), dtype=bool))"),
    ("def f(x):\n    e = x - x.max(axis=-1, keepdims=True)\n    return e / e.sum(axis=-1, keepdims=True)\n", "call_added",
     "e = np.exp(x - x.max(axis=-1, keepdims=True))"),
    ("def f(s, m):\n    return np.where(m, s, np.nan)\n", "constant", "-np.inf"),
    # A named number keeps the student's own module: a file that imports math only has no np.
    ("def f(s, m):\n    return np.where(m, s, math.nan)\n", "constant", "-math.inf"),
    # A size read from another axis or of another kind; an index one off, on the other axis,
    # missing, or into a list; a column without its broadcasting axis.
    ("def f(x):\n    return x.max(axis=len(x) - 1)\n", "size_of", "x.ndim"),
    ("def f(K):\n    return np.sqrt(max(K.shape))\n", "size_of", "K.shape[1]"),
    ("def f(Ws, X):\n    return [X @ Ws[i] for i in range(1, 4)]\n", "index_shifted", "Ws[i - 1]"),
    ("def f(M, n, d):\n    return [M[:, (h - 1) * d:h * d] for h in range(n)]\n", "index_shifted",
     "M[:, (h + 1 - 1) * d:(h + 1) * d]"),
    ("def f(w, V, k):\n    return w @ V[k]\n", "index_axis", "V[:, k]"),
    ("def f(w, V, n):\n    return sum(w[i] * V[j] for i in range(n) for j in range(n))\n", "index_added", "w[i, j]"),
    ("def f(words, best):\n    return words[best]\n", "as_array", "np.asarray(words)[best]"),
    ("def f(outputs):\n    outputs = []\n    return np.stack(outputs)\n", "as_array", "np.array(outputs)"),
    ("def f(w, V, j):\n    return w[:, j] * V[j]\n", "axis_added", "w[:, j][:, None] * V[j]"),
    # A write into an existing array; math's functions on an array; a generator, a trailing
    # comma, sizes passed the other way; zip without `*`.
    ("def f(X, W):\n    Q = X\n    Q @= W\n    return Q\n", "in_place", "Q = Q @ W"),
    ("def f(X, W, V):\n    V[:] = X @ W\n    return V\n", "in_place", "V = X @ W"),
    ("def f(x):\n    return np.array([math.exp(v) for v in x])\n", "math_on_array", "np.exp(v)"),
    ("def f(X, Ws):\n    return np.vstack(X @ W for W in Ws)\n", "generator", "[X @ W for W in Ws]"),
    ("def f(a, b):\n    return (a, b),\n", "trailing_comma", "(a, b)"),
    ("def f(n):\n    return np.tri((n, n), dtype=bool)\n", "arguments_grouped", "np.tri(n, n, dtype=bool)"),
    ("def f(n):\n    return np.ones(n, n)\n", "arguments_grouped", "np.ones((n, n))"),
    ("def f(H):\n    return [np.concatenate(p) for p in zip(H)]\n", "argument_unpacked", "zip(*H)"),
    # A value computed and dropped, one returned too many, a method's None kept, `=` for `+=`,
    # `.loc` for `.iloc`, TensorFlow's transpose keyword, `^` for `**`.
    ("def f(e):\n    e / e.sum()\n", "return_missing", "return e / e.sum()"),
    ("def f(e):\n    total = e.sum()\n    return e / total, total\n", "returned_extra", "return e / total"),
    ("def f(X, Ws):\n    out = []\n    for W in Ws:\n        out = out.append(X @ W)\n    return out\n", "assigned_none",
     "out.append(X @ W)"),
    ("def f(n, d):\n    start = 0\n    for _ in range(n):\n        start = d\n    return start\n", "accumulate", "start += d"),
    ("def f(table, i):\n    return table.loc[i]\n", "function", "table.iloc"),
    ("def f(Q, K):\n    return np.matmul(Q, K, transpose_b=True)\n", "torch_idiom", "np.matmul(Q, K.T)"),
    ("def f(d):\n    return d ^ 0.5\n", "operator", "d ** 0.5"),
    # An argument too many, `==` for `=`, `break` for `continue`, `+=` on a list, a loop's names
    # that do not match what it walks, an index too many or missing on an accumulation, a comma
    # or a single index where a range was meant, a value left out of the returned tuple.
    ("def f(H, n):\n    return merge_heads(H, n)\n", "argument_removed", "merge_heads(H)"),
    ("def f(m, n):\n    m[np.triu_indices(n, k=1)] == False\n    return m\n", "comparison_as_assignment",
     "m[np.triu_indices(n, k=1)] = False"),
    ("def f(w):\n    t = 0\n    for x in w:\n        if x == 0:\n            break\n        t += x\n    return t\n",
     "loop_control", "continue"),
    ("def f(Q, K):\n    rows = []\n    for q in Q:\n        rows += K @ q\n    return rows\n", "list_extended",
     "rows.append(K @ q)"),
    ("def f(X, W):\n    out = X * 0\n    for i, row in X:\n        out[i] = row @ W\n    return out\n", "loop_unpacking",
     "for i, row in enumerate(X): out[i] = row @ W"),
    ("def f(frame):\n    best = {}\n    for row in frame.iterrows():\n        best[row.name] = row.idxmax()\n    return best\n",
     "loop_unpacking", "for _, row in frame.iterrows(): best[row.name] = row.idxmax()"),
    ("def f(w, V, out):\n    for i in range(2):\n        for j in range(2):\n            out += w[i, j] * V[j]\n    return out\n",
     "index_added", "out[i] += w[i, j] * V[j]"),
    ("def f(w, V, out, i, j):\n    out[i, j] += w * V[j]\n    return out\n", "index_dropped", "out[i]"),
    ("def f(M, d):\n    return [M[:, -h * d:-(h - 1) * d] for h in (2, 1)]\n", "slice_end_zero",
     "-h * d:-(h - 1) * d or None"),
    ("def f(n):\n    hidden = np.triu(np.ones((n, n), dtype=bool), k=1)\n    return hidden\n", "negation_added",
     "hidden = ~np.triu(np.ones((n, n), dtype=bool), k=1)"),
    ("def f(X, Ws):\n    left = list(Ws)\n    return [X @ left.pop() for _ in Ws]\n", "pop_end", "left.pop(0)"),
    ("def f(i, s):\n    return np.choose(i, [s, -np.inf])\n", "order", "[-np.inf, s]"),
    ("def f(s, mask):\n    return np.exp(s) * mask\n", "mask_product", "np.where(mask, np.exp(s), 0)"),
    ("def f(S, M):\n    for idx in np.ndindex(*S.shape[:-1]):\n        S[idx] = S[idx] * M[idx]\n    return S\n",
     "index_dropped", "M[idx[-1]]"),
    ("def f(M, a, b):\n    return M[:, (a, b)]\n", "tuple_as_slice", "M[:, a:b]"),
    ("def f(m, i):\n    m[i, i + 1] = False\n    return m\n", "index_as_slice", "m[i, i + 1:]"),
    ("def f(X, A, B, C):\n    Q = X @ A\n    K = X @ B\n    V = X @ C\n    return Q, K\n", "returned_missing",
     "return (Q, K, V)"),
    ("def f(q, k):\n    return np.add.outer(q, k)\n", "function", "np.multiply"),
    ("def f(h, d):\n    return h + d\n", "operator", "h * d"),
    ("def f(j, i):\n    return j <= i == True\n", "condition_removed", "j <= i"),
    ("def f(table, w):\n    return table[w].idxmax()\n", "index_axis", "table.loc[w]"),
    ("def f(w, qkv):\n    k = qkv[1]\n    return w @ k, w @ qkv\n", "element_of", "qkv[2]"),
    ("def f(M, h, d):\n    return M[:, h * d:]\n", "slice_end", "h * d:h * d + d"),
    ("def f(W, n, d):\n    out = 0\n    for h in range(n):\n        out = out + W[:d]\n    return out\n", "loop_block",
     "h * d:(h + 1) * d"),
    ("def f(M, d):\n    return M[:, 2:][:d]\n", "index_axis", "M[:, 2:][:, :d]"),
    ("def f(X, W):\n    n = X.shape[0]\n    Q = X @ W\n    for j in range(n):\n        Q[:, j] = X @ W[:, j]\n    return Q\n",
     "loop_range", "range(Q.shape[1])"),
    ("def f(x):\n    for row in x:\n        row = row * 2\n    return x\n", "loop_variable_rebound", "row[:] = row * 2"),
    ("def f(c, d):\n    return c[-d:]\n", "slice_from_end", ":d"),
    ("def f(X, W):\n    found = {}\n    found['q'] = X @ W\n    return tuple(found)\n", "dict_values", "found.values()"),
    ("def f(M, d, n):\n    out = M * 0\n    for start in range(0, n, d):\n        out[start] = M[start]\n    return out\n",
     "loop_stride", "out[start // d]"),
    ("def f(n):\n    return [[j <= i for j in range(n)] for j in range(n)]\n", "loop_name",
     "[[j <= i for j in range(n)] for i in range(n)]"),
    ("def f(M, n):\n    for h in range(n):\n        yield M[h]\n", "yield_used", "np.array(list(_values()))"),
    ("def f(x):\n    out = x * 2\n    print(out)\n", "printed", "return out"),
    ("def f(w, V):\n    out = V * 0\n    for c in range(3):\n        out[c] = w @ V[:, c]\n    return out\n", "index_axis",
     "out[:, c]"),
    ("def f(X):\n    Q, *K, V = g(X)\n    return K\n", "starred", "(Q, K, V)"),
    ("def f(m, h):\n    np.append(m, h, axis=1)\n    return m\n", "value_discarded", "m = np.append(m, h, axis=1)"),
    ("def f(m):\n    g = m.reshape(3, 2, 2)\n    g.swapaxes(0, 1)\n    return g\n", "value_discarded", "g = g.swapaxes(0, 1)"),
    ("def f(n):\n    m = np.ones((n, n), dtype=bool)\n    m[np.triu_indices(n)] = False\n    return m\n", "diagonal_offset",
     "np.triu_indices(n, k=1)"),
    ("def f(n):\n    i, j = np.meshgrid(np.arange(n), np.arange(n))\n    return j <= i\n", "keyword_added",
     "np.meshgrid(np.arange(n), np.arange(n), indexing='ij')"),
    ("def f(t, g):\n    return t.apply(g)\n", "axis", "t.apply(g, axis=-1)"),
    ("def f(H):\n    return pd.concat(H).to_numpy()\n", "axis", "pd.concat(H, axis=1)"),
    ("def f(t):\n    return {w: row.idxmax() for w, row in t.items()}\n", "function", "t.iterrows()"),
    ("def f(X, W):\n    return np.einsum('nd,dk->k', X, W)\n", "einsum", "np.einsum('nd,dk->nk', X, W)"),
    ("def f(w, V):\n    return sum(np.outer(a, v) for a, v in zip(w, V))\n", "transpose_added", "zip(w.T, V)"),
    ("def f(H):\n    return [[x for x in h[i] for h in H] for i in range(3)]\n", "clauses_swapped",
     "[x for h in H for x in h[i]]"),
    ("def f(q, k):\n    return np.convolve(q, k, mode='valid')[0]\n", "function", "np.correlate(q, k, mode='valid')"),
    ("def f(X, Ws):\n    fs = [lambda: X @ W for W in Ws]\n    return [g() for g in fs]\n", "late_binding",
     "lambda W=W: X @ W"),
    # a sum seeded with its first term, then every term added again
    ("def f(q, k):\n    total = q[0] * k[0]\n    for t in range(len(q)):\n        total += q[t] * k[t]\n    return total\n",
     "loop_start", "range(1, len(q))"),
    ("def f(w, V):\n    return [(i, j) for i, j in np.nonzero(w)]\n", "function", "np.argwhere(w)"),
    ("def f(S, d_k):\n    return S * np.sqrt(np.reciprocal(d_k))\n", "order_of_operations", "np.reciprocal(np.sqrt(d_k))"),
    # a zero given as the neutral value of a maximum over the visible cells
    ("def f(s, m):\n    return np.max(s, axis=-1, where=m, initial=0)\n", "constant", "-np.inf"),
    ("def f(s, m):\n    return numpy.where(m, s, 0.0)\n", "constant", "-numpy.inf"),
    # a sequence read from its first item where its last was meant (`format(..., "b")`: highest bit first)
    ("def f(bits):\n    return [c == '1' for c in bits]\n", "walked_forwards", "[c == '1' for c in bits[::-1]]"),
    # one axis's lengths compared to tell a 2-D input from a stack of them
    ("def f(s, m):\n    if s.shape[0] == m.shape[0]:\n        return s\n    return m\n", "size_of", "s.ndim == m.ndim"),
    # one pad pair, which numpy applies to every axis, where one axis was to be padded
    ("def f(H, a, b):\n    return np.pad(H, (a, b))\n", "pad_width", "np.pad(H, ((0, 0), (a, b)))"),
    ("def f(rows):\n    out = []\n    for r in rows:\n        out.append(r)\n    return out\n", "walked_forwards",
     "for r in rows[::-1]: out.append(r)"),
    # a block's end given as its width; a range of one item where the item was meant; `+=` through
    # an index that repeats; a row written where the loop's cell was meant; axes passed one by one
    ("def f(M, start, d):\n    return M[:, start:d]\n", "slice_width", "start:start + d"),
    ("def f(qkv):\n    return qkv[:1]\n", "slice_as_index", "0"),
    ("def f(X):\n    return X[-1:]\n", "slice_as_index", "-1"),
    ("def f(x, k):\n    return x[k:k + 1]\n", "slice_as_index", "k"),
    ("def f(out, rows, e):\n    out[rows] += e\n    return np.ravel(out)\n", "repeated_index", "np.add.at(out, rows, e)"),
    ("def f(Q, K, t):\n    for i in range(2):\n        for j in range(2):\n            t[i] = Q[i] @ K[j]\n    return t\n",
     "index_added", "t[i, j]"),
    ("def f(x):\n    return np.transpose(x, 1, 0, 2)\n", "arguments_grouped", "np.transpose(x, (1, 0, 2))"),
    ("def f(out, i, row):\n    np.put(out, i, row)\n    return out\n", "flat_index", "out[i] = row"),
    ("def f(t, k, v):\n    t.flatten()[k] = v\n    return t\n", "written_into_copy", "t.ravel()[k]"),
    ("def f(frame, i, j, v):\n    frame[j][i] = v\n    return frame\n", "written_into_copy", "frame.loc[i, j]"),
    ("def f(m, cols, k, v):\n    m[cols][k] = v\n    return m\n", "written_into_copy", "m[cols, k]"),
    ("def f(t, rows, fill):\n    map(fill, rows)\n    return t\n", "never_run", "list(map(fill, rows))"),
    ("def f(x, m):\n    return np.vectorize(lambda v: 1 if v == m else np.exp(v - m))(x)\n", "whole_number", "1.0"),
    ("def f(cols, k):\n    return list(zip(*[iter(cols) for _ in range(k)]))\n", "copies_made", "[iter(cols)] * k"),
    ("def f(n):\n    rows = [[0] * n] * n\n    rows[0][0] = 1\n    return rows\n", "copies_made", "[[0] * n for _ in range(n)]"),
])
def test_single_edits_hold_the_repair_of_each_kind(source, kind, after):
    edits = single_edits(_function(source))
    assert any(edit.kind == kind and edit.after == after for edit in edits), [(e.kind, e.after) for e in edits]


def test_a_cell_computed_in_a_loop_is_never_widened_to_a_range_a_later_pass_writes_over():
    """`table[i, j] = q @ k` widened to `table[i:, j]` is right only because later passes write
    over the rows below; a constant written from a place on (`mask[i, i + 1:] = False`) is a range meant."""
    varying = single_edits(_function("def f(Q, K, t):\n    for i in range(2):\n        for j in range(2):\n"
                                     "            t[i, j] = Q[i:i + 1] @ K[j:j + 1].T\n    return t\n"))
    assert not [e for e in varying if e.kind == "index_as_slice"]
    constant = single_edits(_function("def f(m, n):\n    for i in range(n):\n        m[i, i + 1] = False\n    return m\n"))
    assert [e.after for e in constant if e.kind == "index_as_slice"] == ["m[i:, i + 1]", "m[i, i + 1:]"]


@pytest.mark.parametrize("source", [
    "def f(n, w):\n    return np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]) < w\n",
    "def f(a, b):\n    return a - b\n",
    "def f(i, j):\n    return j <= i\n",
])
def test_an_edit_that_makes_the_two_sides_of_a_subtraction_or_comparison_the_same_is_never_a_repair_alone(source):
    """`x - x` is 0 and `i <= i` true whatever they hold: such an edit is right only where that part
    was not needed, and another edit (the part left out) says so. It may still be one part of a pair
    (`d_k / d_k` with `np.sqrt` around the second `d_k`)."""
    function = _function(source)
    marked = 0
    for edit in single_edits(function):
        alike = False
        for node in ast.walk(ast.parse(edit.source)):
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Sub, ast.Div)):
                alike |= ast.dump(node.left) == ast.dump(node.right)
            if isinstance(node, ast.Compare) and len(node.ops) == 1:
                alike |= ast.dump(node.left) == ast.dump(node.comparators[0])
        assert edit.neutralising == alike, (edit.kind, edit.after)
        marked += alike
    assert marked  # each source has such an edit


def test_one_piece_taken_out_on_two_lines_is_paired_however_dear_its_edits_come():
    """`X[-1:]` and `mask[-1:]`, one habit on two lines of a long function: the pair is tried even
    when both edits come after the cheapest single edits that are paired with one another."""
    from autograder.repair.edits import MAX_COMBINED, paired_edits
    filler = "".join(f"    a{k} = X @ W + {k}\n" for k in range(8))
    source = ("def f(X, W, mask):\n" + filler + "    Q = X[-1:] @ W\n    m = mask[-1:]\n    return Q * m\n")
    function = _function(source)
    singles = single_edits(function, limit=3000)
    removed = [k for k, edit in enumerate(e for e in singles if e.rewrite is not None) if edit.kind == "index_removed"]
    assert len(removed) == 2 and min(removed) > MAX_COMBINED  # both beyond the cheapest, paired with one another
    pairs = paired_edits(function, singles, limit=1000)
    assert any([(p.kind, p.after) for p in pair.parts] == [("index_removed", "X"), ("index_removed", "mask")]
               for pair in pairs)


def test_one_edit_made_on_other_names_on_one_line_is_paired_first_on_that_line():
    """`Q[i:i + 1] @ K[j:j + 1].T` put in one cell: the same slip on two names (a range of one where
    the item was meant) is one habit, tried before the line's other pairs (tests/corpora/corpus_blind22,
    scores, cell_value_is_1x1_array: a line of many edits once crowded it out)."""
    from autograder.repair.edits import _alike_but_names, paired_edits
    source = ("def f(Q, K):\n    n = Q.shape[0]\n    table = np.zeros((n, K.shape[0]))\n"
              "    for i in range(n):\n        for j in range(K.shape[0]):\n"
              "            table[i, j] = Q[i:i + 1] @ K[j:j + 1].T\n    return table\n")
    function = _function(source)
    singles = single_edits(function)
    pairs = paired_edits(function, singles, limit=1000)
    wanted = [k for k, pair in enumerate(pairs)
              if [(p.kind, p.after) for p in pair.parts] == [("slice_as_index", "i"), ("slice_as_index", "j")]]
    assert wanted, "the pair is never tried"
    # Every other pair of two edits of that line comes after it (but the same edit made twice).
    unlike = [k for k, pair in enumerate(pairs) if {p.line for p in pair.parts} == {6}
              and not _alike_but_names(*pair.parts) and pair.parts[0].after != pair.parts[1].after]
    assert unlike and wanted[0] < min(unlike)


@pytest.mark.parametrize("a, b, alike", [
    (("slice_as_index", "i:i + 1", "i"), ("slice_as_index", "j:j + 1", "j"), True),
    (("operator", "i + 1", "i - 1"), ("operator", "j + 1", "j - 1"), True),
    (("operator", "i + 1", "i - 1"), ("operator", "j + 1", "j * 1"), False),  # other operators
    (("slice_as_index", "i:i + 1", "i"), ("slice_as_index", "j:i + 1", "j"), False),  # not one name renamed
    (("slice_as_index", "i:i + 1", "i"), ("index_removed", "j:j + 1", "j"), False),  # other kinds
])
def test_edits_alike_but_names_are_one_edit_with_each_name_renamed_throughout(a, b, alike):
    from autograder.repair.edits import Edit, _alike_but_names

    made = [Edit(kind=kind, line=1, before=before, after=after, source="") for kind, before, after in (a, b)]
    assert _alike_but_names(*made) is alike


def test_an_axis_passed_to_the_students_own_function_is_a_keyword_to_leave_out():
    """`softmax(x, axis=-1)` where softmax is the student's own (taking no axis): the keyword left
    out is told as one that should not be passed; of numpy's functions, as the axis to check."""
    own = single_edits(_function("def f(x):\n    return softmax(x, axis=-1)\n"), module_functions=frozenset({"softmax"}))
    assert ("keyword_removed", "softmax(x)") in [(e.kind, e.after) for e in own]
    numpy = single_edits(_function("def f(x):\n    return np.sum(x, axis=-1)\n"), module_functions=frozenset({"softmax"}))
    assert ("axis", "np.sum(x)") in [(e.kind, e.after) for e in numpy]


def test_a_product_given_keywords_is_not_renamed_since_its_keywords_mean_other_things_elsewhere():
    """`np.tensordot(w, V, axes=([0], [0]))` renamed `np.matmul` keeps `axes`, which matmul reads
    otherwise: a repair by coincidence where the axes were the slip. The axes are edited instead."""
    edits = single_edits(_function("def f(w, V):\n    return np.tensordot(w, V, axes=([0], [0]))\n"))
    assert not [e for e in edits if e.kind == "function"]
    assert [(e.before, e.after) for e in edits if e.kind == "constant"][0] == ("0", "1")
    renamed = single_edits(_function("def f(w, V):\n    return np.tensordot(w, V)\n"))
    assert any(e.kind == "function" for e in renamed)


@pytest.mark.parametrize("source, line, after", [
    # set once for every cell where each cell needs its own (a statement before a loop, moved in)
    ("def f(Q, K):\n    total = 0.0\n    for q in Q:\n        for k in K:\n            total += q @ k\n    return total\n",
     2, "for k in K: total = 0.0"),
    # a `return` indented into the loop (moved out after it)
    ("def f(x):\n    out = x * 0\n    for i in range(len(x)):\n        out[i] = x[i]\n        return out\n", 5, "return out"),
    # a line written after the loop it belongs in (moved in, at the end)
    ("def f(w, V):\n    out = 0\n    for j in range(3):\n        term = w[j] * V[j]\n    out += term\n    return out\n",
     5, "for j in range(3): … out += term"),
])
def test_a_statement_is_moved_across_a_loops_edge(source, line, after):
    edits = single_edits(_function(source))
    assert any(e.kind == "statement_moved" and e.line == line and e.after == after for e in edits), \
        [(e.line, e.after) for e in edits if e.kind == "statement_moved"]


def test_two_values_swapped_where_they_are_made_are_told_beside_the_order_where_they_are_used(zygote):
    """tests/corpora/corpus_blind15 (make_qkv, swapped_kv): K and V projected with each other's
    weights. The values exchanged where they are made repair as well as the returned tuple in
    another order: the order is told, and the values swapped beside it, so the student is sent to
    both places."""
    step = (
        "def make_qkv(X, W_Q, W_K, W_V):\n"
        "    queries = X @ W_Q\n"
        "    keys = X @ W_V\n"
        "    values = X @ W_K\n"
        "    return queries, keys, values\n")
    result = grade_bytes("swapped.py", _with(step, "make_qkv").encode(), zygote, Plan.build(LAB))
    repair = next(s for s in result.steps if s.name == "make_qkv").repair
    assert repair is not None
    start = CORRECT.count("\n") + 3  # the `def` line of the step appended after the sample
    assert [(p.kind, p.line - start) for p in repair.parts] == [("order", 4)]
    assert [(p.kind, p.line - start) for p in repair.also] == [("values_swapped", 2)]
    edits = single_edits(_function(step))
    assert "keys = X @ W_K; values = X @ W_V" in [e.after for e in edits if e.kind == "values_swapped"]


@pytest.mark.parametrize("source, after", [
    # tests/corpora/corpus_blind15 (most_attended, returns_index): the column's number kept as the word
    ("def f(weights, words):\n    idx = np.argmax(weights, axis=1)\n"
     "    return {words[i]: int(j) for i, j in enumerate(idx)}\n", "words[int(j)]"),
    ("def f(order, names):\n    out = []\n    for k in order:\n        out.append(k)\n"
     "    return out, names[0], names[k]\n", "names[k]"),
])
def test_a_position_is_given_the_item_at_it_from_a_name_indexed_elsewhere(source, after):
    edits = single_edits(_function(source))
    assert after in [e.after for e in edits if e.kind == "item_of"], [(e.kind, e.after) for e in edits]


@pytest.mark.parametrize("source, kind, after", [
    # tests/corpora/corpus_blind15 (merge_heads, sums_heads): each word's heads added, not joined
    ("def f(H):\n    return np.array([sum(H[h, i] for h in range(H.shape[0])) for i in range(H.shape[1])])\n",
     "joined", "np.concatenate([H[h, i] for h in range(H.shape[0])], axis=-1)"),
    ("def f(parts):\n    return np.sum([p for p in parts])\n", "joined", "np.concatenate([p for p in parts], axis=-1)"),
    # tests/corpora/corpus_blind15 (split_heads, reversed_heads): the blocks walked from the end
    ("def f(M, d):\n    return [M[:, s:s + d] for s in range(M.shape[1] - d, -1, -d)]\n",
     "walked_backwards", "reversed(range(M.shape[1] - d, -1, -d))"),
])
def test_pieces_added_or_walked_backwards_are_joined_or_walked_forwards(source, kind, after):
    edits = single_edits(_function(source))
    assert after in [e.after for e in edits if e.kind == kind], [(e.kind, e.after) for e in edits]


def test_only_a_sum_of_pieces_and_a_backward_range_are_edited_so():
    source = "def f(x, n):\n    return x.sum(axis=0) + sum(x) + sum(range(n)) + len(range(0, n, 2))\n"
    assert not [e for e in single_edits(_function(source)) if e.kind in ("joined", "walked_backwards")]


@pytest.mark.parametrize("source, kind, after", [
    # tests/corpora/corpus_blind16 (merge_heads, every_block_gets_first_head): the first head on every pass
    ("def f(H):\n    out = np.zeros((H.shape[1], 4))\n    for h in range(H.shape[0]):\n"
     "        out[:, 2 * h:2 * h + 2] = H[0]\n    return out\n", "fixed_in_loop", "h"),
    ("def f(H):\n    return [H[1] * k for k in range(3)]\n", "fixed_in_loop", "k"),
    # tests/corpora/corpus_blind16 (split_heads, slice_start_not_advanced): `start` never moves on
    ("def f(M, n):\n    d = M.shape[1] // n\n    start = 0\n    heads = []\n    for h in range(n):\n"
     "        heads.append(M[:, start:start + d])\n    return heads\n", "never_advanced", "start += d"),
    # tests/corpora/corpus_blind22 (split_heads, recursion_count_not_decremented): a parameter passed on as it came
    ("def f(M, n):\n    if n == 1:\n        return [M]\n    d = M.shape[1] // n\n"
     "    return [M[:, :d]] + f(M[:, d:], n)\n", "recursion_not_advanced", "f(M[:, d:], n - 1)"),
    # tests/corpora/corpus_blind16 (causal_mask, tilde_on_python_bool_cells): `~` on a Python bool
    ("def f(n):\n    return np.array([[~(j > i) for j in range(n)] for i in range(n)])\n",
     "bitwise_not", "not j > i"),
    # tests/corpora/corpus_blind16 (softmax, hardcoded_three_term_denominator): three columns added by hand
    ("def f(e):\n    return e / (e[..., 0] + e[..., 1] + e[..., 2])[..., None]\n", "spelled_out", "e.sum(axis=-1)"),
    ("def f(e):\n    return e[:, 0] + e[:, 1]\n", "spelled_out", "e.sum(axis=1)"),
    # corpus_blind17 (make_qkv, chained_assignment_shared_buffer): written into a buffer three names share
    ("def f(X, W):\n    Q = K = np.zeros((2, 2))\n    np.matmul(X, W, out=Q)\n    return Q, K\n", "in_place",
     "Q = np.matmul(X, W)"),
    # corpus_blind17 (make_qkv, einsum_output_keeps_summed_index): the summed letter kept in the output
    ("def f(X, W):\n    return np.einsum('ij,jk->ij', X, W)\n", "einsum", "np.einsum('ij,jk->ik', X, W)"),
    # corpus_blind17 (causal_mask, empty_instead_of_ones): an array never filled
    ("def f(n):\n    return np.tril(np.empty((n, n), dtype=bool))\n", "function", "np.ones((n, n), dtype=bool)"),
    # "close enough" taken for equal (corpus_blind12: a tie of weights a millionth apart)
    ("def f(row):\n    return np.flatnonzero(np.isclose(row, row.max()))[0]\n", "function", "np.equal(row, row.max())"),
    # corpus_blind17 (scores, einsum_implicit_output_alphabetical): `qd,kd` makes `kq`
    ("def f(Q, K):\n    return np.einsum('qd,kd', Q, K)\n", "einsum_output", "np.einsum('qd,kd->qk', Q, K)"),
    # corpus_blind17 (most_attended, rank_default_ascending): ranks counted from the smallest
    ("def f(t):\n    return t.rank(axis=1, method='first') == 1\n", "keyword_added",
     "t.rank(axis=1, method='first', ascending=False)"),
    # corpus_blind18 (split_heads, linspace_bounds_count_off_by_one): k points cut k - 1 pieces
    ("def f(M, h):\n    cuts = np.linspace(0, M.shape[1], h).astype(int)\n    return np.split(M, cuts[1:-1], axis=1)\n",
     "count_shifted", "np.linspace(0, M.shape[1], h + 1)"),
    # corpus_blind18 (softmax, asmatrix_promotes_1d): a row made an `np.matrix`
    ("def f(x):\n    x = np.asmatrix(x)\n    e = np.exp(x - x.max(axis=-1))\n    return e / e.sum(axis=-1)\n",
     "function", "np.asarray(x)"),
    # corpus_blind18 (merge_heads, hstack_wrapped_in_list): one array in a list, where its parts were meant
    ("def f(H):\n    return np.hstack([H])\n", "wrapped_in_list", "np.hstack(H)"),
    # corpus_blind18 (multi_head_attention, concatenates_projected_heads): the heads' parts of the
    # output joined side by side where they were to be added
    ("def f(outs):\n    return np.concatenate(outs, axis=1)\n", "added_up", "np.sum(outs, axis=0)"),
    ("def f(X, n):\n    return np.hstack([X[h] for h in range(n)])\n", "added_up",
     "np.sum([X[h] for h in range(n)], axis=0)"),
    # corpus_blind18 (most_attended, unicode_dtype_truncates_words): an array of strings made empty
    # holds one character of each word; (masked_softmax, mask_applied_only_for_bool_dtype): a 0/1
    # mask taken as it is where a bool one was meant
    ("def f(words):\n    best = np.empty(len(words), dtype=str)\n    best[:] = words\n    return best\n",
     "dtype", "np.empty(len(words), dtype=object)"),
    ("def f(x):\n    return x.astype(int) / 2\n", "dtype", "x.astype(float)"),
    ("def f(s, mask):\n    mask = np.asarray(mask)\n    return np.where(mask, s, 0)\n", "input_dtype",
     "np.asarray(mask, dtype=bool)"),
    # corpus_blind7 (softmax, zeros_like_int_buffer): a buffer made like an integer input
    ("def f(x):\n    out = np.zeros_like(x)\n    out[:] = x / 2\n    return out\n", "dtype",
     "np.zeros_like(x, dtype=float)"),
    # corpus_blind18 (masked_softmax, writes_into_broadcast_view): a read-only view written into
    ("def f(s, mask):\n    filled = np.broadcast_to(s, s.shape)\n    filled[~mask] = -1\n    return filled\n",
     "read_only_view", "np.array(np.broadcast_to(s, s.shape))"),
    # corpus_blind19 (softmax, running_max_shift): a running maximum where the row's was meant
    ("def f(x):\n    e = np.exp(x - np.maximum.accumulate(x, axis=-1))\n    return e / e.sum(axis=-1, keepdims=True)\n",
     "function", "np.maximum.reduce(x, axis=-1, keepdims=True)"),
    # an `if` whose lines were to run whatever its condition
    ("def f(x, k):\n    if k > 1:\n        x = x * 2\n    return x\n", "branch_always", ""),
    # corpus_blind18 (merge_heads, torch_flatten_start_dim): torch's flatten(1), numpy's memory order
    ("def f(H):\n    return H.transpose(1, 0, 2).flatten(1)\n", "torch_idiom",
     "H.transpose(1, 0, 2).reshape(H.transpose(1, 0, 2).shape[0], -1)"),
    # corpus_blind18 (make_qkv, zip_star_transposes_results): values walked in parallel
    ("def f(X, A, B):\n    P, Q = zip(*[X @ W for W in (A, B)])\n    return P, Q\n", "call_removed",
     "[X @ W for W in (A, B)]"),
    # corpus_blind18 (causal_mask, tri_keyword_lowercase_n): numpy's `np.tri` takes `N`
    ("def f(n):\n    return np.tri(n=n, dtype=bool)\n", "keyword_name", "np.tri(N=n, dtype=bool)"),
    ("def f(n):\n    return np.tri(n=n, dtype=bool)\n", "keyword_name", "np.tri(n, dtype=bool)"),
    # corpus_blind17 (most_attended, to_dict_orient_is_columns): a table's dict keyed by column first
    ("def f(t):\n    table = t.to_dict()\n    return {w: max(table[w], key=table[w].get) for w in table}\n",
     "keyword_added", "t.to_dict(orient='index')"),
    # corpus_blind17 (multi_head_attention, partial_binds_first_positional): bound to the first parameter
    ("def f(M, n):\n    split = partial(g, n)\n    return split(M)\n", "passed_by_name", "partial(g, n=n)"),
    # corpus_blind17 (mix, math_fsum_on_arrays): math's sum of terms that are rows
    ("def f(w, V):\n    return math.fsum(w[j] * V[j] for j in range(3))\n", "math_on_array",
     "np.sum([w[j] * V[j] for j in range(3)], axis=0)"),
    # corpus_blind17 (merge_heads, list_sum_concatenates_rows): lists added end to end, rows after rows
    ("def f(H):\n    return np.array(sum((list(h) for h in H), []))\n", "joined",
     "np.concatenate([list(h) for h in H], axis=-1)"),
    # corpus_blind17 (causal_mask, tile_compare_broadcasts_along_columns): both sides along one axis
    ("def f(n):\n    return np.arange(n) <= np.arange(n)\n", "axis_added", "np.arange(n)[:, None] <= np.arange(n)"),
    # corpus_blind5 (split_heads, slice_start_h), corpus_blind6 (merge_heads): the head's number as its column
    ("def f(M, n):\n    d = M.shape[1] // n\n    return [M[:, h:h + d] for h in range(n)]\n",
     "position_scaled", "M[:, h * d:h * d + d]"),
])
def test_a_loop_that_reads_the_same_cell_or_counter_or_a_fixed_count_is_edited_to_follow_the_input(source, kind, after):
    edits = single_edits(_function(source))
    assert after in [e.after for e in edits if e.kind == kind], [(e.kind, e.after) for e in edits]


def test_rows_masked_after_their_softmax_are_normalised_with_the_pairs_never_before_a_single_edit():
    """corpus_blind5 (masked_softmax, mask_after_softmax): dividing what is returned by its row sums
    repairs any normalisation gone wrong before it, so it is tried beside the pairs, not as a single edit."""
    source = ("def f(s, m):\n    e = np.exp(s - s.max(axis=-1, keepdims=True))\n    p = e / e.sum(axis=-1, keepdims=True)\n"
              "    return p * m, p\n")
    assert [e.after for e in normalisations(_function(source))] == [
        "return (p * m / (p * m).sum(axis=-1, keepdims=True), p)", "return (p * m, p / p.sum(axis=-1, keepdims=True))"]
    assert not [e for e in single_edits(_function(source)) if e.kind == "normalised"]


@pytest.mark.parametrize("source", [
    "def f(H):\n    return H[0] + H[1]\n",  # no loop around the index: not a loop's cell; cells 0, 1 of axis 0 kept
    "def f(x, n):\n    start = 0\n    for i in range(n):\n        start += x[i]\n    return start\n",  # advanced
    "def f(x):\n    return x[0, 1] + x[1, 0]\n",  # two indexes change: not one axis counted
    "def f(x):\n    return x[..., 1] + x[..., 2]\n",  # not counted from 0
    "def f(a):\n    return ~a\n",  # not a comparison
    "def f(Q, K):\n    return np.einsum('ij,jk', Q, K) + np.einsum('ij,kj->ik', Q, K)\n",  # alphabetical already; explicit
    "def f(x, n):\n    return x if n == 0 else f(x[1:], n - 1)\n",  # a recursive call that moves on
    "def f(x, n):\n    return g(x, n)\n",  # a call of another function
    "def f(x, n):\n    return f(n, x)\n",  # the parameters passed on in other places
])
def test_the_loop_and_count_edits_leave_other_code_alone(source):
    edits = single_edits(_function(source))
    found = [(e.kind, e.after) for e in edits if e.kind in ("fixed_in_loop", "never_advanced", "bitwise_not",
                                                             "einsum_output", "recursion_not_advanced")]
    found += [(e.kind, e.after) for e in edits if e.kind == "spelled_out" and e.after.startswith("x.")]
    assert not found, found


def test_a_recursive_function_is_repaired_in_every_call_of_itself_by_grading(zygote):
    """A candidate stands for the function in its own calls too (worker.call): the recursion that
    never ends is repaired where it calls itself, and named on that line."""
    from labs.masked_attention import LAB as MASKED_LAB
    correct = (ROOT / "solutions" / "masked_attention.py").read_text("utf-8")
    step = ("def split_heads(M, n_heads):\n"
            "    if n_heads == 1:\n"
            "        return M[np.newaxis]\n"
            "    d_head = M.shape[1] // n_heads\n"
            "    rest = split_heads(M[:, d_head:], n_heads)\n"
            "    return np.concatenate([M[np.newaxis, :, :d_head], rest])\n")
    source = correct + "\n\n" + step
    line = source.count("\n", 0, source.index("    rest = split_heads")) + 1
    result = grade_bytes("recursive.py", source.encode(), zygote, Plan.build(MASKED_LAB))
    graded = next(s for s in result.steps if s.name == "split_heads")
    assert graded.repair is not None and [(p.kind, p.line) for p in graded.repair.parts] == \
        [("recursion_not_advanced", line)], graded.repair
    assert {s.name for s in result.steps if s.score < s.max_score} == {"split_heads"}


def test_a_first_head_read_on_every_pass_is_named_on_its_line_by_grading(zygote):
    """The whole path: the search runs the candidate in the sandbox and the feedback names the line."""
    from labs.masked_attention import LAB as MASKED_LAB
    correct = (ROOT / "solutions" / "masked_attention.py").read_text("utf-8")
    step = ("def merge_heads(H):\n"
            "    n_heads, n, d_head = H.shape\n"
            "    out = np.zeros((n, n_heads * d_head))\n"
            "    for h in range(n_heads):\n"
            "        out[:, h * d_head:(h + 1) * d_head] = H[0]\n"
            "    return out\n")
    source = correct + "\n\n" + step
    result = grade_bytes("first_head.py", source.encode(), zygote, Plan.build(MASKED_LAB))
    repair = next(s for s in result.steps if s.name == "merge_heads").repair
    assert repair is not None
    start = correct.count("\n") + 3
    assert [(p.kind, p.line - start) for p in repair.parts] == [("fixed_in_loop", 4)]


def test_a_position_is_never_indexed_into_without_a_name_indexed_by_a_name_elsewhere():
    source = "def f(weights, words):\n    return {words[0]: j for j in range(3)}\n"
    assert not [e for e in single_edits(_function(source)) if e.kind == "item_of"]


def test_values_that_read_the_other_name_are_never_swapped():
    source = "def f(x):\n    a = x + 1\n    b = a * 2\n    c = x - 1\n    return a, b, c\n"
    swaps = [e.before for e in single_edits(_function(source)) if e.kind == "values_swapped"]
    assert swaps == ["a = x + 1; c = x - 1", "b = a * 2; c = x - 1"]


@pytest.mark.parametrize("source, after", [
    ("def f(Q, K, V, d):\n    w = soft(g(Q, K))\n    return mix(w, V / d)\n", "g(Q, K) / d"),
    ("def f(V, W, h):\n    return merge(split(V @ W, h))\n", "merge(split(V, h)) @ W"),
])
def test_an_operation_is_moved_onto_another_value(source, after):
    moved = moved_operations(_function(source))
    assert any(edit.after == after for edit in moved), [edit.after for edit in moved]
    assert all(edit.kind == "operation_moved" and edit.rewrite is None for edit in moved)


def test_a_function_passed_uncalled_is_called_with_a_name_in_scope():
    source = "def f(s, n):\n    return soft(s, mask)\n"
    edits = single_edits(_function(source), module_functions=frozenset({"soft", "mask"}))
    assert any(e.kind == "function_uncalled" and e.after == "mask(n)" for e in edits), \
        [(e.kind, e.after) for e in edits if e.kind == "function_uncalled"]
    assert not any(e.kind == "function_uncalled" and e.after.startswith("soft(") for e in edits)  # called already


def test_a_name_indexed_elsewhere_is_indexed_only_where_it_is_used_whole():
    edits = single_edits(_function("def f(w, qkv):\n    k = qkv[1]\n    return w @ qkv\n"))
    taken = [e for e in edits if e.kind == "element_of"]
    assert {e.after for e in taken} == {"qkv[1]", "qkv[2]", "qkv[-1]"} and {e.line for e in taken} == {3}


def test_a_rebound_builtin_is_called_from_builtins():
    edits = single_edits(_function("def f(x):\n    return sum(x)\n"), rebound_builtins=frozenset({"sum"}))
    assert edits[0].kind == "builtin_rebound"


def _reference_functions() -> list[ast.FunctionDef]:
    import labs.masked_attention.reference as masked_reference
    import labs.self_attention.reference as reference
    found = []
    for module in (reference, masked_reference):
        tree = ast.parse(pathlib.Path(module.__file__).read_text("utf-8"))
        found += [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    return found


@pytest.mark.parametrize("function", _reference_functions(), ids=lambda f: f.name)
def test_every_edit_compiles_and_defines_the_same_function(function):
    edits = single_edits(function)
    pairs = paired_edits(function, edits, limit=50)
    for candidate in [*edits, *pairs]:
        tree = ast.parse(candidate.source)
        assert [node.name for node in tree.body] == [function.name]
    assert {edit.kind for edit in edits} <= set(EDIT_KINDS)
    assert len({edit.source for edit in edits}) == len(edits)


def test_repair_cases_hold_no_hidden_case_and_refuse_one():
    cases = repair_cases(LAB) + repair_cases(MASKED)
    assert cases and not any(case.hidden for case in cases)
    assert any(case.name.endswith("~generated") for case in cases)
    hidden = {case.name for lab in (LAB, MASKED) for case in lab.hidden_cases()}
    assert not {case.name for case in cases} & hidden
    for lab in (LAB, MASKED):
        # cases of other sizes the lab draws: a repair right only on the public cases' sizes is refused
        sizes = {case.name: {k: np.shape(v) for k, v in case.inputs.items()} for case in repair_cases(lab)}
        public = [sizes[case.name] for case in lab.public_cases()]
        assert any(name.startswith("domain-") and shapes not in public for name, shapes in sizes.items())
    hidden = Case(name="h", words=("a",), inputs={}, hidden=True)
    with pytest.raises(ValueError):
        without_hidden([hidden])


def test_a_repair_child_is_never_given_a_hidden_input(zygote, monkeypatch):
    """INVARIANT: candidates run on the repair plan's inputs only; no argument any repair call
    carries equals an input of a hidden case."""
    plan = Plan.build(LAB)
    hidden_inputs = [np.asarray(v) for case in LAB.hidden_cases() for v in case.inputs.values()
                     if isinstance(v, np.ndarray)]
    seen: list[object] = []
    real_run = runs.run

    def spy(zygote, cells, calls, *args, **kwargs):
        for call in calls:
            if call.source is not None:
                seen.extend(_codec.decode(a) for a in call.args)
        return real_run(zygote, cells, calls, *args, **kwargs)

    monkeypatch.setattr(runs, "run", spy)  # the public run, whose last calls may check a kept repair
    monkeypatch.setattr(repairs, "run", spy)  # the search's own children
    wrong = _with("def scores(Q, K):\n    return Q @ K\n", "scores")
    result = grade_bytes("wrong.py", wrong.encode(), zygote, plan)
    assert next(s for s in result.steps if s.name == "scores").repair is not None
    assert seen
    for value in seen:
        arrays = value if isinstance(value, list) else [value]
        for array in arrays:
            if isinstance(array, np.ndarray):
                assert not any(h.shape == array.shape and np.array_equal(h, array) for h in hidden_inputs)


def _step(result, name):
    return next(s for s in result.steps if s.name == name)


def test_a_wrong_axis_is_named_with_its_line_in_both_languages(zygote):
    plan = Plan.build(LAB)
    wrong = _with("def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
                  "    return e / e.sum(axis=0, keepdims=True)\n", "softmax")
    result = grade_bytes("wrong.py", wrong.encode(), zygote, plan)
    step = _step(result, "softmax")
    line = wrong[:wrong.index("    return e / e.sum(axis=0")].count("\n") + 1
    assert step.repair.parts == (RepairPart(kind="axis", line=line, before="e.sum(axis=0, keepdims=True)",
                                            after="e.sum(axis=-1, keepdims=True)"),)
    korean, english = step_feedback(step, LAB, "ko"), step_feedback(step, LAB, "en")
    assert f"{line}번째 줄: `e.sum(axis=0, keepdims=True)`의 축(`axis`)을 확인해 보십시오." in korean
    assert f"line {line}: check the axis (`axis`) of `e.sum(axis=0, keepdims=True)`." in english
    assert "axis=-1" not in korean.split("짐작되는 원인")[-1].split("\n")[0]  # where and kind, not the fix
    # Words only: the points are those of the search switched off.
    assert step.score == _step(_graded_without_repair(zygote, plan, wrong), "softmax").score


def test_a_missing_call_around_a_whole_value_is_told_by_its_function_in_both_languages():
    """The function a `call_added` edit wraps the line in is the kind of change (`np.tril`), not
    the fix; an edited line that does not read as one call keeps the unnamed sentence."""
    from autograder.core.render.explained import repair_text
    from autograder.core.render.messages import Messages
    from autograder.core.repair_record import Repair
    from autograder.core.verdict import StepResult

    def told(after, lang):
        repair = Repair(filename="lab.py", parts=(RepairPart(kind="call_added", line=7, before="return mask",
                                                            after=after),))
        step = StepResult(name="causal_mask", score=0.0, max_score=1, status="failed", mistakes=[], cases=[],
                          repair=repair)
        return repair_text(Messages(lang, LAB), step)
    assert "`np.tril`" in told("return np.tril(mask)", "en") and "`np.tril`" in told("return np.tril(mask)", "ko")
    assert "one function" in told("return (", "en")
    assert "one function" in told("x = " + "(" * 5000 + "1" + ")" * 5000, "en")  # nested past the parser
    assert "one function" in told("x = 1\x00", "en")


def test_beside_a_repair_no_guess_read_off_the_values_names_another_cause(zygote):
    # The row max transposed after keepdims=True spreads along the columns, as a max taken without
    # keepdims would: the values match that declared mistake, whose cause and hint tell to add the
    # keepdims=True the student wrote. The repair names the transpose; nothing beside it may name
    # keepdims, and each test keeps its title, which says what the values are.
    wrong = _with("def softmax(x):\n    e = np.exp(x - np.max(x, axis=-1, keepdims=True).T)\n"
                  "    return e / e.sum(axis=-1, keepdims=True)\n", "softmax")
    step = _step(grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(LAB)), "softmax")
    assert step.repair is not None and [p.kind for p in step.repair.parts] == ["transpose_removed"]
    assert "no_keepdims" in {c.code for c in step.cases}  # the judged codes, and so the points, stay
    for lang in ("ko", "en"):
        text = step_feedback(step, LAB, lang)
        cause_at = text.index("짐작되는 원인" if lang == "ko" else "Likely cause")
        assert "keepdims" not in text[:cause_at].replace("keepdims=True).T", ""), text
        assert "keepdims" not in text[cause_at:].split("\n", 1)[1], text
        assert ("열 방향으로 적용" if lang == "ko" else "applied along the columns") in text


# Several small edits repair each of these; the one told is the one that keeps what the student
# chose: a transpose before another function, the term left out before an operator that makes it
# irrelevant, the call's arguments before the names its values are unpacked into, the one part of
# an expression written otherwise marked alone.
CHOSEN = [
    ("scores", "def scores(Q, K):\n    return np.dot(Q, K)\n", "    return np.dot", "transpose_added", "np.dot(Q, K)"),
    ("scores", "def scores(Q, K):\n    return np.inner(Q, K.T)\n", "    return np.inner", "transpose_removed", "K.T"),
    ("softmax", "def softmax(x):\n    z = (x - x.max(axis=-1, keepdims=True)) / np.sqrt(x.shape[-1])\n"
     "    e = np.exp(z)\n    return e / e.sum(axis=-1, keepdims=True)\n", "    z = (x", "term_removed",
     "(x - x.max(axis=-1, keepdims=True)) / np.sqrt(x.shape[-1])"),
    ("self_attention", "def self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_V, W_K)\n"
     "    d_k = K.shape[1]\n    weights = softmax(scores(Q, K) / np.sqrt(d_k))\n    return mix(weights, V), weights\n",
     "    Q, K, V = make_qkv", "arguments_swapped", "make_qkv(X, W_Q, W_V, W_K)"),
    ("self_attention", "def self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
     "    d_k = K.shape[1]\n    weights = softmax(scores(Q, K) / np.sqrt(K.size))\n    return mix(weights, V), weights\n",
     "    weights = softmax", "size_of", "K.size"),
    ("self_attention", "def self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
     "    d_k = K.shape[1]\n    weights = softmax(scores(Q, K) / np.sqrt((K ** 2).sum()))\n    return mix(weights, V), weights\n",
     "    weights = softmax", "graft_part", "weights = softmax(scores(Q, K) / np.sqrt(«(K ** 2).sum()»))"),
]


@pytest.mark.parametrize("name, step_source, marker, kind, before", CHOSEN, ids=[c[3] for c in CHOSEN])
def test_of_several_repairs_the_one_that_keeps_the_students_choice_is_told(zygote, name, step_source, marker, kind,
                                                                            before):
    wrong = _with(step_source, name)
    step = _step(grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(LAB)), name)
    line = wrong[:wrong.rindex(marker)].count("\n") + 1
    assert step.repair is not None and [(p.kind, p.line, p.before) for p in step.repair.parts] == [(kind, line, before)]


# An edit that only makes its line do nothing (a condition never true, `np.where` with a constant
# condition) is right everywhere exactly when removing the line is: the line is what is told.
NEUTRALISED = [
    ("self_attention", "def self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
     "    s = scores(Q, K) / np.sqrt(K.shape[1])\n    n = s.shape[0]\n"
     "    s = np.where(np.tril(np.ones((n, n))) == 1, s, -np.inf)\n    weights = softmax(s)\n"
     "    return mix(weights, V), weights\n", "    s = np.where"),
    ("softmax", "def softmax(x):\n    x = np.asarray(x, dtype=float)\n    if x.ndim == 1:\n        return x\n"
     "    e = np.exp(x - x.max(axis=-1, keepdims=True))\n    return e / e.sum(axis=-1, keepdims=True)\n", "    if x.ndim"),
    # A tie given to the word itself: `.max()` → `.sum()` makes the condition never true, as any
    # edit on the `if` line that repairs only so: the `if` is told, whatever the edit's kind.
    ("most_attended", "def most_attended(weights, words):\n    best = pd.DataFrame(weights, index=words, "
     "columns=words).idxmax(axis=1)\n    for i, word in enumerate(words):\n        if weights[i, i] == weights[i].max():\n"
     "            best.iloc[i] = word\n    return best.to_dict()\n", "        if weights[i, i]"),
    # A padding mask for keys of zeros: `K.any(axis=None)` makes it hide nothing, which only
    # neutralises the line that applies it; that line, which reads the mask, is told (drawn cases
    # with a word of zeros show the mistake: no public case has one).
    ("scores", "def scores(Q, K):\n    padding = ~K.any(axis=1)\n    table = Q @ K.T\n    table[:, padding] = -1e9\n"
     "    return table\n", "    table[:, padding]"),
]


@pytest.mark.parametrize("name, step_source, marker", NEUTRALISED, ids=[n for n, *_ in NEUTRALISED])
def test_an_edit_that_only_makes_its_line_do_nothing_tells_the_line(zygote, name, step_source, marker):
    wrong = _with(step_source, name)
    step = _step(grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(LAB)), name)
    line = wrong[:wrong.rindex(marker)].count("\n") + 1
    assert step.repair is not None and [(p.kind, p.line) for p in step.repair.parts] == [("statement_removed", line)]


def test_two_edits_of_one_kind_on_one_line_are_both_shown(zygote):
    from autograder.core.render.feedback import as_text
    wrong = _with("def scores(Q, K):\n    total = np.zeros((Q.shape[0], K.shape[0]))\n"
                  "    for f in range(Q.shape[1]):\n        total += np.outer(Q[f], K[f])\n"
                  "    return total\n", "scores")
    result = grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(LAB))
    step = _step(result, "scores")
    assert step.repair is not None and [p.kind for p in step.repair.parts] == ["index_axis", "index_axis"]
    assert "`Q[f]`, `K[f]`" in as_text(result, LAB, "ko")
    assert "`Q[f]`, `K[f]`" in as_text(result, LAB, "en")


def _graded_without_repair(zygote, plan, source):
    import os
    os.environ[repairs.REPAIR_SWITCH] = "off"
    try:
        return grade_bytes("wrong.py", source.encode(), zygote, plan)
    finally:
        del os.environ[repairs.REPAIR_SWITCH]


def test_the_same_slip_on_two_lines_is_one_repair_of_two_edits(zygote):
    plan = Plan.build(LAB)
    wrong = _with("def softmax(x):\n    shifted = x - x.max(axis=0, keepdims=True)\n    e = np.exp(shifted)\n"
                  "    return e / e.sum(axis=0, keepdims=True)\n", "softmax")
    step = _step(grade_bytes("wrong.py", wrong.encode(), zygote, plan), "softmax")
    parts = step.repair.parts
    assert [part.kind for part in parts] == ["axis", "axis"]
    assert parts[0].line + 2 == parts[1].line


def test_a_correct_file_gets_no_repair_and_a_step_right_elsewhere_keeps_none(zygote):
    plan = Plan.build(LAB)
    result = grade_bytes("right.py", CORRECT.encode(), zygote, plan)
    assert result.score == result.max_score
    assert not any(step.repair for step in result.steps)


@pytest.mark.parametrize("shows, expected_ko", [
    ("fix", "`e.sum(axis=-1, keepdims=True)`처럼 고치면"),
    ("kind", "함수에서 축(axis)만 고치면"),
])
def test_the_lab_chooses_how_much_a_repair_tells(zygote, shows, expected_ko):
    plan = Plan.build(LAB)
    wrong = _with("def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
                  "    return e / e.sum(axis=0, keepdims=True)\n", "softmax")
    step = _step(grade_bytes("wrong.py", wrong.encode(), zygote, plan), "softmax")
    text = step_feedback(step, dataclasses.replace(LAB, repair_shows=shows), "ko")
    assert expected_ko in text
    if shows == "kind":
        assert "번째 줄" not in text.split("짐작되는 원인")[1].split("\n")[0]


def test_a_lab_refuses_an_unknown_repair_setting():
    with pytest.raises(LabError):
        dataclasses.replace(LAB, repair_shows="everything")


def test_a_class_pays_once_per_distinct_function_and_each_student_gets_his_own_line():
    calls = []

    def evaluate(sources, probes):
        calls.append(len(sources))
        return [[source is not None and "keepdims=True" in source and "axis=-1" in source for _ in probes]
                for source in sources]

    cache = RepairCache()
    probes = [object(), object()]
    texts = ["def f(x):\n    return x.sum(axis=-1)\n", "\n\n\ndef f(x):\n    return x.sum(axis=-1)\n"]
    lines = []
    for text in texts:
        tree = ast.parse(text)
        target = Target(function=tree.body[0], filename="a.py", rebound_builtins=frozenset())
        found = cache.get(("k", target.key), target)
        if found is None:
            found = search(target=target, probes=probes, pivot=0, evaluate=evaluate)
            cache.put(("k", target.key), target, found)
        lines.append(found.repair.parts[0].line)
    assert lines == [2, 5]
    assert len(calls) == 2  # one search: the pivot stage and the finalists' stage


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["x = x + 1", "x = x.T", "x = np.exp(x)", "x = x.sum(axis=0)", "y = x @ x",
                                 "x = x[:2]", "x = (x, x)[0]", "x = -x", "x = x.T @ y.T", "x = (x @ y.T).T",
                                 "x = np.tensordot(x, y, axes=1)", "x = f(x).T", "f = f(x)", "x = x / y.max()"]),
                min_size=1, max_size=5))
def test_every_generated_function_gives_compilable_edits_single_paired_and_repeated(lines):
    source = "def f(x, y):\n" + "".join(f"    {line}\n" for line in lines) + "    return x\n"
    function = _function(source)
    as_written = ast.dump(function, include_attributes=True)
    singles = single_edits(function)
    for edit in [*singles, *paired_edits(function, singles, limit=150), *repeated_edits(function, singles)]:
        compile(edit.source, "<repair>", "exec")
        lines = [part.line for part in getattr(edit, "parts", (edit,))]
        assert min(lines) >= 2
    # Edits are made on the student's own tree and undone: it is left exactly as it was read.
    assert ast.dump(function, include_attributes=True) == as_written


def test_the_workers_of_a_batch_share_what_each_found_and_a_broken_entry_is_searched_again(tmp_path):
    """A mistake one worker searched is not searched by the other (each its own process, one
    folder shared for the run); an entry that does not read as the grader's record is searched again."""
    searched = []

    def evaluate(sources, probes):
        searched.append(len(sources))
        return [[source is not None and "axis=-1" in source for _ in probes] for source in sources]

    first, second = (RepairCache(store=repairs.FolderStore(str(tmp_path))) for _ in range(2))
    texts = ["def f(x):\n    return x.sum(axis=0)\n", "\n\ndef f(x):\n    return x.sum(axis=0)\n"]
    targets = [Target(function=ast.parse(text).body[0], filename=f"{n}.py", rebound_builtins=frozenset())
               for n, text in enumerate(texts)]
    key = ("k", targets[0].key)
    assert targets[1].key == targets[0].key
    found = search(target=targets[0], probes=[object()], pivot=0, evaluate=evaluate)
    first.put(key, targets[0], found)
    shared = second.get(key, targets[1])
    assert shared.repair.filename == "1.py" and shared.repair.parts[0].line == found.repair.parts[0].line + 2
    assert shared.source == found.source  # run again on the reading student's own file before it is told
    assert len(list(tmp_path.iterdir())) == 1 and not list(tmp_path.glob("*.partial"))
    for garbage in ("{", '{"repair": {"filename": 1}}', '["not", "ours"]', '{"repair": null, "source": ""}',
                    '{"repair": null}', '{"repair": {"filename": "", "parts": []}, "source": 3}'):
        next(tmp_path.iterdir()).write_text(garbage)
        assert RepairCache(store=repairs.FolderStore(str(tmp_path))).get(key, targets[1]) is None


def test_a_mistake_two_workers_meet_at_once_is_searched_by_one_and_waited_for_by_the_other(tmp_path):
    """INVARIANT: while one grader of a batch searches a mistake, another meeting the same one waits
    for its repair (then checks it on its own file, as any kept repair) rather than searching it too;
    a search that ends with nothing, or a grader killed mid-search, leaves the key to the next."""
    import threading
    import time

    def evaluate(sources, probes):
        return [[source is not None and "axis=-1" in source for _ in probes] for source in sources]

    first, second = (RepairCache(store=repairs.FolderStore(str(tmp_path))) for _ in range(2))
    text = "def f(x):\n    return x.sum(axis=0)\n"
    target = Target(function=ast.parse(text).body[0], filename="a.py", rebound_builtins=frozenset())
    key = ("k", target.key)
    searching, put = threading.Event(), []

    def first_searches():
        with first.searching(key):
            searching.set()
            time.sleep(0.3)
            found = search(target=target, probes=[object()], pivot=0, evaluate=evaluate)
            first.put(key, target, found)
            put.append(found)

    worker = threading.Thread(target=first_searches)
    worker.start()
    searching.wait()
    waited = second.awaited(key, target, until=time.monotonic() + 30)
    worker.join()
    assert waited is not None and waited.source == put[0].source
    assert not list(tmp_path.glob("*.claim"))  # released

    other = ("nothing", target.key)
    with first.searching(other):  # a search that finds nothing releases the key all the same
        assert len(list(tmp_path.glob("*.claim"))) == 1
    started = time.monotonic()
    assert second.awaited(other, target, until=started + 30) is None and time.monotonic() - started < 1

    store = repairs.FolderStore(str(tmp_path))
    assert store.claim("killed") and not store.claim("killed") and store.busy("killed")
    old = time.time() - 2 * repairs.CLAIM_SECONDS
    os.utime(tmp_path / "killed.claim", (old, old))  # its grader was killed long ago
    assert not store.busy("killed") and store.claim("killed")
    store.release("killed")
    assert not store.busy("killed")


@pytest.mark.parametrize("body, searched", [
    ("    return Q @ K\n", True),  # a wrong value
    ("    return Q @ K.transpose(0, 1, 2)\n", True),  # an error the code raised
    ("    while True:\n        pass\n", False),  # stopped at the time limit
    ("    import os\n    os._exit(3)\n", False),  # the child gone
    ("    return [0.0] * (1 << 40)\n", False),  # memory exhausted
])
def test_a_step_is_searched_only_when_its_own_answers_were_wrong_or_its_code_raised(zygote, monkeypatch, body,
                                                                                   searched):
    """What a small edit cannot mend, and every candidate would repeat at the sandbox's limits (a
    child stopped for time or memory, or gone), is not searched."""
    calls = []

    def counted(**kwargs):
        calls.append(kwargs["target"])
        return None

    monkeypatch.setattr(repairs, "search", counted)
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())
    wrong = _with("def scores(Q, K):\n" + body, "scores")
    step = _step(grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(LAB), _Limits(step_seconds=2)),
                 "scores")
    assert step.status != "passed"
    assert bool(calls) is searched, step


def test_a_failure_of_the_search_costs_its_words_only(zygote, monkeypatch):
    """INVARIANT: any exception in the repair search becomes that search's loss, never the record."""
    def broken(**kwargs):
        raise AssertionError("a fault of the grader")

    monkeypatch.setattr(repairs, "search", broken)
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())  # not a repair found by an earlier test
    wrong = _with("def scores(Q, K):\n    return Q @ K\n", "scores")
    result = grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(LAB))
    step = _step(result, "scores")
    assert step.status in ("failed", "error") and step.repair is None
    assert result.score == result.max_score - step.max_score


@settings(max_examples=80, deadline=None)
@given(st.lists(st.builds(RepairPart, kind=st.sampled_from(EDIT_KINDS), line=st.integers(1, 10**6),
                          before=st.text(max_size=20), after=st.text(max_size=20)), min_size=1, max_size=3),
       st.lists(st.builds(RepairPart, kind=st.sampled_from(EDIT_KINDS), line=st.integers(1, 10**6),
                          before=st.text(max_size=20), after=st.text(max_size=20)), max_size=2),
       st.text(max_size=20))
def test_a_repair_reads_back_as_it_was_saved_and_anything_else_is_refused(parts, also, filename):
    repair = Repair(filename=filename, parts=tuple(parts), also=tuple(also))
    assert Repair.from_data(repair.as_data()) == repair
    broken = repair.as_data() | {"parts": [{"kind": "no_such_kind", "line": 1, "before": "", "after": ""}]}
    with pytest.raises(ValueError):
        Repair.from_data(broken)


def test_two_students_with_the_same_code_laid_out_apart_each_get_their_own_line():
    """The cache's key is the function's own text: the same syntax with a blank line inside is
    another student's layout, and a line kept relative to the `def` would be his wrong line."""
    def evaluate(sources, probes):
        return [[source is not None and "axis=-1" in source for _ in probes] for source in sources]

    cache, lines = RepairCache(), []
    for text in ("def f(x):\n    y = x\n    return y.sum(axis=0)\n",
                 "def f(x):\n    y = x\n\n    return y.sum(axis=0)\n"):
        tree = ast.parse(text)
        target = Target(function=tree.body[0], filename="a.py", rebound_builtins=frozenset(), source=text)
        found = cache.get(("k", target.key), target)
        if found is None:
            found = search(target=target, probes=[object()], pivot=0, evaluate=evaluate)
            cache.put(("k", target.key), target, found)
        lines.append(found.repair.parts[0].line)
    assert lines == [3, 4]


def test_the_search_reads_the_students_text_within_the_reading_budget(monkeypatch):
    """INVARIANT (docs/SECURITY.md, reading): the grader never gives Python's parser more than the
    reading budget allows, the repair search included; a function too large to copy per edit is
    not searched."""
    import autograder.core.reading.budget as budget
    from autograder.repair import target_of

    real_parse = budget.ast.parse

    def small_only(source, *args, **kwargs):
        assert len(source) <= budget.MAX_PARSED_CHARS, "the grader parsed a huge cell"
        return real_parse(source, *args, **kwargs)

    monkeypatch.setattr(budget.ast, "parse", small_only)
    big = "def f(x):\n    return x\n" + "x = 1\n" * 40_000
    assert target_of([{"source": big, "filename": "a.py"}], "f", ("a.py", 1, 1)) is None
    long_function = "def f(x):\n" + "".join(f"    x = x + {n}\n" for n in range(600)) + "    return x\n"
    assert target_of([{"source": long_function, "filename": "a.py"}], "f", ("a.py", 1, 1)) is None
    small = "def f(x):\n    return x.sum(axis=0)\n"
    assert target_of([{"source": small, "filename": "a.py"}], "f", ("a.py", 1, 1)) is not None


def test_a_mistake_inside_the_students_own_helper_is_named_on_the_helpers_line(zygote):
    helper = ("def _row_dot(a, b):\n    total = 0.0\n    for x, y in zip(a, b):\n        total = x * y\n"
              "    return total\n\n\n")
    wrong = _with(helper + "def scores(Q, K):\n    return np.array([[_row_dot(q, k) for k in K] for q in Q])\n",
                  "scores")
    step = _step(grade_bytes("wrong.py", wrong.encode(), zygote, Plan.build(LAB)), "scores")
    line = wrong[:wrong.index("        total = x * y")].count("\n") + 1
    assert step.repair is not None and [(p.kind, p.line) for p in step.repair.parts] == [("accumulate", line)]
    assert f"{line}번째 줄" in step_feedback(step, LAB, "ko")


def _target(source, name, steps=frozenset()):
    from autograder.repair.search import target_of
    line = next(n for n, text in enumerate(source.splitlines(), 1) if text.startswith(f"def {name}("))
    return target_of([{"source": source, "filename": "a.py"}], name, ("a.py", line, 1), steps=steps)


def test_only_the_students_own_helpers_that_read_nothing_of_the_functions_names_are_searched_with_it():
    helper = "def scale(x):\n    return x / d\n\n\ndef softmax(x):\n    return x\n\n\n"
    # `scale` reads the module's `d`; inlined into a function with a local `d`, it would read that
    assert _target(helper + "def f(x):\n    d = 2\n    return softmax(scale(x))\n", "f", frozenset({"softmax"})).helpers == ()
    found = _target(helper + "def f(x):\n    return softmax(scale(x))\n", "f", frozenset({"softmax"}))
    assert [text.splitlines()[0] for _, text in found.helpers] == ["def scale(x):"]  # a lab step is not inlined
    assert found.function.body[0].name == "scale" and found.function.body[0].lineno == 1
    # no steps given (the self-check's mutants of the reference): nothing is inlined
    assert _target(helper + "def f(x):\n    return softmax(scale(x))\n", "f", None).helpers == ()
    # two students with the same function and other helpers never share a kept repair
    other = helper.replace("x / d", "x * d")
    assert found.key != _target(other + "def f(x):\n    return softmax(scale(x))\n", "f", frozenset({"softmax"})).key


class _CountingZygote:
    """A zygote that counts the children it starts and the candidate calls each was given."""

    def __init__(self, zygote):
        self._zygote, self.children = zygote, []

    def __getattr__(self, name):
        return getattr(self._zygote, name)

    def spawn(self, workdir, limits, budget=None):
        child = self._zygote.spawn(workdir, limits, budget)
        given, send_text = [], child.send_text
        self.children.append(given)

        def counted(text, deadline=None):
            if text.startswith('{"cmd":"call"') or '"cmd": "call"' in text:
                given.append(json.loads(text)["id"])
            send_text(text, deadline)

        child.send_text = counted
        return child


def test_a_repair_kept_from_another_file_is_checked_in_the_public_child_not_a_child_of_its_own(zygote, monkeypatch):
    """A class pays per distinct mistake: the second student with the first one's softmax is told
    the same repair, checked on his own file among the last calls of his public run (after every
    test of it), with one child fewer than a check of its own would start."""
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())
    plan = Plan.build(LAB)
    wrong = _with("def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
                  "    return e / e.sum(axis=0, keepdims=True)\n", "softmax")
    first = _step(grade_bytes("first.py", wrong.encode(), zygote, plan), "softmax")
    counting = _CountingZygote(zygote)
    second = _step(grade_bytes("second.py", ("# another student\n" + wrong).encode(), counting, plan), "softmax")
    assert first.repair is not None and [p.kind for p in second.repair.parts] == [p.kind for p in first.repair.parts]
    assert [p.line for p in second.repair.parts] == [p.line + 1 for p in first.repair.parts]
    public_child = next(ids for ids in counting.children if ids)
    candidates = [i for i in public_child if i >= repairs.REPAIR_IDS]
    assert candidates and public_child[-len(candidates):] == candidates  # last, after every graded call
    assert not any(i >= repairs.REPAIR_IDS for ids in counting.children if ids is not public_child for i in ids)

    # Without a kept repair of another file to check, the same file is searched in children of its own.
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())
    alone = _CountingZygote(zygote)
    grade_bytes("second.py", ("# another student\n" + wrong).encode(), alone, plan)
    assert len(alone.children) > len(counting.children)


def test_a_kept_repair_wrong_on_this_file_is_not_told_and_costs_no_time(zygote, monkeypatch):
    """The same function, whose file's `np` sums wrongly along the last axis only: its answers are
    the first file's, so the first file's repair (sum along the last axis) is kept for it, and run
    last in its public child, where it is wrong. So it is not told; the file is searched on its
    own, and its grade and words are as when graded with no repair kept."""
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())
    plan = Plan.build(LAB)
    body = ("def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
            "    return e / np.sum(e, axis=0, keepdims=True)\n")
    first = _step(grade_bytes("first.py", _with(body, "softmax").encode(), zygote, plan), "softmax")
    assert first.repair is not None and first.repair.parts[0].kind == "axis"
    other = _with(body, "softmax") + (
        "\n\nimport types\nimport numpy\n\nnp = types.ModuleType(\"numpy\")\nnp.__dict__.update(numpy.__dict__)\n\n\n"
        "def _sum(x, axis=None, **keywords):\n"
        "    return numpy.sum(x, axis=axis, **keywords) + (1.0 if axis in (-1, 1) else 0.0)\n\n\nnp.sum = _sum\n")
    counting = _CountingZygote(zygote)
    kept = grade_bytes("other.py", other.encode(), counting, plan)
    public_child = next(ids for ids in counting.children if ids)
    assert any(i >= repairs.REPAIR_IDS for i in public_child)  # the kept repair was checked there
    monkeypatch.setattr(repairs, "_REPAIRS", RepairCache())
    alone = grade_bytes("other.py", other.encode(), zygote, plan)
    assert kept.score == alone.score and [s.score for s in kept.steps] == [s.score for s in alone.steps]
    assert _step(kept, "softmax").repair == _step(alone, "softmax").repair
    assert _step(kept, "softmax").repair != first.repair


def test_the_marks_of_two_edits_of_one_line_are_merged_into_one_line():
    from autograder.core.render.explained import _marks_merged
    assert _marks_merged("scores(«W_Q», W_K)", "scores(W_Q, «W_K»)") == "scores(«W_Q», «W_K»)"
    assert _marks_merged("«ab»cd", "ab«cd»") == "«abcd»"
