"""The search: of a failing output's samples, the smallest explanation (a container, a mapping's
relation, axes of length 1, a formula of one change, a variant, a formula of two, a shape, one
value everywhere, a constant ratio, a predicate), else which rows or columns are wrong.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .computes import search_known, search_known_argument
from .formulas import holding, search_formulas
from ..tolerance import ATOL, RTOL
from .records import Explanation, Params, Sample, close
from .relations import container_relation, degenerate_values, mapping_relations, search_predicates
from .shapes import outer_product, shape_relation, unit_axes
from .variants import search_variants

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

    from numpy.typing import NDArray

    from .computes import Computed, Known

# "off" turns the relations off: a failing output is told only by the kind of test that fails.
# Only to measure what the repair search names alone (benchmarks/repair_corpora.py); never grade so.
RELATIONS_SWITCH = "AUTOGRADER_RELATIONS"


def relations_on() -> bool:
    """Whether the relations are searched: the one place the switch is read."""
    return os.environ.get(RELATIONS_SWITCH, "on").strip().lower() != "off"


def explain(output: str, samples: Sequence[Sample], kind: str | None = None, known: Sequence[Known] = (),
            reference: Callable[..., Any] | None = None, index: int = 0) -> Explanation | None:
    """The smallest explanation of `output`'s failing samples, else what is observable; None when
    nothing is. `kind`: the one kind of case that fails, if one (see failing_kind), told beside;
    `known`: the lab's own functions of a call's arguments (autograder.core.explain.computes);
    `reference`: the lab's function of the step, of which `output` is output number `index`."""
    failing = [s for s in samples if not s.passed]
    passing = [s for s in samples if s.passed]
    if not failing:
        return None
    extra: dict[str, Any] = {"kind": kind} if kind else {}
    if not relations_on():
        return _kind_only(output, extra)
    if kind:
        # Every test of one kind fails and no other: the kind leads, and what the values show is
        # read on that kind's tests alone (the other kinds' tests pass: they rule nothing out, as
        # a cast to int changes only an integer input).
        passing = []
    containers = [container_relation(s) for s in failing]
    if all(c is not None for c in containers) and len(set(containers)) == 1:
        got_type, expected_type = cast("tuple[str, str]", containers[0])
        return Explanation(output=output, relation="container",
                           params={"got": got_type, "expected": expected_type, **extra})
    if any(s.got is None for s in failing):
        return _kind_only(output, extra)
    if all(isinstance(s.expected, dict) for s in failing):
        common: list[tuple[str, Params]] | None = None
        for sample in failing:
            found = mapping_relations(sample)
            common = found if common is None else [f for f in common if f in found]
        # Keys and values swapped read after the variants: of a permutation, the inverse is also
        # what another axis's maxima give (weights used transposed), which a variant names.
        first = [found for found in common or () if found[0] != "inverted"]
        if first:
            return Explanation(output=output, relation=first[0][0], params=dict(first[0][1], **extra))
        variant = search_variants(output, failing, passing)
        if variant:
            return Explanation(output=output, relation=variant[0], parts=variant[1], params={**variant[2], **extra})
        if common:
            return Explanation(output=output, relation=common[0][0], params=dict(common[0][1], **extra))
        return _kind_only(output, extra)
    if any(isinstance(s.expected, dict) or isinstance(s.got, dict) for s in samples):
        return _kind_only(output, extra)
    unit = unit_axes(failing)
    if unit:  # before formulas: a sum over an axis of length 1 is that axis missing, said plainly
        return Explanation(output=output, relation=unit[0], params={**unit[1], **extra})
    if all(s.got.shape != s.expected.shape and s.got.size == s.expected.size and s.got.size > 1
           and close(s.got.reshape(-1), s.expected.reshape(-1)) for s in failing):
        return Explanation(output=output, relation="reshape_missing", params=extra)
    per_sample = [holding(s, s.got) for s in failing]  # every formula of 1 or 2 changes, once
    formulas, size = search_formulas(failing, passing, sizes=(1,), per_sample=per_sample)
    # Nothing but 0 (or nan) in every failing value: a formula that gives it from other values
    # (the expected minus a value that equals it) tells no cause; the expected cut (np.trunc of
    # weights below 1) still does, else that one value, and where it comes from.
    degenerate = degenerate_values(failing)
    nothing = degenerate if degenerate in ("zeros", "nan") else None
    if formulas and not _loose(formulas[0]) and not (nothing and _of_other_values(formulas[0])):
        return Explanation(output=output, relation="formula", parts=formulas[0], size=size, params=extra)
    if nothing:
        return Explanation(output=output, relation=f"all_{nothing}", params=extra)
    variant = search_variants(output, failing, passing)
    if variant:
        return Explanation(output=output, relation=variant[0], parts=variant[1], params={**variant[2], **extra})
    # What the function computes, when that is a known function of its own arguments: after the
    # exact readings of one change (the reference's own computation, one thing changed), before a
    # loose one (each row times a number of its own says less than the division by the maximum,
    # or by the whole table's sum, that it was).
    computed = search_known(failing, passing, known)
    if computed:
        return _computed(output, "computes", computed, extra)
    through = search_known_argument(failing, passing, reference, index, known) if reference is not None else None
    if through:
        return _computed(output, "computes_on", through, extra)
    if formulas:
        return Explanation(output=output, relation="formula", parts=formulas[0], size=size, params=extra)
    formulas, size = search_formulas(failing, passing, sizes=(2,), per_sample=per_sample)
    if formulas:
        return Explanation(output=output, relation="formula", parts=formulas[0], size=size, params=extra)
    outer = outer_product(failing)
    if outer:
        return Explanation(output=output, relation="outer", params={"left": outer[0], "right": outer[1], **extra})
    if all(s.got.ndim == 1 and s.expected.ndim == 2 and s.expected.shape[0] == s.expected.shape[1] == s.got.shape[0] > 1
           and close(s.got, np.diagonal(s.expected)) for s in failing):
        return Explanation(output=output, relation="diagonal", params=extra)
    shaped = shape_relation(failing, passing)
    if shaped:
        return Explanation(output=output, relation=shaped[0], params={**shaped[1], **extra})
    if degenerate:
        # One value everywhere (all 0, all nan, all equal): the structure it shows (rows alike,
        # one value in the wrong cells, symmetric) follows from it and is no cause.
        return Explanation(output=output, relation=f"all_{degenerate}", params=extra)
    ratio = _constant(failing, "ratio")
    if ratio:
        return Explanation(output=output, relation=ratio[0], params={**ratio[1], **extra})
    predicates = search_predicates(failing)
    if predicates:
        name, params = predicates[0]
        return Explanation(output=output, relation=name, params={**dict(params), **extra})
    observed = _observed(failing)
    if observed:
        return Explanation(output=output, relation="observed", params={**observed, **extra})
    return _kind_only(output, extra)


