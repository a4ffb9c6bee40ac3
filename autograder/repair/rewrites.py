"""The rewrites of one node of a function's syntax tree: each a kind of edit and a function that
makes the edited node from a copy of the node (None: the statement removed). Pure; no lab."""
from __future__ import annotations

import ast
import builtins
import copy
import functools
import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import cast

from ..core.repair_record import EditKind

_NOT_COMMUTATIVE = (ast.Sub, ast.Div, ast.MatMult, ast.Pow, ast.FloorDiv, ast.Mod)
_OPERATOR_SWAPS: tuple[tuple[type[ast.operator], type[ast.operator]], ...] = (
    (ast.Mult, ast.MatMult), (ast.MatMult, ast.Mult), (ast.FloorDiv, ast.Div), (ast.Div, ast.Mult),
    (ast.Mult, ast.Div), (ast.Add, ast.Sub), (ast.Sub, ast.Add), (ast.Pow, ast.Mult), (ast.Div, ast.FloorDiv),
    (ast.Div, ast.Sub), (ast.Sub, ast.Div), (ast.BitXor, ast.Pow), (ast.Sub, ast.FloorDiv),
    (ast.Add, ast.Mult), (ast.Mult, ast.Add), (ast.Mod, ast.FloorDiv), (ast.FloorDiv, ast.Mod))
_COMPARE_SWAPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,), ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt, ast.GtE),
    ast.Gt: (ast.GtE, ast.Lt), ast.GtE: (ast.Gt, ast.LtE), ast.Is: (ast.Eq, ast.IsNot), ast.IsNot: (ast.NotEq, ast.Is)}
REDUCTIONS = ("sum", "mean", "max", "min")
# numpy's other reductions over an axis, each with the one of REDUCTIONS it is (itself where none):
# any of them may stand where one of REDUCTIONS was meant (a median or a product for a row's max).
_ALSO_REDUCTIONS = {"amax": "max", "amin": "min", "nansum": "sum", "nanmax": "max", "nanmin": "min",
                    "nanmean": "mean", "average": "mean", "median": "median", "nanmedian": "median",
                    "prod": "prod", "std": "std", "var": "var", "ptp": "ptp"}
_AXIS_TAKERS = set(REDUCTIONS) | set(_ALSO_REDUCTIONS) | {
    "argmax", "argmin", "softmax", "concatenate", "stack", "expand_dims", "squeeze", "cumsum",
    "linalg.norm", "norm", "take_along_axis", "split", "all", "any", "logsumexp", "flip", "sort", "argsort",
    "append", "insert", "delete", "repeat", "diff", "cumprod", "take", "div", "sub", "mul", "apply", "reduce",
    "accumulate", "concat"}
# Keywords whose default is the commonest surprise of their function: `np.meshgrid` indexes (x, y)
# unless told `indexing="ij"`, `np.fromfunction` passes float indices unless told `dtype=int`,
# pandas' `rank` and `sort_values` start from the smallest unless told `ascending=False`.
_KEYWORD_DEFAULTS: dict[str, tuple[str, str | bool]] = {"meshgrid": ("indexing", "ij"), "fromfunction": ("dtype", "int"),
                                                   "rank": ("ascending", False), "sort_values": ("ascending", False),
                                                   "to_dict": ("orient", "index")}
# numpy's functions of a diagonal, and the position of their `k` (the diagonal's offset, 0 by default).
_DIAGONAL_K = {"triu": 1, "tril": 1, "triu_indices": 1, "tril_indices": 1, "eye": 2, "tri": 2}
_AXES: tuple[int | None, ...] = (-1, -2, 0, 1, 2, None)
# Neighbours: functions of one family a student takes one for the other (numpy's and pandas').
# numpy's products (none of them renamed to another when given keywords: _call_rewrites)
_PRODUCT_FAMILY = ("dot", "matmul", "inner", "outer", "tensordot", "vdot")
_FAMILIES = (("triu", "tril"), ("argmax", "argmin", "idxmax", "idxmin"), ("maximum", "minimum"),
             _PRODUCT_FAMILY, ("exp", "expm1", "exp2", "log"),
             ("max", "idxmax"), ("argmax", "idxmax"), ("concatenate", "stack", "hstack", "vstack", "dstack"),
             ("append", "extend"), ("repeat", "tile"), ("convolve", "correlate"), ("cumsum", "sum"),
             ("cumprod", "prod"), ("zeros", "ones", "empty"), ("zeros_like", "ones_like", "empty_like"),
             # "close enough" where equal was meant: a tie of values a millionth apart
             ("isclose", "equal"), ("allclose", "array_equal"),
             # a DataFrame walked by its columns where its rows were meant (or the other way round)
             ("items", "iterrows"),
             # the positions of nonzero cells as one array per axis where (i, j) pairs were meant
             ("nonzero", "argwhere"))
_FUNCTION_SWAPS = tuple((old, new) for family in _FAMILIES for old in family for new in family if old != new) + (
    # one way only: an `np.matrix` (always 2-D, `*` a matrix product) where an array was meant, never
    # the other way (a matrix's rows of one row would repair a 1-D slip by coincidence)
    ("asmatrix", "asarray"), ("matrix", "array"))
_TRANSPOSES = ("transpose", "swapaxes", "permute", "moveaxis")
_PRODUCTS = ("dot", "matmul", "inner")
_SWAPPED = (0, 1, 2, -1, -2, -3)
_AXIS_PAIRS = ((0, 1), (0, 2), (1, 2), (-1, -2))


Span = tuple[object, object, object, object]  # a node's first line and column, last line and column


def clone(node: ast.AST) -> ast.AST:
    """A deep copy of a syntax tree, as `copy.deepcopy` makes it but several times faster (an edit
    is made on a copy, thousands of times per search): nodes and lists are copied, the values they
    hold (names, constants: all immutable) shared."""
    made = node.__class__.__new__(node.__class__)
    fields = made.__dict__
    for key, value in node.__dict__.items():
        if isinstance(value, ast.AST):
            value = clone(value)
        elif type(value) is list:
            value = [clone(item) if isinstance(item, ast.AST) else item for item in value]
        fields[key] = value
    return made


def span_of(node: ast.AST) -> Span:
    """Where `node` stands in the function's text (two nodes of one span are one value)."""
    return (getattr(node, "lineno", None), getattr(node, "col_offset", None), getattr(node, "end_lineno", None),
            getattr(node, "end_col_offset", None))


@dataclass(frozen=True, kw_only=True)
class Scope:
    """What the edits may use besides the node: the function's own names (parameters and locals),
    and the module's names that rebind a built-in (`sum = ...` in a later cell)."""

    local_names: tuple[str, ...]
    rebound_builtins: frozenset[str] = frozenset()
    loop_names: tuple[str, ...] = ()  # the names a `for` of the function binds
    list_names: frozenset[str] = frozenset()  # the names bound to a list (`outputs = []`)
    dict_names: frozenset[str] = frozenset()  # the names bound to a dict (`found = {}`)
    unread_names: tuple[str, ...] = ()  # the locals assigned and never read
    elements: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # names indexed by a number, the numbers to try
    held: frozenset[Span] = frozenset()  # the spans of the values indexed, called or read an attribute of
    module_functions: frozenset[str] = frozenset()  # the other functions the submission defines at its top
    # (line, column) of a loop's `range(...)`: the (array, axis) its variable indexes
    loop_ranges: Mapping[tuple[int, int], tuple[tuple[str, int], ...]] = field(default_factory=dict)
    strides: Mapping[str, ast.expr] = field(default_factory=dict)  # a loop's name counting by a step: the step
    indexed_by_name: tuple[str, ...] = ()  # the names the function indexes by a name (`words[i]`)
    # an index 0 or 1 inside a loop (`H[0]` in `for h in ...`): the names of the loops around it
    fixed_in_loops: Mapping[Span, tuple[str, ...]] = field(default_factory=dict)
    position_loop_names: frozenset[str] = frozenset()  # loop names bound to a tuple position (`np.ndindex`)
    numpy_name: str | None = None  # the name the function reads numpy by (`np`), if it does
    # the places of the subscripts written to with a value that reads a loop's name (`table[i, j] = Q[i] @ K[j]`)
    varying_targets: frozenset[Span] = frozenset()
    # the places of whole numbers that are a result (an `if`-expression's branch, a lambda's body, a
    # `return`, `np.full`'s fill): their type may become the array's (`np.vectorize` keeps its first result's)
    result_integers: frozenset[Span] = frozenset()
    # the function's own name and its positional parameters: a call of itself passes them on
    own_name: str = ""
    parameters: tuple[str, ...] = ()


Rewrite = tuple[EditKind, Callable[[ast.AST], ast.AST | None]]


