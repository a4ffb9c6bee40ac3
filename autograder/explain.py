"""Relations between a student's wrong values and the reference's own computation of a case.

Pure data in, data out; no lab's names. A lab's reference trace holds every quantity a student
could have returned by mistake, so of a wrong output `got` on a case we ask: is it another quantity
of the trace or an input (or one with its axes in another order)? The expected value, or such a
quantity, times a size of the case (n, d_k, their square roots, 2)? Plus or minus another quantity?
Rounded? Summed along an axis? A matrix product of two quantities with one term of its sum left out?
Or, with no formula to give, is it normalised along another axis, all its rows alike, symmetric?

Each candidate is a *formula*: a base (the expected value or a quantity), perhaps its axes in
another order, perhaps one transform. Its size counts its changes from the expected value; single
changes are searched before pairs, and the smallest formula that reproduces every failing case
wins. A case that passed rules out every formula that would have changed its values. Which kinds of
case fail (the lab declares each case's kinds) is told when the failing cases are exactly one kind.

Why these mechanisms, and not one detector per file: each names a family of slips by what it does
to the values, so a slip nobody listed still reads precisely.
- The reference's own computation with ONE input changed (autograder.trace_variants): a square
  matrix transposed, an input in another's place, a count replaced by the page's, an input cut to
  whole numbers. The lab's `trace` is re-run on those reference inputs (never on a student's), and
  the student's output is compared with the changed trace's quantity of the same name. This names
  a W used transposed, V made from W_K (or weights @ K), n_heads ignored for the page's 2, X cast to
  int, with no word of the lab. One change: searched after the formulas of one change, before pairs.
- Distributions (rows summing to 1) get two more transforms: each row times a number of its own
  ("unnormalised": exp returned without the division by the row sum) and the rows tempered by a size
  ("tempered": softmax of the scores divided once more by √n, or not divided by √d_k, or multiplied
  by √d_k where they should be divided by it: "inverted", a power of d_k), found by fitting the one
  power p with got ∝ expected ** p row by row.
- Structure: every row the sum of the expected rows ([[0.0] * d] * n aliasing), a product summed
  along its left factor's other axis, values that are all float16 numbers, weight only where the
  expected is 0 (a mask used the other way round), a mapping holding each row's maximum instead of
  its name, the first part of the expected along one axis, an axis as long as a combination of the
  test's sizes (n // n_heads where d_head belongs). Lengths are named by size names only.

Invariant (hidden tests): an Explanation holds names only (of quantities, sizes, kinds, outputs,
axes, relations, size expressions) and small numbers from a fixed set (decimals, axes) or the page
case's own inputs (a count the page prints), never a value read from a hidden test. Numbers read from values (a constant ratio, which rows are wrong) come from public
tests alone: `explain` reads them only from samples whose `hidden` is False.
"""
from __future__ import annotations

import inspect
import itertools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from . import trace_variants

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence

    from numpy.typing import NDArray

    from .declaration import Trace
    from .lab import Case
    from .trace_variants import Change, FloatArray, Variant, Variants

RTOL = 1e-4  # as the judge compares values
ATOL = 1e-6
DECIMALS = (0, 1, 2, 3)  # rounding as a page prints numbers
HALF_PRECISION = 1e-2  # how far float16 work may stray, relative to the largest value
# Container kinds named in a sentence: a closed set, so no hidden test can choose the words.
CONTAINERS = ("dict", "list", "tuple", "ndarray", "Series", "DataFrame", "float", "int", "str", "None")

# A formula's part: (kind, *arguments), as ("base", name), ("order", axes), ("times", factor name),
# ("round", decimals), ("product", left, right, transposed, end), ("variant", *change).
Part = tuple[Any, ...]
Formula = tuple[Part, ...]
# A predicate's or a relation's parameters, as (name, value) pairs: (("axis", 1), ("quantity", "Q")).
Params = tuple[tuple[str, Any], ...]
# A value as the explainer reads it: a float array, a plain mapping, or None when not read as one.
# Which it is, the search tells by isinstance and shape before it reads a value as one.
Read = Any


@dataclass(frozen=True, kw_only=True)
class Vocabulary:
    """What a lab tells the explainer once, beside its trace.

    `sizes` names the sizes of a case: {name: (input or trace field, axis)} for a length of an
    array, or {name: input} for an input that is a whole number (a count of heads). `kinds`
    maps a Case to the names of the kinds it belongs to (e.g. ("one_word",), ("d_v_differs",)).
    `quantities`, when given, limits the trace fields offered (default: every numeric array).
    Display names of quantities and kinds live in the lab's catalogs ([quantity], [kind]).
    """

    sizes: dict[str, tuple[str, int] | str] = field(default_factory=dict)
    kinds: Callable[[Case], Iterable[str]] | None = None
    quantities: tuple[str, ...] | None = None
    # The lab's own Lab.trace (Case -> trace), re-run on a case with one input changed
    # (autograder.trace_variants); None: no variant is read.
    trace: Callable[[Case], Trace] | None = None
    # Case -> the variants already computed (the students' kit reads them from the build's data).
    variants: Callable[[Case], Variants] | None = None
    # {step name: the reference's function of that step}: re-run on a call's own arguments with one
    # changed (autograder.trace_variants.argument_variants); the lab hands them over, the engine
    # imports no lab. None: no argument variant is read.
    functions: dict[str, Callable[..., object]] | None = None


