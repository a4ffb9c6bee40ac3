"""Expected values: the reference solution run on each case, every intermediate kept."""
import inspect
from dataclasses import dataclass

import numpy as np

from solutions import attention as solution

from .sandbox import codec
from .sandbox.runner import HelperRefused


@dataclass(frozen=True)
class Trace:
    """Every value of the reference computation for one case."""

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    scores: np.ndarray
    scaled: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    most_attended: dict


def trace(case):
    Q, K, V = solution.make_qkv(case.X, case.W_Q, case.W_K, case.W_V)
    raw = solution.scores(Q, K)
    scaled = raw / np.sqrt(K.shape[1])
    weights = solution.softmax(scaled)
    return Trace(Q, K, V, raw, scaled, weights, solution.mix(weights, V),
                 solution.most_attended(weights, list(case.words)))


MAX_HELPER_SIDE = 64  # rows or columns of an array a helper is asked about (the cases have at most 8)
MAX_WORD_CHARS = 100


def answer_helper(name, args):
    """The reference's value of step function `name` on `args`, encoded for the child.

    Asked by a submission's composed step (self_attention) through the sandbox, so `args` are
    untrusted decoded values: arrays of at most MAX_HELPER_SIDE rows and columns, words as
    short strings, the reference's own number of arguments. Anything else, and anything the
    reference raises, is refused with the error the child then raises.
    """
    function = _HELPERS.get(name)
    if function is None:
        raise HelperRefused("NameError", f"{name!r} is not a step function")
    params = list(inspect.signature(function).parameters)
    if len(args) != len(params):
        raise HelperRefused("TypeError", f"{name}() takes {len(params)} arguments ({len(args)} given)")
    values = [_helper_words(arg) if param == "words" else _helper_array(arg, param)
              for param, arg in zip(params, args)]
    try:
        with np.errstate(all="ignore"):
            value = function(*values)
    except Exception as error:  # numpy's shape errors and the like: the child raises them
        raise HelperRefused(type(error).__name__, str(error)[:200]) from None
    return codec.encode(value)


_HELPERS = {name: getattr(solution, name) for name in ("make_qkv", "scores", "softmax", "mix", "most_attended")}


def _helper_array(value, param):
    if isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.dtype.kind in "biuf"):
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError, OverflowError):
            array = None
        if array is not None and array.ndim in (1, 2) and max(array.shape, default=0) <= MAX_HELPER_SIDE:
            return array
    raise HelperRefused("TypeError", f"{param} must be a 1-D or 2-D array of numbers, "
                                     f"at most {MAX_HELPER_SIDE} on a side")


def _helper_words(value):
    if isinstance(value, (list, tuple)) and len(value) <= MAX_HELPER_SIDE \
            and all(type(w) is str and len(w) <= MAX_WORD_CHARS for w in value):
        return list(value)
    raise HelperRefused("TypeError", f"words must be a list of at most {MAX_HELPER_SIDE} short strings")