def rewrites(node: ast.AST, scope: Scope) -> Iterator[Rewrite]:
    if isinstance(node, ast.BinOp):
        yield from _binop_rewrites(node)
    elif isinstance(node, ast.Attribute):
        yield from _attribute_rewrites(node)
    elif isinstance(node, ast.Call):
        yield from _call_rewrites(node, scope.module_functions)
        if isinstance(node.func, ast.Name) and node.func.id == scope.own_name and scope.own_name:
            yield from _recursion_rewrites(node, scope.parameters)
        if isinstance(node.func, ast.Name) and node.func.id == "int" and len(node.args) == 1 and not node.keywords \
                and isinstance(node.args[0], ast.Name) and node.args[0].id in scope.loop_names:
            yield from _item_of(node.args[0].id, scope)  # `int(j)` where `words[j]` was meant
        if isinstance(node.func, ast.Name) and node.func.id == "range" and len(node.args) == 1 and not node.keywords:
            # a loop that should skip its first turn (a sum seeded with the first term, then every
            # term added again)
            yield "loop_start", lambda n: _set(n, "args", [ast.Constant(1), n.args[0]])  # type: ignore[attr-defined]
        for name, axis in scope.loop_ranges.get((node.lineno, node.col_offset), ()):
            # `for j in range(n)` where `j` indexes an axis of another length (`Q[:, j]`): `range(Q.shape[1])`
            yield "loop_range", (lambda a, k: lambda n: _set(n, "args", [
                _shape_at(ast.Name(id=a, ctx=ast.Load()), ast.Constant(k))]))(name, axis)
    elif isinstance(node, ast.Constant):
        yield from _constant_rewrites(node)
        if type(node.value) in (int, float) and node.value == 0 and scope.numpy_name is not None:
            # a zero that was to be neutral for a maximum or stand for a hidden cell (`initial=0`,
            # `np.where(mask, s, 0)`): minus or plus infinity
            for text in ("-inf", "inf"):
                yield "constant", (lambda t, m: lambda _n: _named_number(t, m))(text, scope.numpy_name)
        if type(node.value) is int and span_of(node) in scope.result_integers:
            # `lambda v: 1 if v == m else math.exp(v - m)` in np.vectorize: an int first result makes every result an int
            yield "whole_number", lambda n: ast.Constant(value=float(n.value))  # type: ignore[attr-defined]
        for name in scope.fixed_in_loops.get(span_of(node), ()):  # `H[0]` on every pass where `H[h]` was meant
            yield "fixed_in_loop", (lambda o: lambda n: ast.Name(id=o, ctx=ast.Load()))(name)
        if isinstance(node.value, int) and not isinstance(node.value, bool) and node.value >= 2:
            for name in scope.local_names:  # a number written where a parameter was meant (2 heads)
                yield "hard_coded", (lambda o: lambda n: ast.Name(id=o, ctx=ast.Load()))(name)
    elif isinstance(node, ast.Compare):
        yield from _compare_rewrites(node)
    elif isinstance(node, ast.AugAssign):
        # `Q @= W_Q` where `Q` is the caller's array (or has another shape): a new array was meant
        yield "in_place", lambda n: ast.Assign(targets=[_loaded_as_target(n.target)],  # type: ignore[attr-defined]
                                               value=ast.BinOp(left=_loaded(n.target), op=n.op,  # type: ignore[attr-defined]
                                                               right=n.value), lineno=n.lineno)  # type: ignore[attr-defined]
    elif isinstance(node, ast.BoolOp) and len(node.values) >= 2:
        for index in range(len(node.values)):
            yield "condition_removed", (lambda k: lambda n: _without_value(n, k))(index)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.Not, ast.USub)):
        yield "negation", lambda n: n.operand  # type: ignore[attr-defined]
        if isinstance(node.op, ast.Invert) and isinstance(node.operand, ast.Compare):
            # `~(j > i)` on two numbers: `~True` is -2 and `~False` is -1, both true
            yield "bitwise_not", lambda n: ast.UnaryOp(op=ast.Not(), operand=n.operand)  # type: ignore[attr-defined]
    elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        yield from _name_rewrites(node, scope)
    elif isinstance(node, ast.GeneratorExp):
        # a generator where its values were meant (`np.vstack(r @ V for r in w)`, `np.array(...)`)
        yield "generator", lambda n: ast.ListComp(elt=n.elt, generators=n.generators)  # type: ignore[attr-defined]
    elif isinstance(node, ast.Tuple) and len(node.elts) == 1 and isinstance(node.ctx, ast.Load):
        yield "trailing_comma", lambda n: n.elts[0]  # type: ignore[attr-defined]  # `return (a, b),`
    elif isinstance(node, (ast.Tuple, ast.List)) and 2 <= len(node.elts) <= 4:
        # `(Q, K, V)` returned, or `np.choose(index, [scores, -np.inf])` given, in another order
        kind: EditKind = "unpacking_order" if isinstance(node.ctx, ast.Store) else "order"
        for i, j in itertools.combinations(range(len(node.elts)), 2):
            yield kind, _swapped("elts", i, j)
    elif isinstance(node, ast.Slice):
        yield from _slice_rewrites(node, scope.loop_names)
    elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        yield "index_removed", lambda n: n.value  # type: ignore[attr-defined]  # x[None], K[0]: one indexing too many
        yield from _subscript_rewrites(node, scope.loop_names)
        if isinstance(node.slice, ast.Name) and node.slice.id in scope.position_loop_names:
            # `mask[idx]` with `idx` a position of more axes than `mask` has (a 2-D mask, the
            # positions of 3-D scores): the position's last parts were meant
            for part in (ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=1)), ast.Slice(lower=ast.Constant(value=1))):
                yield "index_dropped", (lambda q: lambda n: _set(n, "slice", ast.Subscript(
                    value=ast.Name(id=n.slice.id, ctx=ast.Load()), slice=copy.deepcopy(q), ctx=ast.Load())))(part)
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2:
        for position in range(2):  # `out[i, j] += w * V[j]`: written into a cell where the row was meant
            if not isinstance(node.slice.elts[position], ast.Slice):
                yield "index_dropped", (lambda k: lambda n: _set(n, "slice", n.slice.elts[1 - k]))(position)
        # `mask[i, i + 1] = False` widened to `i + 1:` is a range meant; a value of the loop's own
        # (`table[i, j] = q @ k`) written over a range is right only where a later pass writes over it
        if span_of(node) not in scope.varying_targets:
            yield from _range_rewrites(node.slice)
    elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.slice, (ast.Name, ast.BinOp)):
        # `out[c] = weights @ V[:, c]`: a row written where the column `out[:, c]` was meant
        yield "index_axis", lambda n: _set(n, "slice", ast.Tuple(elts=[ast.Slice(), n.slice], ctx=ast.Load()))  # type: ignore[attr-defined]
        if isinstance(node.slice, ast.Name):
            for name in scope.loop_names:  # `table[i] = q @ k` in a loop over `j` too: the cell `table[i, j]`
                if name != node.slice.id:
                    yield "index_added", (lambda o: lambda n: _set(
                        n, "slice", ast.Tuple(elts=[n.slice, ast.Name(id=o, ctx=ast.Load())], ctx=ast.Load())))(name)
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Call) \
            and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _COPYING_METHODS:
        # `table.flatten()[k] = v`: written into the new array the call makes, lost at the line's end
        yield "written_into_copy", lambda n: _set(n, "value", _view_of(n.value))  # type: ignore[attr-defined]
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Subscript) \
            and not isinstance(node.slice, ast.Tuple) and not isinstance(node.value.slice, ast.Tuple):
        # `merged[:, cols][k] = v`, `frame[j][i] = v`: written into the copy the first index makes (a list
        # or mask as an index, a DataFrame's column under copy-on-write), where one index of both was meant
        yield "written_into_copy", lambda n: ast.Subscript(
            value=n.value.value, slice=ast.Tuple(elts=[n.value.slice, n.slice], ctx=ast.Load()), ctx=ast.Store())  # type: ignore[attr-defined]
        yield "written_into_copy", lambda n: ast.Subscript(
            value=ast.Attribute(value=n.value.value, attr="loc", ctx=ast.Load()),  # type: ignore[attr-defined]
            slice=ast.Tuple(elts=[n.slice, n.value.slice], ctx=ast.Load()), ctx=ast.Store())  # type: ignore[attr-defined]
    if isinstance(node, ast.Tuple) and isinstance(node.ctx, ast.Store) and any(isinstance(e, ast.Starred) for e in node.elts):
        # `Q, *K, V = make_qkv(...)`: a list of the middle values where one value was meant
        yield "starred", lambda n: _set(n, "elts", [e.value if isinstance(e, ast.Starred) else e for e in n.elts])  # type: ignore[attr-defined]
    if isinstance(node, ast.Subscript):
        yield from _scaled_positions(node, scope)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id in scope.strides:
        step = scope.strides[node.slice.id]  # `heads[start]` in `for start in range(0, d, w)`: the pass's number
        yield "loop_stride", lambda n: _set(n, "slice", ast.BinOp(left=n.slice, op=ast.FloorDiv(), right=copy.deepcopy(step)))  # type: ignore[attr-defined]
    if _is_size(node):
        yield from _size_rewrites(node)
    if isinstance(node, ast.Return) and node.value is not None:
        yield from _returned_rewrites(node, scope)
    if isinstance(node, (ast.Return, ast.Assign)) and isinstance(node.value, ast.GeneratorExp):
        for container in ("tuple", "list"):  # a generator returned where its values were meant
            yield "call_added", (lambda c: lambda n: _with_value_in(n, c))(container)
    if isinstance(node, (ast.Return, ast.Assign)) and node.value is not None and not isinstance(node.value, ast.Tuple):
        made = isinstance(node.value, ast.Call) and called_name(node.value)[0] in _ALLOCATIONS
        for function in WRAPPERS:
            # An array made from nothing through exp or abs is another constant array (exp of
            # zeros: ones, and floats): right by coincidence, never the missing step.
            if not (made and function in _ELEMENTWISE):
                yield "call_added", (lambda f: lambda n: _with_value_wrapped(n, f))(function)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop" \
            and not node.keywords and (not node.args or (len(node.args) == 1 and _is_zero(node.args[0]))):
        # `pending.pop()` takes the last item where the first was meant, and `pop(0)` the other way
        yield "pop_end", lambda n: _set(n, "args", [] if n.args else [ast.Constant(value=0)])  # type: ignore[attr-defined]
    if isinstance(node, (ast.Return, ast.Assign)) and isinstance(node.value, (ast.Call, ast.Compare)) \
            and not (isinstance(node.value, ast.Call) and called_name(node.value)[0] in _ALLOCATIONS):
        # `attn_mask = np.triu(ones, k=1)`: True on the cells to hide, where the visible ones were
        # meant (an array made from nothing, negated, is another such array: never the slip)
        yield "negation_added", lambda n: _set(n, "value", ast.UnaryOp(op=ast.Invert(), operand=n.value))  # type: ignore[attr-defined]
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Compare) and len(node.value.ops) == 1 \
            and isinstance(node.value.ops[0], ast.Eq) and isinstance(node.value.left, (ast.Name, ast.Subscript)):
        # `mask[i, j] == False` as a statement: compared and dropped where it was to be assigned
        yield "comparison_as_assignment", lambda n: ast.Assign(targets=[_loaded_as_target(n.value.left)], value=n.value.comparators[0],  # type: ignore[attr-defined]
                                                               lineno=n.lineno)  # type: ignore[attr-defined]
    if isinstance(node, (ast.Break, ast.Continue)):  # `break` where `continue` was meant, and the other way round
        yield "loop_control", lambda n: ast.Continue() if isinstance(n, ast.Break) else ast.Break()
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name) \
            and node.target.id in scope.list_names:
        # `rows += K @ q`: a list extended by the array's elements where the row was to be appended
        yield "list_extended", lambda n: ast.Expr(value=ast.Call(
            func=ast.Attribute(value=ast.Name(id=n.target.id, ctx=ast.Load()), attr="append", ctx=ast.Load()),  # type: ignore[attr-defined]
            args=[n.value], keywords=[]), lineno=n.lineno)  # type: ignore[attr-defined]
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) and scope.numpy_name is not None \
            and type(node.op) in _AT_UFUNCS and not isinstance(node.target.slice, ast.Slice):
        # `out[rows] += terms` with `rows` repeating a position: numpy reads, adds and writes each
        # position once, so one term of each repeated position is kept; `np.add.at` adds every one
        ufunc, numpy = _AT_UFUNCS[type(node.op)], scope.numpy_name
        yield "repeated_index", (lambda u, m: lambda n: ast.Expr(value=ast.Call(
            func=ast.Attribute(value=ast.Attribute(value=ast.Name(id=m, ctx=ast.Load()), attr=u, ctx=ast.Load()),
                               attr="at", ctx=ast.Load()),
            args=[_loaded(n.target.value), n.target.slice, n.value], keywords=[]), lineno=n.lineno))(ufunc, numpy)
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        for name in scope.loop_names:  # `out += w * V[j]` where the row `out[i] += ...` was meant
            yield "index_added", (lambda o: lambda n: ast.AugAssign(
                target=ast.Subscript(value=ast.Name(id=n.target.id, ctx=ast.Load()), slice=ast.Name(id=o, ctx=ast.Load()),
                                     ctx=ast.Store()), op=n.op, value=n.value, lineno=n.lineno))(name)
    if isinstance(node, ast.For):
        yield from _loop_unpacking_rewrites(node)
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
            and node.targets[0].id in scope.loop_names:
        # `row = np.exp(row)` in `for row in x:`: a new array for the name, the walked one unchanged
        yield "loop_variable_rebound", lambda n: _set(n, "targets", [ast.Subscript(
            value=ast.Name(id=n.targets[0].id, ctx=ast.Load()), slice=ast.Slice(), ctx=ast.Store())])  # type: ignore[attr-defined]
    if isinstance(node, ast.Lambda):
        yield from _late_binding_rewrites(node, scope.loop_names)
    if isinstance(node, (ast.For, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        yield from _loop_name_rewrites(node, scope)
        yield from _walked_forwards_rewrites(node)
    if isinstance(node, ast.ListComp) and len(node.generators) == 1 and not node.generators[0].ifs \
            and isinstance(node.generators[0].iter, ast.Call) and called_name(node.generators[0].iter) == ("range", False) \
            and len(node.generators[0].iter.args) == 1 \
            and not set(target_names(node.generators[0].target)) & {n.id for n in ast.walk(node.elt) if isinstance(n, ast.Name)}:
        # `[iter(cols) for _ in range(k)]`: k objects made where one object k times was meant (`zip(*[it] * k)`
        # reads one iterator k items at a time)
        yield "copies_made", lambda n: ast.BinOp(left=ast.List(elts=[n.elt], ctx=ast.Load()), op=ast.Mult(),  # type: ignore[attr-defined]
                                                 right=n.generators[0].iter.args[0])  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and isinstance(node.left, ast.List) \
            and len(node.left.elts) == 1 and isinstance(node.left.elts[0], (ast.List, ast.Call, ast.ListComp, ast.BinOp)):
        # `[[0] * n] * n`, `[np.zeros(d)] * n`: one object k times where k objects were meant
        yield "copies_made", lambda n: ast.ListComp(elt=n.left.elts[0], generators=[ast.comprehension(  # type: ignore[attr-defined]
            target=ast.Name(id="_", ctx=ast.Store()), iter=ast.Call(func=ast.Name(id="range", ctx=ast.Load()),
                                                                   args=[n.right], keywords=[]), ifs=[], is_async=0)])  # type: ignore[attr-defined]
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and len(node.generators) == 2:
        yield "clauses_swapped", lambda n: _set(n, "generators", n.generators[::-1])  # type: ignore[attr-defined]
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield from _discarded_rewrites(node.value)
        call = node.value
        if isinstance(call.func, ast.Attribute) and call.func.attr == "put" and isinstance(call.func.value, ast.Name) \
                and call.func.value.id == scope.numpy_name and len(call.args) == 3 and not call.keywords:
            # `np.put(out, i, row)`: put's positions count the flattened array, where a row (or the
            # cells of an index pair) `out[i] = row` was meant
            yield "flat_index", lambda n: ast.Assign(targets=[ast.Subscript(
                value=n.value.args[0], slice=n.value.args[1], ctx=ast.Store())], value=n.value.args[2], lineno=n.lineno)  # type: ignore[attr-defined]
    if isinstance(node, ast.Expr) and not isinstance(node.value, (ast.Call, ast.Constant, ast.Await, ast.Yield, ast.YieldFrom)):
        # a value computed and dropped (`e / e.sum()` without `return`)
        yield "return_missing", lambda n: ast.Return(value=n.value, lineno=n.lineno)  # type: ignore[attr-defined]
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) <= 3:
        for name in scope.unread_names:  # `return Q, K` with `V` computed and never read
            yield "returned_missing", (lambda o: lambda n: ast.Return(value=ast.Tuple(
                elts=[*n.value.elts, ast.Name(id=o, ctx=ast.Load())], ctx=ast.Load()), lineno=n.lineno))(name)
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and 2 <= len(node.value.elts) <= 4:
        for position in range(len(node.value.elts)):  # `return e / total, total`: one value too many
            yield "returned_extra", (lambda k: lambda n: ast.Return(value=_without_element(n.value, k), lineno=n.lineno))(position)
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
            and node.value.func.attr in _IN_PLACE_METHODS and isinstance(node.value.func.value, ast.Name) \
            and node.value.func.value.id == node.targets[0].id:
        # `rows = rows.append(r)`: the method changes the list and returns None
        yield "assigned_none", lambda n: ast.Expr(value=n.value, lineno=n.lineno)  # type: ignore[attr-defined]
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
            and node.targets[0].id not in {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}:
        # `start = d_head` where `start += d_head` was meant
        for operator in (ast.Add, ast.Sub):
            yield "accumulate", (lambda o: lambda n: ast.AugAssign(target=n.targets[0], op=o(), value=n.value,
                                                                   lineno=n.lineno))(operator)
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and _is_slice_store(node.targets[0]):
        # `Q[:] = X @ W_Q` into an array another name shares (`Q = K = V = np.zeros(...)`) or of
        # another shape: the name bound to the new array was meant
        yield "in_place", lambda n: ast.Assign(targets=[ast.Name(id=n.targets[0].value.id, ctx=ast.Store())],  # type: ignore[attr-defined]
                                               value=n.value, lineno=n.lineno)  # type: ignore[attr-defined]
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
            and any(k.arg == "out" and isinstance(k.value, ast.Name) for k in node.value.keywords):
        # `np.matmul(X, W_Q, out=Q)` into an array another name shares (`Q = K = V = np.zeros(...)`)
        # or of another shape: the name bound to the call's new array was meant
        yield "in_place", _out_as_assignment
    if isinstance(node, ast.stmt) and not isinstance(node, ast.Return):
        yield "statement_removed", lambda n: None


def _returned_rewrites(node: ast.Return, scope: Scope) -> Iterator[Rewrite]:
    """An expression returned where one of the function's own names was meant (the weights
    computed again, unscaled, instead of `weights`)."""
    items = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
    for position, item in enumerate(items):
        if isinstance(item, ast.Name):
            continue  # a name returned is the name's own edit
        for name in scope.local_names:
            def rewrite(n: ast.AST, position: int = position, name: str = name) -> ast.AST:
                assert isinstance(n, ast.Return)
                if isinstance(n.value, ast.Tuple):
                    n.value.elts[position] = ast.Name(id=name, ctx=ast.Load())
                else:
                    n.value = ast.Name(id=name, ctx=ast.Load())
                return n
            yield "returned_value", rewrite


def _binop_rewrites(node: ast.BinOp) -> Iterator[Rewrite]:
    summed = _spelled_out_sum(node)
    if summed is not None:  # `e[..., 0] + e[..., 1] + e[..., 2]`: right only for three columns
        yield "spelled_out", (lambda s: lambda n: clone(s))(summed)
    if isinstance(node.op, _NOT_COMMUTATIVE):
        yield "operand_order", lambda n: ast.BinOp(left=n.right, op=n.op, right=n.left)  # type: ignore[attr-defined]
    for old, new in _OPERATOR_SWAPS:
        if type(node.op) is old:
            yield "operator", _with_operator(new)
    if isinstance(node.op, ast.Mult):
        # `np.exp(s - m) * visible`: cells cleared by a product with the mask, where an inf or
        # nan in them stays nan (inf × 0); choosing them was meant
        for side, other in (("left", "right"), ("right", "left")):
            if isinstance(getattr(node, side), ast.Name) and isinstance(getattr(node, other), ast.Call):
                yield "mask_product", (lambda s, o: lambda n: _numpy_call(
                    "where", [getattr(n, s), getattr(n, o), ast.Constant(value=0)]))(side, other)
    if isinstance(node.op, (ast.BitAnd, ast.BitOr)):  # `(j <= i) & (j >= i - 1)`: a condition too many
        yield "condition_removed", lambda n: n.left  # type: ignore[attr-defined]
    if isinstance(node.op, _ELEMENTWISE_OPERATORS):
        # `weights[:, j] * V[j]`: a column times a row, one of them without the axis it broadcasts on
        for side in ("left", "right"):
            if isinstance(getattr(node, side), (ast.Name, ast.Subscript, ast.Call, ast.Attribute)):
                for where in _NEW_AXES:
                    yield "axis_added", (lambda s, w: lambda n: _set(n, s, _new_axis(getattr(n, s), w)))(side, where)
        if isinstance(node.left, ast.Compare):  # `(j <= i) * (j >= i - 1)`: a condition too many
            yield "condition_removed", lambda n: n.right  # type: ignore[attr-defined]
        elif isinstance(node.op, (ast.Add, ast.Mult)):  # `m + log(total)`: the first term too many
            yield "term_removed", lambda n: n.right  # type: ignore[attr-defined]
    if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv)):
        yield "term_removed", lambda n: n.left  # type: ignore[attr-defined]
        if not isinstance(node.op, (ast.Sub, ast.Div, ast.Pow, ast.FloorDiv)):
            yield "term_removed", lambda n: n.right  # type: ignore[attr-defined]
    if isinstance(node.left, ast.BinOp):  # (a ∘ b) • c  →  a ∘ (b • c): `d_k ** 1/2` is (d_k ** 1) / 2
        yield "grouping", lambda n: ast.BinOp(left=n.left.left, op=n.left.op,  # type: ignore[attr-defined]
                                              right=ast.BinOp(left=n.left.right, op=n.op, right=n.right))  # type: ignore[attr-defined]
    if isinstance(node.left, ast.BinOp) and isinstance(node.left.right, ast.BinOp):
        # (a ∘ (b • c)) ⋄ d  →  a ∘ (b • (c ⋄ d)): `S / d_k ** 1 / 2` meant as S / d_k ** (1 / 2)
        yield "grouping", lambda n: ast.BinOp(
            left=n.left.left, op=n.left.op,  # type: ignore[attr-defined]
            right=ast.BinOp(left=n.left.right.left, op=n.left.right.op,  # type: ignore[attr-defined]
                            right=ast.BinOp(left=n.left.right.right, op=n.op, right=n.right)))  # type: ignore[attr-defined]
    if isinstance(node.right, ast.BinOp):
        yield "grouping", lambda n: ast.BinOp(left=ast.BinOp(left=n.left, op=n.op, right=n.right.left),  # type: ignore[attr-defined]
                                              op=n.right.op, right=n.right.right)  # type: ignore[attr-defined]
    if isinstance(node.left, ast.Call) and len(node.left.args) == 1 and isinstance(node.op, (ast.Sub, ast.Div, ast.Add)):
        # exp(x) - max  →  exp(x - max): the maximum subtracted after the exponential
        yield "order_of_operations", lambda n: ast.Call(
            func=n.left.func, args=[ast.BinOp(left=n.left.args[0], op=n.op, right=n.right)],  # type: ignore[attr-defined]
            keywords=n.left.keywords)  # type: ignore[attr-defined]
    if isinstance(node.op, ast.Div) and not (isinstance(node.right, ast.Call) and called_name(node.right)[0] == "sqrt"):
        yield "square_root", lambda n: ast.BinOp(left=n.left, op=ast.Div(),  # type: ignore[attr-defined]
                                                 right=_numpy_call("sqrt", [n.right]))  # type: ignore[attr-defined]
    if isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Constant) and node.left.value in (2, 10, 2.0, 10.0):
        yield "function", lambda n: _numpy_call("exp", [n.right])  # type: ignore[attr-defined]  # 2 ** x for e ** x
    if isinstance(node.op, ast.MatMult) and (_is_short_transpose(node.left) or _is_short_transpose(node.right)):
        yield "transpose_moved", _transpose_moved
    if isinstance(node.op, ast.MatMult) and _is_short_transpose(node.left) and _is_short_transpose(node.right):
        # A.T @ B.T is (B @ A).T: the product in the other order, both transposes left out
        yield "product_transposed", lambda n: ast.BinOp(left=n.right.value, op=ast.MatMult(),  # type: ignore[attr-defined]
                                                        right=n.left.value)  # type: ignore[attr-defined]
    if isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            if _is_transpose(getattr(node, side)):
                continue  # a transpose there already: its removal is that node's own edit
            yield "transpose_added", _transposed_side(side, short=True)
            yield "transpose_added", _transposed_side(side, short=False)


