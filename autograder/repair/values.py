"""Where a student's values part from the reference's, read from the values themselves.

When no small edit repairs a step, the search can still say where its values go wrong. The
student's function is run with the value of each plain assignment at the top of its body
(`e = np.exp(x)`) reported, on the inputs of the public tests it fails; the reference's function
is run on the same inputs with the value of every expression it computes kept, numbered in the
order it computes them. A line is on track when its value is one the reference computes after
those of the lines before it (a name the reference assigns too: the reference's value of that
name; a single number: by its name only). Told (`locate`), in the order the function is written,
only where nothing but lines on track comes before:
- the first line that is not on track, when putting there a value the reference computes makes the
  rest of the student's function right on every one of those tests (so the lines after it are
  right, and the ones before it are on track): the mistake is on that line ("first_wrong_value");
- the `return` right after lines that are all on track (at least one): what it computes from right
  values is the mistake ("wrong_return").
Any other statement before the place (a loop, an `if`, a call made for what it changes) leaves the
step untold here: its values are not read, and the place could be in it.

INVARIANT (docs/SECURITY.md): the values put into the student's function are the reference's on
the inputs of public tests (those the step fails), never a hidden case's; the values the student's
function reports come back through the codec as any returned value does and are only compared.
Pure: the sandbox runs and the reference's run are handed in (`grading.repairs`).
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from ..core.compare import all_close
from .edits import _own_nodes

REPORTED = "_autograder_reported"  # the list the reporting copy of a function returns
KEEP = "_autograder_keep"  # the reference's recorder, in its run's namespace only
MAX_CELLS = 400  # the largest array written out into a candidate
MAX_VALUES = 60  # the reference's distinct values tried at one line
MAX_DIMENSIONS = 4  # the most dimensions of a value compared or written out
PARTS = 16  # a reference's value numbered `number * PARTS + k`: the k-th of the values a tuple holds

Claim = Literal["first_wrong_value", "wrong_return"]


@dataclass(frozen=True, kw_only=True)
class Site:
    """A plain assignment at the top of the function's body: where, what it names, what it assigns."""

    position: int  # its index in the function's body
    line: int
    names: tuple[str, ...]  # one, or those a tuple is unpacked into (`Q, K, V = ...`)
    statement: ast.stmt


@dataclass(frozen=True, kw_only=True)
class Located:
    """Where the values part: the claim and the statement it is about."""

    claim: Claim
    line: int
    statement: ast.stmt


def sites(function: ast.FunctionDef) -> list[Site]:
    """The function's plain assignments to one name at the top of its body, in order."""
    found = []
    for position, statement in enumerate(function.body):
        target: ast.expr | None = None
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)) and getattr(statement, "value", None) is not None:
            target = statement.target
        if isinstance(target, ast.Name):
            found.append(Site(position=position, line=statement.lineno, names=(target.id,), statement=statement))
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(statement, ast.Assign) and target.elts \
                and all(isinstance(element, ast.Name) for element in target.elts):
            found.append(Site(position=position, line=statement.lineno, statement=statement,
                              names=tuple(element.id for element in target.elts)))  # type: ignore[attr-defined]
    return found


def reporting(function: ast.FunctionDef, found: Sequence[Site]) -> str | None:
    """The source of a copy of `function` that returns the value of each of `found`, copied as it
    is made, instead of its own value (a `return` before a site returns those made so far)."""
    if not found or any(isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)) for node in _own_nodes(function)):
        return None
    copied = copy.deepcopy(function)
    copied.decorator_list = []
    at = {site.position: site for site in found}
    body: list[ast.stmt] = [_statement(f"{REPORTED} = []")]
    for position, statement in enumerate(copied.body):
        body.append(statement)
        if position in at:
            copies = ", ".join(f"{name}.copy() if hasattr({name}, 'copy') else {name}" for name in at[position].names)
            body.append(_statement(f"{REPORTED}.append(({copies},))"))
    for node in _own_nodes(copied):
        if isinstance(node, ast.Return):
            node.value = ast.Name(id=REPORTED, ctx=ast.Load())
    body.append(_statement(f"return {REPORTED}"))
    copied.body = body
    try:
        return ast.unparse(ast.fix_missing_locations(copied))
    except (ValueError, RecursionError, TypeError):
        return None


@dataclass(frozen=True, kw_only=True)
class Computed:
    """What the reference computes on one test: each value by its number (in the order it is
    computed; the last value of an expression computed more than once), the number of each local's
    value, and what it returns."""

    values: dict[int, object]
    names: dict[str, int]
    returned: object


