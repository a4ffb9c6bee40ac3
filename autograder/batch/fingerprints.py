"""Code fingerprints of a submission, made in the worker from its text: the look-alike signal's code items
(batch.similar)."""
from __future__ import annotations

import ast
import hashlib
import itertools
import tokenize
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

if TYPE_CHECKING:
    from ..core.cells import Cell
    from ..core.reading.budget import Reading


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
    from ..core.reading.budget import untrusted
    from ..core.reading.submission import read_submission
    from ..core.render.messages import detail_text

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
    from ..core.guard import safe_text
    from ..core.reading.script import script_cells

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
    student chose are gone (`_normalised`): the tokens' UTF-8, each ended by a NUL, hashed whole."""
    digest = hashlib.sha256()
    nodes = 0
    tokens = _normalised(node, keep)
    while True:
        chunk = list(itertools.islice(tokens, _TOKENS_BETWEEN_CLOCKS))
        if not chunk:
            break
        digest.update(("\0".join(chunk) + "\0").encode("utf-8", "surrogatepass"))
        # A node's opening token; a constant's repr ends with its quote or digit.
        nodes += sum(1 for token in chunk if token[-1:] == "(")
        if reading is not None:
            reading.check_time()
    return [digest.hexdigest()[:16], nodes]


_TOKENS_BETWEEN_CLOCKS = 20_000


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
    pop, extend, AST = pending.pop, pending.extend, ast.AST
    while pending:
        item = pop()
        if isinstance(item, str):
            yield item
            continue
        node: ast.AST = item
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            node = ast.Assign(targets=[node.target], value=node.value, type_comment=None)
        kind = type(node)
        own = _own_fields(node, renamed) if kind in _OWN_FIELDS else {}
        later: list[str | ast.AST] = [kind.__name__ + "("]
        for field in kind._fields:
            try:
                value = own[field] if field in own else getattr(node, field)
            except AttributeError:
                continue  # as ast.iter_fields: a field the node was made without
            if type(value) is list:
                if field in _BODIES and value and isinstance(value[0], ast.stmt):
                    value = _doing(value)
                later.append("[")
                later += [v if isinstance(v, AST) else repr(v) for v in value]
                later.append("]")
            elif isinstance(value, AST):
                later.append(value)
            else:
                later.append(repr(value))
        later.append(")")
        later.reverse()
        extend(later)


_BODIES = frozenset({"body", "orelse", "finalbody"})
# The node kinds whose fields `_own_fields` reads otherwise.
_OWN_FIELDS = frozenset({ast.Name, ast.arg, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.alias})


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