def _is_transpose(node: ast.expr) -> bool:
    return _is_short_transpose(node) or (isinstance(node, ast.Call) and called_name(node)[0] in _TRANSPOSES)


def _is_short_transpose(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "T"


def _transpose_moved(n: ast.AST) -> ast.AST:
    """Q.T @ K → Q @ K.T (and back): the transpose on the other operand."""
    assert isinstance(n, ast.BinOp)
    left, right = n.left, n.right
    if _is_short_transpose(left):
        assert isinstance(left, ast.Attribute)
        return ast.BinOp(left=left.value, op=ast.MatMult(), right=ast.Attribute(value=right, attr="T", ctx=ast.Load()))
    assert isinstance(right, ast.Attribute)
    return ast.BinOp(left=ast.Attribute(value=left, attr="T", ctx=ast.Load()), op=ast.MatMult(), right=right.value)


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


def _without_value(node: ast.AST, index: int) -> ast.AST:
    assert isinstance(node, ast.BoolOp)
    kept = [value for k, value in enumerate(node.values) if k != index]
    return kept[0] if len(kept) == 1 else ast.BoolOp(op=node.op, values=kept)


def _pad_one_axis(node: ast.AST, *, last: bool) -> ast.AST:
    """`np.pad(x, (a, b))` as `np.pad(x, ((0, 0), (a, b)))` (`last`) or `((a, b), (0, 0))`."""
    assert isinstance(node, ast.Call)
    pair = node.args[1]
    none = ast.Tuple(elts=[ast.Constant(0), ast.Constant(0)], ctx=ast.Load())
    node.args[1] = ast.Tuple(elts=[none, pair] if last else [pair, none], ctx=ast.Load())
    return node


def _with_arguments(values: tuple[int, ...]) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call)
        n.args = [ast.Constant(value) for value in values]
        return n
    return rewrite


def _transposed_argument(position: int, *, short: bool) -> Callable[[ast.AST], ast.AST]:
    def rewrite(n: ast.AST) -> ast.AST:
        assert isinstance(n, ast.Call)
        n.args[position] = _transposed(n.args[position], short=short)
        return n
    return rewrite


