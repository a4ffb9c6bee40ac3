"""Small edits of a student's own function: the candidates of a repair.

Each edit changes one node of the function's syntax tree the way students' mistakes are made (the
order of two operands, a transpose, an axis, a reduction, a constant, a name, a statement, a torch
habit) and gives the whole edited definition as source. The edits are the grader's and know no
lab; the code they change is the student's, and it only ever runs in the sandbox
(autograder.repair.search). Pure: a syntax tree in, records out.
"""
from __future__ import annotations

import ast
import builtins
import copy
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

EditKind = Literal[
    "operands_swapped", "operator", "term_removed", "grouping", "order_of_operations",
    "transpose_added", "transpose_removed", "transpose_axes", "axis", "keepdims", "reduction", "function",
    "arguments_swapped", "call_removed", "constant", "comparison", "negation", "variable",
    "builtin_rebound", "order", "slice_bound", "statement_removed", "statements_swapped",
    "torch_idiom", "reshape_as_transpose", "square_root", "einsum", "keyword_removed", "hard_coded",
]
EDIT_KINDS: tuple[EditKind, ...] = EditKind.__args__  # type: ignore[attr-defined]

# How far an edit is from the code as written: a repair of a smaller cost is preferred; among
# equal costs, the earlier line. Idioms and operand orders are the commonest slips.
COST: dict[EditKind, int] = {
    "torch_idiom": 0, "builtin_rebound": 0, "transpose_added": 1, "transpose_removed": 1, "transpose_axes": 1, "axis": 1,
    "keepdims": 1, "reduction": 1, "operator": 1, "operands_swapped": 1, "arguments_swapped": 1,
    "comparison": 1, "function": 1, "grouping": 1, "order_of_operations": 1, "order": 1,
    "reshape_as_transpose": 1, "negation": 2, "constant": 2, "variable": 2, "call_removed": 2,
    "term_removed": 2, "slice_bound": 2, "statements_swapped": 2, "statement_removed": 3,
    "square_root": 1, "einsum": 1, "keyword_removed": 2, "hard_coded": 2,
}
MAX_EDITS = 600  # single edits of one function at most (a long function is searched in part)
SHOWN_CHARACTERS = 80

_NOT_COMMUTATIVE = (ast.Sub, ast.Div, ast.MatMult, ast.Pow, ast.FloorDiv, ast.Mod)
_OPERATOR_SWAPS: tuple[tuple[type[ast.operator], type[ast.operator]], ...] = (
    (ast.Mult, ast.MatMult), (ast.MatMult, ast.Mult), (ast.FloorDiv, ast.Div), (ast.Div, ast.Mult),
    (ast.Mult, ast.Div), (ast.Add, ast.Sub), (ast.Sub, ast.Add), (ast.Pow, ast.Mult), (ast.Div, ast.FloorDiv))
_COMPARE_SWAPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,), ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt, ast.GtE),
    ast.Gt: (ast.GtE, ast.Lt), ast.GtE: (ast.Gt, ast.LtE), ast.Is: (ast.Eq, ast.IsNot), ast.IsNot: (ast.NotEq, ast.Is)}
REDUCTIONS = ("sum", "mean", "max", "min")
_ALSO_REDUCTIONS = {"amax": "max", "amin": "min", "nansum": "sum", "nanmax": "max"}
_AXIS_TAKERS = set(REDUCTIONS) | set(_ALSO_REDUCTIONS) | {
    "argmax", "argmin", "softmax", "concatenate", "stack", "expand_dims", "squeeze", "cumsum", "std", "var",
    "linalg.norm", "norm", "take_along_axis", "split", "prod", "all", "any", "logsumexp", "flip", "sort", "argsort"}
_AXES: tuple[int | None, ...] = (-1, -2, 0, 1, 2, None)
_FUNCTION_SWAPS = (("triu", "tril"), ("tril", "triu"), ("argmax", "argmin"), ("argmin", "argmax"),
                   ("maximum", "minimum"), ("minimum", "maximum"), ("dot", "matmul"), ("exp", "log"),
                   ("idxmax", "idxmin"), ("max", "idxmax"), ("argmax", "idxmax"))
_TRANSPOSES = ("transpose", "swapaxes", "permute", "moveaxis")


