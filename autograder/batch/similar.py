"""Signals of shared work for a human to look at: DIR/similar.csv and a section of report.html.

Two kinds of evidence, each an "item" some students of the class share:
- a wrong answer on a hidden test of a step, by its digest (judge.answer_digest: the returned
  value's numbers rounded to 1e-9, hashed; the value itself is never kept);
- a step's function, or the whole file, whose code is the same once names, comments, whitespace
  and docstrings are normalised away (an AST fingerprint).

An item shared by k students weighs 1/(k − 1) (two students alone: 1; three: ½), shared code in
proportion to its size as well (a short standard form is written alike by students working alone;
one step's code alone is never listed), and nothing when
more than max(3, 10 % of the class) share it: a common answer is no signal. A wrong answer the
grader names as a known mistake weighs nothing: every student who makes that mistake returns
those very values. Code equal to the lab's stub or to the reference solution weighs nothing, and
so does code too short to differ (fewer than MIN_NODES syntax nodes). Per step, the hidden tests'
items are averaged (sharing one of four hidden wrong answers is a quarter of sharing all four) and
combined with the step's code item; a pair's score combines its steps and its file as independent
signals, 1 − Π(1 − s). Pairs at or above THRESHOLD are listed, joined into groups.

Only digests, step names and counts leave this module: never a value, never a hidden test's name.
"""
from __future__ import annotations

import ast
import csv
import hashlib
import html
import io
import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

if TYPE_CHECKING:
    from ..cells import Cell
    from ..submission import Reading

FILE_NAME = "similar.csv"
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
UNNAMED = frozenset({"wrong_values", "wrong_shape", "wrong_type", "not_finite"})
FILE = "(file)"
CSV_COLUMNS = ("group", "ids", "step", "evidence", "step_score", "score")


# Code fingerprints (in the worker, from the submission's text) ---------------------------------

def code_prints(name: str, data: bytes | None, function_names: Iterable[str]) -> dict[str, Any] | None:
    """{"file": [hash, nodes], "steps": {function: [hash, nodes]}} of a submission, with "unread":
    the cells the reading budget left unparsed, when there are any; {"not_computed": why} when the
    budget or a fault stopped it (told, never a hidden nothing); None when the file is unreadable.

    The grader's own work on a submission's text, so read as the reader reads it: every cell
    parsed within `submission.Budget` (characters parsed, CPU time) and inside its catch-all
    (`submission.untrusted`); trees are walked without recursion, so no depth stops them, and one
    line Python's own parser gives up on costs its own part only (`_statements`)."""
    if not isinstance(data, (bytes, bytearray)):
        return None
    from ..submission import read_submission, untrusted

    submission = read_submission(name, data)
    if submission.problem is not None:
        return None
    read = untrusted(_prints, submission.cells, tuple(function_names))
    if read.problem is not None:
        return {"not_computed": str(read.detail or read.problem)}
    return read.value


def _prints(cells: Sequence[Cell], function_names: tuple[str, ...], reading: Reading) -> dict[str, Any]:
    body, unread = _statements(cells, reading)
    keep = frozenset(function_names)
    steps = {}
    for statement in body:  # the last top-level definition counts, as when the notebook runs
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name in keep:
            steps[statement.name] = _print_of(statement, keep, reading)
    prints: dict[str, Any] = {"file": _print_of(ast.Module(body=body, type_ignores=[]), keep, reading),
                              "steps": steps}
    if unread:
        prints["unread"] = unread
    return prints


def _statements(cells: Sequence[Cell], reading: Reading) -> tuple[list[ast.stmt], int]:
    """(the top-level statements of every cell the grader can parse, how many texts it left
    unread). A cell whose depth Python's own parser gives up on (a child that raised its recursion
    limit may still run it) is cut before each of its top-level statements (submission.script_cells)
    and each part parsed alone, so one deep line costs its own part only; a part left unparsed (the
    budget, or that depth again) is counted as unread, never silently dropped. A plain syntax
    error adds nothing: the sandbox runs nothing of it either."""
    from ..submission import script_cells

    body: list[ast.stmt] = []
    unread = 0
    for cell in cells:
        tree = reading.parse_flat(cell["source"])
        if tree is None and reading.deep_last:
            for part in script_cells(cell["source"], cell["filename"], reading, statements=True):
                tree = reading.parse_flat(part["source"])
                if tree is None:
                    unread += reading.unparsed_last or reading.deep_last
                else:
                    body.extend(tree.body)
            continue
        if tree is None:
            unread += reading.unparsed_last
        else:
            body.extend(tree.body)
    return body, unread


