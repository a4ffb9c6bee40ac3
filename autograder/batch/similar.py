"""Signals of shared work for a human to look at (similar_table writes them: DIR/similar.csv and a section of
report.html).

Two kinds of evidence, each an "item" some students of the class share:
- a wrong answer on a hidden test of a step, by its digest (judge.answer_digest: the returned
  value's numbers rounded to 1e-9, hashed; the value itself is never kept);
- a step's function, or the whole file, whose code is the same once names, comments, whitespace,
  docstrings, type hints and statements that do nothing are normalised away (an AST fingerprint:
  `fingerprints._normalised`, the one normalisation every fingerprint goes through).

An item shared by k students weighs 1/(k − 1) (two students alone: 1; three: ½), shared code in
proportion to its size as well (a short standard form is written alike by students working alone;
one step's code alone is never listed), and nothing when more than max(3, 10 % of the class) share
it: a common answer is no signal. A hidden test's wrong answer the grader names as a known mistake
weighs nothing (every student who makes that mistake returns those very values), decided per test,
never from the step's other tests. Code equal to the lab's stub or to the reference solution weighs
nothing, and so does code too short to differ (fewer than MIN_NODES syntax nodes). Per step, the hidden tests'
items are averaged (sharing one of four hidden wrong answers is a quarter of sharing all four) and
combined with the step's code item; a pair's score combines its steps as independent signals,
1 − Π(1 − s). The whole file holds the steps' code, so it adds only what it says beyond them: a
pair's code evidence is the larger of its file and its steps, never both, and a file whose own code
is one step weighs as that step. Pairs at or above THRESHOLD are listed, joined into groups. A
graded student whose code could not be compared, even in part, is listed apart (`not_compared`).

Only digests, step names and counts leave this module: never a value, never a hidden test's name.
"""
from __future__ import annotations

import re

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Iterable, Literal, Mapping, Sequence

from .fingerprints import code_prints

THRESHOLD = 0.5
COMMON_SHARE = 0.10
MIN_COMMON = 3
MIN_NODES = 25          # a step's function: smaller ones are too short to tell copying from the page
MIN_FILE_NODES = 120    # a whole file
# Shared code weighs in proportion to its size, up to these many syntax nodes: students write a
# short standard form (a textbook softmax) alike on their own, and a long one rarely. A step's
# code alone never reaches THRESHOLD (STEP_CODE_CAP): one shared function is a hint, not a listing.
STEP_FULL_NODES = 150
FILE_FULL_NODES = 300
STEP_CODE_CAP = 0.4
FILE = "(file)"


def never_count(lab: Any) -> dict[str, set[str]]:
    """Code fingerprints that are no signal: the stub every student starts from and the reference
    (the page's own code), per step and for the file ({step or FILE: {hash}})."""
    found: dict[str, set[str]] = {}
    sources = []
    try:
        sources.append(lab.assignment_file(lab.script).read_bytes())
    except Exception:  # noqa: BLE001 (a lab without its twin: nothing to leave out)
        pass
    try:
        import importlib.util

        spec = importlib.util.find_spec(lab.solution) if lab.solution else None
        if spec is not None and spec.origin:
            with open(spec.origin, "rb") as handle:
                reference = handle.read()
            sources.append(reference)
            # A step the solution module also writes another way (`def most_attended__pandas`, the
            # page's pandas: repair.grafts.written_forms) is the page's code under the step's name too.
            renamed = re.sub(rb"^def ([A-Za-z_]\w*?)__\w+\(",
                             lambda found: b"def " + found.group(1) + b"(" if found.group(1).decode() in lab.function_names
                             else found.group(0), reference, flags=re.M)
            if renamed != reference:
                sources.append(renamed)
    except Exception:  # noqa: BLE001
        pass
    for data in sources:
        prints = code_prints("reference.py", data, lab.function_names)
        if prints and "file" in prints:  # one that could not be made leaves nothing out
            found.setdefault(FILE, set()).add(prints["file"][0])
            for step, (digest, _) in prints["steps"].items():
                found.setdefault(step, set()).add(digest)
    return found


# The class's signals (pure) ---------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Item:
    step: str        # a step's name, or FILE
    kind: str        # "answer" or "code"
    digest: str
    holders: frozenset[str]
    weight: float