@dataclass(frozen=True, kw_only=True)
class Sample:
    """One output of one call, as the explainer reads it."""

    case: str
    hidden: bool
    passed: bool
    got: Read  # a float array, a plain mapping, or None when not read as one
    got_type: str  # the container the student returned ("dict", "ndarray", ...)
    expected: Read  # a float array or a plain mapping
    quantities: dict[str, FloatArray]  # name -> float array: the trace's values and the case's inputs
    sizes: dict[str, int]  # name -> int
    labels: tuple[str, ...] = ()  # the words naming rows
    # {change: {"quantities": {name: float array}, "first": name, "as": name or None}}: the
    # reference's trace of this case with one input changed (autograder.trace_variants)
    variants: Variants = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Explanation:
    """What the values show, as names; see the module's invariant."""

    output: str
    relation: str  # "formula", a predicate ("rows_identical", ...), "container" or "observed"
    parts: Formula = ()  # a formula's parts: (("base", name), ("order", axes), ("times", factor), ...)
    params: dict[str, Any] = field(default_factory=dict)
    size: int = 1


# ----- formulas ----------------------------------------------------------------------------

def _close(a: FloatArray | None, b: FloatArray | None) -> bool:
    if a is None or b is None or a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        finite = np.abs(b[np.isfinite(b)])
        atol = ATOL * max(1.0, float(finite.max()) if finite.size else 1.0)
        return bool(np.allclose(a, b, rtol=RTOL, atol=atol, equal_nan=True))


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
            if _close(product, sample.expected):
                found.append((left, right, transposed))
    return found


def _holding(sample: Sample, got: Read) -> dict[int, list[Formula]]:
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
            if size and size <= 2 and _close(value, got):
                by_size[size].append(tuple(head))
            if size >= 2:
                continue
            for transform in _transforms(sample, value, got):
                by_size[size + 1].append(tuple(head) + (transform,))
    for left, right, transposed in _products(sample):
        for end in ("first", "last", "only_first", "only_last"):
            parts: Formula = (("product", left, right, transposed, end),)
            if _close(predict(sample, parts), got):
                by_size[1].append(parts)
        parts = (("product_axis", left, right, transposed),)
        if _close(predict(sample, parts), got):
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
                if np.isfinite(ratio) and ratio != 0 and _close(value * ratio, got):
                    for name, factor in factors(sample.sizes).items():
                        for kind, amount in (("times", factor), ("divided", 1 / factor)):
                            if abs(ratio - amount) <= 1e-3 * abs(amount) and _close(value * amount, got):
                                found.append((kind, name))
            for name, other in sample.quantities.items():
                if other.shape == got.shape:
                    if _close(value + other, got):
                        found.append(("plus", name))
                    elif _close(value - other, got):
                        found.append(("minus", name))
            for decimals in DECIMALS:
                rounded = np.round(value, decimals)
                if not _close(rounded, value) and _close(rounded, got):
                    found.append(("round", decimals))
                    break
            if _close(-value, got) and not _close(-value, value):
                found.append(("negated",))
            if _close(1.0 - value, got):
                found.append(("complement",))
            if _close(np.abs(value), got) and not _close(np.abs(value), value):
                found.append(("absolute",))
            truncated = np.trunc(value)
            if not _close(truncated, value) and _close(truncated, got):
                found.append(("trunc",))
            if value.ndim >= 2 and value.shape[-2] >= 2:
                for end, row in (("first", value[..., :1, :]), ("last", value[..., -1:, :]),
                                 ("sum", value.sum(axis=-2, keepdims=True))):
                    if _close(np.broadcast_to(row, value.shape), got):
                        found.append(("row", end))
            if _distributions(value) and not _close(value, got):
                found.extend(_distribution_transforms(sample, value, got))
        for axis in range(value.ndim):
            if value.shape[:axis] + value.shape[axis + 1:] == got.shape:
                # Both where they agree (an axis of length 1): the other samples choose.
                if _close(value.sum(axis=axis), got):
                    found.append(("sum", axis))
                if _close(value.mean(axis=axis), got):
                    found.append(("mean", axis))
    return found


def _distribution_transforms(sample: Sample, value: FloatArray, got: FloatArray) -> list[Part]:
    """Of a distribution `value` (rows summing to 1): `got` is each row times a number of its own
    (not divided by its sum), or the rows tempered by a size (the scores divided again, or not)."""
    found: list[Part] = []
    with np.errstate(all="ignore"):
        if np.all(np.isfinite(got)) and np.all(got >= 0) and not _distributions(got):
            sums = got.sum(axis=-1, keepdims=True)
            if np.all(sums > 0) and _close(got / sums, value):
                found.append(("unnormalised",))
        elif _distributions(got):
            power = _power_of(value, got)
            if power is not None and abs(power - 1.0) > 1e-3:
                for name, factor in factors(sample.sizes).items():
                    for kind, amount in (("divided", 1 / factor), ("times", factor)):
                        if abs(power - amount) <= 1e-2 * amount and _close(_tempered(value, amount), got):
                            root = f"√{name}"
                            if kind == "times" and root in factors(sample.sizes):
                                # Times a size is also times its root where that root should divide:
                                # the one slip (* in place of /) is read first, the missing division beside.
                                found.append(("tempered", "inverted", root))
                            found.append(("tempered", kind, name))
                for name, size in sample.sizes.items():  # √size where the integer root was taken (math.isqrt)
                    floor_root = _floor_root_amount(size)
                    if floor_root is not None and floor_root != 1.0 and abs(power - floor_root) <= 1e-2 * floor_root \
                            and _close(_tempered(value, floor_root), got):
                        found.append(("tempered", "floor_root", name))
    return found