@dataclass(frozen=True, kw_only=True)
class Edit:
    """One edit of the function: its kind, the line it changes (in the student's own cell or file),
    the code there as written and as edited (short), and the whole edited definition."""

    kind: EditKind
    line: int
    before: str
    after: str
    source: str = field(repr=False, compare=False)
    # where it applies (the node's index in `_nodes` order) and how, to combine it with another
    index: int = field(default=-1, repr=False, compare=False)
    rewrite: Callable[[ast.AST], ast.AST | None] | None = field(default=None, repr=False, compare=False)

    @property
    def rank(self) -> tuple[int, int]:
        return COST[self.kind], self.line


@dataclass(frozen=True, kw_only=True)
class Edits:
    """Two or more edits made together (the same slip on two lines, or two slips): the combined
    source, and each edit as it was made alone."""

    parts: tuple[Edit, ...]
    source: str = field(repr=False, compare=False)

    @property
    def rank(self) -> tuple[int, int]:
        return sum(COST[part.kind] for part in self.parts), min(part.line for part in self.parts)


@dataclass(frozen=True, kw_only=True)
class Scope:
    """What the edits may use besides the node: the function's own names (parameters and locals),
    and the module's names that rebind a built-in (`sum = ...` in a later cell)."""

    local_names: tuple[str, ...]
    rebound_builtins: frozenset[str] = frozenset()


Rewrite = tuple[EditKind, Callable[[ast.AST], ast.AST | None]]


