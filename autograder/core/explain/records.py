"""What the explainer reads and says, as records: a lab's `Vocabulary`, one output of one call as
a `Sample`, what the values show as an `Explanation` (names only: see the package's invariant),
and how the explainer compares values (`close`: the judge's tolerance, autograder.core.tolerance).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..case_detail import CONTAINERS as JUDGED_CONTAINERS
from ..tolerance import RTOL, atol_for, atol_of_largest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from numpy.typing import NDArray

    from ..declaration import Case, Trace
    from ..trace_variants import Variants
    from .computes import Known

    FloatArray = NDArray[np.float64]


DECIMALS = (0, 1, 2, 3)  # rounding as a page prints numbers
HALF_PRECISION = 1e-2  # how far float16 work may stray, relative to the largest value
# Container kinds named in a sentence: a closed set (the judge's, less "other"), so no hidden test
# can choose the words.
CONTAINERS = tuple(kind for kind in JUDGED_CONTAINERS if kind != "other")

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
    # (autograder.core.trace_variants); None: no variant is read.
    trace: Callable[[Case], Trace] | None = None
    # Case -> the variants already computed (the students' kit reads them from the build's data).
    variants: Callable[[Case], Variants] | None = None
    # {step name: the reference's function of that step}: re-run on a call's own arguments with one
    # changed (autograder.core.trace_variants.argument_variants); the lab hands them over, the engine
    # imports no lab. None: no argument variant is read.
    functions: dict[str, Callable[..., object]] | None = None
    # Functions of a call's arguments a step may compute instead (autograder.core.explain.computes),
    # tried before the engine's LIBRARY; their sentences are in the lab's catalogs ([computes]).
    known: tuple[Known, ...] = ()


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
    # reference's trace of this case with one input changed (autograder.core.trace_variants)
    variants: Variants = field(default_factory=dict)
    # (parameter name, value) of the call's arguments, as the call was given them: what a known
    # function of its array arguments is computed on (autograder.core.explain.computes)
    arguments: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, kw_only=True)
class Explanation:
    """What the values show, as names; see the module's invariant."""

    output: str
    relation: str  # "formula", a predicate ("rows_identical", ...), "container" or "observed"
    parts: Formula = ()  # a formula's parts: (("base", name), ("order", axes), ("times", factor), ...)
    params: dict[str, Any] = field(default_factory=dict)
    size: int = 1


def close(a: FloatArray | None, b: FloatArray | None) -> bool:
    """`np.allclose(a, b)` at the judge's tolerance, the atol scaled by b's largest finite size,
    NaN equal to NaN. Called for every candidate relation, so float arrays of finite values (the
    usual case) are compared with plain ufuncs first: the same sums numpy's `isclose` makes for
    finite values, without its set-up; anything else goes to `np.allclose` itself."""
    if a is None or b is None or a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        if a.dtype.kind == "f" and b.dtype.kind == "f":
            scale = np.abs(b)
            largest = float(scale.max()) if scale.size else 0.0
            if math.isfinite(largest):
                if bool((np.abs(a - b) <= atol_of_largest(largest) + RTOL * scale).all()):
                    return True
                if bool(np.isfinite(a).all()):
                    return False
        return bool(np.allclose(a, b, rtol=RTOL, atol=atol_for(b), equal_nan=True))
