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
import functools
import io
import itertools
import re
import warnings
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator
from types import CodeType
from dataclasses import dataclass, field
from typing import cast

from ..core.child.worker import candidate_code, compile_candidate
from ..core.repair_record import MARK_CLOSE, MARK_OPEN, EditKind
from .kinds import COST, LATER
from .rewrites import Scope, Span, called_name, clone, normalised_at, rewrites, span_of, target_names

MAX_EDITS = 600  # single edits of one function at most (a long function is searched in part)
SHOWN_CHARACTERS = 80

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
    # the body statement the edit changes and its text as edited (_Texts), when written so: an
    # edit of another statement is combined with it by text alone (_combined)
    statement: tuple[int, str] | None = field(default=None, repr=False, compare=False)
    # it makes the two sides of a subtraction, division or comparison the same (`d_k / d_k`): never a
    # repair alone, which would be right only where that part was not needed; a part of a pair it may be
    neutralising: bool = field(default=False, repr=False, compare=False)

    @property
    def rank(self) -> tuple[int, int, int]:
        return COST[self.kind], self.line, int(self.kind in LATER)


@dataclass(frozen=True, kw_only=True)
class Edits:
    """Two or more edits made together (the same slip on two lines, or two slips): the combined
    source, and each edit as it was made alone."""

    parts: tuple[Edit, ...]
    source: str = field(repr=False, compare=False)

    @property
    def rank(self) -> tuple[int, int, int]:
        return (sum(COST[part.kind] for part in self.parts), min(part.line for part in self.parts),
                sum(part.kind in LATER for part in self.parts))


