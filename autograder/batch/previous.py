"""Feedback that remembers: what changed, step by step, since the student's last attempt.

Pure data: a step summary ({step: {"status", "score", "mistakes"}}) from each attempt in, a list of
changes out, rendered in the student's language. Batch reads the last attempt from an earlier
run's folder (`grade --previous DIR`); Gradescope from `submission_metadata.json`'s
`previous_submissions` (autograder.otter.gradescope).
"""
from __future__ import annotations

import os
from typing import Any, Mapping

from ..said import Refusal, said
from .run_files import run_records

# How a step moved, in the order the feedback tells them.
NOW_PASSES, NOW_FAILS, OTHER_CAUSE, SAME_CAUSE, STILL_FAILS, STILL_PASSES = (
    "now_passes", "now_fails", "other_cause", "same_cause", "still_fails", "still_passes")
ORDER = (NOW_PASSES, NOW_FAILS, OTHER_CAUSE, SAME_CAUSE, STILL_FAILS)


def summary_of(steps: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """{step: {status, score, mistakes}} of a record's steps (or of anything shaped like them);
    anything else (a list, a string: a record someone edited) has no steps."""
    found: dict[str, dict[str, Any]] = {}
    if not isinstance(steps, Mapping):
        return found
    for name, step in steps.items():
        if not isinstance(step, Mapping) or not isinstance(step.get("status"), str):
            continue
        score = step.get("automatic", step.get("score"))
        mistakes = step.get("mistakes")
        found[str(name)] = {"status": step["status"],
                            "score": float(score) if isinstance(score, (int, float)) else None,
                            # None: not known (an attempt recorded without them)
                            "mistakes": sorted(str(m) for m in mistakes) if isinstance(mistakes, list) else None}
    return found


def compare(before: Mapping[str, Mapping[str, Any]], after: Mapping[str, Mapping[str, Any]],
            order: list[str]) -> list[dict[str, Any]]:
    """One change per step both attempts have, in the lab's order."""
    changes = []
    for name in order:
        old, new = before.get(name), after.get(name)
        if old is None or new is None:
            continue
        was, now = old["status"] == "passed", new["status"] == "passed"
        if now and was:
            kind = STILL_PASSES
        elif now:
            kind = NOW_PASSES
        elif was:
            kind = NOW_FAILS
        elif old["mistakes"] is None or new["mistakes"] is None:
            kind = STILL_FAILS
        elif old["mistakes"] == new["mistakes"] and old["status"] == new["status"]:
            kind = SAME_CAUSE if new["mistakes"] else STILL_FAILS
        else:
            kind = OTHER_CAUSE
        changes.append({"step": name, "change": kind, "before": old.get("score"), "after": new.get("score"),
                        "mistakes": list(new["mistakes"] or []), "was": list(old["mistakes"] or [])})
    return changes


def changes_text(changes: list[dict[str, Any]], lang: str, lab: Any = None, when: str = "") -> str:
    """The feedback's paragraph: a heading, then one line per step that moved or still fails,
    then how many still pass. "" when there is nothing to compare."""
    if not changes:
        return ""
    from ..core.render.messages import Messages

    say = Messages(lang, lab)
    lines = [say("previous", "heading_when" if when else "heading", when=when)]
    for kind in ORDER:
        for change in (c for c in changes if c["change"] == kind):
            points = ""
            if change["before"] is not None and change["after"] is not None and \
                    abs(change["before"] - change["after"]) >= 0.005:
                points = say("previous", "points", before=f"{change['before']:g}", after=f"{change['after']:g}")
            cause = ""
            if kind in (SAME_CAUSE, OTHER_CAUSE, NOW_FAILS) and change["mistakes"] and lab is not None:
                cause = say("previous", "cause", title=say.stepwise("title", change["step"], change["mistakes"][0]))
            lines.append("  " + say("previous", kind, step=change["step"]) + points + cause)
    passing = [c["step"] for c in changes if c["change"] == STILL_PASSES]
    if passing:
        lines.append("  " + say("previous", STILL_PASSES, count=len(passing), steps=", ".join(passing)))
    return "\n".join(lines)


class PreviousRunError(Refusal):
    """--previous does not name a run this one can be compared with."""


def read_previous_run(folder: str, lab_name: str, out: str) -> dict[str, dict[str, Any]]:
    """{id: step summary} of an earlier `grade` run's folder (its results/<id>.json records).

    Refused: a folder with no results, a run of another lab, or the --out folder itself (its
    records are rewritten by this run, so every rerun would compare with itself).
    """
    if os.path.realpath(folder) == os.path.realpath(out):
        raise PreviousRunError(said("previous_is_out", "grade", folder=folder))
    results = os.path.join(folder, "results")
    if not os.path.isdir(results):
        raise PreviousRunError(said("previous_no_results", "grade", folder=folder))
    found, labs = {}, set()
    for record in run_records(folder):
        labs.add(str(record.get("lab")))
        if record.get("lab") == lab_name:
            found[record["id"]] = {"steps": summary_of(record["steps"]), "file": str(record.get("file", ""))}
    if not found:
        if labs:
            raise PreviousRunError(said("previous_other_lab", "grade", folder=folder, lab=lab_name,
                                        labs=", ".join(sorted(labs))))
        raise PreviousRunError(said("previous_no_lab", "grade", folder=folder, lab=lab_name))
    return found
