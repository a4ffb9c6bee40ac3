"""Notebooks: their JSON within the budget, their code cells, and the cells that only check
(Otter's plumbing, tagged or pasted), which are not the student's work."""
from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection, Iterator
from typing import Any

from .budget import OverBudget, Reading
from .problems import Detail, detail

# Tags of the student notebook's checker cells (see autograder/authoring/build_notebook.py).
CHECKER_TAGS = ("grader-init", "check-all", "export")
CHECKER_TAG_PREFIXES = ("check:",)
# Cell magics whose body is still ordinary Python.
PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun", "debug"}
# Each character can match only one way (no nested or overlapping repeats), so a hostile line
# of a million spaces costs linear time, not quadratic.
_ASSIGNED_ESCAPE = re.compile(r"^([ \t]*)([A-Za-z_][\w.\[\],]*(?: +[\w.\[\],]+)*) *= *[!%]")
_ESCAPE_AFTER_EQUALS = re.compile(r"= *[!%]")
_HELP = re.compile(r"^\s*(\?\??[\w\.]+|[\w\.]+\?\??)\s*$")
# Any line `without_ipython_syntax` could rewrite matches this; most cells have none.
_MAYBE_IPYTHON = re.compile(r"^\s*[%!?]|\?|= *[!%]", re.MULTILINE)


def notebook_json(text: str, reading: Reading) -> Any:
    """The JSON value of a notebook's text. Its objects, arrays and items are counted before
    parsing, so parsing builds a bounded number of values; ValueError or RecursionError when it
    is not JSON."""
    budget = reading.budget
    containers = text.count("{") + text.count("[")
    if containers > budget.json_containers:
        raise OverBudget(detail("json_containers_over", count=containers, most=budget.json_containers))
    items = text.count(",")
    if items > budget.json_items:
        raise OverBudget(detail("json_items_over", count=items, most=budget.json_items))
    keys = text.count(":")
    if keys > budget.json_keys:
        raise OverBudget(detail("json_keys_over", count=keys, most=budget.json_keys))
    reading.check_time()
    return json.loads(text)


def json_error_detail(error: Exception) -> Detail:
    """Where a notebook's JSON breaks (json's own line and column), as a Detail."""
    if isinstance(error, json.JSONDecodeError):
        return detail("json_error_at", line=error.lineno, column=error.colno)
    return detail("json_invalid")


def code_cells_of(cells: list[object], reading: Reading,
                  strict: bool = True) -> Iterator[tuple[int, dict[Any, Any], str | None]]:
    """(number, cell, source) of each code cell of a notebook's cell list, source None when the
    cell holds no text. The code cells are counted first: over the budget, `strict` refuses
    the notebook, else only the first ones are given."""
    code = [(number, cell) for number, cell in enumerate(cells, start=1)
            if isinstance(cell, dict) and cell.get("cell_type") == "code"]
    if not strict:
        code = code[:reading.budget.code_cells]
    reading.count_cells(len(code))
    for number, cell in code:
        yield number, cell, _cell_text(cell.get("source", ""))


def _cell_text(source: object) -> str | None:
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    return source if isinstance(source, str) else None


CHECKER_METHODS = {"check", "check_all", "export", "submit", "to_pdf", "run_plugin"}
# How far the recogniser looks: a dotted name of more parts, or a set-up function of more nodes,
# is not the course's checker plumbing (and is never walked further).
MAX_DOTTED_PARTS = 8
MAX_FACTORY_NODES = 5000


def does_only_checking(source: str, graders: set[str], reading: Reading | None = None) -> bool:
    """Whether a cell only sets up or runs Otter's checks, as untagged copies of the checker cells
    in Colab or pasted notebooks are: `import otter`, `grader = otter.Notebook(...)`, the course's
    set-up cell (a function that returns an `otter.Notebook`, and `grader = that_function()`),
    `grader.check("softmax")`, ... Names bound to a Notebook are added to `graders`.

    Told by what the cell does, never by its text; parsed within the reading's budget (a cell
    that cannot be is the student's own code); never raises, never recurses.
    """
    if not source.strip():
        return False
    tree = (reading or Reading()).parse(source)
    if tree is None:
        return False
    try:
        found = _checker_names(tree, graders)
    except Exception:  # noqa: BLE001 - a cell the recogniser cannot read is the student's work
        return False
    if found is None:
        return False
    graders |= found
    return True