def function_def(tree: ast.Module, name: str, line: int) -> ast.FunctionDef | None:
    """The definition of `name` whose `def` is at `line` in a cell's or file's tree, or None."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name and node.lineno == line:
            return node
    return None


def module_rebinds(tree: ast.Module) -> frozenset[str]:
    """Built-in names a cell binds at its top level (`sum = 0`, `max = ...`, `def len(...)`)."""
    bound = {target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             for target in ast.walk(node) if isinstance(target, ast.Name) and isinstance(target.ctx, ast.Store)}
    bound |= {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    return frozenset(name for name in bound if hasattr(builtins, name))


# Edits of one name or number: the code shown is the whole line, the place marked («»), so a
# name that appears twice on the line is told apart.
MARKED: frozenset[EditKind] = frozenset({"variable", "constant", "hard_coded", "element_of", "function_uncalled",
                                         "dict_values", "item_of", "fixed_in_loop", "whole_number"})
ATTEMPTS_PER_EDIT = 8  # edits tried, each made and read back, per edit a search may keep
MAX_COMBINED = 250  # the cheapest single edits paired with one another
MAX_TAKEN_OUT = 4  # the places one piece is taken out at, at most, for its pairs to be tried beyond those


def single_edits(function: ast.FunctionDef, *, rebound_builtins: frozenset[str] = frozenset(),
                 module_functions: frozenset[str] = frozenset(), limit: int = MAX_EDITS, source: str = "") -> list[Edit]:
    """Every single edit of `function`, cheapest first, at most `limit`; each a distinct source.
    `source`: the text the function was parsed from, so the code each edit changes is quoted as
    the student wrote it (else as the syntax tree gives it back); `module_functions`: the functions
    the submission defines at its top (one passed uncalled is called)."""
    loop_names = _loop_names(function)
    scope = Scope(local_names=_local_names(function), rebound_builtins=rebound_builtins,
                  loop_names=loop_names, list_names=_list_names(function),
                  unread_names=_unread_names(function), elements=_elements(function),
                  held=_held(function), module_functions=module_functions - {function.name},
                  loop_ranges=_loop_ranges(function), dict_names=_dict_names(function), strides=_strides(function),
                  indexed_by_name=_indexed_by_name(function), fixed_in_loops=_fixed_in_loops(function),
                  position_loop_names=_position_loop_names(function), numpy_name=_numpy_name(function),
                  varying_targets=_varying_targets(function, loop_names), result_integers=_result_integers(function),
                  own_name=function.name, parameters=tuple(a.arg for a in (*function.args.posonlyargs, *function.args.args)))
    originals = _nodes(function)
    places = _places(function)
    texts = _Texts(function)
    original = ast.unparse(function)
    edits: list[Edit] = []
    seen: dict[str, int] = {original: -1}  # each edited source once, told by its cheapest kind

    def keep(kind: EditKind, source: str | None, line: int, before: str, after: str, index: int = -1,
             rewrite: Callable[[ast.AST], ast.AST | None] | None = None,
             statement: tuple[int, str] | None = None, neutralising: bool = False) -> None:
        if source is None:
            return
        edit = Edit(kind=kind, line=line, before=before, after=after, source=source, index=index, rewrite=rewrite,
                    statement=statement, neutralising=neutralising)
        if source not in seen:
            seen[source] = len(edits)
            edits.append(edit)
        elif seen[source] >= 0 and COST[kind] < COST[edits[seen[source]].kind]:
            edits[seen[source]] = edit

    attempts = 0  # every edit tried counts, kept or not: the work is bounded, whatever the code
    operations = _operations_around(function)
    for index, node in enumerate(originals):
        line = getattr(node, "lineno", function.lineno)
        for kind, rewrite in rewrites(node, scope):
            attempts += 1
            around = operations.get(id(node))
            edited = _edited(function, places[index], rewrite, texts,
                             alike=None if around is None else functools.partial(_alike_sides, around))
            if edited is not None:
                before = quoted(originals[index], source, marked=kind in MARKED) or edited[1]
                keep(kind, edited[0], line, before, edited[2], index, rewrite, edited[3], edited[4])
        if len(edits) > 4 * limit or attempts > ATTEMPTS_PER_EDIT * limit:
            break
    for edited_source, line, before, after in _statement_swaps(function):
        keep("statements_swapped", edited_source, line, before, after)
    for edited_source, line, before, after in _statement_moves(function):
        keep("statement_moved", edited_source, line, before, after)
    for edited_source, line, before, after in _values_swapped(function):
        keep("values_swapped", edited_source, line, before, after)
    for edited_source, line, before, after in _branches_always_taken(function):
        keep("branch_always", edited_source, line, before, after)
    for edited_source, line, before, after in _never_advanced(function):
        keep("never_advanced", edited_source, line, before, after)
    for edited_source, line, before, after in _shadowed_names(function):
        keep("shadowed_name", edited_source, line, before, after)
    for edited_source, line, before, after in _yields_collected(function):
        keep("yield_used", edited_source, line, before, after)
    edits.sort(key=lambda edit: edit.rank)
    return edits[:limit]


def repeated_edits(function: ast.FunctionDef, singles: list[Edit]) -> list[Edits]:
    """One slip made on three or more lines (`W_Q.T`, `W_K.T`, `W_V.T`): the same kind of edit,
    alike once names are set aside, made at every place it applies."""
    groups: dict[tuple[str, str, str], list[Edit]] = {}
    for edit in singles:
        if edit.rewrite is not None and edit.kind != "statement_removed":
            groups.setdefault((edit.kind, *_patterns(edit.before, edit.after)), []).append(edit)
    found = []
    places = _places(function)
    texts = _Texts(function)
    for members in groups.values():
        at = {edit.index: edit for edit in members}
        if len(at) >= 3:
            source = _combined(function, places, tuple(at.values()), texts)
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
    """Two single edits made together, at most `limit`. The pairs most like one mistake come first,
    each group cheapest first: the same edit on two places (`2 * d_k + 1` on two lines), two edits
    of one line (`range(1, 4)` for `range(0, 3)`), two of one kind (a call too many on two lines),
    then any two of the cheapest; the alike groups take at most their share of `limit`, so that
    two unrelated slips are tried as well."""
    every = [edit for edit in singles if edit.rewrite is not None and edit.kind != "statement_removed"]
    combinable = every[:MAX_COMBINED]
    groups: list[list[tuple[Edit, Edit]]] = [[] for _ in PAIR_SHARES]
    for a, b in itertools.combinations(combinable, 2):
        if a.index != b.index:
            groups[_likeness(a, b)].append((a, b))
    # One piece taken out on two lines (`X[-1:]` and `mask[-1:]`: one habit) is one mistake however
    # dear its edits come in the single edits' order: paired from all of them.
    taken_out: dict[tuple[str, str], list[Edit]] = {}
    for edit in every:
        piece = _taken_out(edit)
        if piece:
            taken_out.setdefault((edit.kind, piece), []).append(edit)
    cheap = {id(edit) for edit in combinable}
    for alike in taken_out.values():
        if len(alike) > MAX_TAKEN_OUT:
            continue  # a piece written everywhere (`[i]`) tells no habit
        for a, b in itertools.combinations(alike, 2):
            if a.index != b.index and a.line != b.line and not (id(a) in cheap and id(b) in cheap):
                groups[0].append((a, b))
    places = _places(function)
    span = _span(places)
    ordered: list[tuple[Edit, Edit]] = []
    rest: list[tuple[Edit, Edit]] = []
    for likeness, (group, share) in enumerate(zip(groups, PAIR_SHARES)):
        if likeness == ONE_LINE:
            group = _line_by_line(group, span)
        else:
            group.sort(key=lambda pair: (COST[pair[0].kind] + COST[pair[1].kind], min(pair[0].line, pair[1].line)))
        cut = len(group) if share is None else int(share * limit)
        ordered += group[:cut]
        rest += group[cut:]
    found: list[Edits] = []
    seen: set[str] = set()
    texts = _Texts(function)
    for attempt, (first, second) in enumerate([*ordered, *rest]):
        if len(found) >= limit or attempt >= ATTEMPTS_PER_EDIT * limit:
            break
        # Compiled only when sent: the search tries the pairs a cost at a time and most are never sent.
        source = _combined(function, places, (first, second), texts, compiling=False)
        if source is not None and source not in seen:
            seen.add(source)
            found.append(Edits(parts=(first, second), source=source))
    return found


# The share of a pair search's limit each group of `_likeness` may take before the next group's
# turn (None: all of it); what a group leaves over is tried after the last group.
PAIR_SHARES: tuple[float | None, ...] = (None, 0.5, 0.2, 0.1, None)


ONE_LINE = 1  # `_likeness` of two edits of one line


def _line_by_line(pairs: list[tuple[Edit, Edit]], span: Callable[[int, int], int]) -> list[tuple[Edit, Edit]]:
    """Pairs of edits of one line, a line at a time in turn (a long call's many names on one line
    must not crowd out every other line); on each line, the smaller the expression holding both
    edits, the likelier one mistake, then the cheaper."""
    lines: dict[int, list[tuple[Edit, Edit]]] = {}
    for pair in pairs:
        lines.setdefault(pair[0].line, []).append(pair)
    for on_line in lines.values():
        on_line.sort(key=lambda pair: (not _alike_but_names(*pair), span(pair[0].index, pair[1].index),
                                       COST[pair[0].kind] + COST[pair[1].kind]))
    turns = itertools.zip_longest(*(lines[line] for line in sorted(lines)))
    return [pair for turn in turns for pair in turn if pair is not None]


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _alike_but_names(a: Edit, b: Edit) -> bool:
    """Whether two edits are one edit made on other names (`Q[i:i + 1]` → `Q[i]` and `K[j:j + 1]`
    → `K[j]`: one habit, twice): of one kind, and their texts the same once each one's names are
    numbered in the order they come. A bare name for another (`variable`) is no such edit: any two
    are alike so."""
    if a.kind != b.kind or _IDENTIFIER.fullmatch(a.before.strip()) is not None:
        return False
    return _names_numbered(a.before, a.after) == _names_numbered(b.before, b.after)


@functools.lru_cache(maxsize=4096)  # asked for each pair of a line's edits: each edit's text once
def _names_numbered(before: str, after: str) -> tuple[str, str]:
    numbers: dict[str, str] = {}

    def number(match: re.Match[str]) -> str:
        return numbers.setdefault(match.group(0), f"#{len(numbers)}")
    return _IDENTIFIER.sub(number, before), _IDENTIFIER.sub(number, after)


def _span(places: list[Place]) -> Callable[[int, int], int]:
    """The size (in nodes) of the smallest node holding two nodes of a function, by their index in
    its `places`."""
    nodes = [_node_at(place) for place in places]
    index_of = {id(node): index for index, node in enumerate(nodes)}
    parent = [index_of.get(id(place[0]), -1) for place in places]
    sizes: dict[int, int] = {}

    def size(index: int) -> int:
        if index not in sizes:
            sizes[index] = sum(1 for _ in ast.walk(nodes[index])) if index >= 0 else len(nodes)
        return sizes[index]

    def span(a: int, b: int) -> int:
        above = set()
        while a >= 0:
            above.add(a)
            a = parent[a]
        while b >= 0 and b not in above:
            b = parent[b]
        return size(b)
    return span


def _taken_out(edit: Edit) -> str:
    """The text an edit only takes out of the code it changes (`[-1:]` of `X[-1:]` → `X`), "" when it
    puts anything in."""
    before, after = edit.before, edit.after
    if not after or len(after) >= len(before) or MARK_OPEN in before:
        return ""
    start = 0
    while start < len(after) and before[start] == after[start]:
        start += 1
    end = 0
    while end < len(after) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    return before[start:len(before) - end] if start + end == len(after) else ""


def _likeness(a: Edit, b: Edit) -> int:
    """How much two edits look like one mistake: 0 the same edit twice, 1 on one line, 2 of one
    kind bringing in the same function or name, 3 of one kind, 4 unrelated."""
    if a.kind == b.kind and a.before == b.before and a.after == b.after:
        return 0
    if a.line == b.line:
        return 1
    if a.kind == b.kind:
        return 2 if a.after.split("(")[0] == b.after.split("(")[0] else 3
    return 4


Place = tuple[ast.AST, str, "int | None"]  # a node's holder, the holder's field, its position in a list field


def _places(function: ast.FunctionDef) -> list[Place]:
    """Where each node of `_nodes(function)` sits, in the same order: edits are made in place on
    the student's own tree and undone after its source is read (no copy of the whole function
    per candidate)."""
    found: list[Place] = []

    def visit(node: ast.AST, place: Place) -> None:
        found.append(place)
        for name, value in ast.iter_fields(node):
            if isinstance(value, ast.AST):
                visit(value, (node, name, None))
            elif isinstance(value, list):
                for position, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        visit(item, (node, name, position))

    for position, statement in enumerate(function.body):
        visit(statement, (function, "body", position))
    return found


def _node_at(place: Place) -> ast.AST:
    holder, name, position = place
    value = getattr(holder, name)
    return cast(ast.AST, value if position is None else value[position])


def _put(place: Place, node: ast.AST) -> None:
    holder, name, position = place
    if position is None:
        setattr(holder, name, node)
    else:
        getattr(holder, name)[position] = node


def _combined(function: ast.FunctionDef, places: list[Place], edits: tuple[Edit, ...],
              texts: _Texts | None = None, *, compiling: bool = True) -> str | None:
    """The source of `function` with every edit of `edits` made (None when they cannot all be).
    `texts`: the function's text by statement, to write only the edited ones again. `compiling`:
    whether it is compiled now (None when it does not compile), else only when it is sent (compiled)."""
    check = _compiling if compiling else _as_is
    if texts is not None and texts.exact:
        # Edits of different statements: each statement is written as its edit alone wrote it.
        alone = dict(edit.statement for edit in edits if edit.statement is not None)
        if len(alone) == len(edits):
            return check(texts.joined(alone))
    chosen = [places[edit.index] for edit in edits]
    targets = [_node_at(place) for place in chosen]
    if len({id(target) for target in targets}) < len(targets):
        return None  # two edits of one node
    # Nested edits (a transpose inside a transposed call) are made innermost first: the outer
    # node is then edited with the inner edit already in it. `places` lists the nodes in pre-order,
    # so a node inside another comes after it: the last first is innermost first.
    made: list[tuple[Place, ast.AST]] = []
    try:
        for edit, place, target in sorted(zip(edits, chosen, targets), key=lambda item: -item[0].index):
            if edit.rewrite is None:
                return None
            try:
                replacement = edit.rewrite(clone(target))
            except (AssertionError, AttributeError, IndexError, TypeError):
                return None  # the other edit changed what this one was made for
            if replacement is None:
                return None
            _put(place, replacement)
            made.append((place, target))
        text = texts.source(*chosen) if texts is not None else None
        text = _unparsed(function) if text is None else text
        return None if text is None else check(text)
    finally:
        for place, target in reversed(made):
            _put(place, target)


def _as_is(source: str) -> str:
    return source


def _compiled(tree: ast.FunctionDef) -> str | None:
    source = _unparsed(tree)
    return None if source is None else _compiling(source)


def _unparsed(tree: ast.AST) -> str | None:
    try:
        return ast.unparse(tree)
    except (ValueError, RecursionError, TypeError):
        return None


def _compiling(source: str) -> str | None:
    """`source` when it compiles, else None; what it compiled to is kept for the child (compiled)."""
    try:
        with warnings.catch_warnings():  # an edit's `x[1, 2](...)` is the grader's, never the TA's to read
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile_candidate(source)
    except (SyntaxError, ValueError, RecursionError, TypeError):
        return None
    _keep(source, code)
    return source


# What a candidate's compiled form may weigh to be kept and sent (a normal one weighs a few
# kilobytes; `'ab' * 2048` is folded into a constant that large, a few hundred such in a function
# would make gigabytes of a search's candidates), and what all those kept may weigh: the grader's
# memory stays bounded by these, whatever the code. A candidate not kept is sent as its text alone.
MAX_CODE_BYTES = 32 * 1024
MAX_KEPT_CODE_BYTES = 32 * 1024 * 1024
_CODES: OrderedDict[str, list[str]] = OrderedDict()
_KEPT = [0]  # the bytes kept in _CODES


def _keep(source: str, code: CodeType) -> None:
    if source in _CODES:
        _CODES.move_to_end(source)
        return
    if _constants_size(code) > MAX_CODE_BYTES:
        return  # not even marshalled
    sent = candidate_code(code)
    size = len(sent[1])
    if size > MAX_CODE_BYTES:
        return
    _CODES[source] = sent
    _KEPT[0] += size
    while _KEPT[0] > MAX_KEPT_CODE_BYTES:
        _KEPT[0] -= len(_CODES.popitem(last=False)[1][1])


def _constants_size(code: CodeType) -> int:
    """About what the constants of `code` and of the code it holds weigh, marshalled."""
    size = 0
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            size += _constants_size(constant)
        elif isinstance(constant, (str, bytes, tuple, frozenset)):
            size += len(constant) if not isinstance(constant, (tuple, frozenset)) else \
                sum(len(item) if isinstance(item, (str, bytes)) else 8 for item in constant)
    return size


def compiled(source: str) -> list[str] | None:
    """What a call command carries of a candidate as the grader compiled it (worker.candidate_code):
    when it was made, or now for one made without (a pair of edits, most of which are never sent);
    None for one that does not compile or weighs too much, sent as its text alone."""
    if source not in _CODES:
        _compiling(source)
    return _CODES.get(source)


def _nodes(function: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of the function's body in a fixed order (the same for a deep copy), as `_places` finds them."""
    return [_node_at(place) for place in _places(function)]


