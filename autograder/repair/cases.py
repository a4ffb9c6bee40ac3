"""The inputs a repair is checked on: the lab's public cases and, for each of them, one generated
from it (the same shapes and kinds of values, other numbers), so an edit right only on the page's
numbers is not taken for the repair; and a few cases of other sizes the lab draws, so neither is
one right only on the public cases' sizes (`np.linalg.matrix_rank(W_K)` for d_k is right wherever
d_model ≥ d_k). Never a hidden case: the candidates are the student's code."""
from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..core.declaration import Case
from ..core.lab import Lab

GENERATED_SUFFIX = "~generated"


DRAWN_CASES = 6  # cases of any size a repair is also checked on, when the lab draws them (Lab.domain_case)


def repair_cases(lab: Lab) -> list[Case]:
    """The public cases, then one case generated from each public case that is not degenerate
    and whose reference trace runs on it, then the lab's first drawn cases of any size. Only the
    candidates right on one failing input are run on these (repair.search), so they cost little."""
    public = list(lab.public_cases())
    return public + generated_cases(lab, public) + drawn_cases(lab, count=DRAWN_CASES)


def drawn_cases(lab: Lab, *, count: int) -> list[Case]:
    """The first `count` cases of sizes the lab allows (`Lab.domain_case`), public (the grader draws
    them), each kept when the lab's reference trace runs on it; none when the lab draws none."""
    if lab.domain_case is None:
        return []
    made = (replace(lab.domain_case(seed), hidden=False) for seed in range(count))
    return [case for case in made if traced(lab, case)]


def generated_cases(lab: Lab, cases: Sequence[Case], *, seeds: int = 1) -> list[Case]:
    """`seeds` cases generated from each of `cases` that is not degenerate (public, never hidden),
    each kept when the lab's reference trace runs on it."""
    made = (generated_case(case, salt=salt) for case in cases if not case.degenerate for salt in range(seeds))
    return [case for case in made if traced(lab, case)]


def generated_case(case: Case, *, salt: int = 0) -> Case:
    """A case of `case`'s shapes and kinds of values, other numbers, drawn by `salt`."""
    rng = np.random.default_rng(zlib.crc32(case.name.encode()) + salt)
    inputs = {key: _like(value, rng) for key, value in case.inputs.items()}
    return Case(name=case.name + GENERATED_SUFFIX + (str(salt) if salt else ""), words=case.words, inputs=inputs,
                hidden=False, degenerate=case.degenerate)


def _like(value: object, rng: np.random.Generator) -> object:
    """Another array of the same shape, kind and spread; anything else as it was (a mask, a
    count, a word)."""
    if not isinstance(value, np.ndarray) or value.dtype.kind != "f" or value.size == 0:
        return value
    spread = float(np.std(value)) or 1.0
    return np.round(rng.normal(size=value.shape) * spread, 2).astype(value.dtype)


def traced(lab: Lab, case: Case) -> bool:
    """Whether the lab's reference trace runs on `case`."""
    try:
        lab.trace(case)  # type: ignore[misc]  # a graded lab has its trace
    except Exception:
        return False
    return True


def without_hidden(cases: Sequence[Case]) -> list[Case]:
    """INVARIANT: the cases a repair is checked on; refuses a hidden one outright."""
    if any(case.hidden for case in cases):
        raise ValueError("a repair is never checked on a hidden case")
    return list(cases)
