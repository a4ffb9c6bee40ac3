"""A submission's feedback, rendered once (`Feedback`), and its faces: the text the terminal and
feedback/<id>.md show (`text_of`, `notes_text`) and the JSON of `check --json` (`json_of`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..verdict import rounded_points
from .messages import Messages, points_text
from .notes import note_record, noted, notes_heading
from .step import guarded_step_feedback
from .text import one_line

if TYPE_CHECKING:
    from ..lab import Lab
    from ..verdict import StepResult, SubmissionResult

@dataclass(frozen=True)
class Feedback:
    """One submission's feedback, rendered once; text, JSON, Otter and pytest all read from it."""

    lab: str
    submission: str
    score: float
    max_score: float
    all_passed: bool
    load_heading: str  # "" when loading went well
    notes: tuple[str, ...]  # one line per load note
    note_records: tuple[dict[str, Any], ...]  # the same notes as data (see note_record)
    steps: tuple[tuple[StepResult, str], ...]  # (StepResult, its text) per step
    total: str
    file_problem: str | None = None  # the whole file's one problem (SubmissionResult.file_problem), told in `notes`


def feedback(result: SubmissionResult, lab: Lab, lang: str = "ko") -> Feedback:
    say = Messages(lang, lab)
    pairs = noted(result.notes, lab, lang)
    notes = tuple(text for _, text in pairs)
    total = say("text", "total", score=points_text(result.score), max_score=points_text(result.max_score))
    if result.all_passed:
        total += "  " + say("text", "all_passed")
    heading = notes_heading(say, result) if notes else ""
    return Feedback(lab.name, one_line(result.submission), result.score, float(result.max_score),
                    result.all_passed, heading, notes,
                    tuple(note_record(note, text) for note, text in pairs),
                    tuple((step, guarded_step_feedback(step, lab, lang)) for step in result.steps), total,
                    result.file_problem)


def notes_text(rendered: Feedback) -> str:
    """The load notes under their heading ("" when there are none): for a file none of which
    could be graded, the one place its problem is told."""
    if not rendered.notes:
        return ""
    return rendered.load_heading + "\n" + "\n".join("  " + n for n in rendered.notes)


def text_of(rendered: Feedback) -> str:
    """The feedback as the terminal and feedback/<id>.md show it. A file none of which could be
    graded: its problem once, then one line per step."""
    parts = [notes_text(rendered)] if rendered.notes else []
    if rendered.file_problem:
        parts.append("\n".join(text for _, text in rendered.steps))
    else:
        parts.extend(text for _, text in rendered.steps)
    parts.append(rendered.total)
    return "\n\n".join(parts) + "\n"


def json_of(rendered: Feedback) -> dict[str, Any]:
    """The documented JSON shape of `autograder check --json`; load notes lead each lost step's text
    (not when the whole file has one problem: `notes` tells it, once)."""
    steps: list[dict[str, Any]] = []
    for step, text in rendered.steps:
        if rendered.notes and step.status != "passed" and not rendered.file_problem:
            text = "\n".join(rendered.notes) + "\n" + text
        steps.append({"name": step.name, "score": rounded_points(step.score), "max_score": float(step.max_score),
                      "status": step.status, "mistakes": list(step.mistakes), "feedback": text})
    return {"submission": rendered.submission, "lab": rendered.lab, "score": rendered.score,
            "max_score": rendered.max_score, "steps": steps, "notes": list(rendered.note_records)}


def as_text(result: SubmissionResult, lab: Lab, lang: str = "ko") -> str:
    return text_of(feedback(result, lab, lang))


def as_dict(result: SubmissionResult, lab: Lab, lang: str = "ko") -> dict[str, Any]:
    return json_of(feedback(result, lab, lang))
