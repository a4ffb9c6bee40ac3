"""Signals of shared work for a human to look at: DIR/similar.csv and a section of report.html.

Two kinds of evidence, each an "item" some students of the class share:
- a wrong answer on a hidden test of a step, by its digest (judge.answer_digest: the returned
  value's numbers rounded to 1e-9, hashed; the value itself is never kept);
- a step's function, or the whole file, whose code is the same once names, comments, whitespace,
  docstrings, type hints and statements that do nothing are normalised away (an AST fingerprint:
  `_normalised`, the one normalisation every fingerprint goes through).

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

import ast
import csv
import hashlib
import html
import io
import math
import tokenize
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, Mapping, Sequence

if TYPE_CHECKING:
    from ..cells import Cell
    from ..reading.budget import Reading

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
FILE = "(file)"
CSV_COLUMNS = ("group", "ids", "step", "evidence", "step_score", "score")


# Code fingerprints (in the worker, from the submission's text) ---------------------------------

def code_prints(name: str, data: bytes | None, function_names: Iterable[str]) -> dict[str, Any] | None:
    """{"file": [hash, nodes], "steps": {function: [hash, nodes]}} of a submission, with "unread":
    the cells the reading budget left unparsed, when there are any; {"not_computed": why} when the
    budget or a fault stopped it (told, never a hidden nothing); None when the file is unreadable.

    The grader's own work on a submission's text, so read as the reader reads it: every cell
    parsed within `reading.budget.Budget` (characters parsed, CPU time) and inside its catch-all
    (`reading.budget.untrusted`); trees are walked without recursion, so no depth stops them, and one
    line Python's own parser gives up on costs its own part only (`_statements`)."""
    if not isinstance(data, (bytes, bytearray)):
        return None
    from ..reading.budget import untrusted
    from ..reading.submission import read_submission
    from ..render.messages import detail_text

    submission = read_submission(name, data)
    if submission.problem is not None:
        return None
    read = untrusted(_prints, submission.cells, tuple(function_names))
    if read.problem is not None:
        return {"not_computed": detail_text(read.detail, "en") if read.detail is not None else str(read.problem)}
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
    """(the top-level statements of every cell the grader can parse, how many parts it left
    unread). Comments and blank lines are taken out first (`code_statements`: one tokenizer pass),
    so they never count toward the parse budget; a cell whose code is still longer than one text
    the budget parses is cut into runs of whole top-level statements, each within it; a part whose
    depth Python's own parser gives up on (a child that raised its recursion limit may still run
    it) is parsed again statement by statement, so one deep line costs its own statement only. What
    is left unparsed (one statement longer than the budget, the budget spent, that depth) is
    counted as unread, never silently dropped. A plain syntax error in a cell adds nothing of it:
    the sandbox runs nothing of it either."""
    body: list[ast.stmt] = []
    unread = 0
    for cell in cells:
        statements = code_statements(cell["source"], reading)
        if statements is None:  # not tokenized: the cell as it is, cut only where it is deep
            statements = [cell["source"]]
        trees: list[ast.stmt] = []
        broken = False
        for part in _within(statements, reading.budget.parse_chars):
            tree = reading.parse_flat("".join(part))
            if tree is None and reading.deep_last:
                for one in _alone(part, cell, reading):
                    tree = reading.parse_flat(one)
                    if tree is None:
                        unread += reading.unparsed_last or reading.deep_last
                    else:
                        trees.extend(tree.body)
            elif tree is None:
                unread += reading.unparsed_last
                broken = broken or not reading.unparsed_last
            else:
                trees.extend(tree.body)
        if not broken:
            body.extend(trees)
    return body, unread


def _within(statements: Sequence[str], most: int) -> Iterator[list[str]]:
    """Runs of consecutive statements, each as long as `most` allows (a longer statement alone)."""
    run: list[str] = []
    size = 0
    for statement in statements:
        if run and size + len(statement) > most:
            yield run
            run, size = [], 0
        run.append(statement)
        size += len(statement)
    if run:
        yield run


def _alone(part: list[str], cell: Cell, reading: Reading) -> list[str]:
    """The statements of a part one by one; a part that is one untokenized text is cut before each
    of its top-level statements as the reader cuts a .py (reading.script.script_cells)."""
    if len(part) > 1:
        return part
    from ..guard import safe_text
    from ..reading.script import script_cells

    return [piece["source"] for piece in script_cells(safe_text(part[0]), cell["filename"], reading, statements=True)]


_CONTINUES = frozenset({"else", "elif", "except", "finally"})
_LAYOUT = frozenset({tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER,
                     tokenize.COMMENT})


