"""The lab's steps as plain data: names, points, outputs, public probes and known-mistake values.

Written at build time from autograder.steps and the public cases; it holds expected values for
the public cases only and no code that computes them.
"""
import json
from dataclasses import dataclass, field
from importlib import resources

from .cases import Case
from .declaration import Mistake, Output, Step
from .sandbox import codec


@dataclass(frozen=True, eq=False)
class Probe:
    step: "Step"
    case: Case
    args: tuple
    expected: tuple
    label: str = ""
    candidates: dict = field(default_factory=dict)  # mistake code -> [tuple of outputs]


def _stored(code):
    return lambda probe: probe.candidates.get(code, [])


def _load():
    text = resources.files(__package__).joinpath("public_data.json").read_text("utf-8")
    data = json.loads(text)
    cases = {c["name"]: Case(c["name"], tuple(c["words"]),
                             *(codec.decode(c[key]) for key in ("X", "W_Q", "W_K", "W_V")))
             for c in data["cases"]}
    steps, probes = [], {}
    for record in data["steps"]:
        step = Step(record["name"], record["points"], record["page_step"], tuple(record["params"]),
                    tuple(Output(**o) for o in record["outputs"]),
                    tuple(Mistake(code, _stored(code)) for code in record["mistakes"]),
                    record["needs_helpers"], record["hint"])
        steps.append(step)
        probes[step.name] = [
            Probe(step, cases[p["case"]],
                  tuple(codec.decode(a) for a in p["args"]),
                  tuple(codec.decode(e) for e in p["expected"]), p["label"],
                  {code: [tuple(codec.decode(v) for v in candidate) for candidate in candidates]
                   for code, candidates in p["candidates"].items()})
            for p in data["probes"][step.name]]
    return tuple(steps), probes


STEPS, PROBES = _load()
FUNCTION_NAMES = tuple(step.name for step in STEPS)
STEPS_BY_NAME = {step.name: step for step in STEPS}
TOTAL_POINTS = sum(step.points for step in STEPS)
