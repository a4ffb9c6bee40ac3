"""What a graded submission leaves on disk: feedback/<id>.md and .html, results/<id>.json.

Every file is written whole or not at all (temp file + os.replace). results/<id>.json is written
last and carries the record a later run compares against to decide whether to write anything
again, and the judged result (batch.saved) it rewrites the outputs from when only what the
rendering depends on changed (`judged_fingerprint` against `fingerprint`).
"""
from __future__ import annotations

import contextlib
import hashlib
import html
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import __version__
from .late import penalised
from .version import grader_version
from .overrides import override_text
from .previous import changes_text
from ..whole_file import write_atomic
from .run_files import RECORD_KEY, fit_id
from .saved import KEY as SAVED_KEY, Judgement, Unsaveable, judgement_data, read_judgement
from ..core import pictures
from ..core.guard import piece
from ..core.verdict import rounded_points
from ..core.render.feedback import feedback, json_of, notes_text, text_of
from ..core.render.messages import Messages, case_names
from ..core.render.step import guarded_step_feedback
from ..core.render.text import json_text, one_line, printable

if TYPE_CHECKING:
    from ..core.verdict import CaseResult, StepResult, SubmissionResult
    from ..core.lab import Lab
    from ..core.render.feedback import Feedback


LABELS = {
    "ko": {"title": "채점 결과", "file": "채점한 파일", "superseded": "더 새 파일이 있어 채점하지 않은 파일"},
    "en": {"title": "feedback", "file": "Graded file", "superseded": "Older files, not graded"},
}

