"""The lab as the students' check kit sees it: a public Lab and its probes, read from data.

`autograder build` writes public_data.json beside this package's copy in the student half: the
steps, the public cases with their expected values and known-mistake values, and the lab's own
catalog text. It holds no hidden case and no code that computes an answer.
"""
import base64
import inspect
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ..core.declaration import Candidates, Case, ErrorMessages, ErrorMistake, Link, Mistake, Output, Prediction, Step
from ..core.explain.computes import Known
from ..core.explain.records import Vocabulary
from ..core.lab import Lab
from ..core.rubric import Rubric
from ..core.child import codec
from ..core.stand_in import StandIn

DATA_FILE = "public_data.json"
# The language a student may choose for everything the kit prints (else the build's, see lang()).
LANG_VARIABLE = "LAB_CHECK_LANG"
LANGUAGES = ("ko", "en")


@dataclass(frozen=True, eq=False)
class Probe:
    step: Step
    case: Case
    args: tuple[Any, ...]
    expected: Prediction
    label: str = ""
    # per mistake of the step, in order: [tuple of outputs]
    candidates: list[list[Prediction]] = field(default_factory=list)
    # error mistake code -> [(type, pattern)]
    error_messages: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    trace: SimpleNamespace | None = None  # the reference's quantities on this test, as the explainer reads them


class NoPublicData(RuntimeError):
    """The kit runs from the engine's own tree, where no lab's public data was written."""


def _predictions(record: Mapping[str, Any]) -> list[list[Prediction]]:
    """Per mistake, its predictions: values stored once per probe, referred to by index
    (None: the right answer itself); float arrays are slices of the probe's blob."""
    blob = base64.b64decode(record.get("blob", ""))
    values = [_unpacked(v, blob) if isinstance(v, dict) and "packed" in v else codec.decode(v)
              for v in record["values"]]
    expected = tuple(codec.decode(e) for e in record["expected"])
    return [[expected if indexes is None else tuple(values[i] for i in indexes) for indexes in predictions]
            for predictions in record["candidates"]]


def _unpacked(entry: Mapping[str, Any], blob: bytes) -> NDArray[Any]:
    dtype = np.dtype(entry["packed"])
    if dtype.kind != "f":
        raise ValueError("packed predictions are float arrays")
    shape = tuple(int(n) for n in entry["shape"])
    count = int(np.prod(shape, dtype=np.int64))
    start = int(entry["at"])
    return np.frombuffer(blob, dtype=dtype, count=count, offset=start).reshape(shape).copy()


# The engine calls a mistake's candidates with the probes it was given: here, the kit's Probe.
def _stored(index: int) -> Candidates:
    return lambda probe: (cast(Probe, probe).candidates[index] if index < len(cast(Probe, probe).candidates)
                          else [])


def _stored_messages(code: str) -> ErrorMessages:
    return lambda probe: cast(Probe, probe).error_messages.get(code, [])


@lru_cache(maxsize=1)
def _data_text() -> str:
    path = resources.files(__package__).joinpath(DATA_FILE)
    if not path.is_file():
        raise NoPublicData(f"no {DATA_FILE} here: the check kit runs from the student half that "
                           "`autograder build` writes")
    return path.read_text("utf-8")


def lang() -> str:
    """The language everything the kit prints speaks: the student's LAB_CHECK_LANG when it
    names one, else the student half's (`autograder build --lang`, kept in public_data.json),
    else Korean."""
    chosen = os.environ.get(LANG_VARIABLE)
    if chosen in LANGUAGES:
        return chosen
    try:
        built = json.loads(_data_text()).get("lang")
    except (NoPublicData, OSError, ValueError, AttributeError):
        built = None
    return built if built in LANGUAGES else "ko"


