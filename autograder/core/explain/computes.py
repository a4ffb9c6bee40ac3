"""What a student's function computes when its value is no small change of the reference's: a known
function of the call's own arguments (a softmax over the whole table, the rows divided by their
largest value, a sigmoid where a softmax was meant), checked by value on every call read.

A `Known` is data: its expression, written as a student would write it with `{a}`, `{b}` for the
call's array arguments and `{axis}` for an axis, is what is computed and what is shown, so the two
never differ. The engine's `LIBRARY` holds the functions any numeric lab meets; a lab adds its own
through `Vocabulary.known`, with their sentences in its catalogs ([computes]). Expressions are the
lab's and the engine's own text, never a student's, and they are evaluated on the call's own
arguments: the grader's inputs.

INVARIANT (the package's): what is found holds names only (the entry's name, the parameters'
names, an axis from AXES), never a number read from a value; hidden samples may rule an entry in or
out, and say nothing else.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from types import CodeType
from typing import TYPE_CHECKING, Any

import numpy as np

from .records import Sample, close

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

AXES = (0, 1, 2, -1, -2)  # the axes a student writes, in the order they are told (the first that holds)
MAX_ARGUMENTS = 4  # array arguments read per call at most: pairs of them are tried in both orders


def _softmax(z: Any, axis: int | None = -1) -> Any:
    """A stable softmax, the name expressions use for it (`softmax({a} * {b})`)."""
    z = np.asarray(z, dtype=float)
    shifted = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


# What an expression names besides its arguments and Python's built-ins: numpy and a softmax. The
# built-ins stay whole: numpy's own methods import as they run, through the caller's built-ins, and
# an expression is the engine's or a lab's text, never a student's.
_NAMES = {"np": np, "softmax": _softmax}
# (parameter name, value) of a call's array arguments, as Sample.arguments holds them
Arguments = tuple[tuple[str, Any], ...]


@dataclass(frozen=True, kw_only=True)
class Known:
    """A function of a call's array arguments a step may compute in place of the reference's one.

    `name` is its key in the catalogs' [computes] (a sentence of what it is); `expression` uses
    `{a}` and `{b}` for the first and second array argument read and `{axis}` for an axis, tried
    at each of AXES when present."""

    name: str
    expression: str

    @property
    def arity(self) -> int:
        return 2 if "{b}" in self.expression else 1

    @property
    def has_axis(self) -> bool:
        return "{axis}" in self.expression

    def written(self, names: Sequence[str], axis: int | None = None) -> str:
        """The expression with the arguments' own names (and the axis) in place."""
        return self.expression.format(a=names[0], b=names[1] if len(names) > 1 else "", axis=axis)