def _checker_names(tree: ast.Module, graders: set[str]) -> set[str] | None:
    """The names a cell of only checker plumbing binds to graders, or None when it does more."""
    found: set[str] = set()
    factories: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import) and all(alias.name.split(".")[0] == "otter" for alias in node.names):
            continue
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "otter":
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # a docstring
        if isinstance(node, ast.FunctionDef) and not node.decorator_list and _makes_a_notebook(node):
            factories.add(node.name)
            continue
        if isinstance(node, ast.Assign) and _is_notebook(node.value, factories) and \
                all(isinstance(target, ast.Name) for target in node.targets):
            found |= {target.id for target in node.targets if isinstance(target, ast.Name)}  # all are
            continue
        if isinstance(node, ast.Expr) and _is_check_call(node.value, graders | found):
            continue
        if isinstance(node, ast.For) and not node.orelse and all(  # for q in [...]: grader.check(q)
                isinstance(inner, ast.Expr) and _is_check_call(inner.value, graders | found) for inner in node.body):
            continue
        return None
    if factories and not found:
        return None  # a function defined and never used to make the grader: not the set-up cell
    return found


def _is_notebook(node: ast.AST | None, factories: Collection[str] = ()) -> bool:
    """A call that makes an otter.Notebook: the class itself, or a set-up function that returns one."""
    if not isinstance(node, ast.Call):
        return False
    name = dotted_name(node.func, parts=MAX_DOTTED_PARTS)
    return name in ("otter.Notebook", "Notebook") or name in factories


def _makes_a_notebook(function: ast.FunctionDef) -> bool:
    """Whether a top-level function is a grader set-up: it returns an otter.Notebook(...) from its
    own body and declares no `global` (it binds no name of the notebook). Nested functions and
    classes are its helpers: their returns are not its own. Walked with a stack, at most
    MAX_FACTORY_NODES nodes."""
    returns_notebook = False
    stack: list[tuple[ast.AST, bool]] = [(node, True) for node in function.body]
    seen = 0
    while stack:
        node, own = stack.pop()
        seen += 1
        if seen > MAX_FACTORY_NODES or isinstance(node, ast.Global):
            return False
        if own and isinstance(node, ast.Return) and _is_notebook(node.value):
            returns_notebook = True
        inner = own and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return returns_notebook


def dotted_name(node: ast.AST, parts: int) -> str | None:
    """"a.b" for a name followed by at most `parts` - 1 attributes, read without recursion; else None."""
    names: list[str] = []
    while isinstance(node, ast.Attribute) and len(names) < parts:
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or len(names) >= parts:
        return None
    return ".".join([node.id, *reversed(names)])


def _is_check_call(node: ast.AST, graders: Collection[str]) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("print", "display") \
            and len(node.args) == 1:
        node = node.args[0]
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id in graders
            and node.func.attr in CHECKER_METHODS)


def is_checker_cell(cell: object) -> bool:
    """The notebook's self-check plumbing (grader set-up, checks, export): not the student's work."""
    metadata = cell.get("metadata") if isinstance(cell, dict) else None
    tags = metadata.get("tags") if isinstance(metadata, dict) else None
    if not isinstance(tags, list):
        return False
    return any(isinstance(tag, str) and (tag in CHECKER_TAGS or tag.startswith(CHECKER_TAG_PREFIXES))
               for tag in tags)


def without_ipython_syntax(source: str) -> str:
    """Replace magics, shell escapes and help lines by no-ops, keeping line numbers."""
    if not _MAYBE_IPYTHON.search(source):
        return source
    lines = source.split("\n")
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("%%"):
        magic = first[2:].split()[0] if len(first) > 2 else ""
        if magic not in PYTHON_CELL_MAGICS:
            return ""
        index = next(i for i, line in enumerate(lines) if line.strip())
        lines[index] = ""
    cleaned = []
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        assigned = _ASSIGNED_ESCAPE.match(line) if _ESCAPE_AFTER_EQUALS.search(line) else None
        if assigned:
            cleaned.append(f"{assigned.group(1)}{assigned.group(2)} = None")
        elif stripped.startswith(("%", "!")) or _HELP.match(line):
            cleaned.append(indent + "pass")
        else:
            cleaned.append(line)
    return "\n".join(cleaned)

