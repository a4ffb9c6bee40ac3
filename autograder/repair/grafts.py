"""Grafts from the reference: what the student left out, put back in the student's own names.

The small edits (edits.py) change what is written; they cannot bring in what is missing (the
maximum subtracted before `exp`, the division by √d_k). A graft does: it replaces one expression
of the student's function by an expression of the reference's function of the same step that
keeps the student's expression inside it, either because the reference's expression at the same
place is the student's with something around it (`softmax(Q @ K.T)`, the reference's
`softmax(scores(Q, K) / np.sqrt(d_k))`: `Q @ K.T` → `Q @ K.T / np.sqrt(d_k)`) or because the
reference's expression contains it (`x` → `x - x.max(axis=-1, keepdims=True)`); then one that
keeps the student's call or operator and one of its operands (`x - np.maximum.reduce(x)` →
`x - x.max(axis=-1, keepdims=True)`); last, the reference's expression of the very names the
student's reads (`K_heads[0].T` → `K_heads.transpose(0, 2, 1)`). The feedback tells which
(`_graft_kind`): a computation missing around the student's expression, one part of it written
otherwise (that part marked), or the expression as a whole.

INVARIANT (docs/authors/mistakes.md): a graft is expressed in the student's own names. The
reference's parameters are renamed to the student's by position, its locals to the student's
locals assigned the same expression, and a graft is made only when every free name of it is
bound where the student's function runs: its parameters, its locals, the names its code reads
(`np`, the other steps), the names its cell or file binds at its top, or a built-in the
submission does not rebind. Enforced here, in `_in_scope`, the one check every graft passes.

The reference is the grader's own code, read as text (never run here); a graft runs as the
student's candidate, in the sandbox, on grader-chosen inputs only (search.py). Pure but for
reading the reference's module once (`reference_function`).
"""
from __future__ import annotations

import ast
import builtins
import copy
import functools
import importlib.util
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import TypeGuard

from .edits import ATTEMPTS_PER_EDIT, Edit, _edited, _local_names, _nodes, _places, quoted
from ..core.repair_record import EditKind

MAX_GRAFTS = 150  # grafts of one function at most, the smallest first

Context = tuple[object, ...]  # where an expression sits: an argument of a named call, an assignment's value, a return


def reference_function(solution: str | None, name: str) -> ast.FunctionDef | None:
    """The reference's `def name` (the last at the top of the lab's solution module), parsed from
    the module's text; None when the lab has no solution or it cannot be read."""
    if solution is None:
        return None
    tree = _reference_module(solution)
    found = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == name] if tree else []
    return copy.deepcopy(found[-1]) if found else None


# A step written a second way in the solution module, `def <step>__<how>` (pandas' idxmax where
# the reference picks with numpy): read for grafts only, never run by the grader; the lab's tests
# check that it gives the step's values.
WRITTEN_FORM = "__"


def written_forms(solution: str | None, name: str) -> tuple[ast.FunctionDef, ...]:
    """The other ways the solution module writes step `name` (WRITTEN_FORM), renamed `name`."""
    tree = _reference_module(solution) if solution is not None else None
    forms = [copy.deepcopy(node) for node in (tree.body if tree else ())
             if isinstance(node, ast.FunctionDef) and node.name.startswith(name + WRITTEN_FORM)]
    for form in forms:
        form.name = name
    return tuple(forms)


@functools.lru_cache(maxsize=8)
def _reference_module(solution: str) -> ast.Module | None:
    try:
        spec = importlib.util.find_spec(solution)
        if spec is None or spec.origin is None:
            return None
        with open(spec.origin, encoding="utf-8") as handle:
            return ast.parse(handle.read())
    except (ImportError, ValueError, OSError, SyntaxError, UnicodeDecodeError):
        return None


@dataclass(frozen=True, kw_only=True)
class _Piece:
    """One expression of the reference, in the student's names: where it sits and what it reads."""

    node: ast.expr
    dump: str
    context: Context | None
    free: frozenset[str]