def function_def(source: str, name: str, line: int) -> ast.FunctionDef | None:
    """The definition of `name` whose `def` is at `line` in `source` (a cell or a file); None when
    the source does not parse or holds no such definition."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name and node.lineno == line:
            return node
    return None


def module_rebinds(source: str) -> frozenset[str]:
    """Built-in names a cell binds at its top level (`sum = 0`, `max = ...`, `def len(...)`)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    bound = {target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             for target in ast.walk(node) if isinstance(target, ast.Name) and isinstance(target.ctx, ast.Store)}
    bound |= {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    return frozenset(name for name in bound if hasattr(builtins, name))


def single_edits(function: ast.FunctionDef, *, rebound_builtins: frozenset[str] = frozenset(),
                 limit: int = MAX_EDITS) -> list[Edit]:
    """Every single edit of `function`, cheapest first, at most `limit`; each a distinct source."""
    scope = Scope(local_names=_local_names(function), rebound_builtins=rebound_builtins)
    original = ast.unparse(function)
    edits: list[Edit] = []
    seen = {original}

    def keep(kind: EditKind, tree: ast.FunctionDef, line: int, before: str, after: str, index: int = -1,
             rewrite: Callable[[ast.AST], ast.AST | None] | None = None) -> None:
        source = _compiled(tree)
        if source is not None and source not in seen:
            seen.add(source)
            edits.append(Edit(kind=kind, line=line, before=before, after=after, source=source, index=index,
                              rewrite=rewrite))

    for index, node in enumerate(_nodes(function)):
        line = getattr(node, "lineno", function.lineno)
        for kind, rewrite in _rewrites(node, scope):
            edited = _edited(function, index, rewrite)
            if edited is not None:
                keep(kind, edited[0], line, edited[1], edited[2], index, rewrite)
        if len(edits) > 4 * limit:
            break
    for tree, line, before, after in _statement_swaps(function):
        keep("statements_swapped", tree, line, before, after)
    edits.sort(key=lambda edit: edit.rank)
    return edits[:limit]


def repeated_edits(function: ast.FunctionDef, singles: list[Edit]) -> list[Edits]:
    """One slip made on three or more lines (`W_Q.T`, `W_K.T`, `W_V.T`): the same kind of edit,
    alike once names are set aside, made at every place it applies."""
    groups: dict[tuple[str, str, str], list[Edit]] = {}
    for edit in singles:
        if edit.rewrite is not None and edit.kind not in ("statement_removed", "variable"):
            groups.setdefault((edit.kind, *_patterns(edit.before, edit.after)), []).append(edit)
    found = []
    for members in groups.values():
        at = {edit.index: edit for edit in members}
        if len(at) >= 3:
            source = _combined(function, tuple(at.values()))
            if source is not None:
                found.append(Edits(parts=tuple(at.values()), source=source))
    return found


def _patterns(before: str, after: str) -> tuple[str, str]:
    """The edit with the names of the code as written set aside (`W_Q.T` → `W_Q` is `_.T` → `_`);
    a name the edit brings in, a constant or an attribute stays."""
    try:
        trees = [ast.parse(before, mode="eval"), ast.parse(after or "None", mode="eval")]
    except (SyntaxError, ValueError, RecursionError):
        return before, after
    own = {node.id for node in ast.walk(trees[0]) if isinstance(node, ast.Name)}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in own:
                node.id = "_"
    return ast.unparse(trees[0]), ast.unparse(trees[1])


def paired_edits(function: ast.FunctionDef, singles: list[Edit], *, limit: int) -> list[Edits]:
    """Two single edits made together, at most `limit`, cheapest first: the same kind of edit on
    two places first (one slip repeated: `axis=0` on two lines), then any two of the cheapest.
    Edits of nested nodes (one inside the other) are not combined."""
    combinable = [edit for edit in singles if edit.rewrite is not None and edit.kind != "statement_removed"]
    pairs = [(a, b) for a, b in itertools.combinations(combinable, 2) if a.index != b.index]
    pairs.sort(key=lambda pair: (pair[0].kind != pair[1].kind or pair[0].after.split("(")[0] != pair[1].after.split("(")[0],
                                 COST[pair[0].kind] + COST[pair[1].kind], min(pair[0].line, pair[1].line)))
    found: list[Edits] = []
    seen: set[str] = set()
    for first, second in pairs:
        if len(found) >= limit:
            break
        source = _combined(function, (first, second))
        if source is not None and source not in seen:
            seen.add(source)
            found.append(Edits(parts=(first, second), source=source))
    return found


def _combined(function: ast.FunctionDef, edits: tuple[Edit, ...]) -> str | None:
    tree = copy.deepcopy(function)
    nodes = _nodes(tree)
    targets = [nodes[edit.index] for edit in edits]
    for target in targets:
        if any(other is not target and any(inner is target for inner in ast.walk(other)) for other in targets):
            return None  # nested: the second edit's node is inside the first's
    for edit, target in zip(edits, targets):
        parent = _parent_of(tree, target)
        if parent is None or edit.rewrite is None:
            return None
        holder, name, position = parent
        replacement = edit.rewrite(copy.deepcopy(target))
        if replacement is None:
            return None
        if position is None:
            setattr(holder, name, replacement)
        else:
            getattr(holder, name)[position] = replacement
    ast.fix_missing_locations(tree)
    return _compiled(tree)


def _compiled(tree: ast.FunctionDef) -> str | None:
    try:
        source = ast.unparse(tree)
        compile(source, "<repair>", "exec")
    except (SyntaxError, ValueError, RecursionError, TypeError):
        return None
    return source


def _nodes(function: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of the function's body in a fixed order (the same for a deep copy)."""
    found: list[ast.AST] = []

    def visit(node: ast.AST) -> None:
        found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    for statement in function.body:
        visit(statement)
    return found


def _edited(function: ast.FunctionDef, index: int, rewrite: Callable[[ast.AST], ast.AST | None]
            ) -> tuple[ast.FunctionDef, str, str] | None:
    tree = copy.deepcopy(function)
    nodes = _nodes(tree)
    target = nodes[index]
    before = _short(target)
    replacement = rewrite(copy.deepcopy(target))
    parent = _parent_of(tree, target)
    if parent is None:
        return None
    holder, name, position = parent
    if replacement is None:  # a statement removed
        body = getattr(holder, name)
        if position is None or len(body) < 2:
            return None
        del body[position]
        after = ""
    else:
        if position is None:
            setattr(holder, name, replacement)
        else:
            getattr(holder, name)[position] = replacement
        after = _short(replacement)
    ast.fix_missing_locations(tree)
    return tree, before, after


def _parent_of(tree: ast.AST, target: ast.AST) -> tuple[ast.AST, str, int | None] | None:
    for holder in ast.walk(tree):
        for name, value in ast.iter_fields(holder):
            if value is target:
                return holder, name, None
            if isinstance(value, list):
                for position, item in enumerate(value):
                    if item is target:
                        return holder, name, position
    return None


def _short(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except (ValueError, TypeError, RecursionError):
        return ""
    text = " ".join(text.split())
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 1] + "…"


def _local_names(function: ast.FunctionDef) -> tuple[str, ...]:
    arguments = function.args
    names = [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in names:
            names.append(node.id)
    return tuple(names)


# --- the rewrites of one node -----------------------------------------------------------------

def _rewrites(node: ast.AST, scope: Scope) -> Iterator[Rewrite]:
    if isinstance(node, ast.BinOp):
        yield from _binop_rewrites(node)
    elif isinstance(node, ast.Attribute):
        yield from _attribute_rewrites(node)
    elif isinstance(node, ast.Call):
        yield from _call_rewrites(node)
    elif isinstance(node, ast.Constant):
        yield from _constant_rewrites(node)
        if isinstance(node.value, int) and not isinstance(node.value, bool) and node.value >= 2:
            for name in scope.local_names:  # a number written where a parameter was meant (2 heads)
                yield "hard_coded", (lambda o: lambda n: ast.Name(id=o, ctx=ast.Load()))(name)
    elif isinstance(node, ast.Compare):
        yield from _compare_rewrites(node)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.Not, ast.USub)):
        yield "negation", lambda n: n.operand  # type: ignore[attr-defined]
    elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        yield from _name_rewrites(node, scope)
    elif isinstance(node, ast.Tuple) and 2 <= len(node.elts) <= 4:
        for i, j in itertools.combinations(range(len(node.elts)), 2):
            yield "order", _swapped_elements(i, j)
    elif isinstance(node, ast.Slice):
        yield from _slice_rewrites(node)
    if isinstance(node, ast.stmt) and not isinstance(node, ast.Return):
        yield "statement_removed", lambda n: None


def _binop_rewrites(node: ast.BinOp) -> Iterator[Rewrite]:
    if isinstance(node.op, _NOT_COMMUTATIVE):
        yield "operands_swapped", lambda n: ast.BinOp(left=n.right, op=n.op, right=n.left)  # type: ignore[attr-defined]
    for old, new in _OPERATOR_SWAPS:
        if type(node.op) is old:
            yield "operator", _with_operator(new)
    if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv)):
        yield "term_removed", lambda n: n.left  # type: ignore[attr-defined]
        if not isinstance(node.op, (ast.Sub, ast.Div, ast.Pow, ast.FloorDiv)):
            yield "term_removed", lambda n: n.right  # type: ignore[attr-defined]
    if isinstance(node.left, ast.BinOp):  # (a ∘ b) • c  →  a ∘ (b • c): `d_k ** 1/2` is (d_k ** 1) / 2
        yield "grouping", lambda n: ast.BinOp(left=n.left.left, op=n.left.op,  # type: ignore[attr-defined]
                                              right=ast.BinOp(left=n.left.right, op=n.op, right=n.right))  # type: ignore[attr-defined]
    if isinstance(node.left, ast.BinOp) and isinstance(node.left.right, ast.BinOp):
        # (a ∘ (b • c)) ⋄ d  →  a ∘ (b • (c ⋄ d)): `S / d_k ** 1 / 2` meant as S / d_k ** (1 / 2)
        yield "grouping", lambda n: ast.BinOp(  # type: ignore[attr-defined]
            left=n.left.left, op=n.left.op,  # type: ignore[attr-defined]
            right=ast.BinOp(left=n.left.right.left, op=n.left.right.op,  # type: ignore[attr-defined]
                            right=ast.BinOp(left=n.left.right.right, op=n.op, right=n.right)))  # type: ignore[attr-defined]
    if isinstance(node.right, ast.BinOp):
        yield "grouping", lambda n: ast.BinOp(left=ast.BinOp(left=n.left, op=n.op, right=n.right.left),  # type: ignore[attr-defined]
                                              op=n.right.op, right=n.right.right)  # type: ignore[attr-defined]
    if isinstance(node.left, ast.Call) and len(node.left.args) == 1 and isinstance(node.op, (ast.Sub, ast.Div, ast.Add)):
        # exp(x) - max  →  exp(x - max): the maximum subtracted after the exponential
        yield "order_of_operations", lambda n: ast.Call(  # type: ignore[attr-defined]
            func=n.left.func, args=[ast.BinOp(left=n.left.args[0], op=n.op, right=n.right)],  # type: ignore[attr-defined]
            keywords=n.left.keywords)  # type: ignore[attr-defined]
    if isinstance(node.op, ast.Div) and not (isinstance(node.right, ast.Call) and _called_name(node.right)[0] == "sqrt"):
        yield "square_root", lambda n: ast.BinOp(left=n.left, op=ast.Div(),  # type: ignore[attr-defined]
                                                 right=_numpy_call("sqrt", [n.right]))  # type: ignore[attr-defined]
    if isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Constant) and node.left.value in (2, 10, 2.0, 10.0):
        yield "function", lambda n: _numpy_call("exp", [n.right])  # type: ignore[attr-defined]  # 2 ** x for e ** x
    if isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            yield "transpose_added", _transposed_side(side, short=True)
            yield "transpose_added", _transposed_side(side, short=False)


