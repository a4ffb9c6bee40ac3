"""The grader's stand-ins for a composed step's helpers, as a table of the reference's own calls.

When a student's step function (`softmax`, say) did not pass, their composed step
(`self_attention`) is graded with a stand-in in its place, so that one mistake costs one step.
A stand-in never computes: it answers only the calls the reference's own composed step makes on
the test being run (`StandIn` rows, built by the lab from the reference's trace), matched by value
within the judge's tolerance. Anything else is refused with a reason. So whatever a submission
asks, the grader answers with values of the test that is running, which that test's own helper
steps already hand to the student; it never computes on inputs a student chose.

Shared by the engine and the students' check kit (public tests only), so both answer alike.
"""
from dataclasses import dataclass

import numpy as np

from .judge import _close, as_array
from .sandbox.protocol import MAX_HELPER_REQUESTS as MAX_REQUESTS  # per call of a composed step


@dataclass(frozen=True, kw_only=True)
class StandIn:
    """One call the reference's composed step makes on a test: `name(*args)` returns `value`."""

    name: str
    args: tuple
    value: object


class Refused(Exception):
    """A stand-in call that gets no value: `reason` is a code the catalogs word
    ("arguments", "not_stood_in", "too_many"); `helper` is the function asked."""

    def __init__(self, *, reason: str, helper: str):
        super().__init__(reason, helper)
        self.reason, self.helper = reason, helper


def answer(table, *, name: str, args: list, stood_in: tuple = None):
    """The value of the row of `table` that `name(*args)` matches; Refused when none does.

    `stood_in`: the helper names answered in this call (None: every name in the table).
    """
    if (stood_in is not None and name not in stood_in) or not any(row.name == name for row in table):
        raise Refused(reason="not_stood_in", helper=str(name)[:40])
    for row in table:
        if row.name == name and same_arguments(args, row.args):
            return row.value
    raise Refused(reason="arguments", helper=name)


def same_arguments(got, known) -> bool:
    """Whether the arguments `got` (decoded from a submission) equal `known`, value by value:
    arrays within the judge's tolerance (of any array-like form), words exactly, numbers equal."""
    if not isinstance(got, (list, tuple)) or len(got) != len(known):
        return False
    return all(_same(a, b) for a, b in zip(got, known))


def _same(got, known) -> bool:
    if isinstance(known, np.ndarray):
        expected = as_array(known)
        array = as_array(got) if not isinstance(got, (bool, str)) else None
        return array is not None and expected is not None and array.shape == expected.shape and _close(array, expected)
    if isinstance(known, (list, tuple)) and all(type(w) is str for w in known):
        return isinstance(got, (list, tuple)) and len(got) == len(known) and \
            all(type(w) is str and w == k for w, k in zip(got, known))
    if isinstance(known, (int, float)) and not isinstance(known, bool):
        return type(got) in (int, float) and got == known
    return False