def graft_edits(function: ast.FunctionDef, reference: ast.FunctionDef | None, *, source: str = "",
                rebound_builtins: frozenset[str] = frozenset(), known: Collection[str] = (),
                limit: int = MAX_GRAFTS) -> list[Edit]:
    """The grafts of `reference`'s expressions into `function`, the smallest addition first, at
    most `limit`, each a distinct source that compiles and is none of `known` (the sources the
    small edits already make) nor the function as written."""
    if reference is None:
        return []
    scope = _student_scope(function, source, rebound_builtins)
    pieces = _reference_pieces(function, reference, scope)
    if not pieces:
        return []
    originals = _nodes(function)
    places = _places(function)
    contexts = _contexts(function)
    own_names = frozenset(_local_names(function))
    written = frozenset(ast.dump(node, include_attributes=False) for node in originals if isinstance(node, ast.expr))
    parameters = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    assigned_and_read = _reads(function) & (own_names - parameters)
    ranked: list[tuple[int, int, int, ast.expr]] = []  # (rank, added size, student node index, graft)
    for index, node in enumerate(originals):
        if not _replaceable(node, contexts):
            continue
        for rank, graft in _grafts_of(node, contexts.get(id(node)), pieces, scope, written, own_names):
            ranked.append((rank, _size(graft) - _size(node), index, graft))
    ranked.sort(key=lambda item: (item[0], item[1], item[2]))
    seen = {ast.unparse(function), *known}
    made: list[Edit] = []
    for attempt, (_, _, index, graft) in enumerate(ranked):
        if len(made) >= limit or attempt >= ATTEMPTS_PER_EDIT * limit:
            break
        edited = _edited(function, places[index], (lambda g: lambda _node: copy.deepcopy(g))(graft))
        if edited is None:
            continue
        text = edited[0]
        if text is None or text in seen or not _reads(_function_of(text)) >= assigned_and_read:
            continue  # (a graft that leaves a line of the student's unused goes around the mistake there)
        seen.add(text)
        original = originals[index]
        assert isinstance(original, ast.expr)  # only expressions are grafted over (_replaceable)
        kind, marked = _graft_kind(original, graft, own_names)
        made.append(Edit(kind=kind, line=getattr(marked, "lineno", function.lineno),
                         before=quoted(marked, source, marked=True) or edited[1], after=edited[2], source=text,
                         index=index, rewrite=(lambda g: lambda _node: copy.deepcopy(g))(graft)))
    return made


def _graft_kind(ours: ast.expr, graft: ast.expr, own_names: frozenset[str] = frozenset()) -> tuple[EditKind, ast.expr]:
    """What a graft says of the student's expression, and the part of it to mark: kept whole
    inside the graft ("graft_around": a computation around it is missing), one part of it written
    otherwise ("graft_part": that part marked), or else changed as a whole ("graft")."""
    if _contains(graft, ast.dump(ours, include_attributes=False)):
        return _operation_around(ours, graft), ours
    part = _differing(ours, graft)
    if part is not None and part is not ours:
        return "graft_part", part
    return _changed_whole(ours, graft, own_names), ours


_CONTAINERS = (ast.Tuple, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)


def _changed_whole(ours: ast.expr, graft: ast.expr, own_names: frozenset[str]) -> EditKind:
    """What a graft that changes the student's expression as a whole keeps of it: the function it
    calls, given other arguments (`x.transpose()` for `x.transpose(1, 0, 2)`); the value a method
    or attribute is taken of, another one taken (`s.values` for `s.to_dict()`), a value computed
    from the function's own names (`np.tanh` for `np.exp` is another function, not another
    method); the names it reads, or some of them, computed from otherwise (`K.shape[1]` for
    `np.linalg.matrix_rank(K)`); else nothing."""
    def dump(node: ast.AST) -> str:
        return ast.dump(node, include_attributes=False)

    if isinstance(ours, ast.Call) and isinstance(graft, ast.Call) and dump(ours.func) == dump(graft.func):
        return "graft_arguments"
    mine = ours.func if isinstance(ours, ast.Call) else ours
    theirs = graft.func if isinstance(graft, ast.Call) else graft
    if isinstance(mine, ast.Attribute) and isinstance(theirs, ast.Attribute) and mine.attr != theirs.attr \
            and dump(mine.value) == dump(theirs.value) and _root_name(mine.value) in own_names:
        return "graft_method"
    reads = _free_names(graft)
    if reads and reads <= _free_names(ours) and reads & own_names \
            and not isinstance(ours, _CONTAINERS) and not isinstance(graft, _CONTAINERS):
        # (values put in another container are not another computation of them)
        return "graft_value"
    return "graft"


