"""The reference's own computation of a case with ONE input changed in a generic way.

A student's wrong value is often the right computation on a slightly different input: a square
weight matrix used transposed, one input in another's place (W_K where W_V belongs: V made like K),
a count argument ignored for the page's own value, an input cast to whole numbers. None of these
needs a word of the lab: the changes are read off the case's inputs (their shapes and types), and
the lab's own `trace` is run on the changed case. The explainer (autograder.core.explain) then compares
a student's output with the changed trace's quantity of the same name.

The same changes apply to one step's own call: the lab's reference function of that step (the lab
hands it over in its Vocabulary; the engine imports no lab) run on the call's own arguments with
one of them transposed, two of the same shape swapped, one rounded to 1-3 decimals, cast to whole
numbers, clipped to a range, or passed once more through another one-array step of the lab (the
softmax applied again). `argument_variants` gives them, keyed by output name.

Invariant (reference inputs only): every variant is computed from a case's own inputs and the
page case's, never from a value a submission returned or asked for; a variant holds names (of
inputs, quantities, a dtype) and the reference's values, and the names alone reach feedback.
Variants of a case are computed once per process (the trace is cheap, but a class has hundreds of
files) and only when a step has a failure the explainer reads.
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from .declaration import Case

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from numpy.typing import NDArray

    from .declaration import Trace

    FloatArray = NDArray[np.float64]

# A change, as names: ("transposed", input), ("replaced", input, other), ("page_value", input),
# ("argument_rounded", argument, decimals), ("argument_clipped", argument, bound), ...
Change = tuple[Any, ...]
# {"quantities": {name: float array, or a plain dict of a mapping}, "first": name, "as": name or
# None, and for a page value the page's own "value"}
Variant = dict[str, Any]
Variants = dict[Change, Variant]

# Variants of a case, per (trace function, page case): computed once, dropped with the case.
_MEMO: weakref.WeakKeyDictionary[Case, dict[tuple[object, ...], Variants]] = weakref.WeakKeyDictionary()


def changes(case: Case, page_case: Case | None) -> list[tuple[Change, dict[str, Any]]]:
    """The generic one-input changes of `case`, as name tuples, with the inputs each gives:
    [(change, inputs)]. `page_case`: the case the page prints (its whole-number inputs are the
    values a student may have written in), or None."""
    inputs = case.inputs
    arrays = {name: value for name, value in inputs.items()
              if isinstance(value, np.ndarray) and value.dtype.kind in "biuf" and value.ndim >= 1}
    found: list[tuple[Change, dict[str, Any]]] = []
    for name, value in arrays.items():
        if value.ndim == 2 and value.shape[0] == value.shape[1] > 1 and not np.allclose(value, value.T):
            found.append((("transposed", name), {**inputs, name: value.T.copy()}))
        for other, other_value in arrays.items():
            if other != name and other_value.shape == value.shape and not np.array_equal(other_value, value):
                found.append((("replaced", name, other), {**inputs, name: other_value.copy()}))
        if value.dtype.kind == "f" and np.all(np.isfinite(value)) and not np.all(value == np.trunc(value)):
            found.append((("cast_int", name), {**inputs, name: value.astype(np.int64)}))
    names = list(arrays)
    for position, name in enumerate(names):  # two inputs of one shape given in each other's places
        for other in names[position + 1:]:
            value, other_value = arrays[name], arrays[other]
            if other_value.shape == value.shape and not np.array_equal(other_value, value):
                found.append((("swapped", name, other), {**inputs, name: other_value.copy(), other: value.copy()}))
    if page_case is not None and page_case is not case:
        for name, value in inputs.items():
            page_value = page_case.inputs.get(name)
            if _count(value) and _count(page_value) and value != page_value:
                found.append((("page_value", name), {**inputs, name: page_value}))
    return found


def _count(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def variants(case: Case, page_case: Case | None, trace: Callable[[Case], Trace],
             quantities_of: Callable[[Trace], dict[str, FloatArray]]) -> Variants:
    """{change: {"quantities": {name: float array changed by it}, "first": the first quantity of
    the trace it changes, "as": the quantity of the unchanged trace that one then equals, or None}}
    for every change of `case` its trace can be run with. `trace`: the lab's Case -> trace;
    `quantities_of`: trace -> {name: float array} (autograder.core.explain.quantities.trace_quantities)."""
    key = (trace, page_case.name if page_case is not None else None)
    memo = _MEMO.setdefault(case, {})
    if key not in memo:
        memo[key] = _computed(case, page_case, trace, quantities_of)
    return memo[key]


def _computed(case: Case, page_case: Case | None, trace: Callable[[Case], Trace],
              quantities_of: Callable[[Trace], dict[str, FloatArray]]) -> Variants:
    try:
        original = quantities_of(trace(case))
    except Exception:  # a lab whose trace cannot be run here explains nothing by variants
        return {}
    found: Variants = {}
    for change, inputs in changes(case, page_case):
        try:
            with np.errstate(all="ignore"):
                changed = quantities_of(trace(Case(name=case.name, words=case.words, inputs=inputs, hidden=case.hidden)))
        except Exception:  # the reference cannot be run so (a count that does not divide): no variant
            continue
        differing = {name: value for name, value in changed.items()
                     if name not in original or not _same(value, original[name])}
        if not differing:
            continue
        first = next(iter(differing))
        same_as = next((name for name, value in original.items()
                        if name != first and _same(differing[first], value)), None)
        found[change] = {"quantities": differing, "first": first, "as": same_as}
        if change[0] == "page_value" and page_case is not None and not page_case.hidden:
            found[change]["value"] = int(inputs[change[1]])
    return found


def _same(a: NDArray[Any], b: NDArray[Any]) -> bool:
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True))


# ----- one step's own call ---------------------------------------------------------------------

ROUNDINGS = (1, 2, 3)  # decimals a page prints
CLIP_BOUNDS = (1.0, 5.0, 10.0, 20.0, 50.0, 100.0, 500.0, 700.0)  # ranges students clip exp's input to


def argument_changes(params: Sequence[str], args: Sequence[object],
                     helpers: Iterable[tuple[str, Callable[[FloatArray], object]]] = ()
                     ) -> list[tuple[Change, tuple[object, ...]]]:
    """The generic one-argument changes of a call, as name tuples, with the arguments each gives:
    [(change, args)]. `helpers`: (name, function) of the lab's one-array steps (one argument in,
    an array of its shape out) a value may have been passed through once more."""
    arrays = {name: value for name, value in zip(params, args)
              if isinstance(value, np.ndarray) and value.dtype.kind in "biuf" and value.ndim >= 1}
    position = {name: index for index, name in enumerate(params)}

    def given(**changed: object) -> tuple[object, ...]:
        new = list(args)
        for name, value in changed.items():
            new[position[name]] = value
        return tuple(new)

    found: list[tuple[Change, tuple[object, ...]]] = []
    names = list(arrays)
    for name, value in arrays.items():
        if value.ndim == 2 and value.shape[0] == value.shape[1] > 1 and not np.array_equal(value, value.T):
            found.append((("argument_transposed", name), given(**{name: value.T.copy()})))
        if value.dtype.kind in "iuf" and np.all(np.isfinite(value)) and np.any(value != 0):
            found.append((("argument_negated", name), given(**{name: -value.astype(float)})))  # a sign turned: max - x
        if value.dtype.kind == "f" and np.all(np.isfinite(value)):
            for decimals in ROUNDINGS:
                rounded = np.round(value, decimals)
                if not np.array_equal(rounded, value):
                    found.append((("argument_rounded", name, decimals), given(**{name: rounded})))
            if not np.all(value == np.trunc(value)):
                found.append((("argument_cast_int", name), given(**{name: value.astype(np.int64)})))
            top = float(np.abs(value).max()) if value.size else 0.0
            for bound in CLIP_BOUNDS:
                if top > bound:
                    found.append((("argument_clipped", name, bound), given(**{name: np.clip(value, -bound, bound)})))
        for helper, function in helpers:
            try:
                with np.errstate(all="ignore"):
                    again = function(value.copy())
            except Exception:  # a helper that cannot take this argument changes nothing here
                continue
            if isinstance(again, np.ndarray) and again.shape == value.shape and not np.allclose(again, value, equal_nan=True):
                found.append((("argument_reapplied", name, helper), given(**{name: np.asarray(again, dtype=float)})))
    for index, name in enumerate(names):
        for other in names[index + 1:]:
            value, other_value = arrays[name], arrays[other]
            if value.shape == other_value.shape and not np.array_equal(value, other_value):
                found.append((("argument_swapped", name, other), given(**{name: other_value, other: value})))
    return found


def argument_variants(function: Callable[..., object], params: Sequence[str], args: Sequence[object],
                      outputs: Sequence[str], expected: Sequence[object],
                      helpers: Iterable[tuple[str, Callable[[FloatArray], object]]] = ()) -> Variants:
    """{change: {"quantities": {output name: the reference's value on the changed call}}} of every
    argument change (argument_changes) that changes some output. `function`: the reference's step
    function; `outputs`: the step's output names; `expected`: the unchanged call's values, one per
    output. Arguments are the call's own reference inputs, never a student's values."""
    found: Variants = {}
    for change, changed in argument_changes(params, args, helpers):
        try:
            with np.errstate(all="ignore"):
                value = function(*[a.copy() if isinstance(a, np.ndarray) else a for a in changed])
        except Exception:  # the reference cannot take the changed call (a shape that does not fit)
            continue
        values = (value,) if len(outputs) == 1 else tuple(value) if isinstance(value, (tuple, list)) else None
        if values is None or len(values) != len(outputs):
            continue
        quantities: dict[str, FloatArray | dict[Any, Any]] = {}
        for name, new, old in zip(outputs, values, expected):
            new = _plain(new)
            if new is not None and not _same_plain(new, _plain(old)):
                quantities[name] = new
        if quantities:
            found[change] = {"quantities": quantities, "first": next(iter(quantities)), "as": None}
    return found


def call_variants(case: Case | None, key: tuple[object, ...], compute: Callable[[], Variants]) -> Variants:
    """`compute()` once per (case, key): a call's variants, memoised beside the case's own (a case
    of None, a call made outside any case, is computed each time)."""
    if case is None:
        return compute()
    memo = _MEMO.setdefault(case, {})
    if ("call",) + key not in memo:
        memo[("call",) + key] = compute()
    return memo[("call",) + key]


def _plain(value: object) -> FloatArray | dict[Any, Any] | None:
    """A float array, or a plain dict of a mapping; None for anything else."""
    if isinstance(value, dict):
        return dict(value)
    if hasattr(value, "to_dict") and not isinstance(value, np.ndarray):
        try:
            return dict(value.to_dict())
        except Exception:
            return None
    try:
        array = np.asarray(value)
    except Exception:
        return None
    return array.astype(float) if array.dtype.kind in "biuf" else None


def _same_plain(a: FloatArray | dict[Any, Any], b: FloatArray | dict[Any, Any] | None) -> bool:
    if isinstance(a, dict) or isinstance(b, dict):
        return a == b
    return b is not None and _same(a, b)
