"""The labs' declared mistakes, as the judge reads them: what each would have returned for a
probe (its predictions, computed once per plan) and which of them a returned value matches. A
mistake is named only when the value matches its prediction and the prediction differs from the
right answer.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .compare import matches_prepared, prepared_candidate, prepared_values

if TYPE_CHECKING:
    from .compare import PreparedPrediction
    from .declaration import Mistake, Probe

# "off" turns every declared mistake (the labs' Mistakes and ErrorMistakes) off: only to measure
# what the explainer names alone (benchmarks/explain_corpora.py). Grades then differ; never grade so.
DECLARED_MISTAKES_SWITCH = "AUTOGRADER_DECLARED_MISTAKES"


def declared_mistakes_on() -> bool:
    """Whether the labs' declared mistakes are searched: the one place the switch is read."""
    return os.environ.get(DECLARED_MISTAKES_SWITCH, "on").strip().lower() != "off"


def named_mistakes(probe: Probe, values: Sequence[object]) -> list[str]:
    """Codes of the step's mistakes whose prediction equals `values` and differs from the answer."""
    if not declared_mistakes_on():
        return []
    outputs = probe.step.outputs
    got = prepared_values(outputs, values)
    matched: list[str] = []
    for mistake in sorted(probe.step.mistakes, key=lambda m: m.size):
        if mistake.size > 1 and matched:
            break  # the smallest explanation wins: pairs are searched only when no single change fits
        if mistake.code not in matched and any(matches_prepared(outputs, got, candidate)
                                               for candidate in predictions(probe, mistake)[0]):
            matched.append(mistake.code)
    return matched


def predicts(probe: Probe, mistake: Mistake, values: Sequence[object]) -> bool:
    outputs, got = probe.step.outputs, prepared_values(probe.step.outputs, values)
    return any(matches_prepared(outputs, got, candidate) for candidate in predictions(probe, mistake)[0])


MAX_PREDICTIONS = 20_000  # (probe, mistake) pairs remembered; a plan holds a few thousand
_predictions: dict[tuple[int, int], tuple[Probe, Mistake, list[list[PreparedPrediction] | None], bool]] = {}


def predictions(probe: Probe, mistake: Mistake) -> tuple[list[list[PreparedPrediction] | None], bool]:
    """(the mistake's predictions on the probe that differ from the right answer, whether one
    equals it). They depend on the probe alone, never on the student: computed once per plan."""
    key = (id(probe), id(mistake))
    hit = _predictions.get(key)
    if hit is not None and hit[0] is probe and hit[1] is mistake:
        return hit[2], hit[3]
    outputs, expected = probe.step.outputs, prepared_values(probe.step.outputs, list(probe.expected))
    differ: list[list[PreparedPrediction] | None] = []
    equal = False
    try:
        candidates = list(mistake.candidates(probe))
    except Exception:  # a lab's faulty prediction names nothing; it must never cost a grade
        candidates = []
    for candidate in candidates:
        if candidate is None:
            continue
        prepared = prepared_candidate(outputs, candidate)
        if matches_prepared(outputs, expected, prepared):
            equal = True
        else:
            differ.append(prepared)
    if len(_predictions) >= MAX_PREDICTIONS:
        _predictions.clear()
    _predictions[key] = (probe, mistake, differ, equal)  # the objects are held, so ids stay theirs
    return differ, equal


def would_fail(probe: Probe, mistake: Mistake) -> bool:
    differ, equal = predictions(probe, mistake)
    return bool(differ) and not equal
