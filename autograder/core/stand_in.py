"""The grader's stand-ins for a composed step's helpers, as a table of the reference's own calls.

When a student's step function (`softmax`, say) did not pass, their composed step
(`self_attention`) is graded with a stand-in in its place, so that one mistake costs one step.
A stand-in never computes: it answers only the calls the reference's own composed step makes on
the test being run (`StandIn` rows, built by the lab from the reference's trace), matched by value
within the judge's tolerance. Anything else is refused with a reason. So whatever a submission
asks, the grader answers with values of the test that is running, which that test's own helper
steps already hand to the student; it never computes on inputs a student chose.

A call and a row are compared as the reference function would receive them: both are bound to
the reference's signature (`inspect.Signature.bind`, defaults applied), so a student's call that
omits a defaulted argument, or passes it by position or by keyword, matches the same row.

Shared by the engine and the students' check kit (public tests only), so both answer alike.
"""
from __future__ import annotations

import inspect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .compare import all_close, as_array
from .child.protocol import MAX_HELPER_REQUESTS as MAX_REQUESTS  # per call of a composed step

if TYPE_CHECKING:
    from .compare import FloatArray


@dataclass(frozen=True, kw_only=True)
class StandIn:
    """One call the reference's composed step makes on a test: `name(*args)` returns `value`."""

    name: str
    args: tuple[Any, ...]
    value: Any


class Refused(Exception):
    """A stand-in call that gets no value: `reason` is a code the catalogs word
    ("arguments", "not_stood_in", "too_many"); `helper` is the function asked."""

    def __init__(self, *, reason: str, helper: str):
        super().__init__(reason, helper)
        self.reason, self.helper = reason, helper


def answer(table: Iterable[StandIn], *, name: str, args: Sequence[Any], keywords: dict[str, Any] | None = None,
           signature: inspect.Signature | None = None, stood_in: tuple[str, ...] | None = None) -> Any:
    """The value of the row of `table` that `name(*args, **keywords)` matches; Refused when none does.

    `signature`: the reference's own for `name`; the call and each row are bound to it with
    defaults applied and compared argument by argument (without one: positional arguments only,
    compared in order). `stood_in`: the helper names answered in this call (None: every name in
    the table).
    """
    table = tuple(table)
    if (stood_in is not None and name not in stood_in) or not any(row.name == name for row in table):
        raise Refused(reason="not_stood_in", helper=str(name)[:40])
    got = bound_arguments(signature, args, keywords or {})
    if got is None:
        raise Refused(reason="arguments", helper=name)
    asked = _ready(got)
    for row in table:
        if row.name == name and _same_bound(asked, _row_bound(signature, row.args)):
            return row.value
    raise Refused(reason="arguments", helper=name)


# One argument ready to compare: its parameter, its value and, for an array-like value, that value
# as a float array (made once per call or row, not once per comparison).
_Ready = tuple[Any, Any, "FloatArray | None"]


# A row's arguments bound to a signature, kept: a composed step asks its helpers many times on one
# test, and every request is compared with every row. Keyed by identity, the row's arguments and
# the signature held in the entry so that neither identity is reused while it is kept.
_ROWS_BOUND: dict[tuple[int, int], tuple[object, object, tuple[_Ready, ...] | None]] = {}
_ROWS_BOUND_MOST = 20_000


def _row_bound(signature: inspect.Signature | None, args: tuple[Any, ...]) -> tuple[_Ready, ...] | None:
    key = (id(args), id(signature))
    kept = _ROWS_BOUND.get(key)
    if kept is not None and kept[0] is args and kept[1] is signature:
        return kept[2]
    bound = bound_arguments(signature, args, {})
    ready = None if bound is None else _ready(bound)
    if len(_ROWS_BOUND) >= _ROWS_BOUND_MOST:
        _ROWS_BOUND.clear()
    _ROWS_BOUND[key] = (args, signature, ready)
    return ready


def _ready(pairs: tuple[tuple[Any, Any], ...]) -> tuple[_Ready, ...]:
    return tuple((parameter, value, None if isinstance(value, (bool, str)) else as_array(value))
                 for parameter, value in pairs)


def keyword_parameters(signature: inspect.Signature | None) -> tuple[str, ...]:
    """The names a call may give by keyword to a function of `signature` (None: none)."""
    if signature is None:
        return ()
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(p.name for p in signature.parameters.values() if p.kind in kinds)


def bound_arguments(signature: inspect.Signature | None, args: object, keywords: object
                    ) -> tuple[tuple[Any, Any], ...] | None:
    """The call's arguments as the reference receives them: (parameter, value) pairs in the order
    of its parameters, defaults filled in (`*args` and `**keywords` parameters add one pair per
    value); None when the call does not fit the signature (too many, an unknown keyword, one
    given twice, a required one missing)."""
    if not isinstance(args, (list, tuple)) or not isinstance(keywords, dict):
        return None
    if signature is None:
        return None if keywords else tuple((index, value) for index, value in enumerate(args))
    try:
        bound = signature.bind(*args, **keywords)
    except TypeError:
        return None
    bound.apply_defaults()
    pairs: list[tuple[Any, Any]] = []
    for parameter in signature.parameters.values():
        value = bound.arguments.get(parameter.name)
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            pairs.extend(((parameter.name, index), item) for index, item in enumerate(value or ()))
        elif parameter.kind is inspect.Parameter.VAR_KEYWORD:
            pairs.extend(((parameter.name, key), item) for key, item in sorted((value or {}).items()))
        else:
            pairs.append((parameter.name, value))
    return tuple(pairs)


def _same_bound(got: tuple[_Ready, ...], known: tuple[_Ready, ...] | None) -> bool:
    return known is not None and len(got) == len(known) and \
        all(a[0] == b[0] and _same_ready(a, b) for a, b in zip(got, known))


def _same_ready(got: _Ready, known: _Ready) -> bool:
    """`_same` on arguments whose arrays are already made (the shapes compared before the values)."""
    if isinstance(known[1], np.ndarray):
        return _same_arrays(got[2], known[2])
    return _same(got[1], known[1])


def _same_arrays(array: FloatArray | None, expected: FloatArray | None) -> bool:
    return array is not None and expected is not None and array.shape == expected.shape \
        and all_close(array, expected)


def same_arguments(got: object, known: Sequence[Any]) -> bool:
    """Whether the arguments `got` (decoded from a submission) equal `known`, value by value:
    arrays within the judge's tolerance (of any array-like form), words exactly, numbers equal."""
    if not isinstance(got, (list, tuple)) or len(got) != len(known):
        return False
    return all(_same(a, b) for a, b in zip(got, known))


def _same(got: Any, known: Any) -> bool:
    if isinstance(known, np.ndarray):
        return _same_arrays(as_array(got) if not isinstance(got, (bool, str)) else None, as_array(known))
    if isinstance(known, (list, tuple)) and all(type(w) is str for w in known):
        return isinstance(got, (list, tuple)) and len(got) == len(known) and \
            all(type(w) is str and w == k for w, k in zip(got, known))
    if isinstance(known, (int, float, np.integer, np.floating)) and not isinstance(known, (bool, np.bool_)):
        return type(got) in (int, float, np.int64, np.float64) and got == known
    if known is None or isinstance(known, (bool, str)):
        return type(got) is type(known) and got == known
    return False
