"""A student who reads the kit the instructor hands out (student/lab_check/kit/public_data.json, and
every other file of the student half) looks for the hidden tests: their inputs and every value
the reference computes on them (Q, K, V, the scores, the scaled scores, the weights, the output,
each step's answer). An array is a leak when it, or every one of its numbers, is in the kit while
no public test has it. Built with the real `autograder build`."""
import json
import pathlib

import numpy as np

from helpers5 import cli

FACE = "autograder build (the students' kit: lab_check/, public_data.json, the notebook, the tests)"
PROMISE = "the kit's data holds public tests only; no hidden case, no expected value of a hidden test reaches students"


def arrays_in(data, found):
    """Every array (codec's base64 form or nested lists of numbers) and number in a JSON value."""
    from autograder.core.child import codec

    if isinstance(data, dict):
        if data.get("t") == "array":
            value = codec.decode(data)
            if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
                found.append(np.asarray(value, dtype=float).ravel())
                return
        for value in data.values():
            arrays_in(value, found)
    elif isinstance(data, list):
        if data and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in data):
            found.append(np.asarray(data, dtype=float).ravel())
        for value in data:
            arrays_in(value, found)
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        found.append(np.asarray([data], dtype=float))


def key(values):
    return tuple(np.round(np.asarray(values, dtype=float).ravel(), 9).tolist())


def attack(work):
    out = pathlib.Path(work) / "dist"
    done = cli("build", "--lab", "self_attention", "--out", out)
    student = out / "student"
    if not (student / "lab_check").is_dir():
        return True, f"(setup: no student half, build exit {done.returncode}: {done.stderr[-300:]})"
    shipped = []
    for path in student.rglob("*.json"):
        arrays_in(json.loads(path.read_text("utf-8")), shipped)
    for path in student.rglob("*.ipynb"):
        arrays_in(json.loads(path.read_text("utf-8")), shipped)
    whole = {key(a) for a in shipped}
    numbers = {round(float(v), 9) for a in shipped for v in a}
    text = "\n".join(p.read_text("utf-8", "replace") for p in student.rglob("*") if p.is_file()
                     and p.suffix in (".py", ".md", ".txt", ".json", ".ipynb"))

    from labs.self_attention import cases, hidden, reference

    public = set()
    for case in cases.public_cases():
        trace = reference.trace(case)
        for value in [*case.inputs.values(), trace.Q, trace.K, trace.V, trace.scores, trace.scaled,
                      trace.weights, trace.output]:
            public.add(key(value))
            for row in np.atleast_2d(value):
                public.add(key(row))
    leaks, looked = [], 0
    for case in hidden.hidden_cases():
        trace = reference.trace(case)
        named = {**{f"input {k}": v for k, v in case.inputs.items()}, "Q": trace.Q, "K": trace.K, "V": trace.V,
                 "scores": trace.scores, "scaled": trace.scaled, "weights": trace.weights, "output": trace.output}
        for label, value in named.items():
            for part, values in [("", value)] + [(f" row {i}", row) for i, row in enumerate(np.atleast_2d(value))]:
                values = np.asarray(values, dtype=float)
                if values.size < 3 or len(set(np.round(values.ravel(), 9))) < 3 or key(values) in public:
                    continue
                looked += 1
                # Inputs are rounded to one decimal, so their numbers are all over the kit: a number
                # counts alone only when it has more than three decimals (a computed value).
                specific = [v for v in values.ravel() if abs(v * 1000 - round(v * 1000)) > 1e-6]
                if key(values) in whole or (len(specific) >= 3 and all(round(float(v), 9) in numbers
                                                                        for v in specific)):
                    leaks.append(f"{case.name} {label}{part}")
        if case.name in text:
            leaks.append(f"the name {case.name!r} in a shipped file")
    if leaks:
        return False, f"{len(leaks)} hidden arrays found in the student half: {', '.join(leaks[:8])}"
    return True, (f"none of {looked} hidden arrays (inputs and the reference's values, whole and by row) is in the "
                  f"{len(shipped)} arrays and numbers shipped; no hidden case named")