def _root_name(node: ast.expr) -> str | None:
    """The name a chain of attributes, calls and indexes starts from (`frame` of `frame.idxmax(axis=1)`)."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


# The operation a graft puts around the student's expression, as the kind that tells it: by the
# operator and the side the expression stands on (a subtraction from it, or of it from another).
_AROUND_LEFT: dict[type[ast.operator], EditKind] = {
    ast.Sub: "graft_subtract_from", ast.Add: "graft_add", ast.Mult: "graft_multiply", ast.MatMult: "graft_matmul",
    ast.Div: "graft_divided_by", ast.FloorDiv: "graft_divided_by"}
_AROUND_RIGHT: dict[type[ast.operator], EditKind] = {
    ast.Sub: "graft_subtracted", ast.Add: "graft_add", ast.Mult: "graft_multiply", ast.MatMult: "graft_matmul",
    ast.Div: "graft_divides", ast.FloorDiv: "graft_divides"}


def _operation_around(ours: ast.expr, graft: ast.expr) -> EditKind:
    """The kind of a graft that keeps `ours` whole: the operation right around its first place in
    `graft` (an arithmetic operator and its side, or a call taking it as an argument), else
    "graft_around" (an attribute, an index, a graft that is `ours` as written)."""
    wanted = ast.dump(ours, include_attributes=False)
    for node in ast.walk(graft):
        if isinstance(node, ast.BinOp):
            if ast.dump(node.left, include_attributes=False) == wanted:
                return _AROUND_LEFT.get(type(node.op), "graft_around")
            if ast.dump(node.right, include_attributes=False) == wanted:
                return _AROUND_RIGHT.get(type(node.op), "graft_around")
        elif isinstance(node, ast.Call) and any(
                ast.dump(argument, include_attributes=False) == wanted
                for argument in (*node.args, *(keyword.value for keyword in node.keywords))):
            return "graft_call"
        elif any(ast.dump(child, include_attributes=False) == wanted for child in ast.iter_child_nodes(node)):
            return "graft_around"
    return "graft_around"


def _differing(ours: ast.expr, theirs: ast.expr) -> ast.expr | None:
    """The smallest sub-expression of `ours` where it and `theirs` part: followed down while both
    are the same kind of node (the same operator, attribute, comparison) and differ in one child
    expression only; None when they are the same."""
    if ast.dump(ours, include_attributes=False) == ast.dump(theirs, include_attributes=False):
        return None
    if type(ours) is not type(theirs) or _head(ours) != _head(theirs):
        return ours
    mine, others = list(ast.iter_child_nodes(ours)), list(ast.iter_child_nodes(theirs))
    if len(mine) != len(others):
        return ours
    apart = [(child, other) for child, other in zip(mine, others)
             if ast.dump(child, include_attributes=False) != ast.dump(other, include_attributes=False)]
    if len(apart) != 1 or not isinstance(apart[0][0], ast.expr) or not isinstance(apart[0][1], ast.expr):
        return ours
    return _differing(apart[0][0], apart[0][1])


def _head(node: ast.expr) -> object:
    """What a node is besides its children: its operator(s), its attribute's name."""
    if isinstance(node, ast.BinOp | ast.UnaryOp | ast.BoolOp):
        return type(node.op)
    if isinstance(node, ast.Compare):
        return tuple(type(op) for op in node.ops)
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _function_of(text: str) -> ast.AST:
    """The edited definition read back (edits are made on the student's tree and undone)."""
    return ast.parse(text).body[0]


