"""The smallest repair of a failing step: which one small edit of the student's own function makes
it agree with the reference on every input the grader chose.

INVARIANT (docs/SECURITY.md, "repair search"): candidates run on grader-chosen inputs only (the
lab's public cases, cases generated from them and cases of other sizes the lab draws, never a
hidden case), in the sandbox, in a child that is given no hidden input; what reaches the feedback
is the grader's own record of the edit (its kind, its line, the student's code there and the
edit's), never a value a child chose.

The search runs in stages, each one child (`Evaluate`): every candidate on one input where the
student's function fails (the pivot), then the few that pass it on every input. The first that
passes everything, by the edit's cost and then its line, is the repair. A class pays once per
distinct function and answers (`RepairCache`): most students share their mistakes.
"""
from __future__ import annotations

import ast
import copy
import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, cast

from .edits import (Edit, Edits, bound_names, function_def, has_docstring, module_rebinds, moved_operations,
                    normalisations, paired_edits, quoted, read_names, repeated_edits, single_edits)
from .grafts import graft_edits
from ..core.repair_record import Repair, RepairPart
from ..core.reading.budget import Reading

if TYPE_CHECKING:
    from ..core.cells import Cell

# (sources of the candidates, None for the student's own function; probes) -> per candidate, per
# probe: whether the call's value is right. Runs in the sandbox (autograder.grading).
# The inputs are whatever the caller runs candidates on (the grader's probes): the search only
# hands them back, so it needs nothing of the lab's declarations.
Evaluate = Callable[[Sequence["str | None"], Sequence[object]], list[list[bool]]]

MAX_CANDIDATES = 900  # single edits tried on the pivot at most
MAX_PAIRS = 1000  # pairs of edits tried on the pivot at most, when no single edit repairs
MAX_FINALISTS = 24  # candidates that passed the pivot tried on every input at once
FINALIST_ROUNDS = 4  # rounds of finalists at most, while none is right everywhere
CACHE_ENTRIES = 512


@dataclass(frozen=True, kw_only=True)
class Found:
    """A repair and the candidate that made it: the edited definition, which is run again on the
    next student's own file before a repair kept for him is told (RepairCache)."""

    repair: Repair
    source: str


@dataclass(frozen=True, kw_only=True)
class Target:
    """The student's function a repair is searched for: its definition as parsed by the grader,
    where it is, and the built-in names the submission rebinds."""

    function: ast.FunctionDef
    filename: str
    rebound_builtins: frozenset[str]
    module_functions: frozenset[str] = frozenset()  # the functions the submission defines at its top
    source: str = ""  # the cell or file the function was read from (to quote the student's own text)
    reference: ast.FunctionDef | None = None  # the reference's function of the step, for grafts (grafts.py)
    # the step as the solution module also writes it (grafts.written_forms), for grafts too
    forms: tuple[ast.FunctionDef, ...] = ()
    # the student's own helpers the function calls, searched with it (inlined_helpers): each one's
    # text and where it sits from the function's `def`, so that the key holds them too
    helpers: tuple[tuple[int, str], ...] = ()

    @property
    def key(self) -> str:
        """The function's own text, wherever it sits: two students who wrote the same function
        share one key. The text, not its syntax tree: a repair's lines are kept relative to the
        `def` and its quotes are the student's own writing (whole lines, a comment after the last
        statement too), so both must be the same."""
        text = _whole_lines(self.source, self.function) if self.source else None
        if text is None:
            text = ast.dump(self.function, include_attributes=False) + repr(
                [node.lineno - self.function.lineno for node in ast.walk(self.function) if hasattr(node, "lineno")])
        lines = "\n".join(line.rstrip() for line in text.splitlines())
        return hashlib.sha256((lines + repr(sorted(self.rebound_builtins)) + repr(self.helpers)).encode()).hexdigest()


def _whole_lines(source: str, function: ast.FunctionDef) -> str | None:
    """The lines `function` spans in `source`, its decorators' too, as written."""
    first = min([function.lineno, *(d.lineno for d in function.decorator_list)])
    lines = source.splitlines()
    last = function.end_lineno or function.lineno
    return "\n".join(lines[first - 1:last]) if 0 < first <= last <= len(lines) else None