def code_statements(text: str, reading: Reading) -> list[str] | None:
    """The top-level statements of `text`, each its own text, with every comment and every line
    that holds no code taken out (the one place the fingerprints' reading drops them): the same
    trees once parsed, whatever the comments. One pass of Python's tokenizer, whose work grows
    with the text; None when the text cannot be read so (a line longer than the budget's
    `token_line_chars`, a lone CR, a tokenizer error): then it is parsed as it is."""
    budget = reading.budget
    lines = text.split("\n")
    lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    if any(len(line) > budget.token_line_chars for line in lines) or "\r" in text.replace("\r\n", "\n"):
        return None
    reading.tokenized_chars += len(text)
    code_rows: set[int] = set()
    comment_at: dict[int, int] = {}
    starts: list[int] = []
    after_newline, decorators_only = True, False
    feed = iter(lines)
    try:
        for count, token in enumerate(tokenize.generate_tokens(lambda: next(feed, "")), start=1):
            if count % 5000 == 0:
                reading.check_time()
            if token.type == tokenize.COMMENT:
                comment_at.setdefault(token.start[0] - 1, token.start[1])
            if token.type in _LAYOUT:
                after_newline = after_newline or token.type == tokenize.NEWLINE
                continue
            code_rows.update(range(token.start[0] - 1, token.end[0]))
            if after_newline and token.start[1] == 0:
                keyword = token.string
                joins = keyword in _CONTINUES or (decorators_only and keyword in ("@", "def", "class", "async"))
                if not joins or not starts:
                    starts.append(token.start[0] - 1)
                    decorators_only = keyword == "@"
                elif keyword != "@":
                    decorators_only = False
            after_newline = False
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    if not starts:
        return []
    kept = [line[:comment_at[row]].rstrip() + "\n" if row in comment_at else line
            for row, line in enumerate(lines)]
    return ["".join(kept[row] for row in range(start, end) if row in code_rows)
            for start, end in zip(starts, [*starts[1:], len(lines)])]


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
    """The tree as tokens, walked without recursion and never changed: the one normalisation every
    code fingerprint (a step's, the file's) goes through. Statements that do nothing (`_doing`:
    a docstring, an expression with no effect, `pass`, a constant-false branch, `assert True`,
    `x = x`) and type hints are dropped (`x: float = e` is `x = e`, a bare `x: float` nothing),
    and every name a student chose is renamed in the order of first use (names in `keep`, the
    lab's functions, stay). Adding any of these changes no behaviour, so it changes no fingerprint."""
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


# What a statement does not do: no call, await or yield in it, no name bound by `:=`.
_EFFECTS = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)
# What a dead branch may still do to the function around it: make it a generator or a coroutine,
# or bind its names elsewhere.
_SHAPING = (ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _doing(statements: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that do something, in order (the one rule of what a statement that does
    nothing is, for `_normalised`): a branch whose test is a constant is replaced by the branch
    that runs (`if False: ...` by its `else`, `while False: ...` by its `else`, `if True: b` by
    `b`), and a statement that does nothing is dropped (`_idle`)."""
    kept: list[ast.stmt] = []
    pending = list(reversed(statements))
    while pending:
        statement = pending.pop()
        runs = _branch_that_runs(statement)
        if runs is not None:
            pending.extend(reversed(runs))
        elif not _idle(statement):
            kept.append(statement)
    return kept or [ast.Pass()]


def _idle(statement: ast.stmt) -> bool:
    """Whether a statement does nothing: `pass`, an expression statement with no effect (a
    docstring, `...`, `-1`, a bare name, `()`, an f-string), a bare annotation, an assignment of a
    name to itself (`x = x`, `x: float = x`), `assert` of a true constant, and an `if` whose test
    has no effect and whose branches do nothing. (Statements nest at most as deep as Python's
    indentation limit, so the recursion through `if` is bounded.)"""
    if isinstance(statement, ast.Pass):
        return True
    runs = _branch_that_runs(statement)
    if runs is not None:
        return all(map(_idle, runs))
    if isinstance(statement, ast.Expr):
        return _effectless(statement.value)
    if isinstance(statement, ast.AnnAssign):
        return statement.value is None or _self_assigned([statement.target], statement.value)
    if isinstance(statement, ast.Assign):
        return _self_assigned(statement.targets, statement.value)
    if isinstance(statement, ast.Assert):
        return _truth(statement.test) is True
    if isinstance(statement, ast.If):
        return (_effectless(statement.test) and all(map(_idle, statement.body))
                and all(map(_idle, statement.orelse)))
    return False


def _branch_that_runs(statement: ast.stmt) -> list[ast.stmt] | None:
    """The statements that run in place of an `if` or a `while` whose test is a constant, or None
    (not such a statement, or a dead branch that would still change the function around it)."""
    if isinstance(statement, ast.If):
        truth = _truth(statement.test)
        if truth is None:
            return None
        runs, dead = (statement.body, statement.orelse) if truth else (statement.orelse, statement.body)
    elif isinstance(statement, ast.While) and _truth(statement.test) is False:
        runs, dead = statement.orelse, statement.body
    else:
        return None
    return None if _shapes_its_function(dead) else runs


def _effectless(expression: ast.expr) -> bool:
    return not any(isinstance(node, _EFFECTS) for node in ast.walk(expression))


def _self_assigned(targets: list[ast.expr], value: ast.expr) -> bool:
    return isinstance(value, ast.Name) and all(isinstance(t, ast.Name) and t.id == value.id for t in targets)


def _truth(test: ast.expr) -> bool | None:
    """The truth of a test that is a constant (`False`, `0`, `None`, `""`, `not True`, `()`), or None."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand)
        return None if inner is None else not inner
    if isinstance(test, (ast.Tuple, ast.List, ast.Set, ast.Dict)) and _effectless(test):
        return bool(test.keys if isinstance(test, ast.Dict) else test.elts)
    return None


def _shapes_its_function(statements: list[ast.stmt]) -> bool:
    """Whether any of these statements yields, awaits or declares a name global or nonlocal for the
    function they are in (nested functions, lambdas and classes are their own)."""
    pending: list[ast.AST] = list(statements)
    while pending:
        node = pending.pop()
        if isinstance(node, _SHAPING):
            return True
        pending.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, _SCOPES))
    return False


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