def has_docstring(function: ast.FunctionDef) -> bool:
    """Whether the function's first statement is its docstring, other statements following it."""
    body = function.body
    return len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
        and isinstance(body[0].value.value, str)


class _Texts:
    """The function's text as `ast.unparse` writes it, kept statement by statement: an edit inside
    one statement of the body writes that statement again and reuses the others' text (a search
    writes hundreds of edited functions, each differing in one statement)."""

    def __init__(self, function: ast.FunctionDef) -> None:
        self.function = function
        self.owner = {id(node): k for k, statement in enumerate(function.body) for node in ast.walk(statement)}
        body = function.body
        # A docstring stays in the lead, written as the docstring it is.
        self.kept = 1 if has_docstring(function) else 0
        self.lead, self.parts, self.exact = "", [], False
        try:
            self.lead = self._with([])
            self.parts = [self._part(statement) for statement in body[self.kept:]]
            # Written whole as ast.unparse writes it, or not used at all.
            self.exact = self.lead.endswith(PASS_LINE) and \
                self.lead[:-len(PASS_LINE)] + "".join(self.parts) == ast.unparse(function)
        except (ValueError, RecursionError, TypeError):
            pass

    def _with(self, body: list[ast.stmt]) -> str:
        # After a `pass`: no statement is read as the docstring, and each is written as it is
        # within the body (a nested `def` with the blank line before it).
        shell = copy.copy(self.function)
        shell.body = [*self.function.body[:self.kept], ast.Pass(), *body]
        return ast.unparse(shell)

    def _part(self, statement: ast.stmt) -> str:
        return self._with([statement])[len(self.lead):]

    def source(self, *places: Place) -> str | None:
        """The whole text with the edits at `places` made (None: write it whole instead)."""
        edited = self.edited(*places)
        return None if edited is None else self.joined(edited)

    def joined(self, edited: dict[int, str]) -> str:
        """The whole text with the body's statements `edited` (by number) written as given."""
        parts = list(self.parts)
        for k, text in edited.items():
            parts[k - self.kept] = text
        return self.lead[:-len(PASS_LINE)] + "".join(parts)

    def edited(self, *places: Place) -> dict[int, str] | None:
        """The text of each statement holding an edit at `places`, by its number in the body, as
        the tree now is (None: write the function whole instead)."""
        if not self.exact:
            return None
        changed: set[int] = set()
        for holder, name, position in places:
            if holder is self.function:
                if name != "body" or position is None or len(self.function.body) != self.kept + len(self.parts):
                    return None
                changed.add(position)
            elif id(holder) in self.owner:
                changed.add(self.owner[id(holder)])
            else:
                return None
        if not changed or min(changed) < self.kept:
            return None
        try:
            return {k: self._part(self.function.body[k]) for k in changed}
        except (ValueError, RecursionError, TypeError):
            return None


