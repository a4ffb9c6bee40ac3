"""Formulas: a base (the expected value or a quantity of the trace), perhaps its axes in another
order, perhaps one transform (a size as a factor, rounding, a sum along an axis, a product with a
term left out, a distribution tempered or left unnormalised). Single changes are searched before
pairs; the smallest formula that reproduces every failing sample, and changes no passing one, wins.
"""
from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

import numpy as np

from ..tolerance import RTOL
from .records import DECIMALS, Formula, Part, Read, Sample, close

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from .records import FloatArray


def factors(sizes: Mapping[str, int]) -> dict[str, float]:
    """{factor name: value}: each size, its square root, and 2 (a size of 1 changes nothing, so
    a passing one-word test stays consistent with dividing by n)."""
    found: dict[str, float] = {}
    for name, value in sizes.items():
        if value and value > 0:
            found[name] = float(value)
            found[f"√{name}"] = float(np.sqrt(value))
    found["2"] = 2.0
    return found


def _orders(ndim: int) -> list[tuple[int, ...]]:
    if ndim < 2:
        return []
    if ndim == 2:
        return [(1, 0)]
    return [p for p in itertools.permutations(range(ndim)) if p != tuple(range(ndim))]


def _bases(sample: Sample) -> Iterator[tuple[str, Read]]:
    """(name, array) of every base: the expected value first, then each quantity."""
    yield "expected", sample.expected
    for name, value in sample.quantities.items():
        yield name, value


def _base_value(sample: Sample, name: str) -> Read:
    return sample.expected if name == "expected" else sample.quantities.get(name)


def predict(sample: Sample, parts: Formula) -> FloatArray | None:
    """What a formula gives on `sample`; None where it cannot be made (a shape that does not fit)."""
    value: FloatArray | None = None
    with np.errstate(all="ignore"):
        for kind, *args in parts:
            if kind == "base":
                value = _base_value(sample, args[0])
            elif kind == "product":
                value = _dropped_product(sample, *args)
            elif kind == "product_axis":
                value = _other_axis_product(sample, *args)
            elif value is None:
                return None
            elif kind == "order":
                if value.ndim != len(args[0]):
                    return None
                value = np.transpose(value, args[0])
            elif kind in ("times", "divided"):
                factor = factors(sample.sizes).get(args[0])
                if factor is None:
                    return None
                value = value * factor if kind == "times" else value / factor
            elif kind in ("plus", "minus"):
                other = sample.quantities.get(args[0])
                if other is None or other.shape != value.shape:
                    return None
                value = value + other if kind == "plus" else value - other
            elif kind == "round":
                value = np.round(value, args[0])
            elif kind == "trunc":
                value = np.trunc(value)
            elif kind == "negated":
                value = -value
            elif kind == "absolute":
                value = np.abs(value)
            elif kind == "complement":
                value = 1.0 - value
            elif kind == "sum":
                if value.ndim <= args[0]:
                    return None
                value = value.sum(axis=args[0])
            elif kind == "mean":
                if value.ndim <= args[0]:
                    return None
                value = value.mean(axis=args[0])
            elif kind == "row":
                if value.ndim < 2:
                    return None
                if value.shape[-2] < 2:
                    continue  # one row: it is its own first, last and sum
                if args[0] == "sum":
                    row = value.sum(axis=-2, keepdims=True)
                else:
                    row = value[..., :1, :] if args[0] == "first" else value[..., -1:, :]
                value = np.broadcast_to(row, value.shape)
            elif kind in ("tempered", "unnormalised") and value.size and value.shape[-1] == 1:
                pass  # rows of one cell: a softmax gives 1 there whatever it was given
            elif kind == "tempered" and args[0] == "floor_root":
                amount = _floor_root_amount(sample.sizes.get(args[1]))
                if amount is None or not _distributions(value):
                    return None
                value = _tempered(value, amount)
            elif kind == "tempered":
                factor = factors(sample.sizes).get(args[1])
                if factor is None or not _distributions(value):
                    return None
                amount = {"divided": 1 / factor, "times": factor, "inverted": factor * factor}.get(args[0])
                if amount is None:
                    return None
                value = _tempered(value, amount)
            elif kind == "unnormalised":
                # Each row times a number of its own: which numbers, the values alone tell; a
                # passing call whose rows already sum to 1 is as consistent as one that does not.
                if not _distributions(value):
                    return None
            else:
                return None
    return value