def _with_operator(operator: type[ast.operator]) -> Callable[[ast.AST], ast.AST]:
    return lambda n: ast.BinOp(left=n.left, op=operator(), right=n.right)  # type: ignore[attr-defined]


def _transposed(value: ast.expr, *, short: bool) -> ast.expr:
    if short:
        return ast.Attribute(value=value, attr="T", ctx=ast.Load())
    return ast.Call(func=ast.Attribute(value=value, attr="swapaxes", ctx=ast.Load()),
                    args=[ast.Constant(-1), ast.Constant(-2)], keywords=[])


def _transposed_side(side: str, *, short: bool) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        setattr(n, side, _transposed(getattr(n, side), short=short))
        return n
    return rewrite


def _attribute_rewrites(node: ast.Attribute) -> Iterator[Rewrite]:
    if node.attr == "T" and isinstance(node.ctx, ast.Load):
        yield "transpose_removed", lambda n: n.value  # type: ignore[attr-defined]
        yield "transpose_axes", lambda n: _transposed(n.value, short=False)  # type: ignore[attr-defined]
        yield "transpose_axes", lambda n: ast.Call(  # type: ignore[attr-defined]
            func=ast.Attribute(value=n.value, attr="swapaxes", ctx=ast.Load()),  # type: ignore[attr-defined]
            args=[ast.Constant(0), ast.Constant(1)], keywords=[])


