"""Cases that catch every small mistake: the repair's edits made to the reference itself.

A mutant is the reference's step function with one edit (autograder.repair.edits). One that
computes something else somewhere in the domain (it fails on inputs generated from every case,
public and hidden, with other numbers) but passes every public and hidden case is a mistake the
lab's cases would let through: `surviving_mutants` names each, for the build's self-check and the
lab's tests. The reference is the grader's own code; its mutants still run in the sandbox (an edit
can make a loop endless).
"""
from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .grading.plan import Plan
from .grading.repairs import candidate_codes
from .grading.runs import Runs
from .repair.cases import drawn_cases, generated_cases
from .core.rubric import UNANSWERED
from .repair.edits import single_edits
from .repair.search import target_of
from .sandbox.runner import Limits
from .core.reading.submission import read_submission

if TYPE_CHECKING:
    from .core.declaration import Case, Probe, Step
    from .core.lab import Lab
    from .repair.edits import Edit
    from .sandbox.runner import Zygote

MUTANT_SECONDS = 300.0  # the most one step's mutants run, every stage together
DOMAIN_SEEDS = 2  # generated cases per case of the lab
DOMAIN_CASES = 24  # cases of any size, when the lab can draw them (Lab.domain_case)
MUTANT_CALL_SECONDS = 10.0  # the most one mutant runs on every input it is given


@dataclass(frozen=True, kw_only=True)
class Survivor:
    """A small edit of the reference that the lab's cases do not catch."""

    step: str
    kind: str
    line: int
    before: str
    after: str


def domain_cases(lab: Lab) -> list[Case]:
    """Cases generated from each of the lab's cases (public and hidden: the reference runs on them,
    never a student), the same shapes and kinds of values with other numbers, and cases of any
    size the lab draws (Lab.domain_case); all of them public (the reference's own inputs)."""
    return generated_cases(lab, [*lab.public_cases(), *lab.hidden_cases()], seeds=DOMAIN_SEEDS) + \
        drawn_cases(lab, count=DOMAIN_CASES)


@dataclass(frozen=True, kw_only=True)
class Mutants:
    """What the mutants of a lab's reference showed: how many were made, how many compute what the
    reference does on every input tried (no test could catch them), and the survivors."""

    tried: int
    equivalent: int
    survivors: tuple[Survivor, ...]

    @property
    def caught(self) -> int:
        return self.tried - self.equivalent - len(self.survivors)


def surviving_mutants(lab: Lab, zygote: Zygote, *, steps: tuple[str, ...] = ()) -> Mutants:
    """Every single edit of the reference's step functions (`steps`: only these) that differs from
    it on a generated input and passes every public and hidden case."""
    if lab.solution is None:
        return Mutants(tried=0, equivalent=0, survivors=())
    spec = importlib.util.find_spec(lab.solution)
    if spec is None or spec.origin is None:
        return Mutants(tried=0, equivalent=0, survivors=())
    with open(spec.origin, "rb") as handle:
        submission = read_submission("solution.py", handle.read())
    cases_plan, domain_plan = Plan.build(lab), Plan.build(lab, domain_cases(lab))
    runs = Runs(zygote, submission, cases_plan, Limits())
    survivors: list[Survivor] = []
    tried = equivalent = 0
    for step in lab.steps:
        if steps and step.name not in steps:
            continue
        places = submission.places.get(step.name)
        target = target_of(submission.cells, step.name, places[-1] if places else None)
        if target is None:
            continue
        edits = single_edits(target.function, limit=2000, source=target.source)
        tried += len(edits)
        until = time.monotonic() + MUTANT_SECONDS
        probes = cases_plan.probes[step.name]
        # The few most telling tests first (most mutants fail there), then every test, then the
        # generated inputs: a mutant right on all of those computes what the reference does.
        first = [p for p in probes if not p.case.degenerate and not p.case.hidden][:2] or probes[:1]
        passed = _passing(runs, step, edits, first, until, cases_plan)
        passed = _passing(runs, step, passed, probes, until, cases_plan)
        codes = candidate_codes(runs, step, (), [edit.source for edit in passed], domain_plan.probes[step.name], until,
                                plan=domain_plan, call_seconds=MUTANT_CALL_SECONDS)
        if time.monotonic() > until or any(code in UNANSWERED for row in codes for code in row):
            raise MutantsUnfinished(f"{lab.name}.{step.name}: the edits of the reference did not all answer "
                                    f"in {MUTANT_SECONDS:g} s")
        equivalent += sum(1 for row in codes if all(code is None for code in row))
        survivors += [Survivor(step=step.name, kind=edit.kind, line=edit.line, before=edit.before, after=edit.after)
                      for edit, row in zip(passed, codes) if any(code is not None for code in row)]
    return Mutants(tried=tried, equivalent=equivalent, survivors=tuple(survivors))


class MutantsUnfinished(RuntimeError):
    """The mutants could not all be run in their time: nothing is said of the ones left."""


def _passing(runs: Runs, step: Step, edits: list[Edit], probes: list[Probe], until: float, plan: Plan) -> list[Edit]:
    """The edits right on every probe. One that did not answer (an endless loop) is caught: it is
    a mistake the tests show, by a time limit."""
    if not edits:
        return []
    codes = candidate_codes(runs, step, (), [edit.source for edit in edits], probes, until, plan=plan,
                            call_seconds=MUTANT_CALL_SECONDS)
    if any(code == "not_run" for row in codes for code in row):
        raise MutantsUnfinished(f"{step.name}: some edits of the reference were not run")
    return [edit for edit, row in zip(edits, codes) if all(code is None for code in row)]