PASS_LINE = "\n    pass"


def _operations_around(function: ast.FunctionDef) -> dict[int, ast.BinOp | ast.Compare]:
    """{id of a node: the innermost subtraction, division or comparison of two values holding it},
    of those whose two sides differ as written (an edit can only make them the same)."""
    around: dict[int, ast.BinOp | ast.Compare] = {}
    for node in ast.walk(function):  # outer operations first: an inner one overwrites them
        if ((isinstance(node, ast.BinOp) and isinstance(node.op, _NEUTRALISED)) or
                (isinstance(node, ast.Compare) and len(node.ops) == 1)) and not _alike_sides(node):
            for inner in ast.walk(node):
                if inner is not node:
                    around[id(inner)] = node
    return around


# Operations whose two sides made the same give one value whatever they are (x - x, x / x).
_NEUTRALISED = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.BitXor)


def _alike_sides(operation: ast.BinOp | ast.Compare) -> bool:
    left, right = (operation.left, operation.right) if isinstance(operation, ast.BinOp) else \
        (operation.left, operation.comparators[0])
    return ast.dump(left) == ast.dump(right)


def _edited(function: ast.FunctionDef, place: Place, rewrite: Callable[[ast.AST], ast.AST | None],
            texts: _Texts | None = None, alike: Callable[[], bool] | None = None
            ) -> tuple[str | None, str, str, tuple[int, str] | None, bool] | None:
    """(the edited function's source, None if it does not compile; the node as written; as
    edited; the statement edited and its text, when written from `texts`; whether the edit made
    `alike` true), the edit made on the student's tree and undone before returning. `texts`: the
    function's text by statement, to write only the edited one again. `alike`: whether the two
    sides of the subtraction, division or comparison holding the node, which differ as written,
    are the same (`np.arange(n)[None, :]` on both sides of a `-`)."""
    target = _node_at(place)
    before = _short(target)
    replacement = rewrite(clone(target))
    holder, name, position = place
    if replacement is None:  # a statement removed
        body = getattr(holder, name)
        if position is None or len(body) < 2:
            return None
        del body[position]
        try:
            return _compiled(function), before, "", None, False
        finally:
            body.insert(position, target)
    _put(place, replacement)
    try:
        neutralising = alike is not None and alike()
        edited = texts.edited(place) if texts is not None else None
        if edited is None or texts is None:
            return _compiled(function), before, _short(replacement), None, neutralising
        source = _compiling(texts.joined(edited))
        statement = next(iter(edited.items())) if source is not None else None
        return source, before, _short(replacement), statement, neutralising
    finally:
        _put(place, target)