def _called_name(node: ast.Call) -> tuple[str, bool]:
    """The called function's last name, and whether it is a method of a value (`x.sum`) rather
    than a module's function (`np.sum`, `sum`)."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id, False
    if isinstance(func, ast.Attribute):
        module = isinstance(func.value, ast.Name) and func.value.id in ("np", "numpy", "math", "torch", "F", "scipy")
        return func.attr, not module
    return "", False


def _call_rewrites(node: ast.Call) -> Iterator[Rewrite]:
    name, is_method = _called_name(node)
    if name in _TRANSPOSES:
        yield "transpose_removed", _receiver_or_first_argument(is_method)
        if name == "transpose" and is_method and len(node.args) == 2:
            yield "torch_idiom", _renamed_method("swapaxes")
        if name == "permute" and is_method:
            yield "torch_idiom", _renamed_method("transpose")
    if name in REDUCTIONS or name in _ALSO_REDUCTIONS:
        for other in REDUCTIONS:
            if other != _ALSO_REDUCTIONS.get(name, name):
                yield "reduction", _renamed_function(other)
        yield from _keepdims_rewrites(node)
    if name in _AXIS_TAKERS or any(k.arg in ("axis", "dim") for k in node.keywords):
        yield from _axis_rewrites(node, is_method)
    for old, new in _FUNCTION_SWAPS:
        if name == old:
            yield "function", _renamed_function(new)
    if not is_method and isinstance(node.func, ast.Name) and name in ("max", "min", "sum", "abs", "round") \
            and len(node.args) == 1 and not node.keywords:
        # Python's built-in on an array: over its first axis only (max, sum) or not at all
        yield "function", lambda n: _numpy_call(name, list(n.args))  # type: ignore[attr-defined]
        if name in ("max", "min", "sum"):
            yield "function", lambda n: _numpy_call(name, list(n.args), last_axis=True)  # type: ignore[attr-defined]
    if name == "len" and not is_method and len(node.args) == 1:
        for axis in (-1, 1):
            yield "axis", (lambda a: lambda n: ast.Subscript(  # type: ignore[attr-defined]
                value=ast.Attribute(value=n.args[0], attr="shape", ctx=ast.Load()),  # type: ignore[attr-defined]
                slice=ast.Constant(a), ctx=ast.Load()))(axis)
    for index, keyword in enumerate(node.keywords):
        if keyword.arg not in (None, "axis", "dim", "keepdims", "keepdim"):
            def without(n: ast.AST, index: int = index) -> ast.AST:
                assert isinstance(n, ast.Call)
                del n.keywords[index]
                return n
            yield "keyword_removed", without
    if name == "einsum" and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        for spec in _einsum_variants(node.args[0].value):
            def respelled(n: ast.AST, spec: str = spec) -> ast.AST:
                assert isinstance(n, ast.Call)
                n.args[0] = ast.Constant(spec)
                return n
            yield "einsum", respelled
    if name == "dot" and not is_method:
        yield "torch_idiom", _renamed_function("matmul")
    yield from _torch_rewrites(node, name, is_method)
    if name == "reshape" and is_method:
        yield "reshape_as_transpose", lambda n: _transposed(n.func.value, short=False)  # type: ignore[attr-defined]
        yield "reshape_as_transpose", lambda n: _transposed(n.func.value, short=True)  # type: ignore[attr-defined]
    positional = [a for a in node.args if not isinstance(a, ast.Starred)]
    if len(positional) == len(node.args) and 2 <= len(node.args) <= 4:
        for i, j in itertools.combinations(range(len(node.args)), 2):
            yield "arguments_swapped", _swapped_arguments(i, j)
    if is_method and isinstance(node.func, ast.Attribute) and name not in _TRANSPOSES:
        yield "call_removed", lambda n: n.func.value  # type: ignore[attr-defined]
    elif not is_method and len(node.args) >= 1 and name not in _TRANSPOSES and not isinstance(node.args[0], ast.Starred):
        yield "call_removed", lambda n: n.args[0]  # type: ignore[attr-defined]
    if name == "range" and node.args:
        for delta in (1, -1):
            yield "slice_bound", _range_end_moved(delta)


def _receiver_or_first_argument(is_method: bool) -> Callable[[ast.AST], ast.AST | None]:
    def rewrite(n: ast.AST) -> ast.AST | None:
        assert isinstance(n, ast.Call)
        if is_method and isinstance(n.func, ast.Attribute):
            return n.func.value
        return n.args[0] if n.args else None
    return rewrite


def _renamed_method(new: str) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        n.func.attr = new
        return n
    return rewrite


def _renamed_function(new: str) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call)
        if isinstance(n.func, ast.Attribute):
            n.func.attr = new
        elif isinstance(n.func, ast.Name):
            n.func = ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr=new, ctx=ast.Load()) \
                if new not in ("sum", "max", "min") else ast.Name(id=new, ctx=ast.Load())
        return n
    return rewrite


def _axis_value(node: ast.Call, is_method: bool) -> tuple[str, int | None] | None:
    """Where the call's axis is given: ("keyword", index) or ("position", index), None if absent."""
    for index, keyword in enumerate(node.keywords):
        if keyword.arg in ("axis", "dim"):
            return "keyword", index
    position = 0 if is_method else 1
    name, _ = _called_name(node)
    if name in REDUCTIONS or name in _ALSO_REDUCTIONS or name in ("argmax", "argmin", "concatenate", "stack"):
        if len(node.args) > position and not isinstance(node.args[position], ast.Starred):
            return "position", position
    return None


