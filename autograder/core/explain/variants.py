"""The reference's own computation with one input changed (autograder.core.trace_variants), read
against a failing output: the student's value is the changed trace's quantity of the same name.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .records import Formula, Sample, close

if TYPE_CHECKING:
    from collections.abc import Sequence
    from ..trace_variants import Change, Variant


def search_variants(output: str, failing: Sequence[Sample], passing: Sequence[Sample]
                     ) -> tuple[str, Formula, dict[str, Any]] | None:
    """(relation, parts, params) of the first variant of the trace (autograder.core.trace_variants)
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
            if close(other, flipped) and not close(value, flipped):
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
    return value.shape != sample.expected.shape or close(value, sample.expected)


def _same_value(value: object, got: object, overflowed: bool = False) -> bool:
    """A variant's value is the student's: equal mappings, or arrays equal within the tolerance;
    `overflowed`: also where the student's array holds nan or inf in cells the variant has finite,
    every other cell equal (the same formula, computed without guarding exp)."""
    if isinstance(value, dict) or isinstance(got, dict):
        return isinstance(value, dict) and isinstance(got, dict) and value == got
    if not (isinstance(value, np.ndarray) and isinstance(got, np.ndarray)):
        return False
    if close(value, got):
        return True
    if not overflowed or value.shape != got.shape or not np.all(np.isfinite(value)):
        return False
    finite = np.isfinite(got)
    return bool(finite.any() and not finite.all() and close(value[finite], got[finite]))


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