@dataclass(kw_only=True)
class Group:
    ids: list[str]
    score: float
    steps: dict[str, float] = field(default_factory=dict)      # step -> highest pair score on it
    evidence: dict[str, list[Item]] = field(default_factory=dict)  # step -> items shared in the group


def common_from(students: int) -> int:
    """More than this many students sharing an item make it common: no signal."""
    return max(MIN_COMMON, math.ceil(COMMON_SHARE * students))


def items_of(records: Sequence[Mapping[str, Any]], step_names: Iterable[str],
             never: Mapping[str, set[str]] | None = None) -> list[Item]:
    """Every item at least two graded students share, with its weight."""
    never = never or {}
    graded = [r for r in records if r.get("status") == "graded"]
    common = common_from(len(graded))
    holders: dict[tuple[str, str, str], set[str]] = {}
    strengths: dict[tuple[str, str], float] = {}
    for record in graded:
        code = record.get("code") or {}
        for name in step_names:
            step = record["steps"].get(name) or {}
            for case, digest in sorted((step.get("answers") or {}).items()):
                if digest and not named_mistake(step, case):
                    holders.setdefault((name, "answer", f"{case}\0{digest}"), set()).add(record["id"])
            printed = (code.get("steps") or {}).get(name)
            if printed and printed[1] >= MIN_NODES and printed[0] not in never.get(name, ()):
                holders.setdefault((name, "code", printed[0]), set()).add(record["id"])
                strengths[(name, printed[0])] = _code_strength(printed[1])
        printed = code.get("file")
        if printed and printed[1] >= MIN_FILE_NODES and printed[0] not in never.get(FILE, ()):
            holders.setdefault((FILE, "code", printed[0]), set()).add(record["id"])
            # A file weighs by its own code only: the step functions equal to the stub or to the
            # reference are the page's, shared by everyone who kept them.
            own = [step_print[1] for name, step_print in (code.get("steps") or {}).items()
                   if step_print and step_print[0] not in never.get(name, ())]
            strengths[(FILE, printed[0])] = _file_strength(own, most=printed[1])
    items = []
    for (step, kind, digest), ids in holders.items():
        if 2 <= len(ids) <= common:
            weight = 1 / (len(ids) - 1)
            if kind == "code":
                weight *= strengths[(step, digest)]
            items.append(Item(step=step, kind=kind, digest=digest.rsplit("\0", 1)[-1], holders=frozenset(ids),
                              weight=weight))
    return items


def named_mistake(step: Mapping[str, Any], case: str) -> bool:
    """Whether this hidden test's wrong answer is the value of a mistake the grader named (every
    student who makes it returns those very values: no signal). Decided per test, from what the
    grader said of that test alone (`named_answers`), never from the step's other tests: an error
    or a named mistake on one test says nothing of another test's value."""
    return case in (step.get("named_answers") or ())


def _code_strength(size: int) -> float:
    """How much sharing one step's function of this size says: in proportion to it, capped."""
    return STEP_CODE_CAP * min(1.0, size / STEP_FULL_NODES)


def _file_strength(own: Sequence[int], *, most: int) -> float:
    """How much sharing a whole file says, from the sizes of its own step functions (those that
    are not the stub's or the reference's; `most`: the file's own size): in proportion to their
    sum; but when that code is one step's (every other own step shorter than MIN_NODES), as that
    step weighs, capped: a file whose own code is one function says no more than the function."""
    size = min(most, sum(own))
    if sum(1 for nodes in own if nodes >= MIN_NODES) <= 1:
        return _code_strength(size)
    return min(1.0, size / FILE_FULL_NODES)


