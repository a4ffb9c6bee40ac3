"""Engine verdicts as a Gradescope results.json (the shape Otter writes), as plain data.

Used by the zip's own entry point (gradescope.py, where Otter is not installed) and by the Otter
plugin (`otter run -a ZIP`), so both paths write the same file for the same verdict.
"""
import dataclasses

from .. import rubric
from ..judge import _status
from ..render import Messages, load_notes, step_feedback

VISIBILITIES = ("visible", "after_published", "hidden")
PUBLIC_TESTS = "Public Tests"


def gradescope_results(result, lab, lang="ko", visibility="after_published"):
    """results.json for one SubmissionResult.

    "Public Tests" (visible at once) holds the feedback on the public cases; one scored entry per
    step holds the whole diagnosis with `visibility`. The public text names points only when the
    scored entries are visible at once, and then the step's real score: it never shows a number
    the scored entries contradict before they are published.
    """
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}")
    say = Messages(lang, lab)
    notes = load_notes(result.notes, lab, lang)
    loading = say("text", "load_heading") + "\n" + "\n".join("  " + note for note in notes) if notes else ""
    public_parts = [loading] if loading else []
    public_parts += [public_feedback(step, lab, lang, visibility) for step in result.steps]
    tests = [{"name": PUBLIC_TESTS, "visibility": "visible",
              "status": "passed" if all(public_view(s, lab).status == "passed" for s in result.steps) else "failed",
              "output": "\n\n".join(public_parts)}]
    for step in result.steps:
        tests.append({"name": step.name, "score": round(step.score, 5), "max_score": round(float(step.max_score), 5),
                      "status": "passed" if step.status == "passed" else "failed",
                      "visibility": visibility, "output": step_feedback(step, lab, lang)})
    output = {"score": round(sum(t["score"] for t in tests[1:]), 5), "stdout_visibility": "hidden",
              "tests": tests}
    if loading:
        output["output"] = loading
    return output


def public_feedback(step, lab, lang, visibility):
    """The public cases' feedback; its header shows points only when they are visible at once."""
    public = public_view(step, lab)
    text = step_feedback(public, lab, lang)
    if visibility == "visible":
        header = step_feedback(step, lab, lang).split("\n", 1)[0]
    else:
        say = Messages(lang, lab)
        header = say("text", "public_step_header", name=step.name, status=say("status", public.status))
    return "\n".join([header] + text.split("\n")[1:])


def public_view(step, lab):
    """The step as judged on its public cases only (what the student-side check reports)."""
    cases = [c for c in step.cases if not c.hidden]
    own_codes = {c.code for c in cases}
    hidden_codes = {c.code for c in step.cases if c.hidden} - own_codes
    mistakes = [m for m in step.mistakes if m not in hidden_codes]
    status = step.status if step.status == "missing" else _status(lab.steps_by_name[step.name], cases)
    # The rubric applied to the public cases alone, as the students' kit applies it.
    declared = lab.steps_by_name[step.name]
    degenerate = {c.name for c in lab.public_cases() if rubric.is_degenerate(c)}
    score, rule = rubric.score(step.max_score, cases, declared.named_codes(), degenerate,
                               declared.rubric or rubric.DEFAULT)
    detail = dict(step.detail, rubric=rule) if "rubric" in step.detail else step.detail
    if step.status == "missing":
        score = 0.0
    return dataclasses.replace(step, score=score, status=status,
                               mistakes=mistakes, cases=cases, detail=detail)