def _dropped_product(sample: Sample, left: str, right: str, transposed: bool, end: str) -> FloatArray | None:
    """left @ right (right's last two axes swapped when `transposed`) with the first or last
    term of the shared axis left out, or with only that term kept ("only_first", "only_last": a sum
    overwritten with = where += was meant)."""
    a, b = sample.quantities.get(left), sample.quantities.get(right)
    if a is None or b is None or a.ndim < 2 or b.ndim < 2:
        return None
    if transposed:
        b = np.swapaxes(b, -1, -2)
    if a.shape[-1] != b.shape[-2] or a.shape[-1] < (1 if end.startswith("only_") else 2):
        return None
    keep = {"first": slice(1, None), "last": slice(None, -1),  # one term left out
            "only_first": slice(0, 1), "only_last": slice(-1, None)}[end]  # one term kept (= for +=)
    try:
        return a[..., keep] @ b[..., keep, :]
    except ValueError:
        return None


def _other_axis_product(sample: Sample, left: str, right: str, transposed: bool) -> FloatArray | None:
    """left @ right with the sum run over left's other axis: out[j] = (sum_i left[i, j]) * right[j]
    (a broadcast product summed along axis=0 where axis=1 was meant)."""
    a, b = sample.quantities.get(left), sample.quantities.get(right)
    if a is None or b is None or a.ndim < 2 or b.ndim < 2:
        return None
    if transposed:
        b = np.swapaxes(b, -1, -2)
    if a.shape[-1] != a.shape[-2] or a.shape[-1] != b.shape[-2]:
        return None
    try:
        product: FloatArray = a.sum(axis=-2)[..., :, None] * b
        return product
    except ValueError:
        return None


def _distributions(value: FloatArray) -> bool:
    """Whether every row (the last axis) of `value` is a distribution: no negative cell, sum 1."""
    with np.errstate(all="ignore"):
        return bool(value.size and value.shape[-1] > 1 and np.all(np.isfinite(value)) and np.all(value >= 0)
                    and np.allclose(value.sum(axis=-1), 1.0, rtol=RTOL, atol=1e-6))


def _tempered(value: FloatArray, power: float) -> FloatArray:
    """Each row of the distribution `value` raised to `power` and normalised again: the softmax of
    the scores that give `value`, with the scores multiplied by `power` first (0 stays 0)."""
    with np.errstate(all="ignore"):
        raised = np.where(value > 0, np.power(np.where(value > 0, value, 1.0), power), 0.0)
        tempered: FloatArray = raised / raised.sum(axis=-1, keepdims=True)
        return tempered


def _power_of(value: FloatArray, got: FloatArray) -> float | None:
    """The one power p with got ∝ value ** p row by row, estimated on the row with the widest
    spread of positive cells; None when no row can tell."""
    with np.errstate(all="ignore"):
        both = (value > 1e-12) & (got > 1e-12)
        spread = np.where(both, np.log(np.where(both, value, 1.0)), np.nan)
        rows = spread.reshape(-1, value.shape[-1])
        got_rows = np.log(np.where(both, got, 1.0)).reshape(-1, value.shape[-1])
        best, width = None, 1e-6
        for row, got_row in zip(rows, got_rows):
            usable = np.isfinite(row)
            if usable.sum() < 2:
                continue
            low, high = np.nanargmin(row), np.nanargmax(row)
            if row[high] - row[low] > width:
                width = row[high] - row[low]
                best = (got_row[high] - got_row[low]) / width
        return float(best) if best is not None and np.isfinite(best) else None


