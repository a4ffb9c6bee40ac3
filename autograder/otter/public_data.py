"""Build-time: a lab's public probes, expected values, known-mistake values and text, as JSON data."""
import base64
import dataclasses
import inspect
import json
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..core.compare import matches
from ..core.declaration import Case, Probe, Step, Trace
from ..core.explain.quantities import case_variants, trace_quantities
from ..grading.plan import Plan
from ..core.lab import Lab
from ..core.render.messages import LANGUAGES
from ..core.child import codec
from ..core.stand_in import StandIn


def _public_catalog(table: Mapping[str, Any], cases: Iterable[Case]) -> dict[str, Any]:
    """The lab's catalog with the names of these cases only: hidden cases are not even named."""
    names = {case.name for case in cases}
    return {**table, "case": {key: text for key, text in table.get("case", {}).items() if key in names}}


def public_data(lab: Lab, cases: Sequence[Case] | None = None) -> dict[str, Any]:
    """Everything the students' check kit needs, for the public cases only (no hidden case, no code)."""
    cases = list(lab.public_cases()) if cases is None else cases
    if any(case.hidden for case in cases):
        raise ValueError("public data must not contain hidden cases")
    plan = Plan.build(lab, cases)
    return {
        "lab": lab.name, "titles": dict(lab.titles), "notebook": lab.notebook, "script": lab.script,
        "page_case": lab.page_case, "hint_facts": dict(lab.hint_facts()),
        "catalog": {lang: _public_catalog(lab.catalog(lang), cases) for lang in LANGUAGES},
        "cases": [{"name": case.name, "words": list(case.words), "degenerate": case.degenerate,
                   "inputs": {key: codec.encode(value) for key, value in case.inputs.items()}}
                  for case in cases],
        "steps": [{"name": step.name, "points": step.points, "page_step": step.page_step,
                   "params": list(step.params),
                   "outputs": [dataclasses.asdict(output) for output in step.outputs],
                   "mistakes": [{"code": mistake.code, "size": mistake.size} for mistake in step.mistakes],
                   "error_mistakes": [mistake.code for mistake in step.error_mistakes],
                   "calls": list(step.calls), "hint": step.hint,
                   "links": [dataclasses.asdict(link) for link in step.links],
                   "rubric": None if step.rubric is None else dataclasses.asdict(step.rubric)}
                  for step in lab.steps],
        "probes": {step.name: [_probe_record(step, probe) for probe in plan.probes[step.name]]
                   for step in lab.steps},
        # What the explainer reads of each public test (autograder.core.explain), as the engine reads it.
        "explain": _explain_data(lab, cases, plan),
        # How a stand-in binds a call's arguments: the reference's signature of each called step.
        "signatures": {name: signature_data(signature) for name, signature in lab.callee_signatures.items()},
        # What the grader's stand-ins answer on each public test (see autograder.core.stand_in).
        "stand_ins": {case.name: [{"name": row.name, "args": [codec.encode(a) for a in row.args],
                                   "value": codec.encode(row.value)} for row in _stand_ins(lab, case, plan)]
                      for case in cases},
    }


def signature_data(signature: inspect.Signature) -> list[dict[str, Any]]:
    """An inspect.Signature as data: per parameter its name, kind and (when it has one) default."""
    return [{"name": p.name, "kind": p.kind.name,
             **({} if p.default is inspect.Parameter.empty else {"default": codec.encode(p.default)})}
            for p in signature.parameters.values()]