def pair_scores(items: list[Item], hidden_counts: Mapping[str, int]) -> dict[tuple[str, str], dict[str, float]]:
    """{(a, b): {step or FILE: score}} for every pair sharing an item."""
    answers: dict[tuple[str, str], dict[str, float]] = {}
    codes: dict[tuple[str, str], dict[str, float]] = {}
    for item in items:
        for pair in combinations(sorted(item.holders), 2):
            if item.kind == "answer":
                share = item.weight / max(1, hidden_counts.get(item.step, 1))
                answers.setdefault(pair, {})[item.step] = min(1.0, answers.get(pair, {}).get(item.step, 0.0) + share)
            else:
                codes.setdefault(pair, {})[item.step] = max(codes.get(pair, {}).get(item.step, 0.0), item.weight)
    scores = {}
    for pair in set(answers) | set(codes):
        code = codes.get(pair, {})
        if FILE in code:
            code = {**code, FILE: _file_beyond_steps(code)}
        steps = (set(answers.get(pair, {})) | set(code)) - ({FILE} if code.get(FILE) == 0.0 else set())
        scores[pair] = {step: 1 - (1 - answers.get(pair, {}).get(step, 0.0)) * (1 - code.get(step, 0.0))
                        for step in steps}
    return scores


def _file_beyond_steps(code: Mapping[str, float]) -> float:
    """What a shared file adds to the pair's shared step functions, so that the same code is never
    counted twice: the file's code holds the steps' code, so the pair's code evidence is the larger
    of the two, never both (1 − (1 − file) / Π(1 − step), or 0 when the steps already say as much)."""
    steps_left = 1.0
    for step, strength in code.items():
        if step != FILE:
            steps_left *= 1 - strength
    whole = code[FILE]
    if 1 - whole <= 0:
        return 1.0
    beyond = 1 - (1 - whole) / steps_left if steps_left > 0 else 0.0
    return beyond if beyond > 1e-9 else 0.0  # the same code, up to rounding: nothing beyond


def combined(step_scores: Mapping[str, float]) -> float:
    remaining = 1.0
    for score in step_scores.values():
        remaining *= 1 - score
    return 1 - remaining


def signals(records: Sequence[Mapping[str, Any]], step_names: list[str], hidden_counts: Mapping[str, int],
            never: Mapping[str, set[str]] | None = None) -> list[Group]:
    """Groups of students whose shared items score at least THRESHOLD, highest first."""
    items = items_of(records, step_names, never)
    scores = {pair: (combined(steps), steps) for pair, steps in pair_scores(items, hidden_counts).items()}
    listed = {pair: value for pair, value in scores.items() if value[0] >= THRESHOLD}
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in listed:
        parent[root(a)] = root(b)
    members: dict[str, list[str]] = {}
    for a, b in listed:
        for x in (a, b):
            members.setdefault(root(x), [])
            if x not in members[root(x)]:
                members[root(x)].append(x)
    order = {name: index for index, name in enumerate([*step_names, FILE])}
    groups = []
    for ids in members.values():
        inside = set(ids)
        group = Group(ids=sorted(ids), score=max(s for (a, b), (s, _) in listed.items() if a in inside))
        for (a, b), (_, steps) in listed.items():
            if a in inside:
                for step, score in steps.items():
                    group.steps[step] = max(group.steps.get(step, 0.0), score)
        for item in items:
            if len(item.holders & inside) >= 2 and item.step in group.steps:
                group.evidence.setdefault(item.step, []).append(item)
        group.steps = dict(sorted(group.steps.items(), key=lambda kv: order.get(kv[0], len(order))))
        groups.append(group)
    return sorted(groups, key=lambda g: (-g.score, g.ids))


@dataclass(frozen=True, kw_only=True)
class NotCompared:
    """A graded student whose code the class's signal could not compare, or only in part."""
    id: str
    why: Literal["unread", "not_computed"]
    parts: int = 0    # "unread": the parts of the code left unparsed (the rest was compared)
    detail: str = ""  # "not_computed": why no fingerprint could be made


def not_compared(records: Sequence[Mapping[str, Any]]) -> list[NotCompared]:
    """Every graded student whose code fingerprints are missing or partial (the one place that
    reads `code.unread` and `code.not_computed`), in the records' order: similar.csv, the report
    and grade's notes list them, so a student is never left out of the comparison silently."""
    found = []
    for record in records:
        if record.get("status") != "graded":
            continue
        code = record.get("code")
        if not isinstance(code, Mapping) or "not_computed" in code:
            why = code.get("not_computed") if isinstance(code, Mapping) else None
            found.append(NotCompared(id=str(record["id"]), why="not_computed", detail=str(why or "")))
        elif code.get("unread"):
            found.append(NotCompared(id=str(record["id"]), why="unread", parts=int(code["unread"])))
    return found
