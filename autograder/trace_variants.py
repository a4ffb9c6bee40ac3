"""The reference's own computation of a case with ONE input changed in a generic way.

A student's wrong value is often the right computation on a slightly different input: a square
weight matrix used transposed, one input in another's place (W_K where W_V belongs: V made like K),
a count argument ignored for the page's own value, an input cast to whole numbers. None of these
needs a word of the lab: the changes are read off the case's inputs (their shapes and types), and
the lab's own `trace` is run on the changed case. The explainer (autograder.explain) then compares
a student's output with the changed trace's quantity of the same name.

Invariant (reference inputs only): every variant is computed from a case's own inputs and the
page case's, never from a value a submission returned or asked for; a variant holds names (of
inputs, quantities, a dtype) and the reference's values, and the names alone reach feedback.
Variants of a case are computed once per process (the trace is cheap, but a class has hundreds of
files) and only when a step has a failure the explainer reads.
"""
import weakref

import numpy as np

from .lab import Case

# Variants of a case, per (trace function, page case): computed once, dropped with the case.
_MEMO = weakref.WeakKeyDictionary()


def changes(case, page_case):
    """The generic one-input changes of `case`, as name tuples, with the inputs each gives:
    [(change, inputs)]. `page_case`: the case the page prints (its whole-number inputs are the
    values a student may have written in), or None."""
    inputs = case.inputs
    arrays = {name: value for name, value in inputs.items()
              if isinstance(value, np.ndarray) and value.dtype.kind in "biuf" and value.ndim >= 1}
    found = []
    for name, value in arrays.items():
        if value.ndim == 2 and value.shape[0] == value.shape[1] > 1 and not np.allclose(value, value.T):
            found.append((("transposed", name), {**inputs, name: value.T.copy()}))
        for other, other_value in arrays.items():
            if other != name and other_value.shape == value.shape and not np.array_equal(other_value, value):
                found.append((("replaced", name, other), {**inputs, name: other_value.copy()}))
        if value.dtype.kind == "f" and np.all(np.isfinite(value)) and not np.all(value == np.trunc(value)):
            found.append((("cast_int", name), {**inputs, name: value.astype(np.int64)}))
    if page_case is not None and page_case is not case:
        for name, value in inputs.items():
            page_value = page_case.inputs.get(name)
            if _count(value) and _count(page_value) and value != page_value:
                found.append((("page_value", name), {**inputs, name: page_value}))
    return found


def _count(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def variants(case, page_case, trace, quantities_of):
    """{change: {"quantities": {name: float array changed by it}, "first": the first quantity of
    the trace it changes, "as": the quantity of the unchanged trace that one then equals, or None}}
    for every change of `case` its trace can be run with. `trace`: the lab's Case -> trace;
    `quantities_of`: trace -> {name: float array} (autograder.explain.trace_quantities)."""
    key = (trace, page_case.name if page_case is not None else None)
    memo = _MEMO.setdefault(case, {})
    if key not in memo:
        memo[key] = _computed(case, page_case, trace, quantities_of)
    return memo[key]


def _computed(case, page_case, trace, quantities_of):
    try:
        original = quantities_of(trace(case))
    except Exception:  # a lab whose trace cannot be run here explains nothing by variants
        return {}
    found = {}
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
        if change[0] == "page_value" and not page_case.hidden:
            found[change]["value"] = int(inputs[change[1]])
    return found


def _same(a, b):
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True))