def _explain_data(lab: Lab, cases: Sequence[Case], plan: Plan) -> dict[str, Any] | None:
    """The lab's sizes, and per public test the quantities of its trace and the kinds it is of;
    None for a lab without a vocabulary (its failures are not explained, in the kit as in the engine)."""
    vocabulary = lab.vocabulary
    if vocabulary is None:
        return None
    tests: dict[str, dict[str, Any]] = {}
    page_case = next((case for case in cases if case.name == lab.page_case), None)
    outputs = {output.name for step in lab.steps for output in step.outputs}
    for case in cases:
        trace = _trace_of(case, plan)
        quantities = trace_quantities(trace, vocabulary)
        # The trace's arrays the sizes are read from (a head count from the heads' table), when
        # no quantity already carries them: read for sizes only, never offered as quantities.
        size_arrays = {source[0]: getattr(trace, source[0]) for source in vocabulary.sizes.values()
                       if isinstance(source, tuple) and source[0] not in case.inputs
                       and source[0] not in quantities and isinstance(getattr(trace, source[0], None), np.ndarray)}
        tests[case.name] = {
            "trace": {name: codec.encode(value) for name, value in quantities.items()},
            "size_arrays": {name: codec.encode(value) for name, value in size_arrays.items()},
            "kinds": list(vocabulary.kinds(case)) if vocabulary.kinds is not None else [],
            "variants": _variants_data(case_variants(case, page_case, vocabulary), outputs)}
    return {"sizes": {name: list(source) if isinstance(source, tuple) else source
                      for name, source in vocabulary.sizes.items()},
            # the lab's own known functions of a call's arguments (autograder.core.explain.computes)
            "known": [{"name": entry.name, "expression": entry.expression} for entry in vocabulary.known],
            "tests": tests}


def _variants_data(variants: Mapping[tuple[Any, ...], Mapping[str, Any]], outputs: Container[str]) -> list[dict[str, Any]]:
    """The trace with one input changed (autograder.core.trace_variants), as JSON: the kit's explainer
    reads them as the engine computes them (public tests only: the callers pass public cases). Only
    the quantities named like a step's output are kept: the explainer compares nothing else."""
    return [{"change": list(change), **{key: value for key, value in variant.items() if key != "quantities"},
             "quantities": {name: codec.encode(value) for name, value in variant["quantities"].items()
                            if name in outputs}}
            for change, variant in variants.items()]


def _trace_of(case: Case, plan: Plan) -> Trace:
    return next(p for probes in plan.probes.values() for p in probes if p.case is case).trace


def _stand_ins(lab: Lab, case: Case, plan: Plan) -> Iterable[StandIn]:
    if lab.stand_ins is None:
        return []
    return lab.stand_ins(case, _trace_of(case, plan))


# A value of a probe's table: a float array by (dtype, shape, bytes), anything else by its JSON.
_Key = tuple[str, tuple[int, ...], bytes] | str


def _probe_record(step: Step, probe: Probe) -> dict[str, Any]:
    values: list[Any] = []  # JSON: codec's encoding, or where a float array's bytes are in the blob
    index_of: dict[_Key, int] = {}
    blob = bytearray()

    def stored(value: object) -> int:
        """The value's index in the probe's table; float arrays' bytes go to one shared blob."""
        value = _compact(value)
        key: _Key
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            key = (value.dtype.str, value.shape, value.tobytes())
        else:
            key = json.dumps(codec.encode(value), sort_keys=True)
        if key not in index_of:
            index_of[key] = len(values)
            if isinstance(key, tuple):
                values.append({"packed": key[0], "shape": list(key[1]), "at": len(blob)})
                blob.extend(key[2])
            else:
                values.append(codec.encode(value))
        return index_of[key]

    def prediction(candidate: Sequence[object]) -> list[int] | None:
        """Indexes into the probe's table of distinct values; None stands for the right answer."""
        return None if matches(step.outputs, list(probe.expected), candidate) else [stored(v) for v in candidate]

    return {
        "case": probe.case.name,
        "label": probe.label,
        "args": [codec.encode(arg) for arg in probe.args],
        "expected": [codec.encode(value) for value in probe.expected],
        # One list per mistake, in the step's order (several mistakes may share a code).
        "candidates": [[prediction(candidate) for candidate in mistake.candidates(probe)]
                       for mistake in step.mistakes],
        "values": values,
        "blob": base64.b64encode(bytes(blob)).decode("ascii"),
        "error_messages": {mistake.code: [list(pair) for pair in mistake.messages(probe)]
                           for mistake in step.error_mistakes},
    }


FLOAT32_MAX = 1e38


def _compact(value: object) -> object:
    """Predictions are compared within the judge's tolerance (1e-4): float32 keeps them, at half the size."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.size and \
            np.nanmax(np.abs(np.where(np.isinf(value), 0, value)), initial=0) < FLOAT32_MAX:
        return value.astype(np.float32)
    return value