def quoted(node: ast.AST, source: str, *, marked: bool = False) -> str:
    """The student's own text of `node` ("" when it cannot be read from `source`), on one line;
    `marked`: its whole line instead, the node between « and »."""
    line, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
    start, stop = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    lines = _lines(source)
    if not source or line is None or end is None or start is None or stop is None or not 0 < line <= end <= len(lines):
        return ""
    # The offsets count bytes of the line as Python split it (\n, \r\n or \r: no other break).
    raw = [text.encode("utf-8") for text in lines[line - 1:end]]
    try:
        if marked and end == line:
            text = (raw[0][:start] + MARK_OPEN.encode() + raw[0][start:stop] + MARK_CLOSE.encode()
                    + raw[0][stop:]).decode("utf-8")
            return _clipped(text.strip())
        segment = (raw[0][start:stop] if end == line else
                   raw[0][start:] + b"".join(raw[1:-1]) + raw[-1][:stop]).decode("utf-8")
    except UnicodeDecodeError:
        return ""
    return _clipped(" ".join(segment.split())) if segment else ""


@functools.lru_cache(maxsize=4)
def _lines(source: str) -> tuple[str, ...]:
    """`source`'s lines with their ends, split where Python's tokenizer splits them (once per
    source: a search quotes hundreds of edits of one cell)."""
    return tuple(io.StringIO(source, newline="").readlines())


def _clipped(text: str) -> str:
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 1] + "…"


def _short(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except (ValueError, TypeError, RecursionError):
        return ""
    return _clipped(" ".join(text.split()))


def _local_names(function: ast.FunctionDef) -> tuple[str, ...]:
    arguments = function.args
    names = [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in names:
            names.append(node.id)
    return tuple(names)


def bound_names(function: ast.FunctionDef) -> set[str]:
    """Every name `function` binds: its locals (_local_names), and the names it deletes, defines,
    imports or takes as `*args`, `**kwargs` or a nested function's parameter."""
    names = set(_local_names(function))
    names |= {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Del):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not function:
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def read_names(function: ast.FunctionDef) -> set[str]:
    """The names `function` reads."""
    return {node.id for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def _unread_names(function: ast.FunctionDef) -> tuple[str, ...]:
    read = read_names(function)
    return tuple(name for name in _local_names(function) if name not in read
                 and name not in {a.arg for a in function.args.args})


def _elements(function: ast.FunctionDef) -> dict[str, tuple[int, ...]]:
    """{name: the indexes to try}: the names the function indexes by a number (`qkv[0]`, `qkv[1]`),
    each with those numbers, the next one and -1 (`qkv[2]`, the one it may have used whole)."""
    seen: dict[str, set[int]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant) \
                and type(node.slice.value) is int and 0 <= node.slice.value < 8:
            seen.setdefault(node.value.id, set()).add(node.slice.value)
    return {name: (*sorted(numbers), max(numbers) + 1, -1) for name, numbers in seen.items()}


def _loop_ranges(function: ast.FunctionDef) -> dict[tuple[int, int], tuple[tuple[str, int], ...]]:
    """{(line, column) of a loop's `range(n)`: the (array, axis) pairs its variable indexes in the
    loop's body (`Q[:, j]`: ("Q", 1)), each but the one `n` already is (`Q.shape[1]`)}."""
    found: dict[tuple[int, int], tuple[tuple[str, int], ...]] = {}
    for loop, variable, walked in _range_loops(function):
        if len(walked.args) != 1 or walked.keywords:
            continue
        bound = ast.unparse(walked.args[0])
        axes: dict[tuple[str, int], None] = {}
        for sub in (node for statement in loop.body for node in ast.walk(statement)):
            if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name):
                index = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
                for axis, item in enumerate(index):
                    if isinstance(item, ast.Name) and item.id == variable and bound != f"{sub.value.id}.shape[{axis}]":
                        axes[(sub.value.id, axis)] = None
        if axes:
            found[(walked.lineno, walked.col_offset)] = tuple(axes)
    return found


def _range_loops(function: ast.FunctionDef) -> Iterator[tuple[ast.For, str, ast.Call]]:
    """(the loop, its name, its `range(...)` call) of each `for name in range(...)` of the function."""
    for loop in ast.walk(function):
        if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Call) \
                and isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "range":
            yield loop, loop.target.id, loop.iter


def _held(function: ast.FunctionDef) -> frozenset[Span]:
    """Where a value is read as part of something larger (indexed, called, an attribute read from
    it): the span of each such value."""
    held = set()
    for node in ast.walk(function):
        inner = node.value if isinstance(node, (ast.Subscript, ast.Attribute)) else \
            node.func if isinstance(node, ast.Call) else None
        if isinstance(inner, ast.expr):
            held.add(span_of(inner))
    return frozenset(held)


def _strides(function: ast.FunctionDef) -> dict[str, ast.expr]:
    """{a loop's name: its step} for each `for name in range(start, stop, step)` of the function."""
    return {variable: walked.args[2] for _, variable, walked in _range_loops(function) if len(walked.args) == 3}


def _dict_names(function: ast.FunctionDef) -> frozenset[str]:
    return frozenset(target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
                     and (isinstance(node.value, (ast.Dict, ast.DictComp)) or isinstance(node.value, ast.Call)
                          and isinstance(node.value.func, ast.Name) and node.value.func.id == "dict")
                     for target in node.targets if isinstance(target, ast.Name))


def _list_names(function: ast.FunctionDef) -> frozenset[str]:
    return frozenset(target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
                     and isinstance(node.value, (ast.List, ast.ListComp))
                     for target in node.targets if isinstance(target, ast.Name))


def _indexed_by_name(function: ast.FunctionDef) -> tuple[str, ...]:
    """The names the function indexes by a name somewhere (`words[i]`), as they first appear."""
    names = [node.value.id for node in _own_nodes(function) if isinstance(node, ast.Subscript)
             and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Name)]
    return tuple(dict.fromkeys(names))


