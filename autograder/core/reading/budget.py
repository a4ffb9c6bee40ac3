"""What reading one submission may cost (`Budget`), the work spent against it (`Reading`), and the
one catch-all every reading goes through (`untrusted`)."""
from __future__ import annotations

import ast
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from .problems import Detail, detail, failure_detail

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Budget:
    """What reading one submission may cost the grader, whatever the file holds."""

    file_bytes: int = 20 * 1024 * 1024  # a submission file, and the notebook inside an Otter export
    inflated_bytes: int = 20 * 1024 * 1024  # decompressed while reading it (archives inside included)
    export_members: int = 1000  # members of an Otter export's zip, counted before it is opened
    json_containers: int = 200_000  # `{` and `[` in a notebook, counted before its JSON is parsed,
    json_items: int = 1_000_000  # `,` in it (bounds the values parsing would build)
    json_keys: int = 200_000  # and `:` (bounds the keys)
    code_cells: int = 2_000  # code cells of a notebook, counted before any is read
    code_lines: int = 200_000  # lines of all code cells, counted before IPython syntax is rewritten
    parse_chars: int = 128 * 1024  # one text given to Python's parser; a longer one is only scanned
    parsed_chars: int = 512 * 1024  # all texts given to it while reading one submission
    ast_depth: int = 100  # a parsed tree deeper than this is not looked into (walked without recursion)
    ast_nodes: int = 100_000  # nor one with more nodes
    script_lines: int = 5_000  # a .py that does not compile is cut into cells only when this short,
    script_cells: int = 200  # into at most this many cells,
    token_line_chars: int = 4096  # and when no line is longer (Python 3.12 tokenizes a line in its square)
    token_restarts: int = 8  # tokenizer errors stepped over while cutting; after that, no more cuts
    scanned_chars: int = 1024 * 1024  # of one cell, searched for definitions by a pattern
    defined_names: int = 1_000  # names of definitions kept for "did you mean"
    seconds: float = 10.0  # CPU time reading may take: a backstop the bounds above keep far away


BUDGET = Budget()
MAX_BYTES = BUDGET.file_bytes
MAX_EXPORT_MEMBERS = BUDGET.export_members
MAX_PARSED_CHARS = BUDGET.parse_chars
MAX_SCRIPT_CELLS = BUDGET.script_cells
MAX_SPLIT_LINES = BUDGET.script_lines
MAX_SCANNED = BUDGET.scanned_chars


# Reading under a budget, with one catch-all -----------------------------------------------------

class Refusal(Exception):
    """A submission is not read further: `problem` says how (a code of the catalogs' [problem]),
    `detail` why (a Detail)."""

    def __init__(self, detail: Detail, problem: str = "unreadable") -> None:
        super().__init__(detail)
        self.problem, self.detail = problem, detail


class OverBudget(Refusal):
    """Reading would pass one of the budget's bounds."""