def _axis_rewrites(node: ast.Call, is_method: bool) -> Iterator[Rewrite]:
    where = _axis_value(node, is_method)
    current: object = "absent"
    if where is not None:
        holder, index = where
        value = node.keywords[index].value if holder == "keyword" else node.args[index]  # type: ignore[index]
        current = _literal(value)
    for axis in _AXES:
        if axis == current or (where is None and axis is None):
            continue
        yield "axis", _with_axis(axis, is_method)
    if where is not None:
        yield "axis", _without_axis(is_method)
    elif name_is_reduction(node) and not any(k.arg in ("keepdims", "keepdim") for k in node.keywords):
        def per_row(n: ast.AST) -> ast.AST:  # a reduction of the whole table where each row's was meant
            assert isinstance(n, ast.Call)
            n.keywords += [ast.keyword(arg="axis", value=ast.Constant(-1)), ast.keyword(arg="keepdims", value=ast.Constant(True))]
            return n
        yield "axis", per_row


def name_is_reduction(node: ast.Call) -> bool:
    name, _ = _called_name(node)
    return name in REDUCTIONS or name in _ALSO_REDUCTIONS


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return "unknown"


def _with_axis(axis: int | None, is_method: bool) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call)
        value = ast.Constant(axis)
        where = _axis_value(n, is_method)
        if where is None:
            n.keywords.append(ast.keyword(arg="axis", value=value))
        elif where[0] == "keyword":
            n.keywords[where[1]] = ast.keyword(arg="axis", value=value)  # type: ignore[index]
        else:
            n.args[where[1]] = value  # type: ignore[index]
        return n
    return rewrite