def judged_fingerprint(*, content_hash: str, file: str, limits: Mapping[str, Any], lab: Lab) -> str:
    """Everything a student's judged result depends on, which is all grading.grade_bytes is given:
    the file's bytes (or the problem that kept them from being read), its path in the class (its
    name and extension are read), the grader version (batch.version: the engine, the lab, the plan,
    the libraries, the declared-mistakes switch) and every field of the limits with the sandbox
    switch (Limits.as_data). Equal ones mean the student's code need not run again."""
    parts = ["judged", content_hash, grader_version(lab), file, json.dumps(limits, sort_keys=True)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def fingerprint(*, judged: str, superseded: Iterable[str], settings: Mapping[str, Any]) -> str:
    """Everything a student's outputs depend on: the judged result's fingerprint and what only the
    rendering and the record depend on (`settings`: the language, lateness, overrides, --previous;
    and the superseded files the feedback names). Equal fingerprints mean nothing to write again;
    equal judged fingerprints alone, outputs rewritten from the saved judged result."""
    parts = ["outputs", judged, *superseded, json.dumps(settings, sort_keys=True)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def output_paths(out_dir: str, student: str) -> dict[str, str]:
    """Where a student's outputs go: every file named after a student is named here, through
    fit_id, so each name fits in NAME_MAX bytes whatever the id."""
    name = fit_id(student)
    return {"md": os.path.join(out_dir, "feedback", f"{name}.md"),
            "html": os.path.join(out_dir, "feedback", f"{name}.html"),
            "json": os.path.join(out_dir, "results", f"{name}.json")}


def discard_outputs(out_dir: str, student: str) -> None:
    """Remove a student's outputs (a run that could not write them all leaves none, so the next
    run grades the student again rather than resuming from a mix)."""
    for path in output_paths(out_dir, student).values():
        with contextlib.suppress(OSError):
            os.remove(path)


def record_of(result: SubmissionResult, student: str, file: str, key: str, superseded: Iterable[str], status: str,
              lab: Lab, late: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The plain summary of one graded submission that grades.csv and the report are built from.

    Step scores are kept to hundredths for display; the totals are the exact step scores summed,
    then rounded once (1/3 + 1/3 + ... is not a sum of 0.33s). `late`: the task's lateness and
    policy (see batch.late); `total` is then the penalised total and `raw_total` the one before.
    """
    raw_total = result.score
    late = dict(late or {"late": False, "days": 0, "percent": 0.0})
    total = penalised(raw_total, late.get("percent", 0.0))
    return {"id": student, "file": file, "fingerprint": key, "grader": grader_version(lab), "lab": lab.name,
            "status": status, "total": total, "raw_total": raw_total, "max_total": float(result.max_score),
            "late": late, "superseded": list(superseded),
            "steps": {s.name: {"score": rounded_points(s.score), "max_score": float(s.max_score), "status": s.status,
                               "mistakes": list(s.mistakes),
                               "wrong_cells": piece(f"the wrong cells of step {s.name}", pictures.wrong_cells, s,
                                                    lab.page_case).value,
                               **hidden_answers(s, lab)}
                      for s in result.steps}}


def hidden_answers(step: StepResult, lab: Lab) -> dict[str, Any]:
    """{"hidden": how many hidden tests judged the step, "answers": {test: digest of the wrong value},
    "named_answers": [the tests whose wrong value the grader named as one of the step's declared
    mistakes]}: the class's similarity signal (batch.similar) compares digests, never values, and
    weighs each test's answer by what the grader said of that test alone."""
    declared = lab.steps_by_name.get(step.name)
    named = {mistake.code for mistake in declared.mistakes} if declared is not None else set()
    hidden = [case for case in step.cases if case.hidden]
    wrong = [case for case in hidden if not case.passed and getattr(case, "answer", None)]
    return {"hidden": len(hidden), "answers": {_test_key(case): case.answer for case in wrong},
            "named_answers": sorted(_test_key(case) for case in wrong if case.code in named)}


def _test_key(case: CaseResult) -> str:
    """One hidden test: its case, and the call's label where the case calls the step more than
    once (a 2-D and a 1-D input): each is a test of its own, as "hidden" counts them."""
    return f"{case.case}/{case.label}" if case.label else case.case


def late_text(record: Mapping[str, Any], lang: str) -> str:
    """One sentence for the student on the late policy applied to them, or "" when none was."""
    late = record.get("late") or {}
    policy = late.get("policy")
    if not late.get("late") or not policy:
        return ""
    say = Messages(lang)
    rule = say("late", "per_day" if policy["per_day"] else "once", percent=policy["percent"], cap=policy["cap"])
    text: str = say("late", "flagged" if late.get("flagged_only") else "applied", due=shown_time(late.get("due", "")),
                    submitted=shown_time(late.get("submitted_at", "")), days=late.get("days", 0), rule=rule,
                    percent=late.get("percent", 0.0), raw=f"{record['raw_total']:g}", total=f"{record['total']:g}")
    return text


def shown_time(iso: str) -> str:
    """"2024-03-01T23:59:00+09:00" as "2024-03-01 23:59:00 +09:00" for people; "?" when unknown."""
    if not iso:
        return "?"
    text = iso.replace("T", " ", 1)
    return re.sub(r"([+-]\d\d:\d\d)$", r" \1", text)


def write_outputs(out_dir: str, result: SubmissionResult, record: Mapping[str, Any], lab: Lab, lang: str,
                  judgement: Judgement | None = None) -> None:
    """Feedback first, the results file (the record of completion, and `judgement` when given) last."""
    paths = output_paths(out_dir, record["id"])
    rendered = feedback(result, lab, lang)
    text = text_of(rendered)
    late = late_text(record, lang)
    if late:
        text = text + "\n" + late + "\n"
    remembered = after_grading_text(record, lab, lang)
    if remembered:
        text = text + "\n" + remembered + "\n"
    write_atomic(paths["md"], feedback_markdown(record, text, lab, lang))
    write_atomic(paths["html"], feedback_html(record, text, lab, lang, result))
    results = gradescope_results(rendered, record, "\n\n".join(part for part in (late, remembered) if part))
    if judgement is not None:
        try:
            results["extra_data"][SAVED_KEY] = judgement_data(judgement)
        except Unsaveable:
            pass  # a value the format cannot write: the next run that needs the judged result grades again
    write_atomic(paths["json"], json_text(results))


def after_grading_text(record: Mapping[str, Any], lab: Lab, lang: str) -> str:
    """What the record says beyond the automatic grade: the TA's overrides, then what changed since
    the student's last attempt (batch.overrides, batch.previous); "" when neither."""
    parts = [override_text(record, lang), changes_text(record.get("since") or [], lang, lab,
                                                        shown_time(record.get("since_when", "")) if record.get("since_when") else "")]
    return "\n\n".join(part for part in parts if part)


def feedback_markdown(record: Mapping[str, Any], text: str, lab: Lab, lang: str) -> str:
    """The feedback as Markdown: names in code spans, the text in a fence nothing inside can close."""
    label = LABELS[lang]
    text = printable(text)
    lines = [f"# {markdown_text(lab.title(lang))} {label['title']} — {markdown_text(record['id'])}", "", f"{label['file']}: {code_span(record['file'])}"]
    if record["superseded"]:
        lines.append(f"{label['superseded']}: " + ", ".join(code_span(name) for name in record["superseded"]))
    fence = "`" * max(3, longest_backtick_run(text) + 1)
    return "\n".join(lines) + f"\n\n{fence}text\n" + text + ("" if text.endswith("\n") else "\n") + f"{fence}\n"


def longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def code_span(value: object) -> str:
    """Inline code holding `value` on one line; its delimiters are longer than any backtick run inside."""
    text = one_line(value)
    ticks = "`" * (longest_backtick_run(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def markdown_text(value: object) -> str:
    """Plain text in Markdown: one line, every ASCII punctuation mark backslash-escaped (no HTML, no markup)."""
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", one_line(value))


def feedback_html(record: Mapping[str, Any], text: str, lab: Lab, lang: str,
                  result: SubmissionResult | None = None) -> str:
    """The student's page: per step a coloured verdict, its feedback and, for a failed table, heat-maps.

    Without `result` (or for load notes) the whole text stays one block, as before.
    """
    label = LABELS[lang]
    title = html.escape(one_line(f"{lab.title(lang)} {label['title']} — {record['id']}"))
    superseded = ""
    if record["superseded"]:
        superseded = (f"<p>{html.escape(label['superseded'])}: "
                      + ", ".join(f"<code>{html.escape(one_line(n))}</code>" for n in record["superseded"]) + "</p>")
    head = (f"<h1>{title}</h1><p>{html.escape(label['file'])}: <code>{html.escape(one_line(record['file']))}</code></p>"
            f"{superseded}")
    body = (feedback_sections(result, lab, lang, text) if result is not None
            else f"<pre>{html.escape(printable(text))}</pre>")
    page: str = pictures.html_page(head + body, lang,
                                   one_line(f"{lab.title(lang)} {label['title']} — {record['id']}"))
    return page


def feedback_sections(result: SubmissionResult, lab: Lab, lang: str, text: str = "") -> str:
    """One <section> per step; the lines of `text` not about a step (load notes, lateness) come first."""
    step_texts = [printable(guarded_step_feedback(step, lab, lang)) for step in result.steps]
    rest = printable(text)
    for part in step_texts:
        rest = rest.replace(part, "")
    rest = re.sub(r"\n\s*\n(\s*\n)+", "\n\n", rest)  # where the steps' texts were
    parts = [f"<pre class=\"notes\">{html.escape(rest.strip())}</pre>"] if rest.strip() else []
    for step, part in zip(result.steps, step_texts):
        verdict = "pass" if step.status == "passed" else "fail"
        first, _, more = part.partition("\n")
        maps = "" if step.status == "passed" else step_pictures(step, lab, lang)
        parts.append(f"<section class=\"step {verdict}\" id=\"step-{html.escape(step.name)}\">"
                     f"<h2>{html.escape(first)}</h2>"
                     + (f"<pre>{html.escape(more)}</pre>" if more.strip() else "") + maps + "</section>")
    return "".join(parts)


def step_pictures(step: StepResult, lab: Lab, lang: str) -> str:
    """A failed step's heat-maps (pictures.step_maps), drawn from the student's values as a piece
    of the grader's own work (guard.piece): when they cannot be drawn, a sentence says so in their
    place and the page, the record and the points stand."""
    drawn = piece(f"the heat-maps of step {step.name}", pictures.step_maps, step, lang, lab.page_case,
                  names=case_names(lab, lang))
    if drawn.value is not None:
        return drawn.value
    return (f'<p class="ag-legend">{html.escape(Messages(lang, lab)("text", "picture_not_drawn", type=drawn.failure))}'
            "</p>")


def gradescope_results(rendered: Feedback, record: Mapping[str, Any], late: str = "") -> dict[str, Any]:
    """Gradescope's results.json: one test per step; our record rides along in extra_data.

    `score` is the total after any late deduction, which `output` then explains.
    """
    data = json_of(rendered)
    applied = {e["step"]: e for e in record.get("overrides") or () if e.get("state") == "applied"}
    tests = [{"name": step["name"],
              "score": applied[step["name"]]["points"] if step["name"] in applied else step["score"],
              "max_score": step["max_score"], "output": step["feedback"], "visibility": "visible"}
             for step in data["steps"]]
    results: dict[str, Any] = {"score": record["total"], "tests": tests,
               "extra_data": {RECORD_KEY: record, "notes": data["notes"]}}
    told = [notes_text(rendered)] if rendered.file_problem else []  # the file's one problem, once
    if late or told:
        results["output"] = "\n\n".join(told + ([late] if late else []))
    return results


@dataclass(frozen=True, kw_only=True)
class Earlier:
    """What an earlier run left of one student in the folder."""

    record: dict[str, Any] | None  # its complete record, None when any output is missing or unreadable
    judgement: Judgement | None  # its judged result (batch.saved), None when absent or unreadable


def load_earlier(out_dir: str, student: str, lab: Lab) -> Earlier:
    """The record and the judged result an earlier run wrote for this student (each None when
    missing or not readable: then the next run writes, or grades, again)."""
    paths = output_paths(out_dir, student)
    try:
        with open(paths["json"], encoding="utf-8") as handle:
            extra = json.load(handle)["extra_data"]
    except (OSError, ValueError, KeyError, TypeError):
        return Earlier(record=None, judgement=None)
    if not isinstance(extra, dict):
        return Earlier(record=None, judgement=None)
    record = extra.get(RECORD_KEY)
    complete = (isinstance(record, dict) and _complete(record, lab)  # JSON: only a dict passes
                and os.path.isfile(paths["md"]) and os.path.isfile(paths["html"]))
    return Earlier(record=record if complete else None,
                   judgement=read_judgement(extra.get(SAVED_KEY), steps=[step.name for step in lab.steps]))


def load_record(out_dir: str, student: str, lab: Lab) -> dict[str, Any] | None:
    """The record of a finished earlier grading of this student, or None when any output is missing."""
    return load_earlier(out_dir, student, lab).record


def _complete(record: dict[str, Any], lab: Lab) -> bool:
    """A record with every field grades.csv and the report read (an edited file is graded again)."""
    try:
        return (isinstance(record["id"], str) and isinstance(record["file"], str)
                and isinstance(record["status"], str) and isinstance(record["superseded"], list)
                and all(isinstance(record[k], (int, float)) for k in ("total", "raw_total", "max_total"))
                and isinstance(record["late"], dict)
                and all(isinstance(record["steps"][s.name]["score"], (int, float))
                        and isinstance(record["steps"][s.name]["mistakes"], list) for s in lab.steps))
    except (KeyError, TypeError):
        return False