def _fixed_in_loops(function: ast.FunctionDef) -> dict[Span, tuple[str, ...]]:
    """{the place of an index 0 or 1 inside a loop (`H[0]` in `for h in range(n)`): the names of
    the loops around it}: the same cell read on every pass where the loop's own was meant."""
    loops: list[tuple[tuple[str, ...], int, int]] = []  # the names a loop binds, its first and last line
    for node in _own_nodes(function):
        if isinstance(node, ast.For) and node.body:
            loops.append((target_names(node.target), node.body[0].lineno, node.end_lineno or node.lineno))
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            loops.append((tuple(name for generator in node.generators for name in target_names(generator.target)),
                          node.lineno, node.end_lineno or node.lineno))
    found: dict[Span, tuple[str, ...]] = {}
    for node in _own_nodes(function):
        if not isinstance(node, ast.Subscript):
            continue
        for item in node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]:
            if isinstance(item, ast.Constant) and type(item.value) is int and item.value in (0, 1):
                names = [name for bound, first, last in loops if first <= item.lineno <= last for name in bound]
                if names:
                    found[span_of(item)] = tuple(dict.fromkeys(names))
    return found


def _result_integers(function: ast.FunctionDef) -> frozenset[Span]:
    """The places of the whole numbers that are a value's result, not an index or a count: an
    `if`-expression's branch, a lambda's body, a returned number, `np.full`'s fill."""
    found: set[Span] = set()
    for node in ast.walk(function):  # lambdas' bodies too
        results: list[ast.expr] = []
        if isinstance(node, ast.IfExp):
            results = [node.body, node.orelse]
        elif isinstance(node, ast.Lambda):
            results = [node.body]
        elif isinstance(node, ast.Return) and node.value is not None:
            results = [node.value]
        elif isinstance(node, ast.Call) and called_name(node)[0] == "full" and len(node.args) >= 2:
            results = [node.args[1]]
        found.update(span_of(r) for r in results if isinstance(r, ast.Constant) and type(r.value) is int)
    return frozenset(found)


def _varying_targets(function: ast.FunctionDef, loop_names: tuple[str, ...]) -> frozenset[Span]:
    """The places of the subscripts the function writes to with a value that reads a name its loops
    bind (`loop_names`: `table[i, j] = Q[i] @ K[j]`)."""
    found: set[Span] = set()
    for node in _own_nodes(function):
        if isinstance(node, (ast.Assign, ast.AugAssign)) and node.value is not None:
            if not any(isinstance(n, ast.Name) and n.id in loop_names for n in ast.walk(node.value)):
                continue
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                found.update(span_of(t) for t in ast.walk(target) if isinstance(t, ast.Subscript))
    return frozenset(found)


# The steps a counter left unchanged is tried with: the names read where it is read, and 1.
def _never_advanced(function: ast.FunctionDef) -> Iterator[tuple[str | None, int, str, str]]:
    """A number set before a loop and read in it that nothing in the loop changes (`start = 0`,
    then `M[:, start:start + d]` on every pass): `name += step` at the end of the loop's body, the
    step 1 or a name read beside it: (edited source, the last line reading it, the name, the edit)."""
    counters = {target.id: statement.lineno for statement in _own_nodes(function) if isinstance(statement, ast.Assign)
                and isinstance(statement.value, ast.Constant) and type(statement.value.value) is int
                for target in statement.targets if isinstance(target, ast.Name)}
    for loop in _own_nodes(function):
        if not isinstance(loop, ast.For) or not loop.body:
            continue
        stored = {node.id for node in ast.walk(loop) if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)}
        for name, set_at in counters.items():
            if name in stored or set_at >= loop.lineno:
                continue
            reading = [statement for statement in loop.body
                       if any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(statement))]
            if not reading:
                continue
            beside = [node.id for statement in reading for node in ast.walk(statement)
                      if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id != name
                      and node.id not in stored and not hasattr(builtins, node.id)]
            for step in [ast.Constant(1), *(ast.Name(id=other, ctx=ast.Load()) for other in dict.fromkeys(beside))]:
                advance = ast.AugAssign(target=ast.Name(id=name, ctx=ast.Store()), op=ast.Add(), value=step,
                                        lineno=loop.body[-1].end_lineno or loop.lineno)
                loop.body.append(advance)
                try:
                    source = _compiled(function)
                finally:
                    loop.body.pop()
                yield source, reading[-1].lineno, name, ast.unparse(advance)


def _loop_names(function: ast.FunctionDef) -> tuple[str, ...]:
    names = [node.id for loop in ast.walk(function) if isinstance(loop, (ast.For, ast.comprehension))
             for node in ast.walk(loop.target) if isinstance(node, ast.Name)]
    return tuple(dict.fromkeys(names))


def _position_loop_names(function: ast.FunctionDef) -> frozenset[str]:
    """The names a loop binds to a whole position of several axes (`for idx in np.ndindex(...)`,
    `itertools.product(...)`): a tuple each pass."""
    return frozenset(loop.target.id for loop in ast.walk(function)
                     if isinstance(loop, (ast.For, ast.comprehension)) and isinstance(loop.target, ast.Name)
                     and isinstance(loop.iter, ast.Call) and called_name(loop.iter)[0] in ("ndindex", "product"))