def _without_axis(is_method: bool) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call)
        where = _axis_value(n, is_method)
        if where is not None and where[0] == "keyword":
            del n.keywords[where[1]]  # type: ignore[arg-type]
        elif where is not None:
            del n.args[where[1]]  # type: ignore[arg-type]
        return n
    return rewrite


def _keepdims_rewrites(node: ast.Call) -> Iterator[Rewrite]:
    for index, keyword in enumerate(node.keywords):
        if keyword.arg in ("keepdims", "keepdim"):
            flipped = not bool(_literal(keyword.value))

            def rewrite(n: ast.AST, index: int = index, flipped: bool = flipped) -> ast.AST:
                assert isinstance(n, ast.Call)
                n.keywords[index] = ast.keyword(arg="keepdims", value=ast.Constant(flipped))
                return n
            yield "keepdims", rewrite
            return

    def added(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call)
        n.keywords.append(ast.keyword(arg="keepdims", value=ast.Constant(True)))
        return n
    yield "keepdims", added


def _torch_rewrites(node: ast.Call, name: str, is_method: bool) -> Iterator[Rewrite]:
    """Torch's spelling of a numpy operation, in numpy's."""
    for index, keyword in enumerate(node.keywords):
        if keyword.arg in ("dim", "keepdim"):
            def renamed(n: ast.AST, index: int = index) -> ast.AST:
                assert isinstance(n, ast.Call)
                old = n.keywords[index]
                n.keywords[index] = ast.keyword(arg="axis" if old.arg == "dim" else "keepdims", value=old.value)
                return n
            yield "torch_idiom", renamed
    if not is_method or not isinstance(node.func, ast.Attribute):
        return
    if name == "size":
        yield "torch_idiom", lambda n: (ast.Subscript(value=ast.Attribute(value=n.func.value, attr="shape",  # type: ignore[attr-defined]
                                                                          ctx=ast.Load()),
                                                      slice=n.args[0], ctx=ast.Load())  # type: ignore[attr-defined]
                                        if n.args else ast.Attribute(value=n.func.value, attr="shape",  # type: ignore[attr-defined]
                                                                     ctx=ast.Load()))
    elif name == "view":
        yield "torch_idiom", _renamed_method("reshape")
    elif name == "unsqueeze" and len(node.args) == 1:
        yield "torch_idiom", lambda n: _numpy_call("expand_dims", [n.func.value, n.args[0]])  # type: ignore[attr-defined]
    elif name == "masked_fill" and len(node.args) == 2:
        yield "torch_idiom", lambda n: _numpy_call("where", [n.args[0], n.args[1], n.func.value])  # type: ignore[attr-defined]
    elif name in ("exp", "sqrt", "log", "abs", "tanh") and not node.args:
        yield "torch_idiom", lambda n: _numpy_call(n.func.attr, [n.func.value])  # type: ignore[attr-defined]
    elif name == "float" and not node.args:
        yield "torch_idiom", lambda n: ast.Call(func=ast.Attribute(value=n.func.value, attr="astype",  # type: ignore[attr-defined]
                                                                   ctx=ast.Load()),
                                                args=[ast.Name(id="float", ctx=ast.Load())], keywords=[])


def _einsum_variants(spec: str) -> list[str]:
    """An einsum's subscripts with two letters of one operand (or of the output) swapped."""
    if "->" not in spec or len(spec) > 40:
        return []
    inputs, output = spec.replace(" ", "").split("->", 1)
    terms = inputs.split(",") + [output]
    variants = []
    for t, term in enumerate(terms):
        for i, j in itertools.combinations(range(len(term)), 2):
            letters = list(term)
            letters[i], letters[j] = letters[j], letters[i]
            changed = terms[:t] + ["".join(letters)] + terms[t + 1:]
            variants.append(",".join(changed[:-1]) + "->" + changed[-1])
    return [v for v in dict.fromkeys(variants) if v != spec.replace(" ", "")]


