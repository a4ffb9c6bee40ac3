"""Build-time: a lab's public probes, expected values, known-mistake values and text, as JSON data."""
import dataclasses

from ..grading import Plan
from ..render import LANGUAGES
from ..sandbox import codec


def public_data(lab, cases=None):
    """Everything the students' check kit needs, for the public cases only (no hidden case, no code)."""
    cases = list(lab.public_cases()) if cases is None else cases
    if any(case.hidden for case in cases):
        raise ValueError("public data must not contain hidden cases")
    plan = Plan.build(lab, cases)
    return {
        "lab": lab.name, "titles": dict(lab.titles), "notebook": lab.notebook, "script": lab.script,
        "page_case": lab.page_case, "hint_facts": dict(lab.hint_facts()),
        "catalog": {lang: lab.catalog(lang) for lang in LANGUAGES},
        "cases": [{"name": case.name, "words": list(case.words),
                   "inputs": {key: codec.encode(value) for key, value in case.inputs.items()}}
                  for case in cases],
        "steps": [{"name": step.name, "points": step.points, "page_step": step.page_step,
                   "params": list(step.params),
                   "outputs": [dataclasses.asdict(output) for output in step.outputs],
                   "mistakes": [mistake.code for mistake in step.mistakes],
                   "error_mistakes": [mistake.code for mistake in step.error_mistakes],
                   "needs_helpers": step.needs_helpers, "hint": step.hint}
                  for step in lab.steps],
        "probes": {step.name: [_probe_record(step, probe) for probe in plan.probes[step.name]]
                   for step in lab.steps},
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
        "error_messages": {mistake.code: [list(pair) for pair in mistake.messages(probe)]
                           for mistake in step.error_mistakes},
    }
