"""Comparing a returned value with the expected one: type, shape, finite, values (as PrairieLearn's
checks layer them), and the numbers a message needs. Pure data in and out; no language.

One tolerance (`RTOL`, `atol_for`, kept in autograder.core.tolerance) for every comparison the grader
makes: the judge's checks, the declared mistakes' predictions (autograder.core.predictions), the
stand-ins' rows (autograder.core.stand_in), the heat-maps' cells (autograder.core.pictures) and the
explainer's relations.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .case_detail import Cell, MappingValues, NotFinite, Tables, WrongShape, WrongType, WrongValues, Worst
from .child.codec import Labelled, Opaque, clean_text
from .tolerance import RTOL, atol_for

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from .case_detail import Container, Table, WrongValue
    from .declaration import Output, Probe

    FloatArray = NDArray[np.float64]


PREVIEW = 6  # rows and columns shown of an array at most
PICTURE_SIDE, PICTURE_TABLES = 12, 4  # the largest public tables whose values a failure keeps


def describe_type(value: object) -> str:
    if isinstance(value, Labelled):
        return str(value.kind)[:20]
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        return f"ndarray of {value.dtype}"
    if isinstance(value, Opaque):
        return clean_text(value.type_name, 100) if isinstance(value.type_name, str) else "object"
    return clean_text(type(value).__name__, 100)


def as_array(value: object) -> FloatArray | None:
    """A float array for array-like values; None when the value is not array-like."""
    if isinstance(value, Labelled):
        value = value.values
    if isinstance(value, np.ndarray):
        return value.astype(float) if value.dtype.kind in "biuf" else None
    if isinstance(value, (list, tuple, int, float)) and not isinstance(value, bool):
        try:
            with np.errstate(all="ignore"):
                array = np.asarray(value, dtype=float)
        except (TypeError, ValueError, OverflowError, RecursionError, MemoryError):
            return None  # not numbers, ragged, nested too deeply, or an int no float can hold
        return array
    return None


def check_array(probe: Probe, output: Output, got: object, expected: Any) -> tuple[bool, str | None, WrongValue | None]:
    passed, code, detail = _check_array(probe, output, got, expected)
    array = None if passed or code == "wrong_type" else as_array(got)
    if isinstance(detail, (WrongShape, WrongValues)) and array is not None and not probe.case.hidden and all(
            a.ndim in (2, 3) and 0 < a.size and a.shape[-2] <= PICTURE_SIDE and a.shape[-1] <= PICTURE_SIDE
            and (a.ndim == 2 or a.shape[0] <= PICTURE_TABLES) for a in (array, expected)):
        # The whole tables ("nan", "inf", "-inf" for the values that are not numbers), for the heat-maps;
        # a value with no cells has nothing to draw (and its nested lists would lose its shape).
        detail = replace(detail, tables=Tables(got=_plain_table(array), expected=_plain_table(expected),
                                               words=tuple(probe.case.words), columns=output.columns,
                                               rows_sum_to_one=output.rows_sum_to_one))
    return passed, code, detail


def _plain_table(array: NDArray[Any]) -> Table:
    def plain(item: object) -> object:
        if isinstance(item, list):
            return tuple(plain(inner) for inner in item)
        return item
    cells = np.vectorize(lambda x: float(x) if np.isfinite(x) else str(x), otypes=[object])(array).tolist()
    return cast("Table", plain(cells))


def _check_array(probe: Probe, output: Output, got: object, expected: FloatArray
                 ) -> tuple[bool, str | None, WrongType | WrongShape | WrongValues | None]:
    array = as_array(got)
    if array is None:
        return False, "wrong_type", WrongType(got=describe_type(got), no_return=True if got is None else None,
                                              output=output.name)
    if array.shape != expected.shape:
        shapes = WrongShape(rtol=RTOL, atol=atol_for(expected), got_shape=array.shape, expected_shape=expected.shape,
                            got_preview=preview(array, truth=_is_truth(got)),
                            expected_preview=preview(expected, truth=_is_truth(expected)), output=output.name)
        if array.T.shape == expected.shape and all_close(array.T, expected):
            return False, "transposed", shapes
        if _only_unit_axes_apart(array.shape, expected.shape) and all_close(array.reshape(expected.shape), expected):
            return False, "extra_unit_axes", shapes  # the right values, with axes of length 1 added or left out
        return False, "wrong_shape", shapes
    if all_close(array, expected):
        return True, None, None
    values = _mismatch(probe, output, array, expected, container_name(got),
                       truths=(_is_truth(got), _is_truth(expected)))
    if values.not_finite is not None:
        return False, "not_finite", values
    if array.ndim == 2 and array.shape[0] == array.shape[1] and all_close(array.T, expected):
        # A square table read the other way round: same shape, rows and columns swapped.
        return False, "transposed", values
    return False, "wrong_values", values


def _only_unit_axes_apart(got: tuple[int, ...], expected: tuple[int, ...]) -> bool:
    """Whether two shapes differ only by axes of length 1 ((1, n, n) for (n, n)); a single number
    in any shape ((1,) for (1, 1)) says nothing of which axes were meant."""
    sizes = [d for d in expected if d != 1]
    return got != expected and bool(sizes) and [d for d in got if d != 1] == sizes


def all_close(a: NDArray[Any], b: NDArray[Any]) -> bool:
    if a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes():
        return True  # the common case for a right answer, and far cheaper than allclose
    with np.errstate(all="ignore"):
        return bool(np.allclose(a, b, rtol=RTOL, atol=atol_for(b), equal_nan=True))


def _is_truth(value: object) -> bool:
    """Whether a value is an array of True/False (a mask), to be shown so, not as 1 and 0."""
    if isinstance(value, Labelled):
        value = value.values
    return isinstance(value, np.ndarray) and value.dtype.kind == "b"


def _mismatch(probe: Probe, output: Output, got: FloatArray, expected: FloatArray, container: Container,
              truths: tuple[bool, bool] = (False, False)) -> WrongValues:
    """The numbers a message needs, in assert_allclose's order: how many, how badly, which cell.
    `truths`: whether the student's and the expected arrays are True/False ones."""
    with np.errstate(all="ignore"):
        difference = np.abs(got - expected)
        bad = ~np.isclose(got, expected, rtol=RTOL, atol=atol_for(expected), equal_nan=True)
    not_finite = worst = row_sums = None
    non_finite = ~np.isfinite(got) & np.isfinite(expected)
    if non_finite.any():
        not_finite = NotFinite(count=int(non_finite.sum()),
                               where=_cell(probe, output, tuple(np.argwhere(non_finite)[0])))
    measurable = bad & np.isfinite(difference)
    if measurable.any():
        at = np.unravel_index(int(np.argmax(np.where(measurable, difference, -1.0))), got.shape)
        worst = Worst(cell=_cell(probe, output, at), got=_cell_value(got[at], truth=truths[0]),
                      expected=_cell_value(expected[at], truth=truths[1]), difference=float(difference[at]))
    if output.rows_sum_to_one:
        with np.errstate(all="ignore"):
            row_sums = preview(got.sum(axis=-1))
    return WrongValues(rtol=RTOL, atol=atol_for(expected), shape=got.shape, mismatched=int(bad.sum()),
                       total=int(got.size), got_preview=preview(got, truth=truths[0]),
                       expected_preview=preview(expected, truth=truths[1]),
                       not_finite=not_finite, worst=worst, row_sums=row_sums, container=container,
                       output=output.name)


