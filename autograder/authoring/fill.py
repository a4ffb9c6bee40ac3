"""Fill the lab's stubs with the reference solution, as a student who finished the lab would.

API (`from autograder.authoring import fill`):

    fill_script(text, keep_checks=True, lab=None) -> str
        The .py twin's text with every step function filled.
    fill_notebook(nb, keep_checks=True, lab=None) -> NotebookNode
        A filled copy of the notebook (the argument is left untouched); only the cells tagged
        "step:<name>" change.
    reference_bodies(lab) -> {name: body source}

`lab` is a Lab (autograder.registry.load(NAME)); by default the one the text or notebook is for.
A filled function keeps its signature and its Korean docstring and gets the body of the function
of the same name in the lab's reference solution. Both raise ValueError when a step function is missing.
With keep_checks=False the Otter parts become no-ops so the result runs with neither Otter nor its
test files: the notebook's cells tagged grader-init, check:<name>, check-all and export hold
`pass`, and in the script the grader set-up and each `print(grader.check(...))` become `pass`.
"""
import ast
import copy
import importlib
import json
import pathlib
import re
import textwrap
from collections.abc import Iterable, Mapping
from typing import cast

from nbformat import NotebookNode

from autograder import registry
from autograder.authoring.build_notebook import CHECK_PACKAGE
from autograder.core.lab import Lab

NO_OP = "pass"
OTTER_TAGS = ("grader-init", "check-all", "export")


def lab_of(text: str, lab: Lab | None = None) -> Lab:
    """`lab`, else the lab whose assignment `text` (a .py twin or a notebook's JSON) is."""
    if lab is not None:
        return lab
    name = registry.guess([text.encode("utf-8")])
    if name is None:
        raise ValueError("cannot tell which lab this assignment is for: pass lab=")
    return registry.load(name)


def reference_bodies(lab: Lab) -> dict[str, str]:
    """Each reference step function's body without its docstring, dedented."""
    if lab.solution is None:
        raise ValueError(f"lab {lab.name} names no reference solution to fill the stubs from")
    # A module's own file: a reference solution is a module, never a namespace package.
    source = pathlib.Path(cast(str, importlib.import_module(lab.solution).__file__)).read_text(encoding="utf-8")
    lines = source.splitlines()
    bodies: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name in lab.function_names:
            statements = node.body[1:] if ast.get_docstring(node) is not None else node.body
            chunk = lines[statements[0].lineno - 1:node.end_lineno]
            bodies[node.name] = textwrap.dedent("\n".join(chunk))
    return bodies


def _fill_functions(text: str, bodies: Mapping[str, str], required: Iterable[str]) -> tuple[str, list[str]]:
    """Replace the bodies of the top-level step functions found in text; returns (text, names)."""
    lines = text.split("\n")
    found: list[str] = []
    definitions = [node for node in ast.parse(text).body
                   if isinstance(node, ast.FunctionDef) and node.name in bodies]
    for node in sorted(definitions, key=lambda n: n.lineno, reverse=True):
        kept = node.body[:1] if ast.get_docstring(node) is not None else []
        start = kept[0].end_lineno if kept else node.body[0].lineno - 1
        indent = " " * node.body[0].col_offset
        lines[start:node.end_lineno] = textwrap.indent(bodies[node.name], indent).split("\n")
        found.append(node.name)
    missing = [name for name in required if name not in found]
    if missing:
        raise ValueError(f"no definition of {', '.join(missing)} to fill")
    return "\n".join(lines), found


def fill_script(text: str, keep_checks: bool = True, lab: Lab | None = None) -> str:
    lab = lab_of(text, lab)
    text, _ = _fill_functions(text, reference_bodies(lab), lab.function_names)
    return text if keep_checks else _without_otter(text)


def _without_otter(text: str) -> str:
    """Turn every statement inside a __main__ block that touches Otter into `pass`."""
    lines = text.split("\n")
    for node in ast.parse(text).body:
        if not (isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)):
            continue
        for statement in node.body:
            code = ast.unparse(statement)
            if "otter" in code or CHECK_PACKAGE in code or re.search(r"\bgrader\b", code):
                indent = " " * statement.col_offset
                first, last = statement.lineno - 1, cast(int, statement.end_lineno)  # ast.parse sets it
                lines[first:last] = [indent + NO_OP] + [""] * (last - first - 1)
    return "\n".join(lines)


def fill_notebook(nb: NotebookNode, keep_checks: bool = True, lab: Lab | None = None) -> NotebookNode:
    lab = lab_of(json.dumps(nb), lab)
    filled = copy.deepcopy(nb)
    bodies = reference_bodies(lab)
    done: list[str] = []
    for cell in filled.cells:
        tags = cell.get("metadata", {}).get("tags", [])
        for tag in tags:
            if tag.startswith("step:"):
                name = tag.split(":", 1)[1]
                cell.source, names = _fill_functions(_text(cell.source), {name: bodies[name]}, [name])
                done += names
            elif not keep_checks and (tag in OTTER_TAGS or tag.startswith("check:")):
                cell.source = NO_OP
    missing = [name for name in lab.function_names if name not in done]
    if missing:
        raise ValueError(f"no cell tagged step:{missing[0]} to fill")
    return filled


def _text(source: str | list[str]) -> str:
    return "".join(source) if isinstance(source, list) else source
