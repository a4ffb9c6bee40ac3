"""What LMS metadata files say about the class: Gradescope's submission list, Blackboard's receipts.

Pure text in, plain data out. These files are read for names, student ids and submission times,
never graded. Gradescope writes its list in YAML; only the few keys used here are read, by a
small line parser (no YAML library, nothing in the file is ever executed or constructed).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

MAX_METADATA_BYTES = 8 * 1024 * 1024


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


def gradescope_submitters(text: str) -> dict[str, Submitter]:
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


_TIME = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})[T ](?P<time>\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?"
                   r"\s*(?P<zone>Z|UTC|[+-]\d{2}:?\d{2})?$")


def iso_time(text: str) -> str:
    """"2024-03-01 12:30:45.123456000 +09:00" (Ruby's YAML time) as "2024-03-01T12:30:45+09:00"; "" if not a time."""
    match = _TIME.match(text.strip())
    if not match:
        return ""
    clock = match["time"] if match["time"].count(":") == 2 else match["time"] + ":00"
    zone = match["zone"] or ""
    if zone in ("Z", "UTC"):
        zone = "+00:00"
    elif zone and ":" not in zone:
        zone = f"{zone[:3]}:{zone[3:]}"
    try:
        return datetime.fromisoformat(f"{match['date']}T{clock}{zone}").isoformat()
    except ValueError:
        return ""


# Blackboard's receipt of an attempt (the .txt beside it in "Download Assignment"). Blackboard writes a
# header, one "label: value" line each in this order and in the course's language ("이름:", "제출 날짜:"
# in a Korean course), then a blank line, then what the student wrote (Submission Field, Comments), then
# the files. Only the header is Blackboard's: nothing after its first blank line is ever read.
RECEIPT_LABELS = ("Name", "Assignment", "Date Submitted", "Current Grade")
RECEIPT_LABEL_VARIANTS = {"Current Mark": "Current Grade"}  # Blackboard in British English
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LABELLED = re.compile(r"^(?P<label>[^:：\d][^:：]*?)\s*[:：][ \t]*(?P<value>.*?)\s*$")
_USERNAME = re.compile(r"^(?P<name>.*?)\s*\((?P<username>[^()\s]+)\)$")


@dataclass(frozen=True, kw_only=True)
class Receipt:
    """What Blackboard itself wrote at the top of an attempt's receipt; "" where it is not read."""

    name: str = ""  # "Kim Minsu" of "Name: Kim Minsu (kim_ms)"
    username: str = ""  # "kim_ms"
    assignment: str = ""  # "Lab1" of "Assignment: Lab1"
    submitted: str = ""  # the "Date Submitted" value, as written
    english: bool = False  # the labels are Blackboard's English ones (the date is read only then)


def blackboard_receipt(text: str, attempt: str = "") -> Receipt:
    """The header of a Blackboard receipt (RECEIPT_LABELS): its first two to four lines, each
    "label: value", before the first blank line; in English by its labels, in another language by
    their order. Anything else in the file (the student's own text, whatever it looks like) is never
    read, and a file whose start is not such a header gives nothing. `attempt`: the receipt's name
    before "_attempt_" ("Lab 1_kim_ms"): a header naming another username gives no name."""
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    blank = next((index for index, line in enumerate(lines) if not line.strip()), len(lines))
    if not 2 <= blank <= len(RECEIPT_LABELS):
        return Receipt()
    found = [_LABELLED.match(line) for line in lines[:blank]]
    if not all(found):
        return Receipt()
    labels = [RECEIPT_LABEL_VARIANTS.get(m["label"], m["label"]) for m in found if m]
    values = [m["value"] for m in found if m]
    english = labels == list(RECEIPT_LABELS[:blank])
    if not english and set(labels) & set(RECEIPT_LABELS):
        return Receipt()  # English labels out of Blackboard's order: not its header
    name, username = values[0], ""
    named = _USERNAME.match(name)
    if named:
        name, username = named["name"], named["username"]
    if username and attempt and not attempt.casefold().endswith(("_" + username).casefold()):
        return Receipt()  # another account's receipt
    submitted = values[2] if blank > 2 else ""  # an older receipt stops after the assignment's name
    return Receipt(name=name.strip(), username=username, assignment=values[1].strip(), submitted=submitted,
                   english=english)


def blackboard_receipt_name(text: str, attempt: str = "") -> str:
    """The student's name in a Blackboard receipt's header ("Name: Kim Minsu (kim_ms)" gives "Kim Minsu")."""
    return blackboard_receipt(text, attempt).name


def decode(data: bytes) -> str:
    """Metadata bytes as text: UTF-8 (with or without BOM), else cp949 (Korean Windows), else Latin-1."""
    for encoding in ("utf-8-sig", "cp949"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")