def _grafts_of(node: ast.expr, context: Context | None, pieces: list[_Piece], scope: frozenset[str],
               written: frozenset[str], own_names: frozenset[str]) -> Iterator[tuple[int, ast.expr]]:
    """(rank, graft) for one expression of the student's: the reference's expression at the same
    place with the student's in the hole of its kind (rank 0), a reference's expression that
    contains the student's (rank 1), the same place with the student's in another hole (rank 2),
    the reference's expression that is the student's with one part written otherwise (rank 3),
    the reference's expression of the same names, or at the same place of names the student's
    reads (rank 4).
    Never an expression the student already wrote (`written`): a graft brings in what is missing."""
    own = ast.dump(node, include_attributes=False)
    reads_own = bool(_free_names(node) & own_names)  # a number or a module's name is in too many places
    for piece in pieces:
        if piece.dump == own:
            continue
        if context is not None and piece.context == context:
            for slot in _slots(piece.node):
                filled = _filled(piece.node, slot, node)
                if _in_scope(filled, scope) and ast.dump(filled, include_attributes=False) not in written:
                    yield (0 if _alike(_at(piece.node, slot), node) else 2), filled
            if reads_own and piece.dump not in written and piece.free <= _free_names(node) \
                    and _in_scope(piece.node, scope):
                # the reference's value at the same place, of names the student's reads
                # (`d_k = np.linalg.matrix_rank(K)`, the reference's `d_k = K.shape[1]`)
                yield 4, copy.deepcopy(piece.node)
        if reads_own and piece.dump not in written and _in_scope(piece.node, scope) and _contains(piece.node, own):
            yield 1, copy.deepcopy(piece.node)
        elif piece.dump not in written and _shares_an_operand(piece.node, node) and _in_scope(piece.node, scope):
            yield 3, copy.deepcopy(piece.node)
        elif reads_own and piece.dump not in written and piece.free == _free_names(node) and _in_scope(piece.node, scope):
            # last, the reference's expression of the very names the student's reads, in its place
            # (`K_heads[0].T`, the reference's `K_heads.transpose(0, 2, 1)`)
            yield 4, copy.deepcopy(piece.node)


def _shares_an_operand(theirs: ast.expr, ours: ast.expr) -> bool:
    """Whether the reference's expression is the student's with a part written otherwise: a call
    of the same name, an operation with the same operator and one operand the same
    (`x - np.maximum.reduce(x)`, the reference's `x - x.max(axis=-1, keepdims=True)`)."""
    if not isinstance(theirs, ast.Call | ast.BinOp) or not _alike(theirs, ours):
        return False
    if isinstance(theirs, ast.Call):
        return True  # a call of the same name: its arguments written otherwise (`causal_mask(n_heads)`)
    def parts(node: ast.expr) -> set[str]:
        children = [*node.args, *(k.value for k in node.keywords)] if isinstance(node, ast.Call) else \
            [node.left, node.right] if isinstance(node, ast.BinOp) else []
        return {ast.dump(child, include_attributes=False) for child in children}
    return bool(parts(theirs) & parts(ours))


def _alike(theirs: ast.expr, ours: ast.expr) -> bool:
    """Whether the reference's expression may be the student's written otherwise: the same kind of
    node (a call of the same name, an operation with the same operator)."""
    if type(theirs) is not type(ours):
        return False
    if isinstance(theirs, ast.Call) and isinstance(ours, ast.Call):
        return _called(theirs.func) == _called(ours.func)
    if isinstance(theirs, ast.BinOp | ast.UnaryOp | ast.BoolOp) and isinstance(ours, ast.BinOp | ast.UnaryOp | ast.BoolOp):
        return type(theirs.op) is type(ours.op)
    return True


Slot = tuple[str, int | None, bool]  # (field, position in a list field or None, whether a keyword's value)


def _slots(node: ast.expr) -> list[Slot]:
    """The places of `node`'s direct sub-expressions the student's expression may fill: its
    operands, its arguments and keyword values, not the function a call names."""
    found: list[Slot] = []
    for field, value in ast.iter_fields(node):
        if isinstance(node, ast.Call) and field == "func":
            continue
        if isinstance(value, ast.expr):
            found.append((field, None, False))
        elif isinstance(value, list):
            found += [(field, position, isinstance(item, ast.keyword)) for position, item in enumerate(value)
                      if isinstance(item, ast.expr) or isinstance(item, ast.keyword)]
    return found


def _at(node: ast.expr, slot: Slot) -> ast.expr:
    field, position, keyword = slot
    value = getattr(node, field)
    item = value if position is None else value[position]
    return item.value if keyword else item  # type: ignore[no-any-return]


def _filled(node: ast.expr, slot: Slot, with_: ast.expr) -> ast.expr:
    """A copy of `node` with the sub-expression at `slot` replaced by a copy of `with_`."""
    made = copy.deepcopy(node)
    field, position, keyword = slot
    if position is None:
        setattr(made, field, copy.deepcopy(with_))
    elif keyword:
        getattr(made, field)[position].value = copy.deepcopy(with_)
    else:
        getattr(made, field)[position] = copy.deepcopy(with_)
    return made


def _contains(node: ast.expr, dump: str) -> bool:
    return any(ast.dump(inner, include_attributes=False) == dump for inner in ast.walk(node) if inner is not node)