# What a step's value is, when it is none of the reference's quantities nor one change of one: the
# slips of a numeric lab's formulas, each a whole function a student may have written.
LIBRARY: tuple[Known, ...] = (
    Known(name="exp", expression="np.exp({a})"),
    Known(name="softmax_all", expression="np.exp({a}) / np.exp({a}).sum()"),
    Known(name="softmax_axis", expression="np.exp({a}) / np.exp({a}).sum(axis={axis}, keepdims=True)"),
    Known(name="divided_by_sum_all", expression="{a} / {a}.sum()"),
    Known(name="divided_by_sum", expression="{a} / {a}.sum(axis={axis}, keepdims=True)"),
    # exp(a - max) is exp(a) / exp(max): the first names both, and says so
    Known(name="exp_minus_max", expression="np.exp({a} - {a}.max(axis={axis}, keepdims=True))"),
    Known(name="exp_divided_by_max", expression="np.exp({a}) / np.exp({a}).max(axis={axis}, keepdims=True)"),
    Known(name="divided_by_max", expression="{a} / {a}.max(axis={axis}, keepdims=True)"),
    Known(name="minus_max", expression="{a} - {a}.max(axis={axis}, keepdims=True)"),
    Known(name="log_softmax", expression="{a} - np.log(np.exp({a}).sum(axis={axis}, keepdims=True))"),
    Known(name="hardmax", expression="({a} == {a}.max(axis={axis}, keepdims=True)).astype(float)"),
    # the same, ties going to the first maximum only (as argmax takes them): a row of equal weights
    # is then one 1, not all 1s
    Known(name="hardmax_first", expression="(np.argsort(np.argsort(-{a}, axis={axis}, kind='stable'), axis={axis}, "
                                     "kind='stable') == 0).astype(float)"),
    Known(name="standardised", expression="({a} - {a}.mean(axis={axis}, keepdims=True)) / {a}.std(axis={axis}, keepdims=True)"),
    Known(name="sigmoid", expression="1 / (1 + np.exp(-{a}))"),
    Known(name="sigmoid_normalised",
          expression="(1 / (1 + np.exp(-{a}))) / (1 / (1 + np.exp(-{a}))).sum(axis={axis}, keepdims=True)"),
    Known(name="square_normalised", expression="{a} ** 2 / ({a} ** 2).sum(axis={axis}, keepdims=True)"),
    Known(name="tanh", expression="np.tanh({a})"),
    Known(name="relu", expression="np.maximum({a}, 0)"),
    Known(name="square", expression="{a} ** 2"),
    Known(name="square_root", expression="np.sqrt({a})"),
    Known(name="reduced_sum", expression="{a}.sum(axis={axis})"),
    Known(name="reduced_mean", expression="{a}.mean(axis={axis})"),
    Known(name="reduced_max", expression="{a}.max(axis={axis})"),
    Known(name="argmax", expression="{a}.argmax(axis={axis})"),
    Known(name="matmul", expression="{a} @ {b}"),
    Known(name="matmul_right_transposed", expression="{a} @ np.swapaxes({b}, -1, -2)"),
    Known(name="matmul_left_transposed", expression="np.swapaxes({a}, -1, -2) @ {b}"),
    # how alike two tables' rows are, measured otherwise than by their dot products
    Known(name="row_distance", expression="np.linalg.norm({a}[..., :, None, :] - {b}[..., None, :, :], axis=-1)"),
    Known(name="negative_row_distance",
          expression="-np.linalg.norm({a}[..., :, None, :] - {b}[..., None, :, :], axis=-1)"),
    Known(name="squared_row_distance", expression="(({a}[..., :, None, :] - {b}[..., None, :, :]) ** 2).sum(axis=-1)"),
    Known(name="cosine_similarity", expression="({a} / np.linalg.norm({a}, axis=-1, keepdims=True)) "
                                               "@ np.swapaxes({b} / np.linalg.norm({b}, axis=-1, keepdims=True), -1, -2)"),
    Known(name="product_of_row_sums", expression="{a}.sum(axis=-1)[..., :, None] * {b}.sum(axis=-1)[..., None, :]"),
    Known(name="elementwise_product", expression="{a} * {b}"),
    Known(name="elementwise_sum", expression="{a} + {b}"),
    Known(name="elementwise_difference", expression="{a} - {b}"),
    Known(name="elementwise_quotient", expression="{a} / {b}"),
)


@dataclass(frozen=True, kw_only=True)
class Computed:
    """The first known function that is the student's value on every sample read: its name, the
    parameters it reads (by their names) and its axis, if it has one."""

    name: str
    arguments: tuple[str, ...]
    axis: int | None = None
    expression: str = ""


def search_known(failing: Sequence[Sample], passing: Sequence[Sample],
                 known: Sequence[Known] = ()) -> Computed | None:
    """The first of the lab's `known` functions, then the LIBRARY's, that gives the student's value
    on every failing sample and the expected value on every passing one; None when none does.

    A function whose value is one number everywhere (or none) on every failing sample names nothing
    (that value is told as such elsewhere); nor does one that needs an argument a sample lacks."""
    if not failing or any(not isinstance(s.got, np.ndarray) for s in failing):
        return None
    return first_known([(s.arguments, s.got) for s in failing], [(s.arguments, s.expected) for s in passing], known)


def first_known(wrong: Sequence[tuple[Arguments, Any]], right: Sequence[tuple[Arguments, Any]],
                known: Sequence[Known] = ()) -> Computed | None:
    """The first known function (the lab's `known`, then the LIBRARY's) that gives each `wrong`
    value and each `right` one on its call's own arguments (as (arguments, value) pairs); None when
    none does."""
    names = _common_arguments([arguments for arguments, _ in (*wrong, *right)])
    if not names or not wrong:
        return None
    for entry in (*known, *LIBRARY):
        for chosen in _argument_choices(names, entry.arity):
            for axis in (AXES if entry.has_axis else (None,)):
                if _holds(lambda arguments: _value(entry, chosen, axis, arguments), wrong, right):
                    return Computed(name=entry.name, arguments=chosen, axis=axis,
                                    expression=entry.written(chosen, axis))
    return None