def _floor_root_amount(size: object) -> float | None:
    """√size / ⌊√size⌋: how much larger the scores get when divided by the integer square root
    (math.isqrt, int(np.sqrt(...))) in place of the square root; 1 for a perfect square."""
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        return None
    return float(np.sqrt(size)) / math.isqrt(size)


def _search_formulas(failing: Sequence[Sample], passing: Sequence[Sample], sizes: Sequence[int] = (1, 2),
                     per_sample: Sequence[dict[int, list[Formula]]] | None = None) -> tuple[list[Formula], int]:
    """The smallest formulas (of `sizes` changes) true on every failing sample and ruled out by no
    passing one; `per_sample`: each failing sample's formulas (_holding), when already found."""
    if not failing:
        return [], 0
    if per_sample is None:
        per_sample = [_holding(s, s.got) for s in failing]
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
    return value is not None and _close(value, sample.expected)


# A cut to whole numbers goes before a rounding to 0 decimals where both give the values: an integer
# array (dtype=int, astype(int)) truncates; np.round(x) to whole numbers is rarely written.
_PART_ORDER = ("base", "product", "product_axis", "order", "divided", "times", "plus", "minus", "negated",
               "absolute", "complement", "trunc", "round", "sum", "mean", "row", "tempered", "unnormalised")


def _preference(parts: Formula) -> tuple[int, list[int], list[bool]]:
    """Among formulas of one size: the expected value as base first, named sizes before 2."""
    return (sum(p[0] == "base" and p[1] != "expected" for p in parts),
            [_PART_ORDER.index(p[0]) for p in parts],
            [p[-1] == "2" for p in parts if p[0] in ("times", "divided", "tempered")])


# ----- the reference's computation with one input changed -----------------------------------

def _search_variants(output: str, failing: Sequence[Sample], passing: Sequence[Sample]
                     ) -> tuple[str, Formula, dict[str, Any]] | None:
    """(relation, parts, params) of the first variant of the trace (autograder.trace_variants)
    whose quantity named `output` is the student's value on every failing sample and that no
    passing sample rules out; None when none is. A variant is one change: it is searched after the
    formulas of one change and before those of two."""
    held: list[Change] | None = None
    for sample in failing:
        found = [change for change, variant in sample.variants.items()
                 if _same_value(variant["quantities"].get(output), sample.got, overflowed=True)]
        held = found if held is None else [c for c in held if c in found]
        if not held:
            return None
    # Overflowed cells (nan/inf where the variant is finite: the student's formula, run unstably)
    # are forgiven only beside a failing sample the variant gives exactly.
    held = [change for change in held or () if any(
        _same_value(sample.variants[change]["quantities"].get(output), sample.got) for sample in failing)]
    for change in held:
        if all(_variant_consistent(sample, change, output) for sample in passing):
            variant = failing[0].variants[change]
            relation = _variant_relation(change, variant)
            if change[0] == "swapped":
                transposed = _transposed_quantity(failing, change)
                if transposed:
                    relation = ("variant_swapped_transposed", relation[1], {**relation[2], "quantity": transposed})
            return relation
    return None


def _transposed_quantity(failing: Sequence[Sample], change: Change) -> str | None:
    """The first quantity of the trace (not an input) that the swap of two inputs transposes on
    every failing sample: swapping the two factors of a product gives the product's transpose,
    which is what the student may have written instead (einsum's output subscripts, a .T)."""
    inputs = set(change[1:3])
    names: list[str] | None = None
    for sample in failing:
        variant = sample.variants[change]["quantities"]
        found = []
        for name, value in sample.quantities.items():
            other = variant.get(name)
            if name in inputs or not isinstance(other, np.ndarray) or value.ndim < 2 or \
                    value.shape[-1] != value.shape[-2] or value.shape[-1] < 2 or other.shape != value.shape:
                continue
            flipped = np.swapaxes(value, -1, -2)
            if _close(other, flipped) and not _close(value, flipped):
                found.append(name)
        names = found if names is None else [n for n in names if n in found]
        if not names:
            return None
    return names[0] if names else None


def _variant_consistent(sample: Sample, change: Change, output: str) -> bool:
    """A passing sample rules a variant out when the variant changes its value into another of
    the same shape (a value of another shape is another call's form: it tells nothing)."""
    variant = sample.variants.get(change)
    value = variant["quantities"].get(output) if variant else None
    if value is None or sample.expected is None:
        return True
    if isinstance(sample.expected, dict) or isinstance(value, dict):
        return _same_value(value, sample.expected)
    return value.shape != sample.expected.shape or _close(value, sample.expected)


def _same_value(value: object, got: object, overflowed: bool = False) -> bool:
    """A variant's value is the student's: equal mappings, or arrays equal within the tolerance;
    `overflowed`: also where the student's array holds nan or inf in cells the variant has finite,
    every other cell equal (the same formula, computed without guarding exp)."""
    if isinstance(value, dict) or isinstance(got, dict):
        return isinstance(value, dict) and isinstance(got, dict) and value == got
    if not (isinstance(value, np.ndarray) and isinstance(got, np.ndarray)):
        return False
    if _close(value, got):
        return True
    if not overflowed or value.shape != got.shape or not np.all(np.isfinite(value)):
        return False
    finite = np.isfinite(got)
    return bool(finite.any() and not finite.all() and _close(value[finite], got[finite]))