def _products(sample: Sample) -> list[tuple[str, str, bool]]:
    """(left, right, transposed) of every two quantities whose product is the expected value."""
    found: list[tuple[str, str, bool]] = []
    items = [(k, v) for k, v in sample.quantities.items() if v.ndim >= 2]
    for (left, a), (right, b) in itertools.product(items, repeat=2):
        for transposed in (False, True):
            bb = np.swapaxes(b, -1, -2) if transposed else b
            if a.shape[-1] != bb.shape[-2]:
                continue
            try:
                with np.errstate(all="ignore"):
                    product = a @ bb
            except ValueError:
                continue
            if close(product, sample.expected):
                found.append((left, right, transposed))
    return found


def holding(sample: Sample, got: Read) -> dict[int, list[Formula]]:
    """Every formula of size 1 or 2 that gives `got` on one sample, by size."""
    by_size: dict[int, list[Formula]] = {1: [], 2: []}
    names = dict(_bases(sample))
    for name, base in names.items():
        if base is None:
            continue
        changes = 0 if name == "expected" else 1
        for order in [None] + _orders(base.ndim):
            value = base if order is None else np.transpose(base, order)
            head: list[Part] = [("base", name)] + ([("order", order)] if order is not None else [])
            size = changes + (order is not None)
            if size and size <= 2 and close(value, got):
                by_size[size].append(tuple(head))
            if size >= 2:
                continue
            for transform in _transforms(sample, value, got):
                by_size[size + 1].append(tuple(head) + (transform,))
    for left, right, transposed in _products(sample):
        for end in ("first", "last", "only_first", "only_last"):
            parts: Formula = (("product", left, right, transposed, end),)
            if close(predict(sample, parts), got):
                by_size[1].append(parts)
        parts = (("product_axis", left, right, transposed),)
        if close(predict(sample, parts), got):
            by_size[1].append(parts)
    return by_size


def _transforms(sample: Sample, value: FloatArray, got: FloatArray) -> list[Part]:
    """The one transforms that turn `value` into `got`, each as a part."""
    found: list[Part] = []
    with np.errstate(all="ignore"):
        if value.shape == got.shape and value.size:
            usable = np.isfinite(value) & np.isfinite(got) & (np.abs(value) > 1e-9)
            if usable.any():
                ratios = got[usable] / value[usable]
                ratio = float(np.median(ratios))
                if np.isfinite(ratio) and ratio != 0 and close(value * ratio, got):
                    for name, factor in factors(sample.sizes).items():
                        for kind, amount in (("times", factor), ("divided", 1 / factor)):
                            if abs(ratio - amount) <= 1e-3 * abs(amount) and close(value * amount, got):
                                found.append((kind, name))
            for name, other in sample.quantities.items():
                if other.shape == got.shape:
                    if close(value + other, got):
                        found.append(("plus", name))
                    elif close(value - other, got):
                        found.append(("minus", name))
            for decimals in DECIMALS:
                rounded = np.round(value, decimals)
                if not close(rounded, value) and close(rounded, got):
                    found.append(("round", decimals))
                    break
            if close(-value, got) and not close(-value, value):
                found.append(("negated",))
            if close(1.0 - value, got):
                found.append(("complement",))
            if close(np.abs(value), got) and not close(np.abs(value), value):
                found.append(("absolute",))
            truncated = np.trunc(value)
            if not close(truncated, value) and close(truncated, got):
                found.append(("trunc",))
            if value.ndim >= 2 and value.shape[-2] >= 2:
                for end, row in (("first", value[..., :1, :]), ("last", value[..., -1:, :]),
                                 ("sum", value.sum(axis=-2, keepdims=True))):
                    if close(np.broadcast_to(row, value.shape), got):
                        found.append(("row", end))
            if _distributions(value) and not close(value, got):
                found.extend(_distribution_transforms(sample, value, got))
        for axis in range(value.ndim):
            if value.shape[:axis] + value.shape[axis + 1:] == got.shape:
                # Both where they agree (an axis of length 1): the other samples choose.
                if close(value.sum(axis=axis), got):
                    found.append(("sum", axis))
                if close(value.mean(axis=axis), got):
                    found.append(("mean", axis))
    return found