class Reading:
    """The work spent reading one submission, held against its Budget; the counts are what the
    tests and docs/SECURITY.md measure."""

    def __init__(self, budget: Budget | None = None, clock: Callable[[], float] | None = None) -> None:
        self.budget = budget or BUDGET
        self._clock = clock or time.thread_time  # CPU time of this thread: other work does not count
        self._started = self._clock()
        self.parses = 0  # texts given to Python's parser or compiler
        self.parsed_chars = 0
        self.unparsed = 0  # texts scanned instead: too long, the budget spent, or a tree too deep or large
        self.inflated_bytes = 0
        self.code_cells = 0
        self.code_lines = 0
        self.tokenized_chars = 0
        self.deep_last = False  # whether Python's own parser gave up on the last text's depth
        # (source, flat, tree, unparsed) of the last parse: a cell is parsed once
        self._last: tuple[str | None, bool, ast.Module | None, bool] = (None, False, None, False)

    def check_time(self) -> None:
        if self._clock() - self._started > self.budget.seconds:
            raise OverBudget(detail("reading_time", seconds=self.budget.seconds))

    def may_parse(self, text: str) -> bool:
        """Whether `text` may go to Python's parser now; counted when it may."""
        self.check_time()
        if len(text) > self.budget.parse_chars or self.parsed_chars + len(text) > self.budget.parsed_chars:
            self.unparsed += 1
            return False
        self.parses += 1
        self.parsed_chars += len(text)
        return True

    def parse(self, source: str) -> ast.Module | None:
        """The module tree of `source`, or None: a syntax error (`unparsed` False), or not
        parsed at all (`unparsed` True): too long, over the budget, or a tree deeper or larger
        than the grader looks into."""
        if self._last[0] is not source or self._last[1]:
            tree, unparsed = self._parsed(source)
            if tree is not None and not self._small(tree):
                self.unparsed += 1
                tree, unparsed = None, True
            self._last = (source, False, tree, unparsed)
        return self._last[2]

    def parse_flat(self, source: str) -> ast.Module | None:
        """The module tree of `source` within the parse budget whatever its depth or size, for a
        walker that never recurses and whose work grows with the text (the code
        fingerprints, batch.fingerprints): a depth bound there would let one deep line hide the rest of a cell.
        None and `unparsed_last` as for `parse`."""
        if self._last[0] is not source or not self._last[1]:
            self._last = (source, True, *self._parsed(source))
        return self._last[2]

    def _parsed(self, source: str) -> tuple[ast.Module | None, bool]:
        """(tree or None, whether it was left unparsed) within the budget's characters."""
        self.deep_last = False
        if not self.may_parse(source):
            return None, True
        try:
            with warnings.catch_warnings():  # a warning would print the student's text
                warnings.simplefilter("ignore")
                return ast.parse(source), False
        except (RecursionError, MemoryError):
            # Python's own parser gave up on the depth (at about three times the recursion limit
            # on 3.11): not Python here, though a child whose code raised its recursion limit may run it.
            self.deep_last = True
            return None, False
        except (SyntaxError, ValueError, OverflowError):
            return None, False  # not Python the child could run either

    @property
    def unparsed_last(self) -> bool:
        """Whether the last text given to `parse` was left unparsed (rather than not Python)."""
        return self._last[3]

    def compiles(self, text: str, filename: str) -> bool | None:
        """True or False, or None when `text` may not be compiled within the budget."""
        if not self.may_parse(text):
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile(text, filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            return False
        return True

    def _small(self, tree: ast.AST) -> bool:
        """Depth and node count within the budget, measured without recursion."""
        pending: list[tuple[ast.AST, int]] = [(tree, 1)]
        nodes = 0
        while pending:
            node, depth = pending.pop()
            nodes += 1
            if nodes > self.budget.ast_nodes or depth > self.budget.ast_depth:
                return False
            pending.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
        return True

    def inflate(self, size: int) -> None:
        """Counts `size` bytes about to be decompressed; refuses them beyond the budget."""
        self.check_time()
        if self.inflated_bytes + size > self.budget.inflated_bytes:
            raise OverBudget(detail("inflate_over", size=size, most=self.budget.inflated_bytes), "too_large")
        self.inflated_bytes += size

    def count_cells(self, cells: int) -> None:
        self.code_cells += cells
        if self.code_cells > self.budget.code_cells:
            raise OverBudget(detail("code_cells_over", count=self.code_cells, most=self.budget.code_cells))

    def count_lines(self, lines: int) -> None:
        self.check_time()
        self.code_lines += lines
        if self.code_lines > self.budget.code_lines:
            raise OverBudget(detail("code_lines_over", most=self.budget.code_lines))


@dataclass(frozen=True, kw_only=True)
class Read(Generic[T]):
    """What `untrusted` gives back: the value, or the problem and its reason; and the work done."""

    value: T | None = None
    problem: str | None = None
    detail: Detail | None = None
    reading: Reading | None = None


def untrusted(work: Callable[..., T], *args: object, budget: Budget | None = None) -> Read[T]:
    """`work(*args, reading=...)` run on content a student wrote, in the grader's own process.

    The one catch-all of reading: a refusal, a passed bound or any exception at all (a
    RecursionError, a TypeError on a value of an unexpected type, a zlib error) becomes a Read
    with a problem and its reason, never an exception of the grader.
    """
    reading = Reading(budget)
    try:
        return Read(value=work(*args, reading=reading), reading=reading)
    except Refusal as refusal:
        return Read(problem=refusal.problem, detail=refusal.detail, reading=reading)
    except Exception as error:  # noqa: BLE001 (the point of this function)
        return Read(problem="unreadable", detail=failure_detail(error), reading=reading)