def _print_of(node: ast.AST, keep: frozenset[str], reading: Reading | None = None) -> list[Any]:
    """[hash, size] of a tree once docstrings, comments, whitespace, type hints and the names a
    student chose are gone (`_normalised`)."""
    digest = hashlib.sha256()
    nodes = 0
    for count, token in enumerate(_normalised(node, keep), start=1):
        digest.update(token.encode("utf-8", "surrogatepass") + b"\0")
        nodes += token.endswith("(")  # a node's opening token; a constant's repr ends with its quote or digit
        if reading is not None and count % 20_000 == 0:
            reading.check_time()
    return [digest.hexdigest()[:16], nodes]


def _normalised(root: ast.AST, keep: frozenset[str]) -> Iterator[str]:
    """The tree as tokens, walked without recursion and never changed: statements that do nothing
    (a docstring, any bare constant such as `...`, `pass`) and type hints dropped (`x: float = e`
    is `x = e`, a bare `x: float` nothing), every name a student chose renamed in the order of
    first use (names in `keep`, the lab's functions, stay). Adding any of these changes no
    behaviour, so it changes no fingerprint."""
    names: dict[str, str] = {}

    def renamed(name: str) -> str:
        return name if name in keep else names.setdefault(name, f"v{len(names)}")

    pending: list[str | ast.AST] = [root]
    while pending:
        node = pending.pop()
        if isinstance(node, str):
            yield node
            continue
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            node = ast.Assign(targets=[node.target], value=node.value, type_comment=None)
        own = _own_fields(node, renamed)
        later: list[str | ast.AST] = [type(node).__name__ + "("]
        for field, value in ast.iter_fields(node):
            value = own.get(field, value)
            if isinstance(value, list):
                if field in ("body", "orelse", "finalbody") and value and isinstance(value[0], ast.stmt):
                    value = _doing(value)
                later += ["[", *(v if isinstance(v, ast.AST) else repr(v) for v in value), "]"]
            elif isinstance(value, ast.AST):
                later.append(value)
            else:
                later.append(repr(value))
        later.append(")")
        pending.extend(reversed(later))


def _own_fields(node: ast.AST, renamed: Callable[[str], str]) -> dict[str, object]:
    """The fields of `node` read otherwise: a name the student chose, renamed; a type hint, gone."""
    if isinstance(node, ast.Name):
        return {"id": renamed(node.id)}
    if isinstance(node, ast.arg):
        return {"arg": renamed(node.arg), "annotation": None}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {"name": renamed(node.name), "returns": None}
    if isinstance(node, ast.ClassDef):
        return {"name": renamed(node.name)}
    if isinstance(node, ast.alias) and node.asname:
        return {"asname": renamed(node.asname)}
    return {}