def reference_values(reference: ast.FunctionDef, function: Callable[..., object], args: Sequence[object]
                     ) -> Computed | None:
    """What `reference` computes on `args`; None when it cannot be run so. `function`: the
    reference's own function, whose module's names the copy reads."""
    copied = copy.deepcopy(reference)
    copied.decorator_list = []
    keeping = _Keeping()
    copied.body = [keeping.visit(statement) for statement in copied.body]
    kept: dict[int, object] = {}

    def keep(number: int, value: object) -> object:
        # (each value of a tuple made at once, `make_qkv(...)`, numbered where it is made, in order)
        parts = value if isinstance(value, tuple) and len(value) < PARTS else (value,)
        for index, part in enumerate(parts):
            kept[number * PARTS + index] = part
        return value

    namespace = dict(getattr(function, "__globals__", {}))
    namespace[KEEP] = keep
    try:
        module = ast.fix_missing_locations(ast.Module(body=[copied], type_ignores=[]))
        exec(compile(module, "<reference>", "exec"), namespace)  # noqa: S102 - the grader's own reference
        returned = namespace[reference.name](*copy.deepcopy(list(args)))
    except Exception:  # the reference on an input it was not written for: nothing to read
        return None
    return Computed(values={number: value for number, value in kept.items() if _readable(value)},
                    names=keeping.names, returned=returned)


class _Keeping(ast.NodeTransformer):
    """Every expression the function computes wrapped in `KEEP(number, ...)` (numbers in the
    order the expressions are met), but constants, the indexes of subscripts and what is stored."""

    def __init__(self) -> None:
        self.number = 0
        self.names: dict[str, int] = {}  # a local the function assigns: the number of its (last) value

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        node.value = self.visit(node.value)
        if len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                self.names[target.id] = self.number * PARTS
            elif isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) < PARTS:
                for index, element in enumerate(target.elts):
                    if isinstance(element, ast.Name):
                        self.names[element.id] = self.number * PARTS + index
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node.value = self.visit(node.value)
        return self._kept(node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        # (what is called is a function, not a value: only its receiver is read)
        if isinstance(node.func, ast.Attribute):
            node.func.value = self.visit(node.func.value)
        node.args = [self.visit(argument) for argument in node.args]
        for keyword in node.keywords:
            keyword.value = self.visit(keyword.value)
        return self._kept(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a function defined inside: its values are not the step's

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef  # type: ignore[assignment]

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if isinstance(node, ast.expr) and not isinstance(node, (ast.Constant, ast.Starred, ast.Slice, ast.JoinedStr,
                                                                 ast.FormattedValue)) \
                and not isinstance(getattr(node, "ctx", ast.Load()), (ast.Store, ast.Del)):
            return self._kept(node)
        return node

    def _kept(self, node: ast.expr) -> ast.expr:
        self.number += 1
        return ast.Call(func=ast.Name(id=KEEP, ctx=ast.Load()), args=[ast.Constant(self.number), node], keywords=[])


def locate(function: ast.FunctionDef, reported: Sequence[Sequence[object] | None], computed: Sequence[Computed],
           right_with: Callable[[Site, dict[int, object]], int | None]) -> Located | None:
    """Where the values of `function` part from the reference's (see the module), or None.
    `reported`: per test, the values the reporting copy returned (None where it did not return);
    `computed`: per test, what the reference computes; `right_with(site, values)`: the number of a
    value of `values` (the first test's) that, put at `site`, makes the function right on every
    test (the caller runs the candidates), or None.

    A line is on track when its values are ones the reference computes after those of the lines
    before it: a value the reference computes earlier, for another use (`total = top`), is no
    sign of being on track; a name the reference assigns too must hold the reference's value of it
    (`d_k = np.sqrt(...)` holds a value the reference computes, but not its `d_k`); and a single
    number is on track by its name only (`half = d // 2` is 3 where the reference's `n_heads` is). The first line
    that is not on track is where the right value must make the rest right."""
    found = sites(function)
    by_position = {site.position: (index, site) for index, site in enumerate(found)}
    named = computed[0].names
    # Each value by the number where the reference first computes it (a name read again is no new value).
    references = [_distinct(dict(sorted(one.values.items())), most=None) for one in computed]
    candidates = _distinct({number: value for number, value in references[0].items()
                            if not _among(value, _outputs(computed[0].returned))})
    last = 0  # the number of the reference's value the lines so far reached
    for position, statement in enumerate(function.body):
        if position not in by_position:
            if isinstance(statement, ast.Return) and position == len(function.body) - 1 and last:
                return Located(claim="wrong_return", line=statement.lineno, statement=statement)
            return None
        index, site = by_position[position]
        rows = [_unpacked(row[index], len(site.names)) if row is not None and index < len(row) else None
                for row in reported]
        if any(row is None for row in rows):
            return None
        reached: list[int | None] = []
        for k, name in enumerate(site.names):  # (values unpacked together: made in that order too)
            if name in named:  # the reference's own value of that name, in whatever order it was made
                same = all(row is not None and _among(row[k], [one.values.get(named[name])])
                           for row, one in zip(rows, computed))
                reached.append(named[name] if same else None)
                continue
            if not all(_is_array(row[k]) for row in rows if row is not None):
                reached.append(None)  # (a number the reference computes somewhere is too often one by chance)
                continue
            bound = max([last, *(number for number in reached if number is not None)])
            reached.append(min((number for number in _numbers(k, rows, references) if number > bound), default=None))
        if all(number is not None for number in reached):
            last = max([last, *(number for number in reached if number is not None)])
            continue
        if any(right_with(replace(site, names=(name,)), candidates) is not None for name in site.names):
            return Located(claim="first_wrong_value", line=site.line, statement=statement)
        return None  # a value the reference never computes here: what the lines after it should do is unknown
    return None


def _numbers(k: int, rows: Sequence[Sequence[object] | None], references: Sequence[dict[int, object]]) -> set[int]:
    """The numbers of the reference's values the `k`th value of a line equals on every test."""
    common: set[int] | None = None
    for row, reference in zip(rows, references):
        assert row is not None
        equal = {number for number, value in reference.items() if _among(row[k], [value])}
        common = equal if common is None else common & equal
    return common or set()


def substituted(function: ast.FunctionDef, site: Site, value: object, numpy_name: str) -> str | None:
    """The source of `function` with the value `site` assigns written out as `value` (None when
    it cannot be written out)."""
    written = _written(value, numpy_name)
    if written is None:
        return None
    copied = copy.deepcopy(function)
    copied.decorator_list = []
    assigned = ast.Assign(targets=[ast.Name(id=site.names[0], ctx=ast.Store())], value=written, lineno=site.line)
    target = site.statement.targets[0] if isinstance(site.statement, ast.Assign) else None
    if isinstance(target, ast.Name) or target is None:
        copied.body[site.position] = assigned  # (what the line computed is not even run)
    else:
        copied.body.insert(site.position + 1, assigned)  # one of the values it unpacks, put right after it
    try:
        return ast.unparse(ast.fix_missing_locations(copied))
    except (ValueError, RecursionError, TypeError):
        return None


def numpy_name(trees: Sequence[ast.Module]) -> str | None:
    """The name the submission imports numpy as at the top of its cells (the last one wins)."""
    name = None
    for tree in trees:
        for statement in tree.body:
            if isinstance(statement, ast.Import):
                for alias in statement.names:
                    if alias.name == "numpy":
                        name = alias.asname or "numpy"
    return name


def _written(value: object, numpy_name: str) -> ast.expr | None:
    if isinstance(value, (bool, np.bool_)):
        return ast.Constant(bool(value))
    if isinstance(value, (int, np.integer)):
        return ast.Constant(int(value))
    if isinstance(value, (float, np.floating)):
        return ast.Constant(float(value))
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf" and value.size <= MAX_CELLS \
            and value.ndim <= MAX_DIMENSIONS:
        return ast.Call(func=ast.Attribute(value=ast.Name(id=numpy_name, ctx=ast.Load()), attr="array", ctx=ast.Load()),
                        args=[_nested(value.tolist())],
                        keywords=[ast.keyword(arg="dtype", value=ast.Constant(value.dtype.str))])
    return None


def _nested(items: object) -> ast.expr:
    if isinstance(items, list):
        return ast.List(elts=[_nested(item) for item in items], ctx=ast.Load())
    assert isinstance(items, (bool, int, float))  # (what `tolist` gives of numbers and truth values)
    return ast.Constant(items)


def _readable(value: object) -> bool:
    """A value compared or written out: a number, or an array of numbers or truth values, small."""
    if isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)):
        return True
    return isinstance(value, np.ndarray) and value.dtype.kind in "biuf" and 0 < value.size <= MAX_CELLS \
        and value.ndim <= MAX_DIMENSIONS


