"""What a grade is a function of, as one hash: equal versions mean a rerun equals a clean run.

Nothing here is a list kept by hand. The version hashes
- every file of the installed packages grading imports (the engine, and the whole top-level package
  of the lab, of its reference solution and of its step declarations), whatever its kind: code,
  catalogs, data files a lab reads;
- the lab's plan as data: each step's name, points, callees, mistake codes and rubric shares, and each test's
  arguments and expected values as the sandbox receives them (so an expected value that moves with
  a dependency, or a case read from a data file, regrades);
- the catalogs the feedback is rendered from, the Python and library versions grading runs on, and
  the switch that turns the labs' declared mistakes off.
"""
from __future__ import annotations

import hashlib
import json
import sys
from importlib import resources
from importlib.abc import Traversable
from typing import Any, Iterator

import numpy as np

from .. import __version__

# Never hashed: byte code and editors' leftovers, which no grade reads.
SKIPPED_DIRECTORIES = frozenset({"__pycache__", ".ipynb_checkpoints", ".pytest_cache"})
SKIPPED_SUFFIXES = (".pyc", ".pyo", "~", ".swp")

_versions: dict[int, tuple[Any, str, str]] = {}


def grader_version(lab: Any) -> str:
    """autograder's version plus a hash of everything the lab's grades and feedback depend on."""
    cached = _versions.get(id(lab))
    if cached is not None and cached[0] is lab and cached[2] == environment():
        return cached[1]
    digest = hashlib.sha256()
    for package in top_level_packages(lab):
        for relative, data in package_files(package):
            digest.update(f"{package}/{relative}".encode() + b"\0" + data + b"\0")
    digest.update(plan_digest(lab).encode())
    digest.update(environment().encode())
    version = f"{__version__}+{digest.hexdigest()[:16]}"
    _versions[id(lab)] = (lab, version, environment())
    return version


def top_level_packages(lab: Any) -> tuple[str, ...]:
    """The top-level packages grading `lab` imports code or data from, sorted."""
    modules = {"autograder", lab.catalog_package, lab.assignment_package, lab.solution}
    for step in lab.steps:
        modules.update(getattr(function, "__module__", None)
                       for function in (step.make_probes, getattr(step.rubric, "__class__", None)))
    for function in (lab.public_cases, lab.hidden_cases, lab.trace, lab.stand_ins, lab.hint_facts):
        modules.add(getattr(function, "__module__", None))
    tops = {module.split(".")[0] for module in modules if module}
    return tuple(sorted(top for top in tops if _is_package(top)))


def _is_package(name: str) -> bool:
    module = sys.modules.get(name)
    return module is not None and getattr(module, "__path__", None) is not None


def package_files(package: str) -> Iterator[tuple[str, bytes]]:
    """(relative path, bytes) of every file of `package`, subpackages included, in a fixed order."""
    def walk(folder: Traversable, prefix: str) -> Iterator[tuple[str, bytes]]:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                if entry.name not in SKIPPED_DIRECTORIES:
                    yield from walk(entry, f"{prefix}{entry.name}/")
            elif entry.is_file() and not entry.name.endswith(SKIPPED_SUFFIXES):
                yield prefix + entry.name, entry.read_bytes()
    yield from walk(resources.files(package), "")


def plan_digest(lab: Any) -> str:
    """A hash of the lab's plan as data: steps, points, callees, mistakes, every test's inputs and
    expected values, and the catalogs."""
    from ..grading.plan import Plan
    from ..core.child import codec

    digest = hashlib.sha256(lab.name.encode() + b"\0")
    plan = Plan.build(lab)
    for step in lab.steps:
        declared = {
            "name": step.name, "points": step.points, "page_step": step.page_step,
            "params": list(step.params), "outputs": [output.name for output in step.outputs],
            "calls": list(step.calls), "mistakes": sorted(step.named_codes()), "hint": step.hint,
            "rubric": _rubric_data(step.rubric),
        }
        digest.update(_canonical(declared))
        for probe in plan.probes[step.name]:
            digest.update(_canonical({"case": probe.case.name, "hidden": probe.case.hidden, "label": probe.label,
                                      "args": [codec.encode(a) for a in probe.args],
                                      "expected": [codec.encode(e) for e in probe.expected]}))
    for lang in ("ko", "en"):
        digest.update(_canonical(lab.catalog(lang)))
    return digest.hexdigest()


def _rubric_data(rubric: Any) -> Any:
    """The rubric's shares as data (None: the engine's defaults, hashed with the engine's code)."""
    if rubric is None:
        return None
    return {"shares": {str(code): float(share) for code, share in getattr(rubric, "shares", {}).items()},
            "formula": float(getattr(rubric, "formula", 0.0))}


def environment() -> str:
    """The interpreter and libraries the expected values and the students' code run on."""
    import pandas

    from ..core.predictions import declared_mistakes_on

    return (f"python {sys.version_info[0]}.{sys.version_info[1]}; numpy {np.__version__}; pandas {pandas.__version__};"
            f" declared mistakes {'on' if declared_mistakes_on() else 'off'}")


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=_type_name).encode() + b"\0"


def _type_name(value: Any) -> str:
    # Never repr(): an object's default repr holds its address, which differs from run to run.
    return type(value).__name__