# numpy's named numbers (`np.nan` written where `-np.inf` was meant), each with the others a
# student takes it for.
_NAMED_NUMBERS = {"nan": ("-inf", "inf", "0.0"), "inf": ("-inf", "nan", "0.0"), "NINF": ("inf", "nan", "0.0"),
                  "NaN": ("-inf", "inf", "0.0"), "pi": ("e",), "e": ("pi",)}


def _named_number(text: str, module: str) -> ast.expr:
    """`text` ("-inf") as the student's own `module` names it (`-math.inf` in a file of `math`)."""
    if text == "0.0":
        return ast.Constant(0.0)
    number = ast.Attribute(value=ast.Name(id=module, ctx=ast.Load()), attr=text.lstrip("-"), ctx=ast.Load())
    return ast.UnaryOp(op=ast.USub(), operand=number) if text.startswith("-") else number


def _attribute_rewrites(node: ast.Attribute) -> Iterator[Rewrite]:
    if node.attr in _UFUNCS and isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy") \
            and isinstance(node.ctx, ast.Load):
        for other in _UFUNCS:  # `np.add.outer` where `np.multiply.outer` was meant
            if other != node.attr:
                yield "function", (lambda o: lambda n: ast.Attribute(value=n.value, attr=o, ctx=ast.Load()))(other)
    if node.attr in _INDEXERS and isinstance(node.ctx, ast.Load):
        # pandas' `.loc` by label where `.iloc` by position was meant, and the other way round
        yield "function", lambda n: ast.Attribute(value=n.value, attr=_INDEXERS[n.attr], ctx=ast.Load())  # type: ignore[attr-defined]
    if isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy", "math") and node.attr in _NAMED_NUMBERS \
            and isinstance(node.ctx, ast.Load):
        for other in _NAMED_NUMBERS[node.attr]:
            yield "constant", (lambda o, m: lambda _n: _named_number(o, m))(other, node.value.id)
    if node.attr == "T" and isinstance(node.ctx, ast.Load):
        yield "transpose_removed", lambda n: n.value  # type: ignore[attr-defined]
        yield "transpose_axes", lambda n: _transposed(n.value, short=False)  # type: ignore[attr-defined]
        yield "transpose_axes", lambda n: ast.Call(
            func=ast.Attribute(value=n.value, attr="swapaxes", ctx=ast.Load()),  # type: ignore[attr-defined]
            args=[ast.Constant(0), ast.Constant(1)], keywords=[])


def called_name(node: ast.Call) -> tuple[str, bool]:
    """The called function's last name, and whether it is a method of a value (`x.sum`) rather
    than a module's function (`np.sum`, `sum`)."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id, False
    if isinstance(func, ast.Attribute):
        module = isinstance(func.value, ast.Name) and func.value.id in ("np", "numpy", "math", "torch", "F", "scipy")
        return func.attr, not module
    return "", False


def _call_rewrites(node: ast.Call, own: frozenset[str] = frozenset()) -> Iterator[Rewrite]:
    name, is_method = called_name(node)
    if _unary_module_call(node) and _unary_module_call(node.args[0]) \
            and not isinstance(cast(ast.Call, node.args[0]).args[0], ast.Call):
        # `np.sqrt(np.reciprocal(d_k))` for `np.reciprocal(np.sqrt(d_k))`: two functions of one
        # value applied in the other order (the reciprocal of an integer is 0 or 1); not of an
        # array made on the spot (`np.fliplr(np.triu(np.ones(...)))`: flipping ones changes nothing)
        yield "order_of_operations", _calls_swapped
    if name == "pad" and not is_method and len(node.args) >= 2 and isinstance(node.args[1], ast.Tuple) \
            and len(node.args[1].elts) == 2 and not any(isinstance(e, (ast.Tuple, ast.List)) for e in node.args[1].elts):
        # `np.pad(H[h], (left, right))`: numpy applies one (before, after) pair to every axis, the
        # rows too, where one axis was to be padded
        for last in (True, False):
            yield "pad_width", (lambda k: lambda n: _pad_one_axis(n, last=k))(last)
    if name == "sum" and not is_method and not node.keywords and (len(node.args) == 1 or (
            len(node.args) == 2 and isinstance(node.args[1], (ast.List, ast.Tuple)) and not node.args[1].elts)) \
            and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp, ast.List)):
        # `sum(H[h, i] for h in ...)`: the pieces added where they were to be joined side by side;
        # `sum((list(h) for h in H), [])`: lists added end to end, rows after rows
        yield "joined", _joined
    if name in ("concatenate", "hstack", "vstack", "stack", "column_stack") and len(node.args) == 1 \
            and isinstance(node.args[0], (ast.List, ast.ListComp, ast.GeneratorExp, ast.Name)):
        # `np.concatenate(heads, axis=1)`: the pieces joined side by side where they were to be added
        yield "added_up", lambda n: _numpy_call("sum", [_listed(n.args[0])], first_axis=True)  # type: ignore[attr-defined]
    yield from _dtype_rewrites(node, name, is_method)
    if name == "accumulate" and is_method and isinstance(node.func, ast.Attribute):
        # `np.maximum.accumulate(x, axis=-1)`: a running maximum where the row's was meant
        def reduced(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            n.func.attr = "reduce"
            n.keywords = [k for k in n.keywords if k.arg != "keepdims"] + [
                ast.keyword(arg="keepdims", value=ast.Constant(True))]
            return n
        yield "function", reduced
    if name in ("broadcast_to", "as_strided") and not is_method:
        # `filled = np.broadcast_to(scores, shape)` written into: numpy's view of it is read-only
        yield "read_only_view", lambda n: _numpy_call("array", [cast(ast.expr, n)])
    if name == "range" and not is_method and len(node.args) == 3 and _is_negative(node.args[2]):
        # `range(d_model - d, -1, -d)`: walked from the end where it was to start at the beginning
        yield "walked_backwards", lambda n: ast.Call(func=ast.Name(id="reversed", ctx=ast.Load()),
                                                     args=[cast(ast.expr, n)], keywords=[])
    if name in _TRANSPOSES:
        yield "transpose_removed", _receiver_or_first_argument(is_method)
        if name == "swapaxes" and is_method and len(node.args) == 2 and all(_literal(a) in _SWAPPED for a in node.args):
            # the two axes swapped, written as others: (1, 2) where the heads' (0, 1) was meant
            written = {_literal(a) for a in node.args}
            for pair in _AXIS_PAIRS:
                if set(pair) != written:
                    yield "transpose_axes", _with_arguments(pair)
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
        yield from _axis_rewrites(node, is_method, own)
    for old, new in _FUNCTION_SWAPS:
        # (not a product given keywords: `axes` means other things to tensordot and matmul, and a
        # rename that keeps it repairs by coincidence where the axes were the slip)
        if name == old and not (old in _PRODUCT_FAMILY and node.keywords):
            yield "function", _renamed_function(new)
    if name in _KEYWORD_DEFAULTS and not any(k.arg == _KEYWORD_DEFAULTS[name][0] for k in node.keywords):
        argument, default = _KEYWORD_DEFAULTS[name]
        given: ast.expr = ast.Name(id="int", ctx=ast.Load()) if default == "int" else ast.Constant(default)
        yield "keyword_added", lambda n: _set(n, "keywords", [*n.keywords, ast.keyword(arg=argument, value=given)])  # type: ignore[attr-defined]
    if name in _DIAGONAL_K and not is_method and len(node.args) <= _DIAGONAL_K[name] \
            and not any(k.arg == "k" for k in node.keywords):
        for offset in (1, -1):
            yield "diagonal_offset", lambda n, offset=offset: _set(  # type: ignore[misc]
                n, "keywords", [*n.keywords, ast.keyword(arg="k", value=ast.Constant(offset))])
    if not is_method and isinstance(node.func, ast.Name) and name in ("max", "min", "sum", "abs", "round") \
            and len(node.args) == 1 and not node.keywords:
        # Python's built-in on an array: over its first axis only (max, sum) or not at all
        yield "function", lambda n: _numpy_call(name, list(n.args))  # type: ignore[attr-defined]
        if name in ("max", "min", "sum"):
            yield "function", lambda n: _numpy_call(name, list(n.args), last_axis=True)  # type: ignore[attr-defined]
    if name == "len" and not is_method and len(node.args) == 1:
        for axis in (-1, 1):
            yield "axis", (lambda a: lambda n: _shape_at(n.args[0], ast.Constant(a)))(axis)
    for index, keyword in enumerate(node.keywords):
        if keyword.arg not in (None, "axis", "dim", "keepdims", "keepdim"):
            def without(n: ast.AST, index: int = index) -> ast.AST:
                assert isinstance(n, ast.Call)
                del n.keywords[index]
                return n
            yield "keyword_removed", without
    if name == "einsum" and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        explicit = _einsum_written_order(node.args[0].value)
        if explicit is not None:  # `einsum("qd,kd", Q, K)`: no `->`, so the output's letters go alphabetically
            yield "einsum_output", (lambda s: lambda n: _set(n, "args", [ast.Constant(s), *n.args[1:]]))(explicit)
        for spec in _einsum_variants(node.args[0].value):
            def respelled(n: ast.AST, spec: str = spec) -> ast.AST:
                assert isinstance(n, ast.Call)
                n.args[0] = ast.Constant(spec)
                return n
            yield "einsum", respelled
    if name == "zip" and not is_method and isinstance(node.func, ast.Name) and not node.keywords:
        # `zip(weights, V)` walks each table by its rows: a table to be walked by its columns
        for position, walked in enumerate(node.args[:3]):
            if isinstance(walked, ast.Name):
                yield "transpose_added", _transposed_argument(position, short=True)
    if name in _PRODUCTS and len(node.args) == 2 and not node.keywords:
        # np.dot(Q, K) for Q @ K.T: a transpose left out of a product written as a call
        for position in (0, 1):
            if not _is_transpose(node.args[position]):
                for short in (True, False):
                    yield "transpose_added", _transposed_argument(position, short=short)
    yield from _torch_rewrites(node, name, is_method)
    if not is_method and len(node.args) == 1 and isinstance(node.args[0], ast.Tuple) and 2 <= len(node.args[0].elts) <= 3:
        # `np.tri((n, n))`: a shape tuple where the function takes the sizes one by one
        yield "arguments_grouped", lambda n: _set(n, "args", list(n.args[0].elts))  # type: ignore[attr-defined]
    if not is_method and isinstance(node.func, ast.Attribute) and 2 <= len(node.args) <= 3 \
            and not any(isinstance(a, (ast.Starred, ast.Tuple)) for a in node.args):
        # `np.ones(n, n)`: the sizes one by one where the function takes one shape tuple
        yield "arguments_grouped", lambda n: _set(n, "args", [ast.Tuple(elts=list(n.args), ctx=ast.Load())])  # type: ignore[attr-defined]
    if not is_method and isinstance(node.func, ast.Attribute) and 3 <= len(node.args) <= 5 \
            and not any(isinstance(a, (ast.Starred, ast.Tuple)) for a in node.args[1:]):
        # `np.transpose(x, 1, 0, 2)`: the axes one by one, as the method takes them, where the function takes one tuple
        yield "arguments_grouped", lambda n: _set(n, "args", [n.args[0], ast.Tuple(elts=list(n.args[1:]), ctx=ast.Load())])  # type: ignore[attr-defined]
    of_math = isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == "math"
    if of_math and name in _MATH_TO_NUMPY:
        # math's functions take one number: on an array's rows they raise (or see one value)
        yield "math_on_array", lambda n: _numpy_call(_MATH_TO_NUMPY[name], list(n.args))  # type: ignore[attr-defined]
    if of_math and name in ("fsum", "prod") and len(node.args) == 1 and not node.keywords:
        # `math.fsum(w[i, j] * V[j] for j in ...)`: terms that are rows, added as numpy adds them
        yield "math_on_array", lambda n: _numpy_call(
            "sum" if name == "fsum" else "prod", [_listed(n.args[0])], first_axis=True)  # type: ignore[attr-defined]
    if name == "reshape" and is_method:
        yield "reshape_as_transpose", lambda n: _transposed(n.func.value, short=False)  # type: ignore[attr-defined]
        yield "reshape_as_transpose", lambda n: _transposed(n.func.value, short=True)  # type: ignore[attr-defined]
    if name == "linspace" and not is_method and len(node.args) >= 3 and not isinstance(node.args[2], ast.Starred):
        # `np.linspace(0, d, k)`: k points cut k - 1 pieces (a fence post)
        for delta in (1, -1):
            yield "count_shifted", _count_moved(delta)
    yield from _unknown_keywords(node)
    positional = [a for a in node.args if not isinstance(a, ast.Starred)]
    if name == "partial" and not is_method and len(positional) == len(node.args) >= 2:
        # `partial(split_heads, n_heads)`: a value bound to the first parameter, not to its namesake
        for position, bound in enumerate(node.args[1:], start=1):
            if isinstance(bound, ast.Name):
                yield "passed_by_name", _by_name(position, bound.id)
    if len(positional) == len(node.args) and 2 <= len(node.args) <= 4:
        for i, j in itertools.combinations(range(len(node.args)), 2):
            yield "arguments_swapped", _swapped("args", i, j)
    if is_method and isinstance(node.func, ast.Attribute) and name not in _TRANSPOSES:
        yield "call_removed", lambda n: n.func.value  # type: ignore[attr-defined]
    elif not is_method and len(node.args) >= 1 and name not in _TRANSPOSES and not isinstance(node.args[0], ast.Starred):
        yield "call_removed", lambda n: n.args[0]  # type: ignore[attr-defined]
    elif not is_method and len(node.args) == 1 and isinstance(node.args[0], ast.Starred) and not node.keywords:
        # `zip(*[X @ W for W in ...])`: the values walked in parallel where they were meant as they are
        yield "call_removed", lambda n: n.args[0].value  # type: ignore[attr-defined]
    if not is_method and len(node.args) >= 1 and isinstance(node.args[0], (ast.List, ast.Tuple)) \
            and len(node.args[0].elts) == 1 and not isinstance(node.args[0].elts[0], ast.Starred):
        # `np.hstack([H])`: one value put in a list, where the list of its parts was the value itself
        yield "wrapped_in_list", lambda n: _set(n, "args", [n.args[0].elts[0], *n.args[1:]])  # type: ignore[attr-defined]
    if name == "range" and node.args:
        for delta in (1, -1):
            yield "slice_bound", _range_end_moved(delta)
    if 2 <= len(node.args) <= 4 and not any(isinstance(a, ast.Starred) for a in node.args):
        for position in range(1, len(node.args)):  # `merge_heads(H, n_heads)`, `np.sqrt(d, 2)`
            yield "argument_removed", (lambda k: lambda n: _set(n, "args", [a for i, a in enumerate(n.args) if i != k]))(position)
    if name == "zip" and not is_method and len(node.args) == 1 and not isinstance(node.args[0], ast.Starred):
        # `zip(H)` where the heads side by side, `zip(*H)`, were meant
        yield "argument_unpacked", lambda n: _set(n, "args", [ast.Starred(value=n.args[0], ctx=ast.Load())])  # type: ignore[attr-defined]


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
        if called_name(n)[0] == "tensordot":
            n.keywords = [k for k in n.keywords if k.arg != "axes"]
            n.args = n.args[:2]
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
    name, _ = called_name(node)
    if name in REDUCTIONS or name in _ALSO_REDUCTIONS or name in ("argmax", "argmin", "concatenate", "stack"):
        if len(node.args) > position and not isinstance(node.args[position], ast.Starred):
            return "position", position
    return None


def _axis_rewrites(node: ast.Call, is_method: bool, own: frozenset[str] = frozenset()) -> Iterator[Rewrite]:
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
        # Of one of the student's own functions (which may take no axis at all: a keyword numpy's
        # softmax takes), the keyword left out is one that should not be passed, not an axis to check.
        theirs = isinstance(node.func, ast.Name) and node.func.id in own and where[0] == "keyword"
        yield ("keyword_removed" if theirs else "axis"), _without_axis(is_method)
    elif name_is_reduction(node) and not any(k.arg in ("keepdims", "keepdim") for k in node.keywords):
        def per_row(n: ast.AST) -> ast.AST:  # a reduction of the whole table where each row's was meant
            assert isinstance(n, ast.Call)
            n.keywords += _per_row()
            return n
        yield "axis", per_row


def _calls_swapped(node: ast.AST) -> ast.AST:
    """f(g(x)) as g(f(x)) (both `_unary_module_call`s)."""
    outer = cast(ast.Call, node)
    inner = cast(ast.Call, outer.args[0])
    return ast.Call(func=inner.func, args=[ast.Call(func=outer.func, args=inner.args, keywords=[])], keywords=[])


def _unary_module_call(node: ast.AST) -> bool:
    """Whether `node` is a module's function (`np.sqrt`, `math.exp`) called on one value, no keyword."""
    return isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
        and not isinstance(node.args[0], ast.Starred) and isinstance(node.func, ast.Attribute) \
        and not called_name(node)[1]