def _distribution_transforms(sample: Sample, value: FloatArray, got: FloatArray) -> list[Part]:
    """Of a distribution `value` (rows summing to 1): `got` is each row times a number of its own
    (not divided by its sum), or the rows tempered by a size (the scores divided again, or not)."""
    found: list[Part] = []
    with np.errstate(all="ignore"):
        if np.all(np.isfinite(got)) and np.all(got >= 0) and not _distributions(got):
            sums = got.sum(axis=-1, keepdims=True)
            if np.all(sums > 0) and close(got / sums, value):
                found.append(("unnormalised",))
        elif _distributions(got):
            power = _power_of(value, got)
            if power is not None and abs(power - 1.0) > 1e-3:
                for name, factor in factors(sample.sizes).items():
                    for kind, amount in (("divided", 1 / factor), ("times", factor)):
                        if abs(power - amount) <= 1e-2 * amount and close(_tempered(value, amount), got):
                            root = f"√{name}"
                            if kind == "times" and root in factors(sample.sizes):
                                # Times a size is also times its root where that root should divide:
                                # the one slip (* in place of /) is read first, the missing division beside.
                                found.append(("tempered", "inverted", root))
                            found.append(("tempered", kind, name))
                for name, size in sample.sizes.items():  # √size where the integer root was taken (math.isqrt)
                    floor_root = _floor_root_amount(size)
                    if floor_root is not None and floor_root != 1.0 and abs(power - floor_root) <= 1e-2 * floor_root \
                            and close(_tempered(value, floor_root), got):
                        found.append(("tempered", "floor_root", name))
    return found


def _floor_root_amount(size: object) -> float | None:
    """√size / ⌊√size⌋: how much larger the scores get when divided by the integer square root
    (math.isqrt, int(np.sqrt(...))) in place of the square root; 1 for a perfect square."""
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        return None
    return float(np.sqrt(size)) / math.isqrt(size)


def search_formulas(failing: Sequence[Sample], passing: Sequence[Sample], sizes: Sequence[int] = (1, 2),
                     per_sample: Sequence[dict[int, list[Formula]]] | None = None) -> tuple[list[Formula], int]:
    """The smallest formulas (of `sizes` changes) true on every failing sample and ruled out by no
    passing one; `per_sample`: each failing sample's formulas (holding), when already found."""
    if not failing:
        return [], 0
    if per_sample is None:
        per_sample = [holding(s, s.got) for s in failing]
    for size in sizes:
        common = set(per_sample[0][size])
        for found in per_sample[1:]:
            common &= set(found[size])
        # On a sample where a size of 1 makes the change vanish, a formula is still consistent.
        kept = [parts for parts in per_sample[0][size] if parts in common
                and all(_consistent_on_passing(s, parts) for s in passing)]
        if kept:
            return sorted(dict.fromkeys(kept), key=_preference), size
    return [], 0


def _consistent_on_passing(sample: Sample, parts: Formula) -> bool:
    value = predict(sample, parts)
    return value is not None and close(value, sample.expected)


# A cut to whole numbers goes before a rounding to 0 decimals where both give the values: an integer
# array (dtype=int, astype(int)) truncates; np.round(x) to whole numbers is rarely written.
_PART_ORDER = ("base", "product", "product_axis", "order", "divided", "times", "plus", "minus", "negated",
               "absolute", "complement", "trunc", "round", "sum", "mean", "row", "tempered", "unnormalised")


def _preference(parts: Formula) -> tuple[int, list[int], list[bool]]:
    """Among formulas of one size: the expected value as base first, named sizes before 2."""
    return (sum(p[0] == "base" and p[1] != "expected" for p in parts),
            [_PART_ORDER.index(p[0]) for p in parts],
            [p[-1] == "2" for p in parts if p[0] in ("times", "divided", "tempered")])