def _variant_relation(change: Change, variant: Variant) -> tuple[str, Formula, dict[str, Any]]:
    kind, name, *rest = change
    params: dict[str, Any] = {"input": name}
    if kind == "replaced":
        params["other"] = rest[0]
        if variant.get("as") and variant["first"] != variant["as"]:
            params.update(quantity=variant["first"], instead=variant["as"])
            return "variant_replaced_as", (("variant",) + tuple(change),), params
    if kind == "page_value" and variant.get("value") is not None:
        params["value"] = variant["value"]  # the page's own value: the page prints it
    if kind in ("swapped", "argument_swapped", "argument_reapplied"):
        params["other"] = rest[0]
    if kind == "argument_rounded":
        params["decimals"] = rest[0]  # from the fixed set trace_variants.ROUNDINGS
    return f"variant_{kind}", (("variant",) + tuple(change),), params


# ----- shapes: a part of the expected, or an axis as long as another size ------------------------

def _size_expressions(sizes: Mapping[str, int]) -> list[tuple[str, int]]:
    """(text, value) of the sizes and their simplest combinations, simplest first."""
    items = [(k, v) for k, v in sizes.items() if isinstance(v, int) and v > 0]
    found = [(name, value) for name, value in items]
    for (a, x), (b, y) in itertools.permutations(items, 2):
        found.append((f"{a} × {b}", x * y))
        found.append((f"{a} // {b}", x // y))
    found.extend((f"2 × {name}", 2 * value) for name, value in items)
    return found


def _length_named(failing: Sequence[Sample], axis: int, of_got: bool) -> str | None:
    """The simplest size expression equal to the length of `axis` of every failing sample's got
    (or expected): names only, so a hidden test's sizes may rule expressions out."""
    common: list[str] | None = None
    for sample in failing:
        value = sample.got if of_got else sample.expected
        length = value.shape[axis]
        names = [text for text, size in _size_expressions(sample.sizes) if size == length]
        common = names if common is None else [n for n in common if n in names]
        if not common:
            return None
    return common[0] if common else None


def _shape_relation(failing: Sequence[Sample]) -> tuple[str, dict[str, Any]] | None:
    """Where every failing sample has the expected's number of axes and other lengths: the got is
    the first (or last) part of the expected along one axis ("block"), else its lengths are named
    by the sizes of the test ("axis_length"); None when neither holds."""
    shapes = [(s.got.shape, s.expected.shape) for s in failing]
    if not failing or any(len(g) != len(e) or g == e for g, e in shapes):
        return None
    axes = {tuple(a for a in range(len(g)) if g[a] != e[a]) for g, e in shapes}
    if len(axes) == 1 and len(next(iter(axes))) > 1:
        return _shapes_named(failing)
    if len(axes) != 1 or len(next(iter(axes))) != 1:
        return None
    (axis,) = next(iter(axes))
    lengths: dict[str, str] = {}
    got_length = _length_named(failing, axis, of_got=True)
    if got_length:
        lengths = {"got_length": got_length, "expected_length": _length_named(failing, axis, of_got=False) or "?"}
    for end in ("first", "last"):
        if all(g[axis] < e[axis] and _close(s.got, _block(s.expected, axis, g[axis], end))
               for s, (g, e) in zip(failing, shapes)):
            return "block_" + end + ("_length" if lengths else ""), {"axis": axis, **lengths}
    for end in ("first", "last"):  # the expected, with something more before it (or after it)
        extra = {g[axis] - e[axis] for g, e in shapes}
        if len(extra) == 1 and all(g[axis] > e[axis] and _close(_block(s.got, axis, e[axis], end), s.expected)
                                   for s, (g, e) in zip(failing, shapes)):
            return "extra_" + ("before" if end == "last" else "after"), {"axis": axis, "count": extra.pop()}
    if got_length and lengths["expected_length"] != "?":
        return "axis_length", {"axis": axis, **lengths}
    return None


def _outer(failing: Sequence[Sample]) -> tuple[str, str] | None:
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
                 if got.shape == (a.size, b.size) and _close(np.outer(a, b), got)]
        names = found if names is None else [pair for pair in names if pair in found]
        if not names:
            return None
    return names[0] if names else None


def _unit_axes(failing: Sequence[Sample]) -> tuple[str, dict[str, int]] | None:
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
        if not axes or not _close(got.reshape(expected.shape), expected):
            return None
        found.add(("unit_axis_extra" if got.ndim > expected.ndim else "unit_axis_missing", axes[0]))
    if len(found) != 1:
        return None
    relation, axis = found.pop()
    return relation, {"axis": axis}


def _shapes_named(failing: Sequence[Sample]) -> tuple[str, dict[str, str]] | None:
    """Where several axes differ: both shapes with each length named by the test's sizes (a count
    and a length given in each other's places: (d_head, n, n_heads) for (n_heads, n, d_head))."""
    ndim = failing[0].got.ndim
    got = [_length_named(failing, axis, of_got=True) for axis in range(ndim)]
    expected = [_length_named(failing, axis, of_got=False) for axis in range(ndim)]
    if None in got or None in expected:
        return None
    with np.errstate(all="ignore"):
        kept = all(s.got.size == s.expected.size and _close(np.sort(s.got, axis=None), np.sort(s.expected, axis=None))
                   for s in failing)
    # Every expected number is there: said too, as the reshape it points to.
    return "shape_named" + ("_same_values" if kept else ""), {
        "got_shape": "(" + ", ".join(n for n in got if n is not None) + ")",
        "expected_shape": "(" + ", ".join(n for n in expected if n is not None) + ")"}


def _block(value: FloatArray, axis: int, length: int, end: str) -> FloatArray:
    index: list[slice] = [slice(None)] * value.ndim
    index[axis] = slice(0, length) if end == "first" else slice(value.shape[axis] - length, None)
    return value[tuple(index)]


# ----- predicates: what the values show when no formula gives them --------------------------

def _sums_to_one(value: FloatArray, axis: int) -> bool:
    with np.errstate(all="ignore"):
        return value.ndim > axis and value.shape[axis] > 1 and bool(
            np.allclose(value.sum(axis=axis), 1.0, rtol=RTOL, atol=1e-6))


def _predicates(sample: Sample) -> list[tuple[str, Params, bool]]:
    """(name, params, telling) of what is true of `got`; `telling` when the expected value does
    not have it too (a predicate must hold on every failing sample and tell on one at least)."""
    got, expected = sample.got, sample.expected
    found: list[tuple[str, Params, bool]] = []
    with np.errstate(all="ignore"):
        if got.size == expected.size and got.size > 1 and np.all(np.isfinite(got)) and \
                _close(np.sort(got, axis=None), np.sort(expected, axis=None)):
            found.append(("same_values_elsewhere", (), True))
    if got.shape != expected.shape:
        return found
    with np.errstate(all="ignore"):
        right_axes = [a for a in range(expected.ndim) if _sums_to_one(expected, a)]
        for axis in range(got.ndim):
            if _sums_to_one(got, axis) and right_axes and axis != right_axes[-1]:
                found.append(("normalised_axis", (("axis", axis), ("expected_axis", right_axes[-1])),
                              not _sums_to_one(expected, axis)))
        if got.ndim >= 2 and got.shape[-2] > 1:
            if np.allclose(got, got[..., :1, :], rtol=RTOL, atol=ATOL, equal_nan=True):
                found.append(("rows_identical", (), not np.allclose(expected, expected[..., :1, :], rtol=RTOL, atol=ATOL)))
        if got.ndim >= 2 and got.shape[-1] == got.shape[-2] > 1:
            if _close(got, np.swapaxes(got, -1, -2)):
                found.append(("symmetric", (), not _close(expected, np.swapaxes(expected, -1, -2))))
        finite = np.isfinite(got)
        # A table of one value (every cell 1) says nothing of integers: told by what else it shows.
        if finite.all() and got.size and np.all(got == np.round(got)) and np.unique(got).size > 1:
            found.append(("whole_numbers", (), not np.all(expected == np.round(expected))))
        if finite.all() and got.size:
            low, high = float(got.min()), float(got.max())
            clipped = np.clip(expected, low, high)
            if low < high and not _close(clipped, expected) and _close(clipped, got):
                found.append(("clipped", (), True))
        right = np.isclose(got, expected, rtol=RTOL, atol=ATOL)
        if not right.all() and np.isfinite(expected).all():
            replaced = got[~right]
            if replaced.size and np.all(replaced == replaced.flat[0]) and np.isfinite(replaced.flat[0]):
                found.append(("cells_constant", (), True))
        if _support_swapped(got, expected):
            found.append(("support_swapped", (), True))
        if finite.all() and got.size and _half_precision(got) and not _half_precision(expected) and \
                _close_to(got, expected, HALF_PRECISION):
            found.append(("half_precision", (), True))
        unequal = np.isfinite(expected) & ~np.isfinite(got)
        if unequal.any() and np.isfinite(got).any():
            found.append(("not_finite_cells", (), True))
    return found


def _half_precision(value: FloatArray) -> bool:
    """Whether every value is a float16 number (10 bits of mantissa) while not all are whole."""
    with np.errstate(all="ignore"):
        return bool(np.all(value.astype(np.float16).astype(float) == value) and not np.all(value == np.round(value)))


def _close_to(got: FloatArray, expected: FloatArray, relative: float) -> bool:
    """Within `relative` of the largest expected magnitude, cell by cell."""
    scale = max(1.0, float(np.abs(expected).max())) if expected.size else 1.0
    with np.errstate(all="ignore"):
        return bool(np.all(np.abs(got - expected) <= relative * scale))


def _support_swapped(got: FloatArray, expected: FloatArray) -> bool:
    """Whether, on every wrong row (last axis) where the expected has zero and non-zero cells, `got`
    is 0 wherever the expected is not and holds something where the expected is 0 (a mask used the
    other way round; a saturated row may hold it on one cell only)."""
    if got.ndim < 1 or not np.all(np.isfinite(got)) or not np.all(np.isfinite(expected)):
        return False
    tiny = 1e-9 * max(1.0, float(np.abs(expected).max()) if expected.size else 1.0)
    zero_expected = np.abs(expected) < tiny
    zero_got = np.abs(got) < tiny
    wrong = ~np.isclose(got, expected, rtol=RTOL, atol=ATOL).all(axis=-1)
    rows = cast("NDArray[np.bool_]", zero_expected.any(axis=-1) & ~zero_expected.all(axis=-1) & wrong)
    if not rows.any():
        return False
    inside = np.where(rows[..., None], ~zero_expected & ~zero_got, False)
    outside = cast("NDArray[np.bool_]", (zero_expected & ~zero_got).any(axis=-1))
    return bool(not inside.any() and np.all(outside[rows]))


def _degenerate(failing: Sequence[Sample]) -> str | None:
    """What one value every failing sample's `got` holds in every cell ("zeros", "nan", "one_value"),
    where the expected does not; None otherwise (or when the samples differ in it)."""
    found: set[str] = set()
    for sample in failing:
        got, expected = sample.got, sample.expected
        if not isinstance(got, np.ndarray) or got.size < 2 or got.shape != expected.shape:
            return None
        with np.errstate(all="ignore"):
            if np.all(np.isnan(got)):
                what = "nan"
            elif np.all(got == 0):
                what = "zeros"
            elif np.all(got == got.flat[0]):
                what = "one_value"
            else:
                return None
            if np.allclose(expected, expected.flat[0], equal_nan=True):
                return None
        found.add(what)
    return found.pop() if len(found) == 1 else None


def _search_predicates(failing: Sequence[Sample]) -> list[tuple[str, Params]]:
    """Predicates true of every failing sample, telling on one at least, in the order found."""
    if not failing:
        return []
    held = [{(name, params): telling for name, params, telling in _predicates(s)} for s in failing]
    found = [key for key in held[0] if all(key in h for h in held) and any(h[key] for h in held)]
    # A fingerprint that tells the cause goes before what many causes show (numbers moved about).
    return sorted(found, key=lambda key: key[0] not in _FINGERPRINTS)


_FINGERPRINTS = ("support_swapped", "half_precision")


# ----- mappings and containers --------------------------------------------------------------

def _mapping_relations(sample: Sample) -> list[tuple[str, Params]]:
    got, expected = sample.got, sample.expected
    found: list[tuple[str, Params]] = []
    if not isinstance(got, dict) or not isinstance(expected, dict):
        return found
    labels = list(sample.labels)
    positions = {key: labels.index(value) for key, value in expected.items() if value in labels}
    if len(positions) == len(expected) and len(labels) > 1:
        if got == positions:
            found.append(("positions_not_labels", ()))
        elif got == {labels.index(k) if k in labels else k: v for k, v in positions.items()}:
            found.append(("positions_not_labels", ()))
        elif got == {labels.index(k) if k in labels else k: v for k, v in expected.items()}:
            found.append(("keys_positions", ()))
    if got != expected and len(got) > 1 and all(isinstance(v, (str, int)) for v in got.values()) and \
            all(expected.get(value) == key for key, value in got.items()):
        found.append(("inverted", ()))  # keys and values in each other's places
    # The last of tied maxima tells its cause; one value for all keys may follow from it.
    found.extend(("ties_last", (("quantity", name),)) for name in _last_of_ties(sample))
    # Every key to itself: its own relation, after a cause that gives the same mapping (the ends of ties).
    if len(got) > 1 and all(key == value for key, value in got.items()) and \
            any(key != value for key, value in expected.items()):
        found.append(("maps_to_itself", ()))
    if len(got) > 1 and len({repr(v) for v in got.values()}) == 1 and len({repr(v) for v in expected.values()}) > 1:
        found.append(("one_value_for_all", ()))
    if got and all(isinstance(v, str) for v in expected.values()) and \
            not any(v is None or isinstance(v, (str, int, float)) for v in got.values()):
        found.append(("values_not_words", ()))  # objects (an Index, a Series, a list) where words belong
    numbers = [v for v in got.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if got and len(numbers) == len(got) and all(isinstance(v, str) for v in expected.values()):
        found[:0] = [("row_max_values", (("quantity", name),)) for name in _row_maxima(sample)]
        found.append(("numbers_not_labels", ()))
    return found


def _last_of_ties(sample: Sample) -> list[str]:
    """The quantities whose rows' LAST largest cell names `got`'s values, where the expected names
    the first (tied maxima: the other end of the tie picked)."""
    got, expected, labels = sample.got, sample.expected, list(sample.labels)
    if got == expected or set(got) != set(expected) or not set(got) <= set(labels):
        return []
    found = []
    for name, value in sample.quantities.items():
        if value.ndim != 2 or value.shape != (len(labels), len(labels)):
            continue
        first = {label: labels[int(np.argmax(value[i]))] for i, label in enumerate(labels)}
        last = {label: labels[len(labels) - 1 - int(np.argmax(value[i][::-1]))] for i, label in enumerate(labels)}
        if all(expected[k] == first[k] and got[k] == last[k] for k in got):
            found.append(name)
    return found


def _row_maxima(sample: Sample) -> list[str]:
    """The quantities whose row maxima are the values of `got`, keyed by the rows' labels."""
    got, labels = sample.got, list(sample.labels)
    if set(got) != set(sample.expected) or not set(got) <= set(labels):
        return []
    found = []
    for name, value in sample.quantities.items():
        if value.ndim == 2 and value.shape[0] == len(labels) and value.shape[1] >= 1:
            maxima = value.max(axis=1)
            if all(abs(float(got[label]) - maxima[labels.index(label)]) <= 1e-6 * max(1.0, abs(maxima[labels.index(label)]))
                   for label in got):
                found.append(name)
    return found


def _container(sample: Sample) -> tuple[str, str] | None:
    got_type = sample.got_type if sample.got_type in CONTAINERS else "other"
    expected_type = "dict" if isinstance(sample.expected, dict) else "ndarray"
    if got_type in ("ndarray", "list", "tuple", "DataFrame") and expected_type == "ndarray" and sample.got is not None:
        return None  # an array-like container is read as an array
    if got_type in ("dict", "Series") and expected_type == "dict":
        return None
    return got_type, expected_type


# ----- the search ---------------------------------------------------------------------------

def explain(output: str, samples: Sequence[Sample], kind: str | None = None) -> Explanation | None:
    """The smallest explanation of `output`'s failing samples, else what is observable; None when
    nothing is. `kind`: the one kind of case that fails, if one (see failing_kind), told beside."""
    failing = [s for s in samples if not s.passed]
    passing = [s for s in samples if s.passed]
    if not failing:
        return None
    extra: dict[str, Any] = {"kind": kind} if kind else {}
    if kind:
        # Every test of one kind fails and no other: the kind leads, and what the values show is
        # read on that kind's tests alone (the other kinds' tests pass: they rule nothing out, as
        # a cast to int changes only an integer input).
        passing = []
    containers = [_container(s) for s in failing]
    if all(c is not None for c in containers) and len(set(containers)) == 1:
        got_type, expected_type = cast("tuple[str, str]", containers[0])
        return Explanation(output=output, relation="container",
                           params={"got": got_type, "expected": expected_type, **extra})
    if any(s.got is None for s in failing):
        return _kind_only(output, extra)
    if all(isinstance(s.expected, dict) for s in failing):
        common: list[tuple[str, Params]] | None = None
        for sample in failing:
            found = _mapping_relations(sample)
            common = found if common is None else [f for f in common if f in found]
        # Keys and values swapped read after the variants: of a permutation, the inverse is also
        # what another axis's maxima give (weights used transposed), which a variant names.
        first = [found for found in common or () if found[0] != "inverted"]
        if first:
            return Explanation(output=output, relation=first[0][0], params=dict(first[0][1], **extra))
        variant = _search_variants(output, failing, passing)
        if variant:
            return Explanation(output=output, relation=variant[0], parts=variant[1], params={**variant[2], **extra})
        if common:
            return Explanation(output=output, relation=common[0][0], params=dict(common[0][1], **extra))
        return _kind_only(output, extra)
    if any(isinstance(s.expected, dict) or isinstance(s.got, dict) for s in samples):
        return _kind_only(output, extra)
    unit = _unit_axes(failing)
    if unit:  # before formulas: a sum over an axis of length 1 is that axis missing, said plainly
        return Explanation(output=output, relation=unit[0], params={**unit[1], **extra})
    if all(s.got.shape != s.expected.shape and s.got.size == s.expected.size and s.got.size > 1
           and _close(s.got.reshape(-1), s.expected.reshape(-1)) for s in failing):
        return Explanation(output=output, relation="reshape_missing", params=extra)
    per_sample = [_holding(s, s.got) for s in failing]  # every formula of 1 or 2 changes, once
    formulas, size = _search_formulas(failing, passing, sizes=(1,), per_sample=per_sample)
    if formulas:
        return Explanation(output=output, relation="formula", parts=formulas[0], size=size, params=extra)
    variant = _search_variants(output, failing, passing)
    if variant:
        return Explanation(output=output, relation=variant[0], parts=variant[1], params={**variant[2], **extra})
    formulas, size = _search_formulas(failing, passing, sizes=(2,), per_sample=per_sample)
    if formulas:
        return Explanation(output=output, relation="formula", parts=formulas[0], size=size, params=extra)
    outer = _outer(failing)
    if outer:
        return Explanation(output=output, relation="outer", params={"left": outer[0], "right": outer[1], **extra})
    if all(s.got.ndim == 1 and s.expected.ndim == 2 and s.expected.shape[0] == s.expected.shape[1] == s.got.shape[0] > 1
           and _close(s.got, np.diagonal(s.expected)) for s in failing):
        return Explanation(output=output, relation="diagonal", params=extra)
    shaped = _shape_relation(failing)
    if shaped:
        return Explanation(output=output, relation=shaped[0], params={**shaped[1], **extra})
    degenerate = _degenerate(failing)
    if degenerate:
        # One value everywhere (all 0, all nan, all equal): the structure it shows (rows alike,
        # one value in the wrong cells, symmetric) follows from it and is no cause.
        return Explanation(output=output, relation=f"all_{degenerate}", params=extra)
    ratio = _constant(failing, "ratio")
    if ratio:
        return Explanation(output=output, relation=ratio[0], params={**ratio[1], **extra})
    predicates = _search_predicates(failing)
    if predicates:
        name, params = predicates[0]
        return Explanation(output=output, relation=name, params={**dict(params), **extra})
    observed = _observed(failing)
    if observed:
        return Explanation(output=output, relation="observed", params={**observed, **extra})
    return _kind_only(output, extra)


def _kind_only(output: str, extra: dict[str, Any]) -> Explanation | None:
    return Explanation(output=output, relation="kind_only", params=extra) if extra else None


def failing_kind(failed: Collection[str], cases: Collection[str], kinds: Mapping[str, Iterable[str]]) -> str | None:
    """The one kind the `failed` cases are exactly, among `cases` (every case of it fails, no
    other does); `kinds` maps a case name to its kinds."""
    if not failed or failed == cases:
        return None
    for kind in dict.fromkeys(k for case in sorted(cases) for k in kinds.get(case, ())):
        if {case for case in cases if kind in kinds.get(case, ())} == failed:
            return kind
    return None


def _constant(failing: Sequence[Sample], what: str) -> tuple[str, dict[str, float]] | None:
    """got / expected (or got - expected) one constant on each failing sample, matching no size;
    its value only from public samples (a hidden sample's is a number the student's code chose)."""
    values: list[tuple[str, float, bool]] = []
    for sample in failing:
        got, expected = sample.got, sample.expected
        if got.shape != expected.shape or not got.size:
            return None
        with np.errstate(all="ignore"):
            usable = np.isfinite(got) & np.isfinite(expected) & (np.abs(expected) > 1e-9)
            if not usable.any():
                return None
            ratio = float(np.median(got[usable] / expected[usable]))
            if not np.isfinite(ratio) or ratio in (0.0, 1.0) or not _close(expected * ratio, got):
                offset = float(np.median(got - expected))
                if np.isfinite(offset) and offset != 0 and _close(expected + offset, got):
                    values.append(("offset", offset, sample.hidden))
                    continue
                return None
        values.append(("ratio", ratio, sample.hidden))
    names = {v[0] for v in values}
    if len(names) != 1:
        return None
    name = names.pop()
    # Its value is told only when every failing sample is public and they agree: a sentence about
    # all failing tests would otherwise say something of a hidden one's.
    shown = [v[1] for v in values]
    same = not any(v[2] for v in values) and len(set(round(v, 6) for v in shown)) == 1
    params = {"value": shown[0]} if same else {}
    return f"{name}_constant", params


def _observed(failing: Sequence[Sample]) -> dict[str, Any] | None:
    """Which rows or which columns are wrong, on the first public failing sample."""
    public = [s for s in failing if not s.hidden and s.got is not None and s.got.shape == s.expected.shape
              and s.got.ndim == 2]
    if not public:
        return None
    sample = public[0]
    with np.errstate(all="ignore"):
        wrong = cast("NDArray[np.bool_]",
                     ~np.isclose(sample.got, sample.expected, rtol=RTOL, atol=ATOL, equal_nan=True))
    rows = [int(i) for i in np.flatnonzero(wrong.any(axis=1))]
    columns = [int(j) for j in np.flatnonzero(wrong.any(axis=0))]
    if 0 < len(rows) < wrong.shape[0]:
        return {"rows": rows, "labels": [sample.labels[i] if i < len(sample.labels) else str(i) for i in rows],
                "case": sample.case}
    if 0 < len(columns) < wrong.shape[1]:
        return {"columns": columns, "case": sample.case}
    return None


def case_sizes(case: Case, trace: Trace, vocabulary: Vocabulary) -> dict[str, int]:
    """{size name: value} of a case, read from its arrays' shapes as the vocabulary names them."""
    sizes: dict[str, int] = {}
    for name, source in vocabulary.sizes.items():
        if isinstance(source, tuple):
            array_name, axis = source
            array = case.inputs.get(array_name) if array_name in case.inputs else getattr(trace, array_name, None)
            shape = np.shape(array) if array is not None else ()
            if len(shape) > axis:
                sizes[name] = int(shape[axis])
        else:
            value = case.inputs.get(source)
            if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
                sizes[name] = int(value)
    return sizes


def trace_quantities(trace: Trace, vocabulary: Vocabulary) -> dict[str, FloatArray]:
    """{name: float array} of the trace's numeric arrays: the fields `vocabulary.quantities` names,
    else every field."""
    found: dict[str, FloatArray] = {}
    fields: Sequence[str] | None = vocabulary.quantities
    if fields is None:
        fields = [k for k in getattr(trace, "__dataclass_fields__", vars(trace) if trace is not None else {})]
    for name in fields:
        value = getattr(trace, name, None)
        if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
            found[name] = value.astype(float)
    return found


def case_quantities(case: Case, trace: Trace, vocabulary: Vocabulary,
                    arguments: Iterable[tuple[str, object]] = ()) -> dict[str, FloatArray]:
    """{name: float array} of a case: the trace's numeric arrays, the case's array inputs, and
    the call's own arguments where they are no quantity already (named by their parameters)."""
    found = trace_quantities(trace, vocabulary)
    for name, value in case.inputs.items():
        if isinstance(value, np.ndarray) and value.dtype.kind in "biuf" and name not in found:
            found[name] = value.astype(float)
    for name, value in arguments:
        if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
            value = value.astype(float)
            if name in found:
                # The call's own argument is what the function read: a call given another form of
                # a quantity (a table with ties) is read against that one.
                if found[name].shape == value.shape and not np.array_equal(found[name], value):
                    found[name] = value
            elif not any(v.shape == value.shape and np.array_equal(v, value) for v in found.values()):
                found[name] = value
    return found


def case_variants(case: Case, page_case: Case | None, vocabulary: Vocabulary) -> Variants:
    """The variants of `case`'s trace the explainer reads (autograder.trace_variants): computed
    from the lab's own trace, or read from the build's data in the students' kit; {} when the lab
    gives neither."""
    if vocabulary.variants is not None:
        try:
            return vocabulary.variants(case) or {}
        except Exception:  # a faulty table names nothing; it must never cost a grade
            return {}
    if vocabulary.trace is None:
        return {}
    return trace_variants.variants(case, page_case, vocabulary.trace,
                                   lambda trace: trace_quantities(trace, vocabulary))


def argument_variants(step_name: str, params: Sequence[str], args: Sequence[object], outputs: Sequence[str],
                      expected: Sequence[object], vocabulary: Vocabulary, case: Case | None = None,
                      label: str = "") -> Variants:
    """The variants of one call of a step: the lab's reference function of the step re-run on the
    call's own (reference) arguments with one changed (autograder.trace_variants); {} when the lab
    hands no function for the step. `case` and `label` name the call: its variants are computed
    once per process (the call's arguments are the reference's, the same for every submission)."""
    functions = vocabulary.functions or {}
    function = functions.get(step_name)
    if function is None:
        return {}
    try:
        return trace_variants.call_variants(case, (step_name, label, function), lambda: trace_variants.argument_variants(
            function, tuple(params), tuple(args), tuple(outputs), tuple(expected), _one_array_helpers(functions)))
    except Exception:  # a variant that cannot be made names nothing; it must never cost a grade
        return {}


def _one_array_helpers(functions: Mapping[str, Callable[..., object]]) -> tuple[tuple[str, Callable[..., object]], ...]:
    """(name, function) of the lab's steps that take one argument: a value may have been passed
    through one of them once more (the softmax applied twice). Whether one returns an array of
    its argument's shape is seen per call (trace_variants.argument_changes)."""
    found: list[tuple[str, Callable[..., object]]] = []
    for name, function in functions.items():
        try:
            parameters = inspect.signature(function).parameters.values()
        except (TypeError, ValueError):
            continue
        required = [p for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(required) == 1:
            found.append((name, function))
    return tuple(found)