def name_is_reduction(node: ast.Call) -> bool:
    name, _ = called_name(node)
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
    """Torch's (or TensorFlow's) spelling of a numpy operation, in numpy's."""
    for index, keyword in enumerate(node.keywords):
        if keyword.arg in ("transpose_a", "transpose_b") and not is_method and len(node.args) == 2:
            def untransposed(n: ast.AST, index: int = index, side: int = 0 if keyword.arg == "transpose_a" else 1) -> ast.AST:
                assert isinstance(n, ast.Call)
                del n.keywords[index]
                n.args[side] = _transposed(n.args[side], short=True)
                return n
            yield "torch_idiom", untransposed
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
        yield "torch_idiom", lambda n: (_shape_at(n.func.value, n.args[0])  # type: ignore[attr-defined]
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
    elif name == "flatten" and len(node.args) == 1 and not node.keywords:
        # torch's `x.flatten(1)` (the axes from 1 on made one); numpy's argument is the memory order
        yield "torch_idiom", lambda n: ast.Call(func=ast.Attribute(value=n.func.value, attr="reshape",  # type: ignore[attr-defined]
                                                                   ctx=ast.Load()),
                                                args=[_shape_at(n.func.value, ast.Constant(0)), ast.Constant(-1)],  # type: ignore[attr-defined]
                                                keywords=[])
    elif name == "float" and not node.args:
        yield "torch_idiom", lambda n: ast.Call(func=ast.Attribute(value=n.func.value, attr="astype",  # type: ignore[attr-defined]
                                                                   ctx=ast.Load()),
                                                args=[ast.Name(id="float", ctx=ast.Load())], keywords=[])


def _einsum_written_order(spec: str) -> str | None:
    """An einsum's subscripts without `->` given the output numpy makes of them, but with its letters
    in the order they are written (`qd,kd` → `qd,kd->qk`, where numpy makes `kq`); None where that
    is numpy's own order already, or the subscripts are not plain letters."""
    if "->" in spec or "." in spec or len(spec) > 40:
        return None
    inputs = spec.replace(" ", "")
    letters = [letter for letter in inputs if letter != ","]
    if not all(letter.isalpha() for letter in letters):
        return None
    once = [letter for letter in dict.fromkeys(letters) if letters.count(letter) == 1]
    if once == sorted(once):
        return None
    return inputs + "->" + "".join(once)


def _einsum_variants(spec: str) -> list[str]:
    """An einsum's subscripts with two letters of one operand (or of the output) swapped."""
    if "->" not in spec or len(spec) > 40:
        return []
    inputs, output = spec.replace(" ", "").split("->", 1)
    terms = inputs.split(",") + [output]
    variants = []
    # a free letter (once in the inputs) left out of the output, so summed over (`nd,dk->k` for
    # `->nk`); a letter of the output too many
    written = inputs.replace(",", "")
    for letter in dict.fromkeys(written):
        if letter.isalpha() and written.count(letter) == 1 and letter not in output:
            variants += [inputs + "->" + output[:position] + letter + output[position:] for position in range(len(output) + 1)]
    variants += [inputs + "->" + output[:position] + output[position + 1:] for position in range(len(output))]
    # a letter summed over kept in the output where a free one was meant (`ij,jk->ij` for `->ik`)
    for position, kept in enumerate(output):
        for letter in dict.fromkeys(written):
            if letter not in output and letter.isalpha():
                variants.append(inputs + "->" + output[:position] + letter + output[position + 1:])
    for t, term in enumerate(terms):
        for i, j in itertools.combinations(range(len(term)), 2):
            letters = list(term)
            letters[i], letters[j] = letters[j], letters[i]
            changed = terms[:t] + ["".join(letters)] + terms[t + 1:]
            variants.append(",".join(changed[:-1]) + "->" + changed[-1])
    return [v for v in dict.fromkeys(variants) if v != spec.replace(" ", "")]


def _per_row() -> list[ast.keyword]:
    """`axis=-1, keepdims=True`: a reduction of each row, kept to broadcast back."""
    return [ast.keyword(arg="axis", value=ast.Constant(-1)), ast.keyword(arg="keepdims", value=ast.Constant(True))]


# One-argument numpy functions a line's whole value may lack (`np.tril(np.ones((n, n)))`,
# `np.exp(x - top)`): call_removed the other way round.
WRAPPERS = ("tril", "triu", "exp", "sqrt", "abs", "log")
_ELEMENTWISE = frozenset({"exp", "sqrt", "abs", "log"})
_ALLOCATIONS = frozenset({"zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
                          "eye", "identity"})


def _with_value_wrapped(node: ast.AST, function: str) -> ast.AST:
    assert isinstance(node, (ast.Return, ast.Assign)) and node.value is not None
    node.value = _numpy_call(function, [node.value])
    return node


def _numpy_call(function: str, args: list[ast.expr], *, last_axis: bool = False, first_axis: bool = False) -> ast.Call:
    keywords = _per_row() if last_axis else [ast.keyword(arg="axis", value=ast.Constant(0))] if first_axis else []
    return ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr=function, ctx=ast.Load()),
                    args=args, keywords=keywords)


def _unknown_keywords(node: ast.Call) -> Iterator[Rewrite]:
    """`np.tri(n=n)`: a keyword numpy's function does not take (its parameter is `N`), given by the
    name it has in another case, else by position. Read off the function's own signature."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("np", "numpy")):
        return
    parameters = _numpy_parameters(func.attr)
    if parameters is None:
        return
    for index, keyword in enumerate(node.keywords):
        if keyword.arg is None or keyword.arg in parameters:
            continue
        named = next((p for p in parameters if p.lower() == keyword.arg.lower()), None)
        if named is not None:
            yield "keyword_name", _keyword_renamed(index, named)
        yield "keyword_name", _keyword_as_positional(index)


def _keyword_renamed(index: int, name: str) -> Callable[[ast.AST], ast.AST]:
    """A call's keyword argument at `index` given by `name` instead."""
    def rewrite(n: ast.AST) -> ast.AST:
        call = cast(ast.Call, n)
        call.keywords = [ast.keyword(arg=name, value=w.value) if j == index else w for j, w in enumerate(call.keywords)]
        return call
    return rewrite


def _keyword_as_positional(index: int) -> Callable[[ast.AST], ast.AST]:
    """A call's keyword argument at `index` given by position instead, after the others."""
    def rewrite(n: ast.AST) -> ast.AST:
        call = cast(ast.Call, n)
        call.args = [*call.args, call.keywords[index].value]
        call.keywords = [w for j, w in enumerate(call.keywords) if j != index]
        return call
    return rewrite