def _reference_pieces(function: ast.FunctionDef, reference: ast.FunctionDef, scope: frozenset[str]) -> list[_Piece]:
    """The reference's expressions in the student's names (parameters renamed by position), each
    once, those of them whose names are all bound in the student's scope or may be a hole."""
    renamed = _renamed(reference, function)
    if renamed is None:
        return []
    contexts = _contexts(renamed)
    named = _named_once(function)
    pieces: dict[str, _Piece] = {}
    for node in ast.walk(renamed):
        if not isinstance(node, ast.expr) or not _replaceable(node, contexts) or isinstance(node, ast.Constant):
            continue
        # as the reference writes it, and with what the student named written by that name
        for variant in dict.fromkeys((node, _folded(node, named)), None):
            dump = ast.dump(variant, include_attributes=False)
            if dump not in pieces:
                pieces[dump] = _Piece(node=variant, dump=dump, context=contexts.get(id(node)), free=_free_names(variant))
    # An expression whose hole the student's fills may read names the student lacks only in that
    # hole (`scores(Q, K) / np.sqrt(d_k)` filled with `Q @ K.T`): every graft is checked as made.
    return [piece for piece in pieces.values() if piece.free <= scope or piece.context is not None]


def _renamed(reference: ast.FunctionDef, function: ast.FunctionDef) -> ast.FunctionDef | None:
    """A copy of the reference in the student's names: its parameters renamed to the student's by
    position, then each local it assigns renamed to the student's local assigned the same
    expression (`masked = np.where(...)`, the student's `filled = np.where(...)`); None when a
    name of the reference would then mean one of the student's parameters."""
    theirs = [a.arg for a in (*reference.args.posonlyargs, *reference.args.args)]
    ours = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    names = dict(zip(theirs, ours))
    used = {node.id for node in ast.walk(reference) if isinstance(node, ast.Name)}
    if (used - set(theirs)) & set(names.values()) - set(names):
        return None  # renaming would make a local of the reference read a parameter of the student's
    renamed = copy.deepcopy(reference)
    _rename(renamed, names)
    assigned = {ast.dump(value, include_attributes=False): target for target, value in _assignments(function)}
    for target, value in _assignments(renamed):
        ours_too = assigned.get(ast.dump(value, include_attributes=False))
        # (a parameter the student rebinds to the same value may stand for it: `mask = np.asarray(mask)`)
        if ours_too is not None and ours_too != target and ours_too not in used - set(ours):
            _rename(renamed, {target: ours_too})
            used = (used - {target}) | {ours_too}
    _inline_unshared(renamed, frozenset(_local_names(function)))
    return renamed


def _inline_unshared(reference: ast.FunctionDef, theirs: frozenset[str]) -> None:
    """Each local of the reference assigned once to a plain value and named nowhere in the
    student's function (`d_k = K.shape[1]`) read as that value where it is used (`np.sqrt(K.shape[1])`):
    a graft then needs no name the student never made."""
    stores = _stores(reference)
    for target, value in _assignments(reference):
        if stores.get(target) != 1 or target in theirs or sum(1 for _ in ast.walk(value)) > 12:
            continue
        for node in ast.walk(reference):
            for field, inner in ast.iter_fields(node):
                if isinstance(inner, ast.Name) and inner.id == target and isinstance(inner.ctx, ast.Load):
                    setattr(node, field, copy.deepcopy(value))
                elif isinstance(inner, list):
                    for k, item in enumerate(inner):
                        if isinstance(item, ast.Name) and item.id == target and isinstance(item.ctx, ast.Load):
                            inner[k] = copy.deepcopy(value)


def _stores(function: ast.FunctionDef) -> dict[str, int]:
    """{name: how many times the function binds it}."""
    stores: dict[str, int] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    return stores