def _doing(statements: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that do something: no bare constants, no `pass`, no bare annotations."""
    kept = [s for s in statements
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)) and not isinstance(s, ast.Pass)
            and not (isinstance(s, ast.AnnAssign) and s.value is None)]
    return kept or [ast.Pass()]


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
                sources.append(handle.read())
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
    sizes: dict[tuple[str, str], int] = {}
    for record in graded:
        code = record.get("code") or {}
        for name in step_names:
            step = record["steps"].get(name) or {}
            named = any(m not in UNNAMED for m in step.get("mistakes") or ())
            if not named:
                for case, digest in sorted((step.get("answers") or {}).items()):
                    if digest:
                        holders.setdefault((name, "answer", f"{case}\0{digest}"), set()).add(record["id"])
            printed = (code.get("steps") or {}).get(name)
            if printed and printed[1] >= MIN_NODES and printed[0] not in never.get(name, ()):
                holders.setdefault((name, "code", printed[0]), set()).add(record["id"])
                sizes[(name, printed[0])] = printed[1]
        printed = code.get("file")
        if printed and printed[1] >= MIN_FILE_NODES and printed[0] not in never.get(FILE, ()):
            holders.setdefault((FILE, "code", printed[0]), set()).add(record["id"])
            # A file weighs by its own code only: the step functions equal to the stub or to the
            # reference are the page's, shared by everyone who kept them.
            own = sum(step_print[1] for name, step_print in (code.get("steps") or {}).items()
                      if step_print and step_print[0] not in never.get(name, ()))
            sizes[(FILE, printed[0])] = min(printed[1], own)
    items = []
    for (step, kind, digest), ids in holders.items():
        if 2 <= len(ids) <= common:
            weight = 1 / (len(ids) - 1)
            if kind == "code":
                weight *= _code_strength(step, sizes[(step, digest)])
            items.append(Item(step=step, kind=kind, digest=digest.rsplit("\0", 1)[-1], holders=frozenset(ids),
                              weight=weight))
    return items


def _code_strength(step: str, size: int) -> float:
    """How much sharing this much code says: in proportion to its size, capped for one step."""
    if step == FILE:
        return min(1.0, size / FILE_FULL_NODES)
    return STEP_CODE_CAP * min(1.0, size / STEP_FULL_NODES)


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
        steps = set(answers.get(pair, {})) | set(codes.get(pair, {}))
        scores[pair] = {step: 1 - (1 - answers.get(pair, {}).get(step, 0.0)) * (1 - codes.get(pair, {}).get(step, 0.0))
                        for step in steps}
    return scores


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


# Rendering ------------------------------------------------------------------------------------

def evidence_text(group: Group, step: str, hidden_counts: Mapping[str, int], say: Any) -> str:
    """One cell: what the group shares on a step, by digests and counts only."""
    items = group.evidence.get(step, [])
    answers = [i for i in items if i.kind == "answer"]
    parts = []
    if answers:
        shared = sorted({i.digest[:8] for i in answers})
        holders = min(len(i.holders) for i in answers)
        parts.append(say("similar", "answers", shared=len(answers), hidden=hidden_counts.get(step, len(answers)),
                         digests=", ".join(shared[:4]) + (" …" if len(shared) > 4 else ""), holders=holders))
    for item in (i for i in items if i.kind == "code"):
        parts.append(say("similar", "file_code" if step == FILE else "code", digest=item.digest[:8],
                         holders=len(item.holders)))
    return " / ".join(parts)


def similar_rows(groups: list[Group], hidden_counts: Mapping[str, int], lang: str) -> list[dict[str, Any]]:
    from ..render import Messages

    say = Messages(lang)
    rows = []
    for number, group in enumerate(groups, 1):
        for step, score in group.steps.items():
            rows.append({"group": number, "ids": " ".join(group.ids), "step": step,
                         "evidence": evidence_text(group, step, hidden_counts, say),
                         "step_score": f"{score:.2f}", "score": f"{group.score:.2f}"})
    return rows


def similar_csv(rows: list[dict[str, Any]]) -> str:
    """similar.csv's text (UTF-8 with BOM, like grades.csv): a header even when no group is listed."""
    from .report import spreadsheet_text

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: spreadsheet_text(v) if isinstance(v, str) else v for k, v in row.items()})
    return "\ufeff" + buffer.getvalue()


def report_section(rows: list[dict[str, Any]], lang: str, label: Any) -> str:
    """The report's section: a signal for a human, with how it is scored."""
    from ..render import Messages

    say = {code: Messages(code) for code in ("ko", "en")}

    def both(key: str, **params: Any) -> str:
        text: str = label.text(say["ko"]("similar", key, **params), say["en"]("similar", key, **params))
        return text

    parts = [f"<h2 id=\"similar\">{both('heading')}</h2>",
             f"<p class=\"note\">{both('explain', threshold=f'{THRESHOLD:.1f}')}</p>"]
    if not rows:
        parts.append(f"<p>{both('none')}</p>")
        return "".join(parts)
    head = "".join(f"<th scope=\"col\">{both('column_' + c)}</th>" for c in CSV_COLUMNS)
    classes = {"group": ' class="num"', "step_score": ' class="num"', "score": ' class="num"',
               "evidence": ' class="wrap"', "ids": ' class="wrap"'}
    body = "".join("<tr>" + "".join(f"<td{classes.get(c, '')}>{html.escape(str(row[c]))}</td>" for c in CSV_COLUMNS)
                   + "</tr>\n" for row in rows)
    parts.append(f"<div class=\"scroll\"><table class=\"similar\"><thead><tr>{head}</tr></thead>"
                 f"<tbody>\n{body}</tbody></table></div>")
    return "".join(parts)
