"""Answering a composed step's calls of the other step functions with the lab's reference."""
import inspect

import numpy as np

from .sandbox import codec
from .sandbox.runner import HelperRefused

MAX_HELPER_SIDE = 64  # rows or columns of an array a helper is asked about (cases are far smaller)
MAX_WORD_CHARS = 100


class HelperAnswers:
    """`answer(name, args)`: the reference's value of step function `name` on `args`, encoded.

    Asked by a submission's composed step through the sandbox, so `args` are untrusted decoded
    values: arrays of at most MAX_HELPER_SIDE rows and columns (of any number of dimensions up to
    the lab's `max_ndim`), lists of short strings, the reference's own number of arguments. Anything else,
    and anything the reference raises, is refused with the error the child then raises.
    """

    def __init__(self, functions, max_ndim=2):
        self.functions = dict(functions)
        self.max_ndim = max_ndim

    def __call__(self, name, args):
        function = self.functions.get(name)
        if function is None:
            raise HelperRefused("NameError", f"{name!r} is not a step function")
        params = list(inspect.signature(function).parameters)
        if len(args) != len(params):
            raise HelperRefused("TypeError", f"{name}() takes {len(params)} arguments ({len(args)} given)")
        values = [_helper_value(arg, param, self.max_ndim) for param, arg in zip(params, args)]
        try:
            with np.errstate(all="ignore"):
                value = function(*values)
        except Exception as error:  # numpy's shape errors and the like: the child raises them
            raise HelperRefused(type(error).__name__, str(error)[:200]) from None
        return codec.encode(value)


def _helper_value(value, param, max_ndim):
    if isinstance(value, (list, tuple)) and value and all(type(w) is str for w in value):
        if len(value) <= MAX_HELPER_SIDE and all(len(w) <= MAX_WORD_CHARS for w in value):
            return list(value)
        raise HelperRefused("TypeError", f"{param} must be a list of at most {MAX_HELPER_SIDE} short strings")
    if type(value) in (int, float) and not isinstance(value, bool):
        return value
    if isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.dtype.kind in "biuf"):
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError, OverflowError):
            array = None
        if array is not None and 1 <= array.ndim <= max_ndim and max(array.shape, default=0) <= MAX_HELPER_SIDE:
            return array
    raise HelperRefused("TypeError", f"{param} must be an array of numbers (1 to {max_ndim} dimensions), "
                                     f"at most {MAX_HELPER_SIDE} on a side")