def _named_once(function: ast.FunctionDef) -> dict[str, str]:
    """{the expression assigned (its dump): the name} for each local of the student's assigned once
    and never else bound (`merged = merge_heads(weights @ V_h)`), not a parameter's, not a name."""
    stores = _stores(function)
    parameters = {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    return {ast.dump(value, include_attributes=False): name for name, value in _assignments(function)
            if stores.get(name) == 1 and name not in parameters and not isinstance(value, ast.Name | ast.Constant)}


def _folded(node: ast.expr, named: dict[str, str]) -> ast.expr:
    """A copy of `node` with each largest sub-expression the student named written by its name
    (`merge_heads(weights @ V_h) @ W_O` → `merged @ W_O`); `node` itself when there is none."""
    if not named:
        return node
    made = copy.deepcopy(node)

    class Fold(ast.NodeTransformer):
        def visit(self, inner: ast.AST) -> ast.AST:
            if isinstance(inner, ast.expr) and inner is not made:
                name = named.get(ast.dump(inner, include_attributes=False))
                if name is not None:
                    return ast.Name(id=name, ctx=ast.Load())
            visited: ast.AST = super().visit(inner)
            return visited

    folded = Fold().visit(made)
    return node if ast.dump(folded) == ast.dump(node) else folded  # type: ignore[return-value]


def _assignments(function: ast.FunctionDef) -> list[tuple[str, ast.expr]]:
    """(name, value) of each statement of `function` that assigns one name, in the order written."""
    found = [(node.targets[0].id, node.value) for node in ast.walk(function)
             if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)]
    return sorted(found, key=lambda pair: (pair[1].lineno, pair[1].col_offset))


def _rename(tree: ast.AST, names: dict[str, str]) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            node.id = names[node.id]


def _student_scope(function: ast.FunctionDef, source: str, rebound_builtins: frozenset[str]) -> frozenset[str]:
    """The names bound where the student's function runs: its parameters and locals, the names
    it reads (the module's: `np`, the other steps), the names its cell or file binds at its top
    (`import numpy as np`, another `def`), and the built-ins the submission keeps."""
    arguments = function.args
    names = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    names |= {node.id for node in ast.walk(function) if isinstance(node, ast.Name)}
    names |= _top_names(source)
    names |= {name for name in dir(builtins) if not name.startswith("_")} - rebound_builtins
    return frozenset(names)


def _top_names(source: str) -> set[str]:
    """The names a cell or file binds at its top: imports, definitions, assignments."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in statement.names if alias.name != "*"}
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _in_scope(graft: ast.expr, scope: frozenset[str]) -> bool:
    """INVARIANT: a graft reads only names bound in the student's function (module docstring)."""
    return _free_names(graft) <= scope


def _free_names(node: ast.AST) -> frozenset[str]:
    """The names `node` reads that it does not bind itself (a comprehension's or a lambda's own)."""
    bound: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.comprehension):
            bound |= {n.id for n in ast.walk(inner.target) if isinstance(n, ast.Name)}
        elif isinstance(inner, ast.Lambda):
            a = inner.args
            bound |= {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, *(y for y in (a.vararg, a.kwarg) if y))}
        elif isinstance(inner, ast.NamedExpr):
            bound.add(inner.target.id)
    return frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)) - bound


def _contexts(function: ast.FunctionDef) -> dict[int, Context]:
    """Where each expression of `function` sits, by id, for those whose place has a name: an
    argument of a named call (its position or keyword), the value assigned to one name, a
    returned value (its position in the returned tuple)."""
    found: dict[int, Context] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            callee = _called(node.func)
            if callee is not None:
                for position, argument in enumerate(node.args):
                    found[id(argument)] = ("argument", callee, position)
                for keyword in node.keywords:
                    found[id(keyword.value)] = ("keyword", callee, keyword.arg)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found[id(node.value)] = ("assigned", node.targets[0].id)
        elif isinstance(node, ast.Return) and node.value is not None:
            found[id(node.value)] = ("returned",)
            if isinstance(node.value, ast.Tuple):
                for position, element in enumerate(node.value.elts):
                    found[id(element)] = ("returned", position)
        if isinstance(node, ast.Call):  # the function a call names is never grafted over (_replaceable)
            found[id(node.func)] = ("callee",)
    return found


def _called(func: ast.expr) -> str | None:
    """The name a call is told by: `softmax`; an attribute by its name alone (`.exp`, `.max`)."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return "." + func.attr
    return None


def _replaceable(node: ast.AST, contexts: dict[int, Context]) -> TypeGuard[ast.expr]:
    """Whether an expression may be grafted over: one that is read (not a target), not the
    function a call names, not an f-string's piece nor a starred argument."""
    if not isinstance(node, ast.expr) or isinstance(node, ast.JoinedStr | ast.FormattedValue | ast.Starred):
        return False
    if isinstance(getattr(node, "ctx", None), ast.Store | ast.Del):
        return False
    return contexts.get(id(node)) != ("callee",)


def _reads(tree: ast.AST) -> set[str]:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def _size(node: ast.AST) -> int:
    return sum(1 for _ in ast.walk(node))