def _numpy_name(function: ast.FunctionDef) -> str | None:
    """The name `function` reads numpy's attributes through (`np.exp`), if it does."""
    return next((node.value.id for node in ast.walk(function) if isinstance(node, ast.Attribute)
                 and isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy")), None)


_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)


def _statement_moves(function: ast.FunctionDef) -> Iterator[tuple[str | None, int, str, str]]:
    """The function with one statement moved across a loop's edge: a statement before a loop moved
    to the start of its body or of a loop inside it (`total = 0` set once for every cell), a loop's
    first statement moved before it (`out = np.zeros(...)` made anew on every pass), the statement
    after a loop moved to the end of its body or of a loop inside it (`out[i] += term` written after
    the loop it belongs in), and a loop's last statement moved out after it (`return` indented into
    the loop): (edited source, the statement's line, the statement, where it goes)."""
    bodies = [value for holder in ast.walk(function) for _, value in ast.iter_fields(holder)
              if isinstance(value, list) and value and all(isinstance(s, ast.stmt) for s in value)]
    for body in bodies:
        for q, loop in enumerate(body):
            if not isinstance(loop, (ast.For, ast.While)):
                continue
            loops = [n for n in ast.walk(loop) if isinstance(n, (ast.For, ast.While))]
            for p in range(q):
                moved = body[p]
                if isinstance(moved, _SIMPLE) and not isinstance(moved, ast.Return):
                    for inner in loops:
                        yield (_compiled_with_move(function, body, p, inner.body, 0), moved.lineno, _short(moved),
                               f"{_loop_head(inner)} {_short(moved)}")
            first = loop.body[0]
            if len(loop.body) >= 2 and isinstance(first, _SIMPLE) and not isinstance(first, ast.Return):
                yield _compiled_with_move(function, loop.body, 0, body, q), first.lineno, _short(first), _short(first)
            after = body[q + 1] if q + 1 < len(body) else None
            if isinstance(after, _SIMPLE) and not isinstance(after, ast.Return):
                for inner in loops:
                    yield (_compiled_with_move(function, body, q + 1, inner.body, len(inner.body)), after.lineno,
                           _short(after), f"{_loop_head(inner)} … {_short(after)}")
            last = loop.body[-1]
            if len(loop.body) >= 2 and isinstance(last, _SIMPLE):
                yield (_compiled_with_move(function, loop.body, len(loop.body) - 1, body, q + 1), last.lineno,
                       _short(last), _short(last))


def _own_nodes(function: ast.FunctionDef) -> Iterator[ast.AST]:
    """The nodes of `function`'s body, not those of a function or lambda defined inside it."""
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _yields_collected(function: ast.FunctionDef) -> Iterator[tuple[str | None, int, str, str]]:
    """A `yield` that makes the function a generator where its values were to be returned: the
    body run as a generator inside it, its values returned as a list or an array."""
    yields = [node for node in _own_nodes(function) if isinstance(node, (ast.Yield, ast.YieldFrom))]
    if not yields:
        return
    inner = copy.copy(function)  # (every field this Python's `def` has, its type parameters too)
    inner.name, inner.decorator_list, inner.returns = "_values", [], None
    inner.args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    inner.body = function.body[1:] if has_docstring(function) else function.body
    listed = ast.Call(func=ast.Name(id="list", ctx=ast.Load()), args=[
        ast.Call(func=ast.Name(id="_values", ctx=ast.Load()), args=[], keywords=[])], keywords=[])
    body = function.body
    for collected in (listed, ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="array",
                                                          ctx=ast.Load()), args=[listed], keywords=[])):
        function.body = [inner, ast.Return(value=collected)]
        try:
            yield _compiled(function), yields[0].lineno, _short(yields[0]).removeprefix("(").removesuffix(")"), _short(collected)
        finally:
            function.body = body


def normalisations(function: ast.FunctionDef, *, known: Collection[str] = ()) -> list[Edit]:
    """A returned value (or item of the returned tuple) divided by its sums over the last axis
    (weights masked after their softmax, a sum left out): it repairs whatever is a normalisation
    gone wrong anywhere before, so it is tried with the pairs, by cost, never before a single edit."""
    seen = {ast.unparse(function), *known}
    found = []
    for statement in _own_nodes(function):
        if not isinstance(statement, ast.Return) or statement.value is None:
            continue
        for position in range(len(statement.value.elts) if isinstance(statement.value, ast.Tuple) else 1):
            kept = statement.value
            try:
                edited = normalised_at(clone(statement), position)
                assert isinstance(edited, ast.Return)
                statement.value = edited.value
                source = _compiled(function)
            finally:
                statement.value = kept
            if source is not None and source not in seen:
                seen.add(source)
                found.append(Edit(kind="normalised", line=statement.lineno, before=_short(statement),
                                  after=_short(edited), source=source))
    return found


def moved_operations(function: ast.FunctionDef, *, known: Collection[str] = ()) -> list[Edit]:
    """An operation moved onto another value (`_operations_moved`), each a distinct source that
    compiles and is none of `known`: two places changed, so tried with the pairs, not before them."""
    seen = {ast.unparse(function), *known}
    found = []
    for source, line, before, after in _operations_moved(function):
        if source is not None and source not in seen:
            seen.add(source)
            found.append(Edit(kind="operation_moved", line=line, before=before, after=after, source=source))
    return found


_MOVABLE = (ast.Mult, ast.Div, ast.MatMult)
MAX_OPERATION_MOVES = 160  # operations moved onto another value, at most (each a whole candidate)
MOVES_PER_OPERATION = 24  # values one operation is moved onto, at most


def _operations_moved(function: ast.FunctionDef) -> Iterator[tuple[str | None, int, str, str]]:
    """An operation done on the wrong value: `V / np.sqrt(d_k)` where `scores(Q, K) / np.sqrt(d_k)`
    was meant, `split_heads(V @ W_O, h)` where `merge_heads(...) @ W_O` was. The operation (a
    product or a division by something other than a number) is taken off its operand and made on
    another value the function computes: a call's result or a name read whole. (edited source, the
    operation's line, the operation as written, the value it is moved onto as edited)."""
    places = _places(function)
    nodes = [_node_at(place) for place in places]
    held = _held(function)
    onto = [k for k, node in enumerate(nodes) if span_of(node) not in held and
            (isinstance(node, ast.Call) or isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load))]
    made = 0
    for b, operation in enumerate(nodes):
        if not (isinstance(operation, ast.BinOp) and isinstance(operation.op, _MOVABLE)
                and not isinstance(operation.right, ast.Constant)):
            continue
        inside = {id(node) for node in ast.walk(operation)}
        # the values nearest the operation first (its own line, then the lines around it)
        nearest = sorted((e for e in onto if id(nodes[e]) not in inside),
                         key=lambda e: abs(getattr(nodes[e], "lineno", 0) - operation.lineno))
        for e in nearest[:MOVES_PER_OPERATION]:
            if made >= MAX_OPERATION_MOVES:
                return
            made += 1
            _put(places[b], operation.left)
            moved = ast.BinOp(left=cast(ast.expr, nodes[e]), op=operation.op, right=copy.deepcopy(operation.right))
            _put(places[e], moved)
            try:
                yield _compiled(function), operation.lineno, _short(operation), _short(moved)
            finally:
                _put(places[e], nodes[e])
                _put(places[b], operation)