def _numpy_call(function: str, args: list[ast.expr], *, last_axis: bool = False) -> ast.Call:
    keywords = [ast.keyword(arg="axis", value=ast.Constant(-1)), ast.keyword(arg="keepdims", value=ast.Constant(True))] \
        if last_axis else []
    return ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr=function, ctx=ast.Load()),
                    args=args, keywords=keywords)


def _swapped_arguments(i: int, j: int) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call)
        n.args[i], n.args[j] = n.args[j], n.args[i]
        return n
    return rewrite


def _swapped_elements(i: int, j: int) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Tuple)
        n.elts[i], n.elts[j] = n.elts[j], n.elts[i]
        return n
    return rewrite


def _range_end_moved(delta: int) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call)
        end = 0 if len(n.args) == 1 else 1
        n.args[end] = _moved(n.args[end], delta)
        return n
    return rewrite


def _moved(value: ast.expr, delta: int) -> ast.expr:
    return ast.BinOp(left=value, op=ast.Add() if delta > 0 else ast.Sub(), right=ast.Constant(abs(delta)))


def _constant_rewrites(node: ast.Constant) -> Iterator[Rewrite]:
    value = node.value
    if isinstance(value, bool):
        yield "constant", lambda n: ast.Constant(not value)
        return
    if not isinstance(value, (int, float)) or isinstance(value, complex):
        return
    others: list[int | float] = [value + 1, value - 1, -value, value * 2]
    if value != 0:
        others += [value / 2, 1 / value]
    if isinstance(value, float) and value not in (0.5, 2.0):
        others.append(0.5)
    for other in dict.fromkeys(others):
        if other != value:
            yield "constant", (lambda o: lambda n: ast.Constant(o))(other)


def _compare_rewrites(node: ast.Compare) -> Iterator[Rewrite]:
    if len(node.ops) != 1:
        return
    for other in _COMPARE_SWAPS.get(type(node.ops[0]), ()):
        yield "comparison", (lambda o: lambda n: ast.Compare(left=n.left, ops=[o()],  # type: ignore[attr-defined]
                                                             comparators=n.comparators))(other)  # type: ignore[attr-defined]


def _name_rewrites(node: ast.Name, scope: Scope) -> Iterator[Rewrite]:
    if node.id in scope.rebound_builtins:
        yield "builtin_rebound", lambda n: ast.Attribute(
            value=ast.Call(func=ast.Name(id="__import__", ctx=ast.Load()), args=[ast.Constant("builtins")], keywords=[]),
            attr=node.id, ctx=ast.Load())
    if node.id not in scope.local_names:
        return
    for other in scope.local_names:
        if other != node.id:
            yield "variable", (lambda o: lambda n: ast.Name(id=o, ctx=ast.Load()))(other)


def _slice_rewrites(node: ast.Slice) -> Iterator[Rewrite]:
    for bound in ("lower", "upper"):
        value = getattr(node, bound)
        if value is None or isinstance(value, ast.Constant):
            continue  # a constant bound is the constant's own edit
        for delta in (1, -1):
            def rewrite(n: ast.AST, bound: str = bound, delta: int = delta) -> ast.AST:
                setattr(n, bound, _moved(getattr(n, bound), delta))
                return n
            yield "slice_bound", rewrite


def _statement_swaps(function: ast.FunctionDef) -> Iterator[tuple[ast.FunctionDef, int, str, str]]:
    """The function with two neighbouring statements of one body in the other order: (edited
    definition, the first one's line, the two as written, the two as edited)."""
    bodies = [(holder, name) for holder in ast.walk(function) for name, value in ast.iter_fields(holder)
              if isinstance(value, list) and len(value) >= 2 and all(isinstance(s, ast.stmt) for s in value)]
    for number, (holder, name) in enumerate(bodies):
        for position in range(len(getattr(holder, name)) - 1):
            tree = copy.deepcopy(function)
            copied = [(h, n) for h in ast.walk(tree) for n, v in ast.iter_fields(h)
                      if isinstance(v, list) and len(v) >= 2 and all(isinstance(s, ast.stmt) for s in v)]
            body = getattr(copied[number][0], copied[number][1])
            first, second = body[position], body[position + 1]
            if isinstance(first, ast.Return) or isinstance(second, ast.Return):
                continue
            body[position], body[position + 1] = second, first
            yield tree, first.lineno, f"{_short(first)}; {_short(second)}", f"{_short(second)}; {_short(first)}"
