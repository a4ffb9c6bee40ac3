"""What lab packages share when they declare their steps: small helpers, no grading logic.

A lab's `steps.py` writes one function per known mistake that yields what a student making it
would return; `quietly` keeps numpy quiet while it does (a wrong formula may overflow or divide
by zero on purpose: that is the mistake). `printed_row` writes a row of numbers as the lab page
prints it, for the facts hints quote.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np

from ..core.declaration import Probe

T = TypeVar("T")


def quietly(candidates: Callable[[Probe], Iterable[T]]) -> Callable[[Probe], list[T]]:
    """`candidates` run with numpy's floating-point warnings off, its predictions as a list."""
    @functools.wraps(candidates)
    def wrapped(probe: Probe) -> list[T]:
        with np.errstate(all="ignore"):
            return list(candidates(probe))
    return wrapped


def printed_row(values: Iterable[Any], decimals: int) -> str:
    """'[0.12, 0.34]': a row of numbers as the lab page prints it, `decimals` after the point."""
    return "[" + ", ".join(f"{float(v):.{decimals}f}" for v in values) + "]"