def _as_array(value: object) -> np.ndarray[Any, Any] | None:
    if hasattr(value, "to_numpy") and not isinstance(value, np.ndarray):
        try:
            value = value.to_numpy()  # a table or a column: its numbers
        except Exception:
            return None
    try:
        array = np.asarray(value)
    except Exception:
        return None
    return array if array.dtype.kind in "biuf" and array.size <= MAX_CELLS * 4 else None


def _among(value: object, references: Sequence[object] | Any) -> bool:
    """Whether `value` is one of `references` (same shape, equal within the one tolerance)."""
    mine = _as_array(value)
    if mine is None:
        return False
    for reference in references:
        theirs = _as_array(reference)
        if theirs is not None and theirs.shape == mine.shape and \
                all_close(mine.astype(np.float64), theirs.astype(np.float64)):
            return True
    return False


def _is_array(value: object) -> bool:
    """Whether a line's value holds more than one number (an array, a table, a list of numbers)."""
    array = _as_array(value)
    return array is not None and array.size > 1


def _unpacked(value: object, count: int) -> list[object] | None:
    """What the reporting copy gave for a line: its `count` values (None when it is not so many)."""
    if isinstance(value, (list, tuple)) and len(value) == count:
        return list(value)
    return None


def _distinct(values: dict[int, object], most: int | None = MAX_VALUES) -> dict[int, object]:
    """`values` with each value once (its first number), at most `most` of them."""
    kept: dict[int, object] = {}
    for number, value in values.items():
        if most is not None and len(kept) >= most:
            break
        if not _among(value, list(kept.values())):
            kept[number] = value
    return kept


def _outputs(returned: object) -> list[object]:
    """What the reference returns, each of its values when it returns several."""
    return list(returned) if isinstance(returned, tuple) else [returned]


def _statement(text: str) -> ast.stmt:
    return ast.parse(text).body[0]
