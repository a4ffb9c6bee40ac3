"""Build-time: the public probes, expected values and known-mistake values as JSON data."""
import dataclasses

from ..cases import public_cases
from ..grading import Plan
from ..sandbox import codec
from ..steps import STEPS


def public_data(cases=None):
    """Everything the student-side checks need, for the public cases only (no hidden case, no code)."""
    cases = public_cases() if cases is None else cases
    if any(case.hidden for case in cases):
        raise ValueError("public data must not contain hidden cases")
    plan = Plan.build(cases)
    return {
        "cases": [{"name": case.name, "words": list(case.words),
                   **{key: codec.encode(getattr(case, key)) for key in ("X", "W_Q", "W_K", "W_V")}}
                  for case in cases],
        "steps": [{"name": step.name, "points": step.points, "page_step": step.page_step,
                   "params": list(step.params),
                   "outputs": [dataclasses.asdict(output) for output in step.outputs],
                   "mistakes": [mistake.code for mistake in step.mistakes],
                   "needs_helpers": step.needs_helpers, "hint": step.hint}
                  for step in STEPS],
        "probes": {step.name: [_probe_record(step, probe) for probe in plan.probes[step.name]]
                   for step in STEPS},
    }


def _probe_record(step, probe):
    return {
        "case": probe.case.name,
        "label": probe.label,
        "args": [codec.encode(arg) for arg in probe.args],
        "expected": [codec.encode(value) for value in probe.expected],
        "candidates": {mistake.code: [[codec.encode(v) for v in candidate]
                                      for candidate in mistake.candidates(probe)]
                       for mistake in step.mistakes},
    }