def _compiled_with_move(function: ast.FunctionDef, source: list[ast.stmt], at: int, target: list[ast.stmt],
                        to: int) -> str | None:
    """The source of `function` with the statement at `source[at]` moved to `target[to]` (counted
    once it is taken out; `target` another body than `source`), then put back."""
    statement = source.pop(at)
    target.insert(to, statement)
    try:
        return _compiled(function)
    finally:
        del target[to]
        source.insert(at, statement)


def _loop_head(loop: ast.For | ast.While) -> str:
    head = f"for {ast.unparse(loop.target)} in {ast.unparse(loop.iter)}:" if isinstance(loop, ast.For) \
        else f"while {ast.unparse(loop.test)}:"
    return _clipped(head)


def _bodies(function: ast.FunctionDef) -> list[list[ast.stmt]]:
    """The statement lists of the function (its body, each loop's, branch's, ...) of two or more."""
    return [value for holder in ast.walk(function) for _, value in ast.iter_fields(holder)
            if isinstance(value, list) and len(value) >= 2 and all(isinstance(s, ast.stmt) for s in value)]


def _statement_swaps(function: ast.FunctionDef) -> Iterator[tuple[str | None, int, str, str]]:
    """The function with two neighbouring statements of one body in the other order: (edited
    source, the first one's line, the two as written, the two as edited)."""
    for body in _bodies(function):
        for position in range(len(body) - 1):
            first, second = body[position], body[position + 1]
            if isinstance(first, ast.Return) or isinstance(second, ast.Return):
                continue
            body[position], body[position + 1] = second, first
            try:
                source = _compiled(function)
            finally:
                body[position], body[position + 1] = first, second
            yield source, first.lineno, f"{_short(first)}; {_short(second)}", f"{_short(second)}; {_short(first)}"


def _statements(tree: ast.AST) -> Iterator[tuple[list[ast.stmt], int, ast.stmt]]:
    """(its list, its position, the statement) of every statement of `tree`'s statement lists
    (a body, a loop's or a branch's): each list as it is when its turn comes, so a statement
    replaced in it before the next is asked for stays replaced."""
    for holder in list(ast.walk(tree)):
        for _, body in ast.iter_fields(holder):
            if isinstance(body, list):
                for position in range(len(body)):
                    if isinstance(body[position], ast.stmt):
                        yield body, position, body[position]


def _branches_always_taken(function: ast.FunctionDef) -> Iterator[tuple[str | None, int, str, str]]:
    """The function with an `if` that has no `else` replaced by its body (`if mask.dtype == bool:`
    where the mask was to apply to every mask): (edited source, the `if`'s line, its head, "")."""
    for body, position, statement in _statements(function):
        if not isinstance(statement, ast.If) or statement.orelse:
            continue
        body[position:position + 1] = statement.body
        try:
            source = _compiled(function)
        finally:
            body[position:position + len(statement.body)] = [statement]
        yield source, statement.lineno, _clipped(f"if {ast.unparse(statement.test)}:"), ""


def raising_at(function: ast.FunctionDef, lines: Collection[int]) -> str | None:
    """`function`'s source with each innermost statement that holds one of `lines` made a `raise`
    (on a copy)."""
    def holds(statement: ast.stmt, line: int) -> bool:
        return statement.lineno <= line <= (statement.end_lineno or statement.lineno)

    tree = copy.deepcopy(function)
    for body, position, statement in _statements(tree):
        held = [line for line in lines if holds(statement, line)]
        nested = any(isinstance(node, ast.stmt) and node is not statement and holds(node, line)
                     for node in ast.walk(statement) for line in held)
        if held and not nested:
            body[position] = ast.Raise(exc=ast.Call(func=ast.Name(id="RuntimeError", ctx=ast.Load()),
                                                    args=[], keywords=[]), cause=None)
    return _unparsed(ast.fix_missing_locations(tree))


VALUES_SWAPPED_REACH = 3  # statements apart at most, of two assignments whose values are swapped


def _values_swapped(function: ast.FunctionDef) -> Iterator[tuple[str | None, int, str, str]]:
    """Two assignments of one body, each to one name, with their values exchanged (`K = X @ W_V`,
    `V = X @ W_K`): the same slip wherever the names are used next, told where they are made.
    Not when either value reads either name (then it is not the same computation swapped)."""
    for body in _bodies(function):
        simple = [(position, statement) for position, statement in enumerate(body)
                  if isinstance(statement, ast.Assign) and len(statement.targets) == 1
                  and isinstance(statement.targets[0], ast.Name)]
        for (at, first), (to, second) in itertools.combinations(simple, 2):
            if to - at > VALUES_SWAPPED_REACH:
                continue
            names = {cast(ast.Name, first.targets[0]).id, cast(ast.Name, second.targets[0]).id}
            read = {node.id for value in (first.value, second.value) for node in ast.walk(value)
                    if isinstance(node, ast.Name)}
            if len(names) < 2 or names & read or ast.dump(first.value) == ast.dump(second.value):
                continue
            first.value, second.value = second.value, first.value
            try:
                source = _compiled(function)
            finally:
                first.value, second.value = second.value, first.value
            yield source, first.lineno, f"{_short(first)}; {_short(second)}", \
                f"{_short(first.targets[0])} = {_short(second.value)}; {_short(second.targets[0])} = {_short(first.value)}"


def _shadowed_names(function: ast.FunctionDef) -> Iterator[tuple[str | None, int, str, str]]:
    """A local name that hides a function the code calls (`scores = scores(Q, K)`: Python then
    reads the local before it is set): the local given another name everywhere it is used."""
    called = {node.func.id for node in ast.walk(function) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    stored = [node for node in ast.walk(function) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
              and node.id in called]
    for name in dict.fromkeys(node.id for node in stored):
        tree = copy.deepcopy(function)
        fresh = name + "_"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                node.func.id = "\0" + name  # the call keeps the function's name
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == name:
                node.id = fresh
            elif isinstance(node, ast.Name) and node.id == "\0" + name:
                node.id = name
        first = min(node.lineno for node in stored if node.id == name)
        yield _compiled(tree), first, name, fresh
