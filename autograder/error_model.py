"""Mistakes as small changes to a step's computation (an error model), searched singly, then in pairs.

A lab writes a step's computation once, with choice points: `at(point, right, **wrong)` returns
`right`, unless the search has made that point take one of its wrong alternatives. Each wrong
alternative is keyed by its mistake code, whose sentences live in the catalogs, so a combination
nobody planted still gets precise words. An alternative given as `Several(a, b, ...)` stands for
several ways of making one mistake (`d_k ** 1/2` divides by d_k/2, or by 2·d_k). The search
yields `Mistake`s: every single alternative first, then every pair of alternatives at two
different points; a pair's code joins the two codes with "+" in the order of the points.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from dataclasses import dataclass

import numpy as np

from .core.declaration import Mistake, Prediction, Probe
from .core.rubric import JOIN  # a pair's code joins its two codes (the rubric's rule, read by every face)


class Several(tuple[Any, ...]):
    """Several values of one wrong alternative: each is tried as its own prediction."""

    def __new__(cls, *values: Any) -> "Several":
        return super().__new__(cls, values)


@dataclass(frozen=True)
class Point:
    """One place of the computation a student can get wrong, and the mistakes made there."""

    name: str
    codes: tuple[str, ...]


class _Chooser:
    """The `at` handed to a computation: right values everywhere but the chosen points."""

    def __init__(self, choice: dict[str, str], indexes: dict[str, int]) -> None:
        self.choice = choice  # point name -> code
        self.indexes = indexes  # point name -> which of Several
        self.counts: dict[str, int] = {}  # point name -> how many values its chosen alternative has here

    def __call__(self, point: str, right: Any, **wrong: Any) -> Any:
        code = self.choice.get(point)
        if code is None:
            return right
        if code not in wrong:
            raise _NotHere
        value = wrong[code]
        if isinstance(value, Several):
            self.counts[point] = len(value)
            return value[self.indexes.get(point, 0)]
        return value


# The `at` a computation is handed: at(point, right, **wrong) -> the value used there.
At = Callable[..., Any]


class _NotHere(Exception):
    """The chosen mistake cannot be made on this input (the computation did not offer it)."""


@dataclass(frozen=True)
class ErrorModel:
    """A computation with choice points; `compute(probe, at)` returns one value per output."""

    compute: Callable[[Probe, At], Iterable[Any]]
    points: tuple[Point, ...]  # in the order their codes are joined

    def predictions(self, probe: Probe, choice: dict[str, str]) -> Iterator[Prediction]:
        """Every prediction of the computation with `choice` (point → code) made, on one probe."""
        first = _Chooser(choice, {})
        try:
            value = self._run(probe, first)
        except _NotHere:
            return
        if value is not None:
            yield value
        # A mistake made in several ways: each value, and each combination of them for a pair.
        counts = dict(first.counts)
        for indexes in itertools.product(*(range(n) for n in counts.values())):
            if any(indexes):
                value = self._run(probe, _Chooser(choice, dict(zip(counts, indexes))))
                if value is not None:
                    yield value

    def _run(self, probe: Probe, chooser: _Chooser) -> Prediction | None:
        try:
            with np.errstate(all="ignore"):
                return tuple(self.compute(probe, chooser))
        except _NotHere:
            raise
        except (ArithmeticError, ValueError, TypeError, IndexError, KeyError):
            return None  # made this way, the mistake raises instead of returning: no prediction

    def mistakes(self, pairs: bool = True) -> tuple[Mistake, ...]:
        """The model as Mistakes: single changes, then pairs at two different points.

        Changes with one code (the first word skipped in softmax or in mix) are one Mistake with
        the predictions of each, per size.
        """
        singles = [(point, code) for point in self.points for code in point.codes]
        choices: dict[tuple[str, int], list[dict[str, str]]] = {}  # (code, size) -> [choice]
        for point, code in singles:
            choices.setdefault((code, 1), []).append({point.name: code})
        if pairs:
            for (p1, c1), (p2, c2) in itertools.combinations(singles, 2):
                if p1 is not p2:
                    code = JOIN.join(dict.fromkeys((c1, c2)))  # one W pasted twice is one mistake
                    choices.setdefault((code, 2), []).append({p1.name: c1, p2.name: c2})
        return tuple(Mistake(code=code, candidates=self._predictor(found), size=size) for (code, size), found in choices.items())

    def _predictor(self, choices: list[dict[str, str]]) -> Callable[[Probe], Iterator[Prediction]]:
        def candidates(probe: Probe) -> Iterator[Prediction]:
            for choice in choices:
                yield from self.predictions(probe, choice)
        return candidates