def search_known_argument(failing: Sequence[Sample], passing: Sequence[Sample], reference: Callable[..., Any],
                          output: int, known: Sequence[Known] = ()) -> Computed | None:
    """The first known function of one argument (the lab's, then the LIBRARY's) such that the
    reference's step, given that function of one of the call's array arguments in its place and
    the others as they are, returns the student's value (output number `output`) on every failing
    sample and the expected value on every passing one: the step computed right on a wrong input
    (the weights made a hard maximum before they mix the values). `reference` is the lab's own
    function of the step, run on the grader's arguments only; None when nothing holds."""
    if not failing or any(not isinstance(s.got, np.ndarray) for s in failing):
        return None
    wrong = [(s.arguments, s.got) for s in failing]
    right = [(s.arguments, s.expected) for s in passing]
    names = _common_arguments([arguments for arguments, _ in (*wrong, *right)])
    for entry in (*known, *LIBRARY):
        if entry.arity != 1:
            continue
        for name in names:
            for axis in (AXES if entry.has_axis else (None,)):
                if _holds(lambda arguments: _through(entry, name, axis, reference, output, arguments), wrong, right):
                    return Computed(name=entry.name, arguments=(name,), axis=axis,
                                    expression=entry.written((name,), axis))
    return None


def _through(entry: Known, name: str, axis: int | None, reference: Callable[..., Any], output: int,
             arguments: Arguments) -> Any:
    """The reference on the call's arguments, `name` passed through the entry first."""
    given = dict(arguments)
    changed = _value(entry, (name,), axis, arguments)
    if changed is None or changed.shape != np.shape(given[name]):
        return None  # a reduction: no argument of the step's own shape
    try:
        with np.errstate(all="ignore"):
            returned = reference(*[changed if key == name else value for key, value in arguments])
        values = returned if isinstance(returned, tuple) else (returned,)
        return np.asarray(values[output], dtype=float)
    except Exception:  # the reference refuses this input: the entry names nothing here
        return None


def _common_arguments(calls: Sequence[Arguments]) -> tuple[str, ...]:
    """The names of the array arguments every call has, in the call's order."""
    common: list[str] | None = None
    for arguments in calls:
        present = [name for name, value in arguments if isinstance(value, np.ndarray)]
        common = present if common is None else [name for name in common if name in present]
    return tuple(common or ())[:MAX_ARGUMENTS]


def _argument_choices(names: Sequence[str], arity: int) -> Iterator[tuple[str, ...]]:
    if arity == 1:
        yield from ((name,) for name in names)
    else:
        yield from itertools.permutations(names, arity)


def _holds(value_of: Callable[[Arguments], Any], wrong: Sequence[tuple[Arguments, Any]],
           right: Sequence[tuple[Arguments, Any]]) -> bool:
    """Whether `value_of` a call's own arguments gives each of the `wrong` values and each of the
    `right` ones, and some wrong value is more than one number (or none) everywhere: a value
    degenerate on every test is told by what it is (all nan, all zero), not as a function."""
    telling = False
    for arguments, got in wrong:
        value = value_of(arguments)
        if value is None or not close(got, value):
            return False
        finite = value[np.isfinite(value)]
        telling = telling or (finite.size > 1 and float(np.ptp(finite)) > 0.0)
    if not telling:
        return False
    for arguments, expected in right:
        value = value_of(arguments)
        if value is None or not close(expected, value):
            return False
    return True


def _value(entry: Known, chosen: tuple[str, ...], axis: int | None, arguments: Arguments) -> Any:
    """The entry on a call's own arguments, as a float array; None when it cannot be computed."""
    given = dict(arguments)
    letters = {letter: given.get(name) for letter, name in zip("ab", chosen)}
    if any(value is None for value in letters.values()):
        return None
    try:
        with np.errstate(all="ignore"):
            value = eval(_compiled(entry.expression, axis), _NAMES, letters)  # noqa: S307
            value = np.asarray(value, dtype=float)
    except Exception:  # an axis the array lacks, shapes that do not combine: this entry names nothing here
        return None
    return value


@lru_cache(maxsize=1024)
def _compiled(expression: str, axis: int | None) -> CodeType:
    """The expression compiled once, with `a` and `b` for the arguments and the axis in place."""
    return compile(expression.format(a="a", b="b", axis=axis), "<known function>", "eval")