@lru_cache(maxsize=1)
def load(text: str | None = None) -> tuple[Lab, dict[str, list[Probe]]]:
    """(Lab, {step name: [Probe]}) of the kit's lab."""
    if text is None:
        text = _data_text()
    data = json.loads(text)
    cases = {c["name"]: Case(name=c["name"], words=tuple(c["words"]),
                             inputs={key: codec.decode(value) for key, value in c["inputs"].items()},
                             degenerate=c.get("degenerate") is True)
             for c in data["cases"]}
    steps: list[Step] = []
    probes: dict[str, list[Probe]] = {}
    for record in data["steps"]:
        step = Step(name=record["name"], points=record["points"], page_step=record["page_step"],
                    params=tuple(record["params"]),
                    outputs=tuple(Output(**o) for o in record["outputs"]),
                    mistakes=tuple(Mistake(code=m["code"], candidates=_stored(index), size=m["size"])
                                   for index, m in enumerate(record["mistakes"])),
                    hint=record["hint"], calls=tuple(record.get("calls", ())),
                    error_mistakes=tuple(ErrorMistake(code=code, messages=_stored_messages(code))
                                         for code in record["error_mistakes"]),
                    rubric=Rubric(**record["rubric"]) if record.get("rubric") else None,
                    links=tuple(Link(**link) for link in record.get("links", ())))
        steps.append(step)
        probes[step.name] = [
            Probe(step, cases[p["case"]],
                  tuple(codec.decode(a) for a in p["args"]),
                  tuple(codec.decode(e) for e in p["expected"]), p["label"],
                  _predictions(p),
                  {code: [tuple(pair) for pair in pairs] for code, pairs in p["error_messages"].items()})
            for p in data["probes"][step.name]]
    vocabulary, traces = _explainer(data.get("explain"))
    for name, step_probes in probes.items():
        probes[name] = [replace(p, trace=traces.get(p.case.name)) for p in step_probes]
    facts = dict(data["hint_facts"])
    public = tuple(cases.values())
    stand_ins = {name: tuple(StandIn(name=row["name"], args=tuple(codec.decode(a) for a in row["args"]),
                                     value=codec.decode(row["value"])) for row in rows)
                 for name, rows in data.get("stand_ins", {}).items()}
    lab = Lab(name=data["lab"], titles=data["titles"], steps=tuple(steps), public_cases=lambda: public,
              hint_facts=lambda: facts, catalog_tables=data["catalog"], notebook=data["notebook"],
              script=data["script"], page_case=data["page_case"],
              stand_ins=lambda case, trace: stand_ins.get(case.name, ()), vocabulary=vocabulary,
              signatures={name: signature_of(parameters) for name, parameters in data.get("signatures", {}).items()})
    return lab, probes


_KINDS = {kind.name: kind for kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                       inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.KEYWORD_ONLY,
                                       inspect.Parameter.VAR_KEYWORD)}


def signature_of(parameters: Iterable[Mapping[str, Any]]) -> inspect.Signature:
    """The inspect.Signature the build wrote as data (otter.public_data.signature_data)."""
    return inspect.Signature([
        inspect.Parameter(p["name"], _KINDS[p["kind"]],
                          **({"default": codec.decode(p["default"])} if "default" in p else {}))
        for p in parameters])


def _explainer(data: Mapping[str, Any] | None) -> tuple[Vocabulary | None, dict[str, SimpleNamespace]]:
    """(Vocabulary, {test name: trace}) from the build's data: what the engine's explainer reads."""
    if not data:
        return None, {}
    sizes = {name: tuple(source) if isinstance(source, list) else source for name, source in data["sizes"].items()}
    tests = data["tests"]
    traces = {name: SimpleNamespace(**{key: codec.decode(value)
                                       for key, value in {**test["size_arrays"], **test["trace"]}.items()})
              for name, test in tests.items()}
    # The quantities offered are the engine's, in its order (the first that fits is named): the
    # trace's fields, never the arrays read for sizes.
    quantities = tuple(dict.fromkeys(key for test in tests.values() for key in test["trace"]))
    kinds = {name: tuple(test["kinds"]) for name, test in tests.items()}
    variants = {name: _variants(test.get("variants") or ()) for name, test in tests.items()}
    known = tuple(Known(name=entry["name"], expression=entry["expression"]) for entry in data.get("known") or ())
    return Vocabulary(sizes=sizes, kinds=lambda case: kinds.get(case.name, ()), quantities=quantities,
                      variants=lambda case: variants.get(case.name, {}), known=known), traces


def _variants(records: Iterable[Mapping[str, Any]]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """{change: variant} of one test, as autograder.core.trace_variants computed them at build time."""
    return {tuple(record["change"]): {**{key: value for key, value in record.items() if key not in ("change", "quantities")},
                                      "quantities": {name: np.asarray(codec.decode(value), dtype=float)
                                                     for name, value in record["quantities"].items()}}
            for record in records}