# Transforms that hold of a whole family of values (each row times any number of its own): a
# known function that gives the value exactly says more.
LOOSE_TRANSFORMS = ("unnormalised",)


def _of_other_values(formula: Sequence[Sequence[Any]]) -> bool:
    """Whether `formula` reads a value besides the expected one (its base, or a part's operand)."""
    return tuple(formula[0]) != ("base", "expected") or any(len(part) > 1 for part in formula[1:])


def _loose(formula: Sequence[Sequence[Any]]) -> bool:
    return any(part[0] in LOOSE_TRANSFORMS for part in formula)


def _computed(output: str, relation: str, computed: Computed, extra: dict[str, Any]) -> Explanation:
    """A known function found (autograder.core.explain.computes), as names only."""
    return Explanation(output=output, relation=relation, params={
        "known": computed.name, "arguments": list(computed.arguments), "axis": computed.axis,
        "expression": computed.expression, **extra})


def _kind_only(output: str, extra: dict[str, Any]) -> Explanation | None:
    return Explanation(output=output, relation="kind_only", params=extra) if extra else None


def failing_kind(failed: Collection[str], cases: Collection[str], kinds: Mapping[str, Iterable[str]]) -> str | None:
    """The one kind the `failed` cases are exactly, among `cases` (every case of it fails, no
    other does); `kinds` maps a case name to its kinds. None when two kinds are each exactly the
    failing cases (3-D scores and a mask that is not causal, say): the tests cannot tell which is
    the cause, and naming one would send the student to the wrong one."""
    if not failed or failed == cases:
        return None
    exact = [kind for kind in dict.fromkeys(k for case in sorted(cases) for k in kinds.get(case, ()))
             if {case for case in cases if kind in kinds.get(case, ())} == failed]
    return exact[0] if len(exact) == 1 else None


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
            if not np.isfinite(ratio) or ratio in (0.0, 1.0) or not close(expected * ratio, got):
                offset = float(np.median(got - expected))
                if np.isfinite(offset) and offset != 0 and close(expected + offset, got):
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
