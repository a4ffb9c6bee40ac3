"""Stubs and names defined: per function, whether its last top-level definition is a stub, where
its definitions are, and the names a file defines (for "did you mean")."""
from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from .budget import Reading

_TOP_LEVEL_DEF = re.compile(r"^(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
STUB_CALLS = {"NotImplementedError", "NotImplemented"}
DEFINED = re.compile(r"^[ \t]*def[ \t]+([A-Za-z_]\w*)[ \t]*\(", re.MULTILINE)
Place = tuple[str, int, int]  # where a definition is: (filename, line of the def, first line with its decorators)

MAX_PLACES = 8  # places kept of one function's definitions: the last ones, the graded one among them

class Definitions:
    """Per function name, whether its last top-level definition is a stub; and the names the
    cells define, for "did you mean". A cell the budget does not let the grader parse is only
    scanned, and its definitions count as written: a stub is small. At most `defined_names`
    names are kept of each kind; a name not kept is never called a stub."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.last: dict[str, bool] = {}
        self.places: dict[str, tuple[Place, ...]] = {}  # function -> ((filename, def line, first line), ...)
        self.under_main: set[str] = set()  # functions defined inside a top-level `if __name__ == "__main__":`
        self._names: dict[str, None] = {}  # insertion-ordered set

    def add(self, source: str, filename: str | None = None) -> None:
        budget = self.reading.budget
        for found in DEFINED.finditer(source, 0, budget.scanned_chars):
            if len(self._names) >= budget.defined_names:
                break
            self._names.setdefault(found.group(1))
        tree = self.reading.parse(source)
        if tree is None:
            if self.reading.unparsed_last:  # the child may still define these: they count as written
                for found in _TOP_LEVEL_DEF.finditer(source):
                    self._note(found.group(1), False)
            return  # not Python: the child cannot run it either
        for node in tree.body:
            if _is_main_guard(node) and len(self.under_main) < self.reading.budget.defined_names:
                self.under_main |= {inner.name for inner in ast.walk(node)
                                    if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef))}
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if self._note(node.name, _is_stub_body(node.body)) and filename is not None:
                    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                    places = self.places.get(node.name, ()) + ((filename, node.lineno, first),)
                    self.places[node.name] = places[-MAX_PLACES:]

    def _note(self, name: str, stub: bool) -> bool:
        """Note `name`'s latest definition; whether it is kept (within the budget's names)."""
        if name in self.last or len(self.last) < self.reading.budget.defined_names:
            self.last[name] = stub
            return True
        return False

    def names(self) -> frozenset[str]:
        return frozenset(self._names)

    def only_under_main(self) -> frozenset[str]:
        """The functions defined under a `__main__` guard and nowhere at the top level."""
        return frozenset(self.under_main - set(self.last))


def _is_main_guard(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either side of the ==)."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare) or len(node.test.ops) != 1 \
            or not isinstance(node.test.ops[0], ast.Eq):
        return False
    sides = [node.test.left, node.test.comparators[0]]
    return any(isinstance(side, ast.Name) and side.id == "__name__" for side in sides) and \
        any(isinstance(side, ast.Constant) and side.value == "__main__" for side in sides)


def redefined(places: Sequence[tuple[str, int, int]], defined_at: tuple[str, int] | None) -> dict[str, Any]:
    """{"redefined": ...} when the function is defined at more than one place and the one graded
    is among them: {"graded": [file, line], "others": [[file, line], ...]}, else {}.

    The places are the grader's own reading of the file (Submission.places); what the child says
    (`defined_at`, where the live function's code came from) only picks one of them, so a file
    can never make the grader name a place it does not have.
    """
    if len(places) < 2 or not defined_at:
        return {}
    graded = [place for place in places if place[0] == defined_at[0] and defined_at[1] in place[1:]]
    if len(graded) != 1:
        return {}
    others = [[name, line] for name, line, _ in places if (name, line) != graded[0][:2]]
    return {"redefined": {"graded": list(graded[0][:2]), "others": others}}


def find_stubs(cells: Iterable[Mapping[str, str]], function_names: Collection[str],
               reading: Reading | None = None) -> set[str]:
    """Names among `function_names` whose last top-level definition does nothing yet.

    Runs in the grader's process, so each cell is parsed within the budget (see Reading.parse);
    a cell left unparsed is only scanned for `def` lines, its definitions counted as written.
    """
    definitions = Definitions(reading or Reading())
    for cell in cells:
        definitions.add(cell["source"])
    return {name for name, stub in definitions.last.items() if stub and name in function_names}


def _is_stub_body(body: list[ast.stmt]) -> bool:
    for node in body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # docstring or a bare ...
        if isinstance(node, ast.Pass):
            continue
        if isinstance(node, ast.Raise) and _raised_name(node.exc) in STUB_CALLS:
            continue
        if isinstance(node, ast.Return) and (node.value is None or isinstance(node.value, ast.Constant)):
            continue
        return False
    return True


def _raised_name(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    return node.id if isinstance(node, ast.Name) else None