def _cell(probe: Probe, output: Output, index: Sequence[Any]) -> Cell:
    """Name a cell by its words: rows are always words; columns are words for the n×n tables."""
    words = list(probe.case.words)
    index = tuple(int(i) for i in index)
    if len(index) > 2:  # a stack of tables (heads, say): which table, then the cell in it
        return replace(_cell(probe, output, index[-2:]), blocks=index[:-2], index=index)
    if len(index) == 2:
        row, column = index
        return Cell(row=words[row] if row < len(words) else str(row),
                    column=words[column] if output.columns == "words" and column < len(words) else column,
                    column_is_word=output.columns == "words", index=index)
    if len(index) == 1:
        only = index[0]
        label = words[only] if output.columns == "words" and only < len(words) else only
        return Cell(row=None, column=label, column_is_word=output.columns == "words", index=(only,))
    return Cell(row=None, column=None, column_is_word=False, index=())


def _cell_value(value: object, *, truth: bool) -> float | bool:
    return bool(value) if truth else float(cast("float", value))


def preview(array: ArrayLike, *, truth: bool = False) -> str:
    """The values cut short: at most PREVIEW rows and columns, three decimals; with `truth`, as
    True/False."""
    shown = np.asarray(array, dtype=bool if truth else float)
    return np.array2string(shown, precision=3, suppress_small=True, threshold=PREVIEW * PREVIEW,
                           edgeitems=PREVIEW // 2, max_line_width=100)


def as_mapping(value: object) -> dict[PlainItem, PlainItem] | None:
    """A dict of plain keys and values (see _plain_item) for dict-like values; None otherwise.

    Whatever the value holds (arrays, nested containers, NaN, subclasses), comparing the result
    with an expected mapping of words only compares strings and numbers: it never raises.
    """
    if isinstance(value, Labelled) and value.kind == "Series":
        values = value.values
        try:
            items = list(zip(value.index, values.tolist() if isinstance(values, np.ndarray) else values))
        except TypeError:
            return None
    elif isinstance(value, dict):
        items = list(dict.items(value))
    else:
        return None
    return {_plain_item(k): _plain_item(v) for k, v in items}


class OtherItem:
    """A mapping value that is not a string or a number: equal to nothing but itself."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"<{self.kind}>"


# A key or value of a returned mapping as the judge compares it (_plain_item).
PlainItem = str | int | float | None | OtherItem


def _plain_item(value: object) -> PlainItem:
    """A string, a number (whole floats as ints), None or OtherItem: values whose == cannot raise."""
    if value is None or type(value) is bool:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        value = int(value)
        return value if abs(value) < 2**63 else OtherItem("int too large")
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return int(value) if value.is_integer() and abs(value) < 2**63 else value
    return OtherItem(describe_type(value))


def is_right(output: Output, got: object, expected: Any) -> bool:
    """Whether `got` passes: check_mapping's and check_array's verdict, without their detail."""
    if output.kind == "mapping":
        return bool(as_mapping(got) == expected)
    array = as_array(got)
    return array is not None and array.shape == expected.shape and all_close(array, expected)


def check_mapping(probe: Probe, output: Output, got: object, expected: Any
                  ) -> tuple[bool, str | None, WrongType | MappingValues | None]:
    mapping = as_mapping(got)
    if mapping is None:
        return False, "wrong_type", WrongType(got=describe_type(got), no_return=got is None, output=output.name)
    if mapping == expected:
        return True, None, None
    wrong = [(k, mapping.get(k), v) for k, v in expected.items() if mapping.get(k) != v]
    first = tuple(_short_repr(x) for x in wrong[0]) if wrong else None
    return False, "wrong_values", MappingValues(
        mismatched=len(wrong), total=len(expected), first=cast("tuple[str, str, str] | None", first),
        first_missing=bool(wrong) and wrong[0][0] not in mapping,
        extra_keys=tuple(_short_text(k) for k in mapping if k not in expected)[:5],
        got_preview=_mapping_preview(mapping), expected_preview=_mapping_preview(expected), output=output.name,
        other_form=_in_one_form(mapping) == _in_one_form(expected))


def _in_one_form(mapping: Mapping[Any, Any]) -> dict[Any, Any]:
    """The mapping with its words in Unicode's NFC form (composed Hangul, as typed)."""
    def one_form(item: object) -> object:
        return unicodedata.normalize("NFC", item) if isinstance(item, str) else item
    return {one_form(key): one_form(value) for key, value in mapping.items()}


def _short_repr(value: object, limit: int = 60) -> str:
    """repr cut short; repr escapes control characters, so a cut repr is still one clean line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _short_text(value: object, limit: int = 60) -> str:
    return clean_text(value if isinstance(value, str) else _short_repr(value), limit)


def _mapping_preview(mapping: Mapping[Any, Any]) -> str:
    items = [f"{_short_repr(k)}: {_short_repr(v)}" for k, v in list(mapping.items())[:PREVIEW]]
    return "{" + ", ".join(items) + (", …" if len(mapping) > PREVIEW else "") + "}"


if TYPE_CHECKING:
    # A returned value as the comparison reads it, per output (prepared_values): a plain mapping, or a float array.
    PreparedValue = dict[PlainItem, PlainItem] | FloatArray | None
    # A prediction of an array output, prepared once (prepared_candidate): (values, atol, first value,
    # the cells predicted -inf or None).
    PreparedArray = tuple[FloatArray, float, float | None, NDArray[np.bool_] | None]
    # A prediction as the comparison reads it, per output: a plain mapping, or a PreparedArray.
    PreparedPrediction = dict[PlainItem, PlainItem] | PreparedArray | None


def matches(outputs: Sequence[Output], values: Sequence[object], candidate: Sequence[object]) -> bool:
    return matches_prepared(outputs, prepared_values(outputs, values), prepared_candidate(outputs, candidate))


def prepared_values(outputs: Sequence[Output], values: Sequence[object]) -> list[PreparedValue] | None:
    """Values as the comparison reads them (float arrays, plain mappings), converted once."""
    return [as_mapping(v) if o.kind == "mapping" else as_array(v) for o, v in zip(outputs, values)] \
        if len(values) == len(outputs) else None


def prepared_candidate(outputs: Sequence[Output], candidate: Sequence[object]) -> list[PreparedPrediction] | None:
    """A prediction as the comparison reads it: per array, (values, atol, first value, the cells
    predicted -inf or None)."""
    prepared: list[PreparedPrediction] = []
    for output, want in zip(outputs, candidate):
        if output.kind == "mapping":
            prepared.append(as_mapping(want))
        else:
            want = as_array(want)
            if want is None:
                return None  # a prediction that is not numbers predicts nothing
            blocked = np.isneginf(want)
            prepared.append((want, atol_for(want), float(want.flat[0]) if want.size else None,
                             blocked if blocked.any() else None))
    return prepared if len(prepared) == len(candidate) else None


def behaves_as_minus_inf(values: ArrayLike) -> NDArray[np.bool_]:
    """Cells that act as -inf where they are added to scores before a softmax: exp of them is 0
    (-1e9, -1e10, np.finfo(float).min, -np.inf alike). A detector predicting -inf names the same
    mistake for any of them: names do not hang on one constant."""
    with np.errstate(all="ignore"):
        acts: NDArray[np.bool_] = np.exp(np.asarray(values, dtype=float)) == 0.0
        return acts


def matches_prepared(outputs: Sequence[Output], got: Sequence[PreparedValue] | None,
                      candidate: Sequence[PreparedPrediction] | None) -> bool:
    if got is None or candidate is None or len(candidate) != len(got):
        return False
    for output, value, prediction in zip(outputs, got, candidate):
        if value is None:
            return False
        if output.kind == "mapping":
            if value != prediction:
                return False
            continue
        # An array output: the value is a float array, the prediction its prepared_candidate tuple.
        value = cast("FloatArray", value)
        want, atol, first, blocked = cast("PreparedArray", prediction)
        if value.shape != want.shape:
            return False
        if blocked is not None:  # the cells predicted -inf: any value acting as -inf there
            if not behaves_as_minus_inf(value[blocked]).all() or \
                    not all_close(np.where(blocked, 0.0, value), np.where(blocked, 0.0, want)):
                return False
            continue
        # allclose's own test on the first cell, in plain floats: most wrong predictions stop here.
        if first is not None and abs(float(value.flat[0]) - first) > atol + RTOL * abs(first):
            return False
        if not all_close(value, want):
            return False
    return True


def values_of(probe: Probe, value: object) -> list[object]:
    """The value of each output of a call, read as check_value reads it: a step of several outputs
    returns them in a tuple or a list. Anything else (None from a forgotten return, a number, an
    array, even a 0-d one) is one value, which never has as many values as outputs."""
    return list(value) if len(probe.step.outputs) > 1 and isinstance(value, (tuple, list)) else [value]


def container_name(value: object) -> Container:
    """The container a value came in, from a closed set (case_detail.CONTAINERS)."""
    if isinstance(value, Labelled):
        return "Series" if value.kind == "Series" else "DataFrame" if value.kind == "DataFrame" else "other"
    if value is None:
        return "None"
    for kind, name in KINDS:
        if isinstance(value, kind):
            return name
    if isinstance(value, (np.floating, np.integer)):
        return "float" if isinstance(value, np.floating) else "int"
    return "other"


# The containers container_name tells apart, in the order it asks (a bool is an int too: asked first).
KINDS: tuple[tuple[type, Container], ...] = (
    (dict, "dict"), (list, "list"), (tuple, "tuple"), (np.ndarray, "ndarray"), (str, "str"), (bool, "other"),
    (int, "int"), (float, "float"))