def similar_rows(groups: list[Group], hidden_counts: Mapping[str, int], lang: str,
                 uncompared: Sequence[NotCompared] = ()) -> list[dict[str, Any]]:
    """similar.csv's rows: each group's steps, then one row per student not compared in full
    (`group` empty, step FILE, the evidence cell saying why; no score)."""
    from ..render.messages import Messages

    say = Messages(lang)
    rows: list[dict[str, Any]] = []
    for number, group in enumerate(groups, 1):
        for step, score in group.steps.items():
            rows.append({"group": number, "ids": " ".join(group.ids), "step": step,
                         "evidence": evidence_text(group, step, hidden_counts, say),
                         "step_score": f"{score:.2f}", "score": f"{group.score:.2f}"})
    for student in uncompared:
        rows.append({"group": "", "ids": student.id, "step": FILE, "evidence": not_compared_text(student, say),
                     "step_score": "", "score": ""})
    return rows


def not_compared_text(student: NotCompared, say: Any) -> str:
    if student.why == "unread":
        return str(say("similar", "not_compared_unread", parts=student.parts))
    return str(say("similar", "not_compared_error", why=student.detail or "?"))


def is_not_compared(row: Mapping[str, Any]) -> bool:
    """Whether a row of similar_rows is a student not compared in full (not a group's)."""
    return row.get("group") == ""


def similar_csv(rows: list[dict[str, Any]]) -> str:
    """similar.csv's text (UTF-8 with BOM, like grades.csv): a header even when no group is listed."""
    from .spreadsheet import spreadsheet_text

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: spreadsheet_text(v) if isinstance(v, str) else v for k, v in row.items()})
    return "\ufeff" + buffer.getvalue()


def report_section(rows: list[dict[str, Any]], lang: str, label: Any) -> str:
    """The report's section: a signal for a human, with how it is scored."""
    from ..render.messages import Messages

    say = {code: Messages(code) for code in ("ko", "en")}

    def both(key: str, **params: Any) -> str:
        text: str = label.text(say["ko"]("similar", key, **params), say["en"]("similar", key, **params))
        return text

    parts = [f"<h2 id=\"similar\">{both('heading')}</h2>",
             f"<p class=\"note\">{both('explain', threshold=f'{THRESHOLD:.1f}')}</p>"]
    uncompared = [row for row in rows if is_not_compared(row)]
    rows = [row for row in rows if not is_not_compared(row)]
    if uncompared:
        items = "".join(f"<li><strong>{html.escape(str(row['ids']))}</strong>: {html.escape(str(row['evidence']))}</li>"
                        for row in uncompared)
        parts.append(f"<p id=\"not-compared\">{both('not_compared_heading', count=len(uncompared))}</p>"
                     f"<ul class=\"not-compared\">{items}</ul>")
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