@functools.lru_cache(maxsize=256)
def _numpy_parameters(attribute: str) -> frozenset[str] | None:
    """The parameters numpy's function `attribute` takes by name, or None when it is not known
    (no such function, no signature, or one that takes any keyword)."""
    import inspect

    import numpy

    function = getattr(numpy, attribute, None)
    if not callable(function) or isinstance(function, type):
        return None
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_KEYWORD for p in parameters):
        return None
    return frozenset(p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def _count_moved(delta: int) -> Callable[[ast.AST], ast.AST]:
    """`np.linspace(a, b, k)` made `np.linspace(a, b, k + delta)`."""
    def rewrite(n: ast.AST) -> ast.AST:
        call = cast(ast.Call, n)
        count = call.args[2]
        call.args = [*call.args[:2], ast.BinOp(left=count, op=ast.Add() if delta > 0 else ast.Sub(),
                                               right=ast.Constant(abs(delta))), *call.args[3:]]
        return call
    return rewrite


def _by_name(position: int, name: str) -> Callable[[ast.AST], ast.AST]:
    """A call's argument at `position` given by its name (`name=name`) instead."""
    def rewrite(n: ast.AST) -> ast.AST:
        call = cast(ast.Call, n)
        call.args = [a for i, a in enumerate(call.args) if i != position]
        call.keywords = [*call.keywords, ast.keyword(arg=name, value=ast.Name(id=name, ctx=ast.Load()))]
        return call
    return rewrite


def _listed(values: ast.expr) -> ast.expr:
    """A generator's values as a list (numpy reads a list, not a generator)."""
    if isinstance(values, ast.GeneratorExp):
        return ast.ListComp(elt=values.elt, generators=values.generators)
    return values


def _swapped(items: str, i: int, j: int) -> Callable[[ast.AST], ast.AST]:
    """Two of a node's `items` (a call's "args", a tuple's "elts") in the other order."""
    def rewrite(n: ast.AST) -> ast.AST:
        listed = getattr(n, items)
        listed[i], listed[j] = listed[j], listed[i]
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
    if len(node.ops) == 1:
        # `np.arange(n) <= np.arange(n)`: both sides along one axis, where one was to be a column
        for side, operand in (("left", node.left), ("right", node.comparators[0])):
            if isinstance(operand, (ast.Name, ast.Subscript, ast.Call, ast.Attribute)):
                for where in _NEW_AXES:
                    yield "axis_added", (lambda s, w: lambda n: _compared_with_axis(n, s, w))(side, where)
    if len(node.ops) >= 2:  # `j <= i == True`: Python chains it as `j <= i and i == True`
        yield "condition_removed", lambda n: ast.Compare(left=n.left, ops=n.ops[:1], comparators=n.comparators[:1])  # type: ignore[attr-defined]
    if len(node.ops) != 1:
        return
    if _is_size(node.left) and _is_size(node.comparators[0]) \
            and ast.dump(cast(ast.expr, _size_of(node.left))) != ast.dump(cast(ast.expr, _size_of(node.comparators[0]))):
        # `scores.shape[0] == mask.shape[0]` to tell a 2-D input from a stack: equal lengths of one
        # axis where the number of axes (or the whole shapes) was to be compared; never of one
        # array with itself (`W.ndim == W.ndim` is a condition made always true, not a repair)
        for size in ("ndim", "shape"):
            yield "size_of", (lambda z: lambda n: _sizes_compared(n, z))(size)
    for other in _COMPARE_SWAPS.get(type(node.ops[0]), ()):
        yield "comparison", (lambda o: lambda n: ast.Compare(left=n.left, ops=[o()],
                                                             comparators=n.comparators))(other)
    yield "condition_removed", lambda n: n.left  # type: ignore[attr-defined]  # `argmax(row > 0.5)` for `argmax(row)`


def _recursion_rewrites(node: ast.Call, parameters: tuple[str, ...]) -> Iterator[Rewrite]:
    """A call of the function itself that passes one of its own parameters on as it came, in that
    parameter's place (`split_heads(M[:, d:], n_heads)`): one less, so that the calls reach the
    case that ends them (the call as written never gets there, or counts from the wrong end)."""
    for position, argument in enumerate(node.args):
        if position < len(parameters) and isinstance(argument, ast.Name) and argument.id == parameters[position]:
            for operator in (ast.Sub, ast.Add):
                yield "recursion_not_advanced", (lambda k, o: lambda n: _set(n, "args", [
                    *n.args[:k], ast.BinOp(left=n.args[k], op=o(), right=ast.Constant(1)),
                    *n.args[k + 1:]]))(position, operator)


def _name_rewrites(node: ast.Name, scope: Scope) -> Iterator[Rewrite]:
    whole = span_of(node) not in scope.held
    if whole:
        for number in scope.elements.get(node.id, ()):  # `mix(w, qkv)` where `qkv[2]` was meant
            yield "element_of", (lambda k: lambda n: ast.Subscript(value=ast.Name(id=n.id, ctx=ast.Load()),
                                                                   slice=ast.Constant(k), ctx=ast.Load()))(number)
        if node.id in scope.module_functions:
            for name in scope.local_names:  # `masked_softmax(s, causal_mask)` where `causal_mask(n)` was meant
                for sized in (False, True):  # ... or `causal_mask(len(X))`
                    yield "function_uncalled", (lambda a, s: lambda n: ast.Call(
                        func=ast.Name(id=n.id, ctx=ast.Load()), args=[_length(a) if s else ast.Name(id=a, ctx=ast.Load())],
                        keywords=[]))(name, sized)
    if node.id in scope.rebound_builtins:
        yield "builtin_rebound", lambda n: ast.Attribute(
            value=ast.Call(func=ast.Name(id="__import__", ctx=ast.Load()), args=[ast.Constant("builtins")], keywords=[]),
            attr=node.id, ctx=ast.Load())
    if whole and node.id in scope.dict_names:  # `tuple(d)`, `list(d)`: a dict's keys where its values were meant
        yield "dict_values", lambda n: ast.Call(func=ast.Attribute(value=ast.Name(id=n.id, ctx=ast.Load()), attr="values",  # type: ignore[attr-defined]
                                                                   ctx=ast.Load()), args=[], keywords=[])
    if whole and node.id in scope.loop_names:  # a loop's position where the item there was meant
        yield from _item_of(node.id, scope)
    if node.id in scope.list_names:  # a list built up where the function it is given takes an array
        yield "as_array", lambda n: _numpy_call("array", [cast(ast.expr, n)])
    if node.id not in scope.local_names:
        return
    for other in scope.local_names:
        if other != node.id:
            yield "variable", (lambda o: lambda n: ast.Name(id=o, ctx=ast.Load()))(other)


# The dtypes an array is made with in place of another: an array of strings holds only as many
# characters as its longest string when made (`dtype=str` of an empty array: one), integers drop
# the fraction of what is stored in them, and a 0/1 mask is not a bool one.
_DTYPES = ("float", "object", "bool")
_DTYPE_NAMES = {"str": "str", "str_": "str", "unicode_": "str", "U": "str", "U1": "str", "object": "object", "object_": "object", "O": "object",
                "float": "float", "float64": "float", "float32": "float", "float16": "float", "double": "float",
                "f": "float", "f8": "float", "f4": "float", "f2": "float",
                "bool": "bool", "bool_": "bool", "?": "bool", "b1": "bool"}


def _dtype_rewrites(node: ast.Call, name: str, is_method: bool) -> Iterator[Rewrite]:
    """`np.empty(n, dtype=str)` where the array was to hold whole words (`dtype=object`), and the like:
    a `dtype=` keyword, or `astype`'s argument, given another of _DTYPES."""
    if is_method and name == "astype" and len(node.args) == 1 and not node.keywords:
        written, place = node.args[0], None
    elif not is_method and len(node.args) == 1 and not node.keywords and \
            name in ("array", "asarray", "zeros_like", "ones_like", "empty_like"):
        # `np.asarray(mask)` of a 0/1 mask where a bool one was meant, `np.zeros_like(x)` of an
        # integer input where fractions are to be stored: the input's dtype kept
        kind: EditKind = "input_dtype" if name in ("array", "asarray") else "dtype"
        for dtype in ("bool", "float"):
            yield kind, (lambda d: lambda n: _set(n, "keywords", [ast.keyword(arg="dtype", value=ast.Name(id=d, ctx=ast.Load()))]))(dtype)
        return
    else:
        place = next((index for index, keyword in enumerate(node.keywords) if keyword.arg == "dtype"), None)
        if place is None:
            return
        written = node.keywords[place].value
    text = written.value if isinstance(written, ast.Constant) and isinstance(written.value, str) \
        else written.attr if isinstance(written, ast.Attribute) else written.id if isinstance(written, ast.Name) else None
    if text is None:
        return
    for dtype in _DTYPES:
        if _DTYPE_NAMES.get(text) == dtype:
            continue
        given = ast.Name(id=dtype, ctx=ast.Load())

        def rewrite(n: ast.AST, given: ast.expr = given, place: int | None = place) -> ast.AST:
            assert isinstance(n, ast.Call)
            if place is None:
                n.args = [given]
            else:
                n.keywords[place] = ast.keyword(arg="dtype", value=given)
            return n
        yield "dtype", rewrite


def _joined(node: ast.AST) -> ast.AST:
    """`sum(pieces)` written as `np.concatenate([pieces], axis=-1)`."""
    listed = _listed(cast(ast.Call, node).args[0])
    return ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="concatenate", ctx=ast.Load()),
                    args=[listed], keywords=[ast.keyword(arg="axis", value=ast.Constant(-1))])


def _is_negative(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return True
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool) \
        and node.value < 0


def _item_of(position: str, scope: Scope) -> Iterator[Rewrite]:
    """A position (a loop's name) used where the item at it was meant: the value indexed in each
    of the names the function indexes by a name elsewhere (`{words[i]: j}` for `{words[i]: words[j]}`)."""
    for sequence in scope.indexed_by_name:
        if sequence != position:
            yield "item_of", (lambda s: lambda n: ast.Subscript(value=ast.Name(id=s, ctx=ast.Load()),
                                                               slice=cast(ast.expr, n), ctx=ast.Load()))(sequence)


def _slice_rewrites(node: ast.Slice, loop_names: tuple[str, ...]) -> Iterator[Rewrite]:
    if isinstance(node.lower, ast.UnaryOp) and isinstance(node.lower.op, ast.USub) and node.upper is None \
            and node.step is None:  # `cols[-d:]`, the last d, where the first d `cols[:d]` were meant
        yield "slice_from_end", lambda n: ast.Slice(upper=n.lower.operand)  # type: ignore[attr-defined]
    if node.lower is not None and node.upper is None and node.step is None:
        widths = dict.fromkeys(n.id for n in ast.walk(node.lower) if isinstance(n, ast.Name))
        for width in widths:  # `h * d:` where the block `h * d:h * d + d` was meant
            yield "slice_end", (lambda w: lambda n: _set(n, "upper", ast.BinOp(
                left=copy.deepcopy(n.lower), op=ast.Add(), right=ast.Name(id=w, ctx=ast.Load()))))(width)
    if (node.lower is None or _is_zero(node.lower)) and node.upper is not None and node.step is None:
        inside = {n.id for n in ast.walk(node.upper) if isinstance(n, ast.Name)}
        for name in loop_names:  # `W[:d]` on every pass where the pass's block `W[h * d:(h + 1) * d]` was meant
            if name not in inside:
                yield "loop_block", (lambda h: lambda n: _loop_block(n, h))(name)
    if node.upper is not None and _negated(node.upper):
        # `M[:, -h * d:-(h - 1) * d]`: an end counted from the end that comes out -0, which is 0,
        # for the last block: that range is empty where the rest of the array was meant
        yield "slice_end_zero", lambda n: _set(n, "upper", ast.BoolOp(op=ast.Or(), values=[n.upper, ast.Constant(value=None)]))  # type: ignore[attr-defined]
    if node.lower is not None and not _is_zero(node.lower) and node.upper is not None and node.step is None \
            and not isinstance(node.upper, ast.Constant) \
            and not {n.id for n in ast.walk(node.lower) if isinstance(n, ast.Name)} & \
            {n.id for n in ast.walk(node.upper) if isinstance(n, ast.Name)}:
        # `M[:, start:d]`: the end given as the block's width, where it is counted from the start too
        yield "slice_width", lambda n: _set(n, "upper", ast.BinOp(
            left=copy.deepcopy(n.lower), op=ast.Add(), right=n.upper))  # type: ignore[attr-defined]
    item = _one_item(node)
    if item is not None:
        # `qkv[:1]`, `X[-1:]`, `x[k:k + 1]`: a range of one item, which keeps its axis, where the item was meant
        yield "slice_as_index", (lambda i: lambda _n: copy.deepcopy(i))(item)
    for bound in ("lower", "upper"):
        value = getattr(node, bound)
        if value is None or isinstance(value, ast.Constant):
            continue  # a constant bound is the constant's own edit
        for delta in (1, -1):
            def rewrite(n: ast.AST, bound: str = bound, delta: int = delta) -> ast.AST:
                setattr(n, bound, _moved(getattr(n, bound), delta))
                return n
            yield "slice_bound", rewrite


