"""What a case offers the explainer to read a failure against: its sizes, the trace's and the
inputs' quantities, and the reference's computation with one input changed (autograder.core.trace_variants),
of the whole case or of one call.
"""
from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

import numpy as np

from .. import trace_variants

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from ..declaration import Case, Trace
    from ..trace_variants import Variants
    from .records import FloatArray, Vocabulary


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
    """The variants of `case`'s trace the explainer reads (autograder.core.trace_variants): computed
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
    call's own (reference) arguments with one changed (autograder.core.trace_variants); {} when the lab
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