MAX_FUNCTION_NODES = 2_000  # a larger function is not searched: each edit copies it whole
# Nor one of more characters: an edit keeps the whole edited text, and a few thousand are tried.
MAX_FUNCTION_CHARACTERS = 8_000


def target_of(cells: Sequence[Cell], name: str, place: tuple[str, int, int] | None,
              reading: Reading | None = None, steps: frozenset[str] | None = None) -> Target | None:
    """The definition of `name` the grader ran (`place`: its cell or file, its `def` line), or None
    when it cannot be read from the student's text (an exec'd string, a lambda, a class) within
    the reading budget (`reading`: a fresh one by default), or is too large to search. Given the
    lab's `steps`, the student's own helpers it calls (not steps) are searched with it (inlined_helpers)."""
    if place is None:
        return None
    reading = reading or Reading()
    filename, line = place[0], place[1]
    for cell in cells:
        if cell["filename"] == filename:
            tree = reading.parse(cell["source"])
            function = function_def(tree, name, line) if tree is not None else None
            if function is None or not _searchable(function):
                return None
            text = _whole_lines(cell["source"], function)
            if text is None or len(text) > MAX_FUNCTION_CHARACTERS:
                return None
            trees = [reading.parse(c["source"]) for c in cells if c is not cell] + [tree]
            rebound = frozenset().union(*(module_rebinds(t) for t in trees if t is not None))
            defined = frozenset(node.name for t in trees if t is not None for node in t.body
                                if isinstance(node, ast.FunctionDef))
            function = _without_docstring(function)
            helpers: tuple[tuple[int, str], ...] = ()
            if steps is not None and tree is not None:
                inlined, helpers = inlined_helpers(function, tree, cell["source"], steps | {name})
                if helpers and _searchable(inlined):
                    function = inlined
                else:
                    helpers = ()
            return Target(function=function, filename=filename, rebound_builtins=rebound,
                          module_functions=defined, source=cell["source"], helpers=helpers)
    return None


def _searchable(function: ast.FunctionDef) -> bool:
    """Whether `function` is small enough to search: each edit copies it whole, and its text is
    unparsed for each."""
    return sum(1 for _ in ast.walk(function)) <= MAX_FUNCTION_NODES and \
        len(ast.unparse(function)) <= MAX_FUNCTION_CHARACTERS