# Methods that return a new array (or list) where a view of the same cells may have been meant: `ravel`
# for `flatten`, the object itself for the others.
_COPYING_METHODS = frozenset({"flatten", "copy", "astype", "tolist"})


def _view_of(call: ast.Call) -> ast.expr:
    """The array a copying method is called on (`a.copy()` → `a`), or its view (`a.flatten()` → `a.ravel()`)."""
    assert isinstance(call.func, ast.Attribute)
    if call.func.attr == "flatten":
        return ast.Call(func=ast.Attribute(value=call.func.value, attr="ravel", ctx=ast.Load()), args=[], keywords=[])
    return call.func.value


def target_names(target: ast.expr) -> tuple[str, ...]:
    """The names an assignment's or a loop's target binds (`i, row` → `("i", "row")`)."""
    return tuple(node.id for node in ast.walk(target) if isinstance(node, ast.Name))


def _one_item(node: ast.Slice) -> ast.expr | None:
    """The index of the one item slice `node` takes (`:1` → 0, `-1:` → -1, `k:k + 1` → k), or None."""
    if node.step is not None:
        return None
    if node.lower is None and isinstance(node.upper, ast.Constant) and node.upper.value == 1:
        return ast.Constant(value=0)
    if node.upper is None and isinstance(node.lower, ast.UnaryOp) and isinstance(node.lower.op, ast.USub) \
            and isinstance(node.lower.operand, ast.Constant) and node.lower.operand.value == 1:
        return node.lower
    if node.lower is not None and isinstance(node.upper, ast.BinOp) and isinstance(node.upper.op, ast.Add) \
            and isinstance(node.upper.right, ast.Constant) and node.upper.right.value == 1 \
            and ast.dump(node.upper.left) == ast.dump(node.lower):
        return node.lower
    return None


def _negated(value: ast.expr) -> bool:
    """Whether `value` is written as minus a computed number (`-w`, `-(h - 1) * d`): it may come
    out -0, where a constant cannot."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Mult, ast.FloorDiv)):
        return _negated(value.left)
    return isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) and not isinstance(value.operand, ast.Constant)


_ELEMENTWISE_OPERATORS = (ast.Mult, ast.Add, ast.Sub, ast.Div)
_AT_UFUNCS: dict[type, str] = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply"}  # `+=` → `np.add.at`
_NEW_AXES = ("column", "last")  # `x[:, None]` and `x[..., None]`
# math's functions on one number, and numpy's for arrays
_MATH_TO_NUMPY = {"exp": "exp", "log": "log", "sqrt": "sqrt", "tanh": "tanh", "fabs": "abs", "floor": "floor",
                  "ceil": "ceil", "pow": "power", "isnan": "isnan", "isinf": "isinf"}


# Names that are modules in the notebooks (`np.append(a, b)` as a statement: its first argument is
# the value it was to replace, not `np`).
_MODULE_NAMES = frozenset({"np", "numpy", "math", "torch", "F", "scipy", "pd", "pandas"})
# Methods that change their list, dict or array in place and return None: their value is never meant.
_IN_PLACE_METHODS = frozenset({"append", "extend", "insert", "update", "sort", "fill", "remove", "clear", "add",
                               "setdefault", "pop", "resize", "put", "reverse", "discard"})


def _discarded_rewrites(call: ast.Call) -> Iterator[Rewrite]:
    """A call made as a statement whose value was meant: `print(out)` where `return out` was,
    `np.append(merged, h, axis=1)` or `softmax(w)` where its value was to replace its first argument,
    `grouped.swapaxes(0, 1)` where it was to replace the array it is called on."""
    if isinstance(call.func, ast.Name) and call.func.id == "print" and len(call.args) == 1 and not call.keywords:
        yield "printed", lambda n: ast.Return(value=n.value.args[0], lineno=n.lineno)  # type: ignore[attr-defined]
        return
    if isinstance(call.func, ast.Name) and call.func.id in ("map", "filter", "zip"):
        # `map(fill_row, rows)` as a statement: Python 3's map is lazy, so a function called only
        # for what it does is never called; `list(...)` runs it
        yield "never_run", lambda n: ast.Expr(value=ast.Call(func=ast.Name(id="list", ctx=ast.Load()),
                                                             args=[n.value], keywords=[]), lineno=n.lineno)  # type: ignore[attr-defined]
        return
    first = call.args[0] if call.args else None
    if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
            and call.func.value.id not in _MODULE_NAMES and call.func.attr not in _IN_PLACE_METHODS:
        first = call.func.value
    if isinstance(first, ast.Name):
        yield "value_discarded", lambda n: ast.Assign(targets=[ast.Name(id=first.id, ctx=ast.Store())], value=n.value,  # type: ignore[attr-defined]
                                                      lineno=n.lineno)  # type: ignore[attr-defined]


def _loop_name_rewrites(node: ast.For | ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
                        scope: Scope) -> Iterator[Rewrite]:
    """`[[j <= i for j in r] for j in r]`: a loop's name that is not the name its body reads
    (`i`, bound nowhere in the function) given that name."""
    targets = [node.target] if isinstance(node, ast.For) else [g.target for g in node.generators]
    bound = set(scope.local_names) | scope.module_functions
    free = [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            and n.id not in bound and span_of(n) not in scope.held and not hasattr(builtins, n.id)]
    for position, target in enumerate(targets):
        if isinstance(target, ast.Name):
            for name in dict.fromkeys(free):
                yield "loop_name", (lambda k, o: lambda n: _renamed_target(n, k, o))(position, name)


# What a loop may walk from its end by `[::-1]`: a name, an item or attribute of one (a `range` is
# left alone: a sum's loop reversed adds the same terms, and its pairs would crowd out others).
_WALKABLE = (ast.Name, ast.Subscript, ast.Attribute)


def _walked_forwards_rewrites(node: ast.For | ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
                              ) -> Iterator[Rewrite]:
    """`[c == "1" for c in bits]` where `bits` was to be read from its end (`format(..., "b")` puts
    the highest bit first): a loop's sequence walked from the last item."""
    walked = [node.iter] if isinstance(node, ast.For) else [g.iter for g in node.generators]
    for position, sequence in enumerate(walked):
        if isinstance(sequence, _WALKABLE):
            yield "walked_forwards", (lambda k: lambda n: _reversed_sequence(n, k))(position)


def _reversed_sequence(node: ast.AST, position: int) -> ast.AST:
    reverse = ast.Slice(step=ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1)))
    if isinstance(node, ast.For):
        node.iter = ast.Subscript(value=node.iter, slice=reverse, ctx=ast.Load())
    else:
        clause = node.generators[position]  # type: ignore[attr-defined]
        clause.iter = ast.Subscript(value=clause.iter, slice=reverse, ctx=ast.Load())
    return node


def _renamed_target(node: ast.AST, position: int, name: str) -> ast.AST:
    target = node.target if isinstance(node, ast.For) else node.generators[position].target  # type: ignore[attr-defined]
    assert isinstance(target, ast.Name)
    target.id = name
    return node


def _late_binding_rewrites(node: ast.Lambda, loop_names: tuple[str, ...]) -> Iterator[Rewrite]:
    """`[lambda: X @ W for W in Ws]`: each lambda reads `W` when called, after the loop has ended,
    so all see its last value; `lambda W=W: X @ W` keeps the value of its own pass."""
    own = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    read = [n.id for n in ast.walk(node.body) if isinstance(n, ast.Name) and n.id in loop_names and n.id not in own]
    if read and node.args.vararg is None and node.args.kwarg is None and not node.args.kwonlyargs:
        names = list(dict.fromkeys(read))

        def bound(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Lambda)
            n.args.args = [*n.args.args, *(ast.arg(arg=name) for name in names)]
            n.args.defaults = [*n.args.defaults, *(ast.Name(id=name, ctx=ast.Load()) for name in names)]
            return n
        yield "late_binding", bound


def _shape_at(value: ast.expr, axis: ast.expr) -> ast.Subscript:
    """`value.shape[axis]`."""
    return ast.Subscript(value=ast.Attribute(value=value, attr="shape", ctx=ast.Load()), slice=axis, ctx=ast.Load())


def _length(name: str) -> ast.expr:
    return ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[ast.Name(id=name, ctx=ast.Load())], keywords=[])


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 0


def _loop_block(node: ast.AST, name: str) -> ast.AST:
    """`:d` as the block of pass `name`: `name * d:(name + 1) * d`."""
    assert isinstance(node, ast.Slice) and node.upper is not None
    width = node.upper
    node.lower = ast.BinOp(left=ast.Name(id=name, ctx=ast.Load()), op=ast.Mult(), right=copy.deepcopy(width))
    node.upper = ast.BinOp(left=ast.BinOp(left=ast.Name(id=name, ctx=ast.Load()), op=ast.Add(), right=ast.Constant(1)),
                           op=ast.Mult(), right=width)
    return node


def _loaded(target: ast.expr) -> ast.expr:
    """`target` (an augmented assignment's) read instead of written."""
    node = copy.deepcopy(target)
    for sub in ast.walk(node):
        if hasattr(sub, "ctx"):
            sub.ctx = ast.Load()
    return node


def _loaded_as_target(target: ast.expr) -> ast.expr:
    node = _loaded(target)
    node.ctx = ast.Store()  # type: ignore[attr-defined]
    return node


def _new_axis(value: ast.expr, where: str) -> ast.expr:
    first: ast.expr = ast.Slice() if where == "column" else ast.Constant(Ellipsis)
    return ast.Subscript(value=value, slice=ast.Tuple(elts=[first, ast.Constant(None)], ctx=ast.Load()), ctx=ast.Load())


def _with_value_in(node: ast.AST, container: str) -> ast.AST:
    assert isinstance(node, (ast.Return, ast.Assign)) and node.value is not None
    node.value = ast.Call(func=ast.Name(id=container, ctx=ast.Load()), args=[node.value], keywords=[])
    return node


