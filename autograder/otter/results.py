"""Engine verdicts as a Gradescope results.json (the shape Otter writes), as plain data.

Used by the zip's own entry point (gradescope.py, where Otter is not installed) and by the Otter
plugin (`otter run -a ZIP`), so both paths write the same file for the same verdict.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from ..core.verdict import rounded_points
from ..core.render.messages import Messages
from ..core.render.notes import load_notes, notes_heading
from ..core.render.step import step_feedback

if TYPE_CHECKING:
    from ..core.verdict import StepResult, SubmissionResult
    from ..core.lab import Lab

VISIBILITIES = ("visible", "after_published", "hidden")
PUBLIC_TESTS = "Public Tests"


class _Named(TypedDict):
    name: str


class GradescopeTest(_Named, total=False):
    """One entry of results.json's "tests" (`name` always there)."""

    visibility: str
    status: str  # "passed" | "failed"
    output: str
    score: float
    max_score: float


class _Scored(TypedDict):
    score: float
    tests: list[GradescopeTest]


class GradescopeResults(_Scored, total=False):
    """A Gradescope results.json, as this package writes it (`score` and `tests` always there)."""

    stdout_visibility: str
    output: str
    extra_data: dict[str, Any]


def gradescope_results(result: SubmissionResult, lab: Lab, lang: str = "ko",
                       visibility: str = "after_published") -> GradescopeResults:
    """results.json for one SubmissionResult.

    "Public Tests" (visible at once) holds the feedback on the public tests, from the steps judged
    on the public tests alone (`result.public_steps`: no hidden outcome, verdict or value went into
    them); one scored entry per step holds the whole diagnosis with `visibility`. The public text
    names points only when the scored entries are visible at once, and then the step's real
    score: it never shows a number the scored entries contradict before they are published.
    """
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}")
    say = Messages(lang, lab)
    notes = load_notes(result.notes, lab, lang)
    loading = notes_heading(say, result) + "\n" + "\n".join("  " + note for note in notes) if notes else ""
    public = {step.name: step for step in result.public_steps}
    public_parts = [loading] if loading else []
    public_parts += [public_feedback(step, public[step.name], lab, lang, visibility) for step in result.steps]
    tests: list[GradescopeTest] = [{"name": PUBLIC_TESTS, "visibility": "visible",
              "status": "passed" if all(public[s.name].status == "passed" for s in result.steps) else "failed",
              "output": "\n\n".join(public_parts)}]
    for step in result.steps:
        tests.append({"name": step.name, "score": rounded_points(step.score),
                      "max_score": rounded_points(float(step.max_score)),
                      "status": "passed" if step.status == "passed" else "failed",
                      "visibility": visibility, "output": step_feedback(step, lab, lang)})
    output: GradescopeResults = {"score": result.score, "stdout_visibility": "hidden",
              "tests": tests}
    if loading:
        output["output"] = loading
    return output


def public_feedback(step: StepResult, public: StepResult, lab: Lab, lang: str, visibility: str) -> str:
    """The public tests' feedback (`public`: the step judged on them alone); its header shows
    points (`step`'s, of all tests) only when they are visible at once."""
    text = step_feedback(public, lab, lang)
    if visibility == "visible":
        header = step_feedback(step, lab, lang).split("\n", 1)[0]
    else:
        say = Messages(lang, lab)
        header = say("text", "public_step_header", name=step.name, status=say("status", public.status))
    return "\n".join([header] + text.split("\n")[1:])