def inlined_helpers(function: ast.FunctionDef, tree: ast.Module, source: str, not_inlined: frozenset[str]
                    ) -> tuple[ast.FunctionDef, tuple[tuple[int, str], ...]]:
    """`function` with a copy of each helper it calls by name defined first in its body, so that the
    search edits the helper's lines too (a `total = a * b` where `total += a * b` was meant, inside
    the student's own `dot`); and each helper's (line from the `def`, text). A helper is a function
    defined once at the top of the same cell or file, not a step of the lab (those are graded, or
    stood in for, on their own), not the function itself, with no `global` or `nonlocal` (its
    names would bind elsewhere inside); the copy keeps its lines, so an edit names the helper's
    own line. Nothing changes where there is none: the function is the same object."""
    called = {node.func.id for node in ast.walk(function)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    defined: dict[str, list[ast.FunctionDef]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defined.setdefault(node.name, []).append(node)
    own = bound_names(function)
    helpers = [found[0] for name, found in sorted(defined.items())
               if name in called and name not in not_inlined and len(found) == 1 and name not in own
               and not found[0].decorator_list
               and not any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(found[0]))
               # a name the helper reads from the module would read the function's own local instead
               and not (read_names(found[0]) - bound_names(found[0])) & own]
    texts = [(helper.lineno - function.lineno, _whole_lines(source, helper)) for helper in helpers]
    if not helpers or any(text is None for _, text in texts):
        return function, ()
    inlined = copy.copy(function)
    inlined.body = [_without_docstring(copy.deepcopy(helper)) for helper in helpers] + list(function.body)
    return inlined, tuple((offset, cast(str, text)) for offset, text in texts)


def _without_docstring(function: ast.FunctionDef) -> ast.FunctionDef:
    """`function` without its docstring when it has other statements: a docstring changes no
    value, and every one of the thousands of edited texts would carry it, to be written out and
    compiled again. A shallow copy: the body's statements are the tree's own."""
    if has_docstring(function):
        body = function.body
        function = copy.copy(function)
        function.body = body[1:]
    return function


def search(*, target: Target, probes: Sequence[object], pivot: int | None, evaluate: Evaluate) -> Found | None:
    """The cheapest single edit of `target` right on every probe, or None.

    `pivot`: the index in `probes` of one the student's function fails (None: found by running it
    on every probe first). A student's function right on every probe has nothing to repair."""
    if pivot is None:
        own = evaluate([None], probes)[0]
        pivot = next((i for i, passed in enumerate(own) if not passed), None)
        if pivot is None:
            return None
    edits = single_edits(target.function, rebound_builtins=target.rebound_builtins,
                         module_functions=target.module_functions, limit=MAX_CANDIDATES, source=target.source)
    found = _right([edit for edit in edits if not edit.neutralising], probes, pivot, evaluate)
    if not found:
        # What is missing, brought in from the reference (grafts.py), weighed with two slips by cost.
        grafts: list[Edit] = []
        for reference in (target.reference, *target.forms):
            grafts += graft_edits(target.function, reference, source=target.source,
                                  rebound_builtins=target.rebound_builtins,
                                  known={edit.source for edit in (*edits, *grafts)})
        moved = moved_operations(target.function, known={edit.source for edit in edits})
        moved += normalisations(target.function, known={edit.source for edit in (*edits, *moved)})
        found = _right([*repeated_edits(target.function, edits), *paired_edits(target.function, edits, limit=MAX_PAIRS),
                        *grafts, *moved], probes, pivot, evaluate, by_cost=True)
    if not found:
        return None
    chosen = _plainest(found)
    chosen = _branch_instead(chosen, target, probes, evaluate)
    others = [candidate for candidate in found if candidate is not chosen]
    neutralised: Edit | None = None
    if isinstance(chosen, Edit) and chosen.kind != "statement_removed":
        removals = _lines_that_need_not_be_there(edits, chosen, probes, evaluate)
        reading = next((r for r in removals if _reads_what_is_bound(target.function, r.line, chosen.line)), None)
        if reading is not None:
            # The edit repairs only by changing what a line that should not be there reads (a
            # padding mask made to hide nothing): that line is the mistake, and the edit, which
            # keeps the line's idea, is not told at all.
            chosen, neutralised = reading, chosen
            others = [o for o in others if o is not neutralised]
        others += [r for r in removals if r is not chosen]
    # Another repair as small, elsewhere (Q and K swapped where they are made, or where they are
    # used): both are told, so the one named is never the only place the student is sent to.
    lines = {part.line for part in _parts(chosen)}
    other = next((o for o in others if o.rank[0] == chosen.rank[0] and not {p.line for p in _parts(o)} & lines), None)
    if other is None and isinstance(chosen, Edit) and chosen.kind == "arguments_swapped":
        # `Q, V, K = make_qkv(X, W_Q, W_K, W_V)`: the call's arguments or the names it is unpacked
        # into, the same slip either way; the names cost more only so that they are never told alone.
        other = next((o for o in others if isinstance(o, Edit) and o.kind == "unpacking_order" and o.line == chosen.line), None)
    if other is None and isinstance(chosen, Edit) and chosen.kind in ("order", "arguments_swapped"):
        # `keys = project(W_V)`, `values = project(W_K)`: the values swapped where they are made
        # repair as well as the names in another order where they are used, and are as likely the
        # slip; they cost more only so that they are never told alone where both repair.
        other = next((o for o in others if isinstance(o, Edit) and o.kind == "values_swapped"
                      and o.line not in lines), None)
    if other is None:
        # An edit that repairs by making another line do nothing (`K.any(axis=None)`: the padding
        # mask built from it hides no cell): that line, which should not be there, is told beside.
        other = next((o for o in others if isinstance(o, Edit) and o.kind == "statement_removed"
                      and o.line not in lines), None)
    return Found(repair=Repair(filename=target.filename, parts=_repair_parts(chosen),
                               also=_repair_parts(other) if other is not None else ()),
                 source=chosen.source)


MAX_REMOVALS_TRIED = 40  # the statements tried without, beside a repair found (one run of the child)


def _lines_that_need_not_be_there(edits: Sequence[Edit], chosen: Edit, probes: Sequence[object],
                                  evaluate: Evaluate) -> list[Edit]:
    """The statements of the function whose removal alone is right on every probe too, beside the
    repair `chosen` (dearer, so `_right` never reached them): an extra step the student wrote
    (a padding mask, a tie rule) that `chosen` only neutralises."""
    removals = [edit for edit in edits if edit.kind == "statement_removed" and edit.line != chosen.line]
    removals = removals[:MAX_REMOVALS_TRIED]
    if not removals:
        return []
    right = evaluate([edit.source for edit in removals], probes)
    return [edit for edit, passed in zip(removals, right) if all(passed)]


def _reads_what_is_bound(function: ast.FunctionDef, reader: int, binder: int) -> bool:
    """Whether the statement on line `reader` reads a name the statement on line `binder` binds
    (both simple statements of `function`, on lines of their own)."""
    statements = {node.lineno: node for node in ast.walk(function)
                  if isinstance(node, ast.stmt) and not hasattr(node, "body")}
    read, bound = statements.get(reader), statements.get(binder)
    if read is None or bound is None or reader == binder:
        return False
    bound_names = {node.id for node in ast.walk(bound) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    return any(isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in bound_names
               for node in ast.walk(read))


def _plainest(found: Sequence[Edit | Edits]) -> Edit | Edits:
    """The cheapest repair, but not one right only by coincidence:
    - where another operator repairs and so does leaving the term out (`x / s` right as `x - s` and
      as `x`: a softmax ignores a shift), the term is the mistake;
    - where the operands of a subtraction swapped repair and so does another operator (`d - h` for
      `d // h`, right as `h - d` only where a negative size reads as "the rest"), the operator is;
    - where removing the edited line repairs as well, the edit only made the line do nothing (a
      condition never true, `np.where(-inf, x, ...)`): a repair elsewhere as small is the mistake,
      else the line itself."""
    chosen = found[0]
    if isinstance(chosen, Edit) and chosen.kind == "operator":
        chosen = next((other for other in found if isinstance(other, Edit) and other.kind == "term_removed"
                       and other.index == chosen.index), chosen)
    if isinstance(chosen, Edit) and chosen.kind == "operand_order":
        chosen = next((other for other in found if isinstance(other, Edit) and other.kind == "operator"
                       and other.index == chosen.index), chosen)
    lines = {part.line for part in _parts(chosen)}
    removed = next((other for other in found if isinstance(other, Edit) and other.kind == "statement_removed"
                    and other.line in lines), None)
    if removed is not None and removed is not chosen:
        cost = chosen.rank[0]
        return next((other for other in found if not {part.line for part in _parts(other)} & lines
                     and other.rank[0] <= cost + 1), removed)
    return chosen


def _branch_instead(chosen: Edit | Edits, target: Target, probes: Sequence[object], evaluate: Evaluate) -> Edit | Edits:
    """The branch itself, where an edit on the line of its condition repairs only by making it never
    taken (`if n_heads == «1»:` → `0`; `if w[i, i] == w[i].«max»():` → `sum`, never equal: the
    whole `if` is the special case that should not be there): the `if` without an `else` removed,
    when that is right on every probe too. Whatever the edit's kind: a condition made never true
    tells nothing of what it edited."""
    if not isinstance(chosen, Edit) or chosen.kind in ("statement_removed", "graft", "graft_part"):
        return chosen
    function = target.function
    for holder in ast.walk(function):
        body = getattr(holder, "body", None)
        if not isinstance(body, list):
            continue
        for position, statement in enumerate(body):
            if isinstance(statement, ast.If) and statement.lineno == chosen.line and not statement.orelse:
                # Removed on the student's own tree and put back (as edits.py edits it), not on a copy.
                setattr(holder, "body", body[:position] + body[position + 1:] or [ast.Pass()])
                try:
                    source = ast.unparse(function)
                except (ValueError, RecursionError, TypeError):
                    return chosen
                finally:
                    setattr(holder, "body", body)
                if not all(evaluate([source], probes)[0]):
                    return chosen
                condition = quoted(statement.test, target.source) or ast.unparse(statement.test)
                return Edit(kind="statement_removed", line=chosen.line, source=source, after="",
                            before=f"if {condition}:")
    return chosen


def _parts(candidate: Edit | Edits) -> tuple[Edit, ...]:
    return candidate.parts if isinstance(candidate, Edits) else (candidate,)


def _repair_parts(candidate: Edit | Edits) -> tuple[RepairPart, ...]:
    return tuple(RepairPart(kind=part.kind, line=part.line, before=part.before, after=part.after)
                 for part in sorted(_parts(candidate), key=lambda part: part.line))


def _right(candidates: Sequence[Edit | Edits], probes: Sequence[object], pivot: int,
           evaluate: Evaluate, *, by_cost: bool = False) -> list[Edit | Edits]:
    """The candidates right on every probe, cheapest first: those that pass the pivot are tried on
    every probe a round at a time, and the first round holding one right everywhere is the answer.

    `by_cost`: the candidates are tried on the pivot a few costs at a time (`_cost_chunks`), and the
    dearer ones are never run once a round holding a right one is complete; the rounds are the
    same as when every candidate is run on the pivot at once, so the cheapest right candidate is
    too, and so is every right one of its cost (a chunk holds every candidate of a cost). The
    candidates of a dearer cost a round would also hold are left out: only the single edits'
    repairs are weighed against dearer ones (`_plainest`), and they are run all at once."""
    if not candidates:
        return []
    ordered = sorted(candidates, key=lambda candidate: candidate.rank)
    chunks = _cost_chunks(ordered) if by_cost else [ordered]
    most = FINALIST_ROUNDS * MAX_FINALISTS
    passed: list[Edit | Edits] = []  # those right on the pivot, in the order of `ordered`
    everywhere: list[bool] = []  # whether each of `passed` is right on every probe, as far as tried
    start = 0  # the first finalist of the round being tried
    for number, chunk in enumerate(chunks):
        on_pivot = evaluate([candidate.source for candidate in chunk], [probes[pivot]])
        passed += [candidate for candidate, right in zip(chunk, on_pivot) if all(right)]
        last = number == len(chunks) - 1
        # Cheapest first, a round at a time: many cheap edits right by coincidence on the pivot
        # must not crowd out a dearer one right everywhere.
        while start < min(len(passed), most):
            end = min(start + MAX_FINALISTS, len(passed), most)
            tried = passed[len(everywhere):end]
            if tried:
                everywhere += [bool(right) and all(right) for right in evaluate([c.source for c in tried], probes)]
            right = [candidate for candidate, ok in zip(passed[start:end], everywhere[start:end]) if ok]
            if right:
                return right
            if end < min(start + MAX_FINALISTS, most) and not last:
                break  # the round is not whole yet: the next chunk's candidates may fill it
            start += MAX_FINALISTS
    return []


MIN_CHUNK = 250  # candidates tried on the pivot together at least, when tried a few costs at a time


def _cost_chunks(ordered: Sequence[Edit | Edits]) -> list[list[Edit | Edits]]:
    """`ordered` (by rank) cut where the cost changes, each piece holding at least `MIN_CHUNK`
    candidates but the last: each piece is one child, so costs with few candidates go together."""
    chunks: list[list[Edit | Edits]] = []
    for candidate in ordered:
        if chunks and (len(chunks[-1]) < MIN_CHUNK or chunks[-1][-1].rank[0] == candidate.rank[0]):
            chunks[-1].append(candidate)
        else:
            chunks.append([candidate])
    return chunks


class RepairStore(Protocol):
    """Where the graders of one batch keep what each found, to share it (the grader's I/O edge
    supplies one; `grading.repairs.FolderStore`): `read` gives back what `write` was given, or None.
    A grader about to search `name` claims it (`claim`: False when another grader searches it now)
    and releases it when its search ends, found or not (`release`); `busy` says whether another
    grader holds it."""

    def read(self, name: str) -> object | None: ...

    def write(self, name: str, data: object) -> None: ...

    def claim(self, name: str) -> bool: ...

    def release(self, name: str) -> None: ...

    def busy(self, name: str) -> bool: ...


class RepairCache:
    """Repairs by (step, the function's code, what it answered, the helpers stood in for): a class
    pays for each distinct mistake once. Lines are kept relative to the `def`, so a student whose
    same function sits elsewhere gets his own line.

    INVARIANT (docs/SECURITY.md): what one submission's search found is told to another only after
    its candidate was run on the other's own file and was right there (grading.repairs._repair_of): the
    rest of a file (its other cells, its own `np`) changes what the same function computes. A
    search that found nothing is not kept: it would be another file's verdict on this one.

    `store`: shared by the graders of one batch (each worker its own process), so a mistake one
    searched is not searched again by the other. It keeps the grader's own record of each repair
    (`Repair.as_data`, and the candidate's text), read back through `Repair.from_data`: an entry
    that does not read is searched again."""

    def __init__(self, entries: int = CACHE_ENTRIES, store: RepairStore | None = None) -> None:
        self.entries = entries
        self.store = store
        self._found: OrderedDict[tuple[object, ...], Found] = OrderedDict()

    def get(self, key: tuple[object, ...], target: Target) -> Found | None:
        """The repair kept for `key`, in `target`'s file and lines, to be checked on it; None."""
        if key not in self._found:
            kept = self._shared(key)
            if kept is None:
                return None
            self._remember(key, kept)
        self._found.move_to_end(key)
        kept = self._found[key]
        return Found(repair=_moved(kept.repair, filename=target.filename, by=target.function.lineno), source=kept.source)

    def awaited(self, key: tuple[object, ...], target: Target, *, until: float, pause: float = 0.02) -> Found | None:
        """`get`, after waiting (until the monotonic time `until` at most) while another grader of
        the batch searches the same key: the class pays for a mistake once even when two workers
        meet it at once. Nothing is waited for without a store, or when no other grader holds it."""
        name = _name(key)
        while self.store is not None and key not in self._found and self.store.busy(name) \
                and time.monotonic() < until:
            time.sleep(pause)
        return self.get(key, target)

    @contextmanager
    def searching(self, key: tuple[object, ...]) -> Iterator[None]:
        """The key claimed for this grader's search while it runs (RepairStore.claim), released
        after, whatever the search found."""
        name = _name(key)
        claimed = self.store is not None and self.store.claim(name)
        try:
            yield
        finally:
            if claimed and self.store is not None:
                self.store.release(name)

    def put(self, key: tuple[object, ...], target: Target, found: Found) -> None:
        kept = Found(repair=_moved(found.repair, filename="", by=-target.function.lineno), source=found.source)
        self._remember(key, kept)
        if self.store is not None:
            self.store.write(_name(key), {"repair": kept.repair.as_data(), "source": kept.source})

    def _remember(self, key: tuple[object, ...], kept: Found) -> None:
        self._found[key] = kept
        while len(self._found) > self.entries:
            self._found.popitem(last=False)

    def _shared(self, key: tuple[object, ...]) -> Found | None:
        data = self.store.read(_name(key)) if self.store is not None else None
        if not isinstance(data, dict) or set(data) != {"repair", "source"} or not isinstance(data["source"], str):
            return None
        try:
            return Found(repair=Repair.from_data(data["repair"]), source=data["source"])
        except ValueError:
            return None


def _name(key: tuple[object, ...]) -> str:
    return hashlib.sha256(repr(key).encode()).hexdigest()


def _moved(repair: Repair, *, filename: str, by: int) -> Repair:
    return Repair(filename=filename, parts=tuple(replace(p, line=p.line + by) for p in repair.parts),
                  also=tuple(replace(p, line=p.line + by) for p in repair.also))
