"""Shapes: a part of the expected along one axis, an axis as long as a combination of the test's
sizes (named by size names only), an outer product, axes of length 1 added or left out.
"""
from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import numpy as np

from .records import Sample, close

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from .records import FloatArray


def _size_expressions(sizes: Mapping[str, int]) -> list[tuple[str, int]]:
    """(text, value) of the sizes and their simplest combinations, simplest first."""
    items = [(k, v) for k, v in sizes.items() if isinstance(v, int) and v > 0]
    found = [(name, value) for name, value in items]
    for (a, x), (b, y) in itertools.permutations(items, 2):
        found.append((f"{a} × {b}", x * y))
        found.append((f"{a} // {b}", x // y))
    found.extend((f"2 × {name}", 2 * value) for name, value in items)
    return found


def _length_named(failing: Sequence[Sample], axis: int, of_got: bool, passing: Sequence[Sample] = ()) -> str | None:
    """The simplest size expression equal to the length of `axis` of every failing sample's got
    (or expected): names only, so a hidden test's sizes may rule expressions out. A length the
    student's code gave is read by the same code on the passing samples too: an expression their
    (right) lengths refute is a coincidence of one test's sizes (5 rows left where d_model is 5)."""
    common: list[str] | None = None
    for sample in failing:
        value = sample.got if of_got else sample.expected
        length = value.shape[axis]
        names = [text for text, size in _size_expressions(sample.sizes) if size == length]
        common = names if common is None else [n for n in common if n in names]
        if not common:
            return None
    for sample in passing if of_got else ():
        if sample.got is None or getattr(sample.got, "ndim", 0) <= axis:
            continue
        sizes = dict(_size_expressions(sample.sizes))
        common = [n for n in common or () if sizes.get(n) == sample.got.shape[axis]]
        if not common:
            return None
    return common[0] if common else None


def _left_out(got: FloatArray, expected: FloatArray, axis: int) -> list[int] | None:
    """The positions along `axis` of the expected's parts that `got` leaves out, keeping every other
    part in its order (matched greedily from the front); None when `got` is not such a selection."""
    kept, left_out, at = np.moveaxis(got, axis, 0), [], 0
    whole = np.moveaxis(expected, axis, 0)
    for index in range(whole.shape[0]):
        if at < kept.shape[0] and kept[at].shape == whole[index].shape and close(kept[at], whole[index]):
            at += 1
        else:
            left_out.append(index)
    return left_out if at == kept.shape[0] and left_out else None


def shape_relation(failing: Sequence[Sample], passing: Sequence[Sample] = ()) -> tuple[str, dict[str, Any]] | None:
    """Where every failing sample has the expected's number of axes and other lengths: the got is
    the first (or last) part of the expected along one axis ("block"), or the expected with some
    of its parts along one axis left out ("left_out", "left_out_repeated" when each one left out
    equals one kept), else its lengths are named by the sizes of the test ("axis_length"), never
    by sizes the passing samples refute; None when none holds."""
    shapes = [(s.got.shape, s.expected.shape) for s in failing]
    if not failing or any(len(g) != len(e) or g == e for g, e in shapes):
        return None
    axes = {tuple(a for a in range(len(g)) if g[a] != e[a]) for g, e in shapes}
    if len(axes) == 1 and len(next(iter(axes))) > 1:
        return _shapes_named(failing, passing)
    if len(axes) != 1 or len(next(iter(axes))) != 1:
        return None
    (axis,) = next(iter(axes))
    lengths: dict[str, str] = {}
    got_length = _length_named(failing, axis, of_got=True, passing=passing)
    if got_length:
        lengths = {"got_length": got_length, "expected_length": _length_named(failing, axis, of_got=False) or "?"}
    for end in ("first", "last"):
        if all(g[axis] < e[axis] and close(s.got, _block(s.expected, axis, g[axis], end))
               for s, (g, e) in zip(failing, shapes)):
            return "block_" + end + ("_length" if lengths else ""), {"axis": axis, **lengths}
    for end in ("first", "last"):  # the expected, with something more before it (or after it)
        extra = {g[axis] - e[axis] for g, e in shapes}
        if len(extra) == 1 and all(g[axis] > e[axis] and close(_block(s.got, axis, e[axis], end), s.expected)
                                   for s, (g, e) in zip(failing, shapes)):
            return "extra_" + ("before" if end == "last" else "after"), {"axis": axis, "count": extra.pop()}
    with np.errstate(all="ignore"):
        left_out = [_left_out(s.got, s.expected, axis) if g[axis] < e[axis] else None
                    for s, (g, e) in zip(failing, shapes)]
        if all(positions is not None for positions in left_out):
            repeated = all(any(close(np.take(s.expected, i, axis=axis), np.take(s.expected, j, axis=axis))
                               for j in range(e[axis]) if j not in (positions or ()))
                           for s, (g, e), positions in zip(failing, shapes, left_out) for i in positions or ())
            return ("left_out_repeated" if repeated else "left_out"), {"axis": axis}
    if got_length and lengths["expected_length"] != "?":
        return "axis_length", {"axis": axis, **lengths}
    return None


def outer_product(failing: Sequence[Sample]) -> tuple[str, str] | None:
    """(left, right): two quantities whose every number times every number (np.outer, each
    flattened) is the student's value on every failing sample, where a table of row products was
    expected; None otherwise."""
    names: list[tuple[str, str]] | None = None
    for sample in failing:
        got = sample.got
        if got.ndim != 2 or got.shape == sample.expected.shape:
            return None
        items = [(k, v) for k, v in sample.quantities.items() if v.size > 1]
        found = [(left, right) for (left, a), (right, b) in itertools.product(items, repeat=2)
                 if got.shape == (a.size, b.size) and close(np.outer(a, b), got)]
        names = found if names is None else [pair for pair in names if pair in found]
        if not names:
            return None
    return names[0] if names else None


def unit_axes(failing: Sequence[Sample]) -> tuple[str, dict[str, int]] | None:
    """Every failing `got` is the expected value with an axis of length 1 added ("unit_axis_extra":
    a batch axis kept, X[None]) or taken away ("unit_axis_missing": a keepdims or [:, None] left
    out), the numbers in their places; None otherwise. `axis`: where, the same on every sample."""
    found: set[tuple[str, int]] = set()
    for sample in failing:
        got, expected = sample.got, sample.expected
        if got.shape == expected.shape or got.size != expected.size or abs(got.ndim - expected.ndim) != 1:
            return None
        longer, shorter = (got, expected) if got.ndim > expected.ndim else (expected, got)
        axes = [a for a in range(longer.ndim) if longer.shape[a] == 1
                and longer.shape[:a] + longer.shape[a + 1:] == shorter.shape]
        if not axes or not close(got.reshape(expected.shape), expected):
            return None
        found.add(("unit_axis_extra" if got.ndim > expected.ndim else "unit_axis_missing", axes[0]))
    if len(found) != 1:
        return None
    relation, axis = found.pop()
    return relation, {"axis": axis}


def _shapes_named(failing: Sequence[Sample], passing: Sequence[Sample] = ()) -> tuple[str, dict[str, str]] | None:
    """Where several axes differ: both shapes with each length named by the test's sizes (a count
    and a length given in each other's places: (d_head, n, n_heads) for (n_heads, n, d_head))."""
    ndim = failing[0].got.ndim
    got = [_length_named(failing, axis, of_got=True, passing=passing) for axis in range(ndim)]
    expected = [_length_named(failing, axis, of_got=False) for axis in range(ndim)]
    if None in got or None in expected:
        return None
    with np.errstate(all="ignore"):
        kept = all(s.got.size == s.expected.size and close(np.sort(s.got, axis=None), np.sort(s.expected, axis=None))
                   for s in failing)
    # Every expected number is there: said too, as the reshape it points to.
    return "shape_named" + ("_same_values" if kept else ""), {
        "got_shape": "(" + ", ".join(n for n in got if n is not None) + ")",
        "expected_shape": "(" + ", ".join(n for n in expected if n is not None) + ")"}


def _block(value: FloatArray, axis: int, length: int, end: str) -> FloatArray:
    index: list[slice] = [slice(None)] * value.ndim
    index[axis] = slice(0, length) if end == "first" else slice(value.shape[axis] - length, None)
    return value[tuple(index)]
