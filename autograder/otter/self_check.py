"""The build's self-check: its zip graded as on the LMS, and the lab's tests against the mutants of its reference."""
from __future__ import annotations

import pathlib
import tempfile
import time
from typing import TYPE_CHECKING

import nbformat

from ..core.lab import Lab
from ..said import Said, said
from .refusals import BuildError

if TYPE_CHECKING:  # imported where used (check_zip)
    from .emulation import GradingImage

def check_zip(zip_path: pathlib.Path, lab: Lab, image: "GradingImage | None" = None) -> list[Said]:
    """Graded as on the LMS, from the installed wheel: the reference full marks, the stubs zero."""
    from .emulation import EmulationError, GradingImage

    from ..authoring import fill
    notebook = nbformat.reads(lab.assignment_file(lab.notebook).read_text("utf-8"), as_version=4)
    reference = nbformat.writes(fill.fill_notebook(nbformat.from_dict(notebook), lab=lab)).encode()
    stubs = nbformat.writes(notebook).encode()
    with tempfile.TemporaryDirectory(prefix="autograder-selfcheck-") as work:
        try:
            if image is None:
                # Thrown away after two runs: pip need not compile every module (a third faster).
                image = GradingImage(pathlib.Path(work) / "image", byte_compile=False)
            image.install(zip_path)
            graded = {label: image.grade(zip_path, {lab.notebook: data})
                      for label, data in (("reference", reference), ("stubs", stubs))}
        except EmulationError as error:
            raise BuildError(said("does_not_run", "build", problem=str(error))) from None
    lines: list[Said] = []
    problems: list[str] = []
    for label, want_full in (("reference", True), ("stubs", False)):
        run = graded[label]
        if run.returncode != 0:
            problems.append(f"{label}: run_autograder exited {run.returncode}:\n{run.output[-1500:]}")
        scores = {t["name"]: (t["score"], t["max_score"]) for t in run.results["tests"] if "max_score" in t}
        for step in lab.steps:
            score, max_score = scores.get(step.name, (None, None))
            expected = step.points if want_full else 0
            if score is None or abs(score - expected) > 1e-9 or abs(max_score - step.points) > 1e-9:
                problems.append(f"{label}: step {step.name} scored {score}/{max_score}, expected "
                                f"{expected}/{step.points}")
        lines.append(said(f"self_check_{label}", "build", points=f"{sum(s for s, _ in scores.values()):g}",
                          seconds=f"{run.seconds:.1f}"))
    if problems:
        raise BuildError(said("does_not_grade", "build", lines="\n  ".join(problems)))
    lines.append(said("graded_by", "build"))
    lines.append(check_mutants(lab))
    return lines


def check_mutants(lab: Lab) -> Said:
    """INVARIANT (docs/authors): a lab ships only with tests that catch every small edit of its
    reference that computes something else (autograder.mutants); each survivor is named."""
    from ..mutants import MutantsUnfinished, surviving_mutants
    from ..sandbox.runner import Zygote

    started = time.monotonic()
    try:
        with Zygote() as zygote:
            found = surviving_mutants(lab, zygote)
    except MutantsUnfinished as error:
        raise BuildError(said("mutants_unfinished", "build", problem=str(error))) from None
    if found.survivors:
        named = "\n  ".join(f"{m.step}, line {m.line}: {m.before} → {m.after} ({m.kind})" for m in found.survivors)
        raise BuildError(said("mutants_survive", "build", mutants=named))
    return said("self_check_mutants", "build", tried=found.tried, caught=found.caught, equivalent=found.equivalent,
                seconds=f"{time.monotonic() - started:.1f}")
