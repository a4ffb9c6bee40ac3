"""What the values show when no formula gives them: predicates of the values (rows summing to 1
along another axis, rows alike, symmetric, float16 numbers, weight where the mask should be), one
value everywhere, and a mapping's relations to the expected one (keys and values swapped, each
row's maximum instead of its name) or the container it came in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from ..tolerance import ATOL, RTOL
from .records import CONTAINERS, HALF_PRECISION, Params, Sample, close

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import NDArray

    from .records import FloatArray


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
                close(np.sort(got, axis=None), np.sort(expected, axis=None)):
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
            if close(got, np.swapaxes(got, -1, -2)):
                found.append(("symmetric", (), not close(expected, np.swapaxes(expected, -1, -2))))
        finite = np.isfinite(got)
        # A table of one value (every cell 1) says nothing of integers: told by what else it shows.
        if finite.all() and got.size and np.all(got == np.round(got)) and np.unique(got).size > 1:
            found.append(("whole_numbers", (), not np.all(expected == np.round(expected))))
        if finite.all() and got.size:
            low, high = float(got.min()), float(got.max())
            clipped = np.clip(expected, low, high)
            if low < high and not close(clipped, expected) and close(clipped, got):
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
            # Whole rows of nan: a row whose every cell was -inf (each hidden, or read from the
            # wrong place) gives -inf - (-inf) or 0/0, whatever line made it so.
            rows = got.ndim >= 1 and bool(np.all(unequal == unequal.all(axis=-1, keepdims=True)))
            found.append(("not_finite_rows" if rows else "not_finite_cells", (), True))
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


def degenerate_values(failing: Sequence[Sample]) -> str | None:
    """What one value every failing sample's `got` holds in every cell ("zeros", "nan", "one_value"),
    where the expected does not; None otherwise (or when the samples differ in it). A sample that
    cannot tell (one cell, or an expected value that is one value itself) only has to agree: its
    `got` all 0 where the others' are, all nan where theirs are."""
    found: set[str] = set()
    quiet: list[np.ndarray] = []
    for sample in failing:
        got, expected = sample.got, sample.expected
        if not isinstance(got, np.ndarray) or got.shape != expected.shape or got.size == 0:
            return None
        with np.errstate(all="ignore"):
            if got.size == 1 or np.allclose(expected, expected.flat[0], equal_nan=True):
                quiet.append(got)
            elif np.all(np.isnan(got)):
                found.add("nan")
            elif np.all(got == 0):
                found.add("zeros")
            elif np.all(got == got.flat[0]):
                found.add("one_value")
            else:
                return None
    if len(found) != 1:
        return None
    what = found.pop()
    with np.errstate(all="ignore"):
        return what if all(_holds(what, got) for got in quiet) else None


def _holds(what: str, got: np.ndarray) -> bool:
    """Whether `got` is all 0 ("zeros"), all nan ("nan") or one value ("one_value")."""
    if what == "zeros":
        return bool(np.all(got == 0))
    if what == "nan":
        return bool(np.all(np.isnan(got)))
    return bool(np.all(got == got.flat[0]))


def search_predicates(failing: Sequence[Sample]) -> list[tuple[str, Params]]:
    """Predicates true of every failing sample, telling on one at least, in the order found."""
    if not failing:
        return []
    held = [{(name, params): telling for name, params, telling in _predicates(s)} for s in failing]
    found = [key for key in held[0] if all(key in h for h in held) and any(h[key] for h in held)]
    # A fingerprint that tells the cause goes before what many causes show (numbers moved about).
    return sorted(found, key=lambda key: key[0] not in _FINGERPRINTS)


_FINGERPRINTS = ("support_swapped", "half_precision")

def mapping_relations(sample: Sample) -> list[tuple[str, Params]]:
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


def container_relation(sample: Sample) -> tuple[str, str] | None:
    got_type = sample.got_type if sample.got_type in CONTAINERS else "other"
    expected_type = "dict" if isinstance(sample.expected, dict) else "ndarray"
    if got_type in ("ndarray", "list", "tuple", "DataFrame") and expected_type == "ndarray" and sample.got is not None:
        return None  # an array-like container is read as an array
    if got_type in ("dict", "Series") and expected_type == "dict":
        return None
    return got_type, expected_type
