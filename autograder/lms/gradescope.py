"""Gradescope: how its export names the class (a `submission_<n>/` folder per submission, the
submitters in submission_metadata.yml) and how its grade sheet reads (recognised, filled by none).

Gradescope writes its list in YAML; only the few keys used here are read, by a small line parser
(no YAML library, nothing in the file is ever executed or constructed).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypedDict

from .metadata import iso_time

# Gradescope's list of submissions and their submitters, beside the submission_<id>/ folders.
METADATA = "submission_metadata.yml"
FOLDER = re.compile(r"^submission_(?P<id>\d+)$")
# Gradescope's "Download Grades" (scores.csv): Name or First/Last Name, SID, Email, Sections,
# one column per question, Total Score, Max Points, Status, Submission ID, Submission Time, ...
# (recognised among the submissions, never graded).
SIGNATURES = ({"sid", "email", "total score", "max points"},)


@dataclass(frozen=True)
class Submitter:
    """Who handed in one Gradescope submission (several names for a group)."""

    sid: str  # the student id the course gave; "" for a group or when Gradescope has none
    name: str
    email: str
    created_at: str  # ISO 8601, or ""


class _Found(TypedDict):
    """One submission of the list while it is read."""

    people: list[dict[str, str]]
    created_at: str
    indent: int | None  # of the submission's own keys, once the first is seen


_TOP_KEY = re.compile(r"^:?(?P<key>[^\s:#][^:#]*?):\s*$")
_KEY_VALUE = re.compile(r"^(?P<indent> *)(?P<dash>- +)?:?(?P<key>[A-Za-z_]+):(?:\s+(?P<value>.*?))?\s*$")


def submitters(text: str) -> dict[str, Submitter]:
    """{"submission_<n>": Submitter} from submission_metadata.yml.

    The file's shape: top-level keys `submission_<n>:` (also written `:submission_<n>:`), each
    with `:submitters:`, a list of `- :name:`, `:sid:`, `:email:`, and `:created_at:`. Anything
    else (scores, results, nested lists) is skipped. A group's submission keeps its folder as id
    (several students): its sid is "" and its names are joined with " / ".
    """
    found: dict[str, _Found] = {}
    current: _Found | None = None
    in_submitters = False
    submitters_indent = -1
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#") or line.startswith("---"):
            continue
        if not line.startswith((" ", "-")):
            top = _TOP_KEY.match(line)
            current = None
            in_submitters = False
            if top and re.fullmatch(r"submission_\d+", top["key"].strip()):
                current = found.setdefault(top["key"].strip(), {"people": [], "created_at": "", "indent": None})
            continue
        if current is None:
            continue
        item = _KEY_VALUE.match(line)
        if not item:
            continue
        indent = len(item["indent"])
        key, value = item["key"], _scalar(item["value"] or "")
        if in_submitters and (indent > submitters_indent or (item["dash"] and indent == submitters_indent)):
            if item["dash"]:
                current["people"].append({})
            if current["people"] and key in ("name", "sid", "email"):
                current["people"][-1][key] = value
            continue
        in_submitters = False
        if current["indent"] is None:
            current["indent"] = indent
        if indent != current["indent"] or item["dash"]:
            continue  # inside another key (results, scores): not read
        if key == "submitters":
            in_submitters, submitters_indent = True, indent
        elif key == "created_at":
            current["created_at"] = iso_time(value)
    submitters: dict[str, Submitter] = {}
    for folder, data in found.items():
        people = [p for p in data["people"] if p.get("name") or p.get("sid")]
        if not people:
            continue
        alone = len(people) == 1
        submitters[folder] = Submitter(people[0].get("sid", "") if alone else "",
                                       " / ".join(p.get("name", "") for p in people),
                                       ", ".join(p.get("email", "") for p in people if p.get("email")),
                                       data["created_at"])
    return submitters


def _scalar(text: str) -> str:
    """A YAML scalar as text: quotes removed ('' inside single quotes is one '), null is ""."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return re.sub(r'\\(["\\])', r"\1", text[1:-1])
    if text in ("~", "null", "Null", "NULL"):
        return ""
    return re.sub(r"\s+#.*$", "", text)