def _subscript_rewrites(node: ast.Subscript, loop_names: tuple[str, ...]) -> Iterator[Rewrite]:
    """An index one off (`Ws[i]` counted from 1), on another axis (`V[k]`, a row, where the column
    `V[:, k]` was meant, or the other way round), or into a list as if it were an array."""
    index = node.slice
    if isinstance(index, (ast.Name, ast.BinOp)):
        for delta in (-1, 1):
            yield "index_shifted", (lambda d: lambda n: _set(n, "slice", _moved(n.slice, d)))(delta)
    if not isinstance(index, ast.Tuple) and not _is_none(index) and not (isinstance(index, ast.Slice) and _is_whole(index)):
        # `V[k]` (a row) where the column `V[:, k]` was meant; `M[:, a:][:d]` where `[:, :d]` was
        yield "index_axis", lambda n: _set(n, "slice", ast.Tuple(elts=[ast.Slice(), n.slice], ctx=ast.Load()))  # type: ignore[attr-defined]
    if isinstance(index, ast.Tuple) and len(index.elts) == 2 and _is_whole(index.elts[0]) \
            and not isinstance(index.elts[1], ast.Slice) and not _is_none(index.elts[1]):
        yield "index_axis", lambda n: _set(n, "slice", n.slice.elts[1])  # type: ignore[attr-defined]
    if isinstance(node.value, ast.Name) and not isinstance(index, (ast.Constant, ast.Slice)):
        yield "as_array", lambda n: _set(n, "value", _numpy_call("asarray", [n.value]))  # type: ignore[attr-defined]
        # `table[w]`, a DataFrame's column, where its row `table.loc[w]` was meant
        yield "index_axis", lambda n: _set(n, "value", ast.Attribute(value=n.value, attr="loc", ctx=ast.Load()))  # type: ignore[attr-defined]
    if isinstance(index, ast.Tuple) and len(index.elts) == 2:
        for position in range(2):  # `out[i, j] += w * V[j]`: a cell where the row was meant
            if not isinstance(index.elts[position], ast.Slice):
                yield "index_dropped", (lambda k: lambda n: _set(n, "slice", n.slice.elts[1 - k]))(position)
        yield from _range_rewrites(index)
    if isinstance(index, (ast.Slice, ast.Tuple)):
        inside = {n.id for n in ast.walk(index) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        for name in loop_names:
            if name in inside:  # `M[:, (h - 1) * d:h * d]`: the head counted from 1 in a loop from 0
                for delta in (1, -1):
                    yield "index_shifted", (lambda o, d: lambda n: _set(n, "slice", _name_moved(n.slice, o, d)))(name, delta)
    if isinstance(index, ast.Name):
        for name in loop_names:  # `weights[i]` where the cell `weights[i, j]` was meant
            if name != index.id:
                yield "index_added", (lambda o: lambda n: _set(
                    n, "slice", ast.Tuple(elts=[n.slice, ast.Name(id=o, ctx=ast.Load())], ctx=ast.Load())))(name)


_INDEXERS = {"loc": "iloc", "iloc": "loc", "at": "iat", "iat": "at"}
# Methods that change their object and return None (a list's, a dict's, an array's)
_IN_PLACE_METHODS = frozenset({"append", "extend", "insert", "sort", "reverse", "update", "fill", "resize", "clear",
                               "remove", "setdefault"})


def _without_element(value: ast.expr, position: int) -> ast.expr:
    assert isinstance(value, ast.Tuple)
    kept = [element for k, element in enumerate(value.elts) if k != position]
    return kept[0] if len(kept) == 1 else ast.Tuple(elts=kept, ctx=ast.Load())


def _name_moved(tree: ast.expr, name: str, delta: int) -> ast.expr:
    """`tree` with every read of `name` moved by `delta` (`h` → `h + 1`)."""
    class Move(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return _moved(node, delta) if node.id == name and isinstance(node.ctx, ast.Load) else node
    return cast(ast.expr, Move().visit(tree))


_UFUNCS = ("add", "multiply", "subtract", "divide")


def _range_rewrites(index: ast.Tuple) -> Iterator[Rewrite]:
    """A pair of numbers (`M[:, (a, b)]`) or one index (`mask[i, i + 1]`) where a range was meant."""
    for position, element in enumerate(index.elts):
        if isinstance(element, ast.Tuple) and len(element.elts) == 2:  # `M[:, (a, b)]` for `M[:, a:b]`
            yield "tuple_as_slice", (lambda k: lambda n: _with_element(
                n, k, ast.Slice(lower=n.slice.elts[k].elts[0], upper=n.slice.elts[k].elts[1])))(position)
        elif not isinstance(element, ast.Slice) and not _is_none(element):
            # `mask[i, i + 1] = False`: one cell where every cell from it on was meant
            yield "index_as_slice", (lambda k: lambda n: _with_element(n, k, ast.Slice(lower=n.slice.elts[k])))(position)


def _with_element(node: ast.AST, position: int, element: ast.expr) -> ast.AST:
    assert isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)
    node.slice.elts[position] = element
    return node


_PAIRS_OF = frozenset({"iterrows", "items", "iteritems", "enumerate", "zip"})


def _loop_unpacking_rewrites(node: ast.For) -> Iterator[Rewrite]:
    """A loop whose names do not match what it walks: `for i, row in X` (enumerate left out) and
    `for row in frame.iterrows()` (a pair taken as one value)."""
    target, walked = node.target, node.iter
    if isinstance(target, ast.Tuple) and len(target.elts) == 2:
        yield "loop_unpacking", lambda n: _set(n, "iter", ast.Call(func=ast.Name(id="enumerate", ctx=ast.Load()),
                                                                  args=[n.iter], keywords=[]))  # type: ignore[attr-defined]
    if isinstance(target, ast.Name) and isinstance(walked, ast.Call):
        called = walked.func.attr if isinstance(walked.func, ast.Attribute) else \
            walked.func.id if isinstance(walked.func, ast.Name) else ""
        if called in _PAIRS_OF:
            yield "loop_unpacking", lambda n: _set(n, "target", ast.Tuple(elts=[ast.Name(id="_", ctx=ast.Store()),
                                                                              n.target], ctx=ast.Store()))  # type: ignore[attr-defined]


def _set(node: ast.AST, field: str, value: object) -> ast.AST:
    """`node` with its `field` (`args`, `slice`, a side of an operation, ...) set to `value`."""
    setattr(node, field, value)
    return node


def _is_slice_store(target: ast.expr) -> bool:
    """`a[:] = ...` or `a[...] = ...`: written into the whole of the array `a` names."""
    return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
        and (_is_whole(target.slice) or (isinstance(target.slice, ast.Constant) and target.slice.value is Ellipsis))


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _is_whole(node: ast.expr) -> bool:
    return isinstance(node, ast.Slice) and node.lower is None and node.upper is None and node.step is None


def _size_of(node: ast.AST) -> ast.expr | None:
    """The array whose size `node` reads (`len(a)`, `max(a.shape)`, `a.size`, `a.shape`, `a.ndim`,
    `a.shape[k]`), or None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 and not node.keywords:
        argument = node.args[0]
        if node.func.id == "len":
            return argument
        if node.func.id in ("max", "min") and isinstance(argument, ast.Attribute) and argument.attr == "shape":
            return argument.value
    if isinstance(node, ast.Attribute) and node.attr in ("size", "shape", "ndim") and isinstance(node.ctx, ast.Load):
        return node.value
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
            and isinstance(node.slice, (ast.Constant, ast.UnaryOp)):
        return node.value.value
    return None


def _is_size(node: ast.AST) -> bool:
    return isinstance(_size_of(node), (ast.Name, ast.Attribute, ast.Subscript))


_SIZES: tuple[int | str, ...] = (0, 1, -1, "ndim")


def _sizes_compared(node: ast.AST, size: str) -> ast.AST | None:
    """`a.shape[0] == b.shape[0]` as `a.<size> == b.<size>`; None where it already reads that."""
    assert isinstance(node, ast.Compare)
    left, right = _size_of(node.left), _size_of(node.comparators[0])
    assert left is not None and right is not None
    written = ast.dump(node)
    node.left = ast.Attribute(value=left, attr=size, ctx=ast.Load())
    node.comparators = [ast.Attribute(value=right, attr=size, ctx=ast.Load())]
    return None if ast.dump(node) == written else node


def _size_rewrites(node: ast.AST) -> Iterator[Rewrite]:
    """A size read from another axis, or another kind of size: `len(x)` (the first axis) where the
    number of axes or the last axis's length was meant, `max(K.shape)` for `K.shape[1]`."""
    written = ast.dump(node)
    array = _size_of(node)
    assert array is not None
    for size in _SIZES:
        made: ast.expr
        if isinstance(size, str):
            made = ast.Attribute(value=copy.deepcopy(array), attr=size, ctx=ast.Load())
        else:
            axis: ast.expr = ast.Constant(size) if size >= 0 else ast.UnaryOp(op=ast.USub(), operand=ast.Constant(-size))
            made = _shape_at(copy.deepcopy(array), axis)
        if ast.dump(made) != written:
            yield "size_of", (lambda m: lambda _n: copy.deepcopy(m))(made)


def _spelled_out_sum(node: ast.BinOp) -> ast.expr | None:
    """`a[..., 0] + a[..., 1] + a[..., 2]` (cells of one array, one index counting from 0 and the
    others whole) as `a.sum(axis=-1)`; None for any other sum."""
    terms: list[ast.expr] = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        terms.append(node.right)
        node = node.left  # type: ignore[assignment]
    terms.append(node)
    terms.reverse()
    if len(terms) < 2 or not all(isinstance(term, ast.Subscript) for term in terms):
        return None
    subscripts = cast("list[ast.Subscript]", terms)
    value = ast.dump(subscripts[0].value)
    rows = [list(s.slice.elts) if isinstance(s.slice, ast.Tuple) else [s.slice] for s in subscripts]
    if any(ast.dump(s.value) != value or len(row) != len(rows[0]) for s, row in zip(subscripts, rows)):
        return None
    counted = [position for position in range(len(rows[0]))
               if len({ast.dump(row[position]) for row in rows}) > 1]
    if len(counted) != 1:
        return None
    position = counted[0]
    if [getattr(row[position], "value", None) for row in rows] != list(range(len(rows))):
        return None
    others = [item for at, item in enumerate(rows[0]) if at != position]
    whole = all(isinstance(item, ast.Slice) and item.lower is None and item.upper is None and item.step is None
                or isinstance(item, ast.Constant) and item.value is Ellipsis for item in others)
    if not whole:
        return None
    before = rows[0][:position]
    axis = position - len(rows[0]) if any(isinstance(item, ast.Constant) and item.value is Ellipsis
                                          for item in before) else position
    return ast.Call(func=ast.Attribute(value=cast(ast.expr, clone(subscripts[0].value)), attr="sum", ctx=ast.Load()), args=[],
                    keywords=[ast.keyword(arg="axis", value=ast.Constant(axis))])


def _scaled_positions(node: ast.Subscript, scope: Scope) -> Iterator[Rewrite]:
    """`M[:, h:h + d]` in a loop over heads: the loop's count used as a slice's position where it was
    to be multiplied by the width of one part (`h * d`, the width a name the slice reads besides),
    everywhere it stands in the slices of the index."""
    slices = [part for part in ast.walk(node.slice) if isinstance(part, ast.Slice)]
    read = list(dict.fromkeys(name.id for part in slices for name in ast.walk(part) if isinstance(name, ast.Name)))
    for counter in (name for name in scope.loop_names if name in read):
        for width in read:
            if width == counter or width in scope.list_names or width in scope.dict_names:
                continue
            yield "position_scaled", (lambda c, w: lambda n: _set(n, "slice", _scaled(n.slice, c, w)))(counter, width)


def _scaled(index: ast.expr, counter: str, width: str) -> ast.expr:
    """`index` with `counter` multiplied by `width` wherever it is read inside a slice."""
    class Scale(ast.NodeTransformer):
        inside = 0

        def visit_Slice(self, part: ast.Slice) -> ast.AST:
            self.inside += 1
            self.generic_visit(part)
            self.inside -= 1
            return part

        def visit_Name(self, name: ast.Name) -> ast.AST:
            if not self.inside or name.id != counter or not isinstance(name.ctx, ast.Load):
                return name
            return ast.BinOp(left=ast.Name(id=counter, ctx=ast.Load()), op=ast.Mult(), right=ast.Name(id=width, ctx=ast.Load()))
    return cast(ast.expr, Scale().visit(clone(index)))


def normalised_at(node: ast.AST, position: int) -> ast.AST:
    """The returned value (or its `position`-th item) divided by its sums over the last axis."""
    assert isinstance(node, ast.Return) and node.value is not None
    items = node.value.elts if isinstance(node.value, ast.Tuple) else None
    value = items[position] if items is not None else node.value
    total = ast.Call(func=ast.Attribute(value=cast(ast.expr, clone(value)), attr="sum", ctx=ast.Load()), args=[],
                     keywords=[ast.keyword(arg="axis", value=ast.Constant(-1)),
                               ast.keyword(arg="keepdims", value=ast.Constant(True))])
    divided = ast.BinOp(left=value, op=ast.Div(), right=total)
    if items is not None:
        items[position] = divided
    else:
        node.value = divided
    return node


def _compared_with_axis(node: ast.AST, side: str, where: str) -> ast.AST:
    """A comparison with one side given the axis it broadcasts on (`x[:, None] <= y`)."""
    assert isinstance(node, ast.Compare)
    if side == "left":
        node.left = _new_axis(node.left, where)
    else:
        node.comparators[0] = _new_axis(node.comparators[0], where)
    return node


def _out_as_assignment(node: ast.AST) -> ast.AST:
    """`f(..., out=x)` as a statement made `x = f(...)`: the call's own new array bound to the name."""
    assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
    out = next(k.value for k in node.value.keywords if k.arg == "out")
    assert isinstance(out, ast.Name)
    call = ast.Call(func=node.value.func, args=node.value.args,
                    keywords=[k for k in node.value.keywords if k.arg != "out"])
    return ast.Assign(targets=[ast.Name(id=out.id, ctx=ast.Store())], value=call, lineno=node.lineno)
