"""Reading a submission file into code cells the sandbox can run (pure text work, no execution).

Everything here reads what a student wrote, in the grader's own process. Two promises hold for
every input (docs/SECURITY.md, "Reading a submission"):

- the work is bounded by BUDGET, each bound checked before the work it bounds;
- no exception escapes: every reading goes through `untrusted`, which turns a failure or a
  passed bound into a problem with its reason ("unreadable", "too_large", ...).
"""
from __future__ import annotations

import ast
import difflib
import errno
import functools
import io
import json
import os
import re
import stat
import time
import tokenize
import warnings
import zipfile
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, cast, overload

from .cells import Cell, is_notebook, notebook_cell
from .guard import SafeText, error_name, safe_name, safe_text

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
# Names `otter.Notebook.export()` writes besides the notebook (otter/check/notebook.py).
OTTER_LOG = ".OTTER_LOG"
OTTER_ZIP_NAME = "__zip_filename__"
_TOP_LEVEL_DEF = re.compile(r"^(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
STUB_CALLS = {"NotImplementedError", "NotImplemented"}
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


# Why a submission cannot be read, as data ----------------------------------------------------------

@dataclass(frozen=True)
class Detail:
    """The reason behind a problem, as data: a code of the catalogs' [detail] section and its
    parameters (numbers, file names, Python's names for errors: never words of a language).
    The catalogs render it in the student's language (render.Messages); `str()` gives the
    English one, for logs and the TAs' command lines."""

    code: str
    params: tuple[tuple[str, object], ...] = ()  # ((name, value), ...), sorted by name

    @property
    def parameters(self) -> dict[str, object]:
        return dict(self.params)

    def __str__(self) -> str:
        from .render import detail_text  # render reads the catalogs; this module stays pure

        text: str = detail_text(self, "en")
        return text


def detail(code: str, **params: object) -> Detail:
    """A Detail of `code` (one of DETAILS) with its parameters."""
    if DETAILS.get(code) != tuple(sorted(params)):
        raise ValueError(f"detail {code!r} takes {DETAILS.get(code)}, not {tuple(sorted(params))}")
    return Detail(code, tuple(sorted(params.items())))


# Every detail code and its parameters. Numbers: size, most, count, cell, line, column, position,
# seconds; outside text (shown without folders, see render.OUTSIDE_TEXT): filename, member, files,
# type, error, reason.
DETAILS: dict[str, tuple[str, ...]] = {
    "size": ("size",),  # the file's size in bytes
    "size_over": ("most",),  # larger than `most` bytes
    "inflate_over": ("most", "size"),
    "reading_time": ("seconds",),
    "code_cells_over": ("count", "most"),
    "code_lines_over": ("most",),
    "json_containers_over": ("count", "most"),
    "json_items_over": ("count", "most"),
    "json_keys_over": ("count", "most"),
    "json_error_at": ("column", "line"),
    "json_invalid": (),
    "too_deep": (),
    "byte_at": ("position",),  # counted from 1
    "no_cell_list": (),
    "cell_without_text": ("cell",),
    "exception": ("type",),  # a failure while reading, by its Python type ("zlib.error")
    "filename": ("filename",),
    "files": ("files",),  # names of the files submitted
    "same_standing": ("submitted",),  # relative names in a submission, shown with their folders
    "no_files": (),
    "zip_unreadable": ("type",),
    "zip_members_over": ("count", "most"),
    "zip_export_notebooks": ("count",),
    "zip_not_export": (),
    "zip_no_gradable": (),
    "zip_several_gradable": ("count", "files"),
    "zip_member_special": ("member",),
    "zip_member_encrypted": ("member",),
    "zip_member_unreadable": ("member", "type"),
    "os_error": ("error",),  # the system's name for it ("EACCES")
    "link": (),
    "folder": (),
    "fifo": (),
    "device": (),
    "socket": (),
    "special_file": (),
    "grader_error": ("type",),
    "grader_reading": (),
    "unsafe_name": (),  # a name in an archive that would leave its folder
    "folder_unreadable": ("error",),
    "zips_budget_spent": ("size",),
    "metadata_unreadable": ("most",),  # an LMS metadata file not read: unreadable, or larger than `most` bytes
    "zip_ratio_over": ("most",),  # a zip in the class that would decompress to more than `most` times its size  # this student's zips already decompressed `size` bytes
}


def as_detail(value: object) -> Detail | None:
    """A problem's detail as a Detail, or None when there is none. Every reason a student reads is
    a Detail, so the catalogs say it in the student's language; text is refused (a ValueError), so
    no sentence of one language can reach feedback in another."""
    if isinstance(value, Detail):
        return value  # a dataclass without __bool__ or __len__: always true
    if value is None or value == "":
        return None
    raise ValueError(f"a problem's reason must be a submission.Detail, not {type(value).__name__}: {value!r}")


def os_detail(error: BaseException) -> Detail:
    """Why the system could not give a file's bytes, as a Detail."""
    for given in (getattr(error, "detail", None), getattr(error, "strerror", None)):
        if isinstance(given, Detail):  # NotARegularFile, or a reader's refusal passed on
            return given
    name = errno.errorcode.get(getattr(error, "errno", None) or 0)
    return detail("os_error", error=name or type(error).__name__)


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
        walker that never recurses and whose work grows with the text (batch.similar's
        fingerprints): a depth bound there would let one deep line hide the rest of a cell.
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


def failure_detail(error: BaseException) -> Detail:
    """An exception as a reason: its Python type ("zlib.error"); its message is in English (or
    quotes the file) and is never shown to a student."""
    return detail("exception", type=error_type(error))


error_type = error_name  # an exception's type as Python names it: "KeyError", "zlib.error"


# A submission ----------------------------------------------------------------------------------

Place = tuple[str, int, int]  # where a definition is: (filename, line of the def, first line with its decorators)


@dataclass
class Submission:
    name: SafeText  # the file's name as the student reads it (guard.safe_name)
    cells: list[Cell] = field(default_factory=list)  # the code, each text made safe where it was read
    problem: str | None = None  # why it cannot be read at all: too_large, not_utf8, notebook_not_json, ...
    problem_detail: Detail | None = None  # and the reason, as data
    # function -> whether its last definition is a stub
    stub_status: dict[str, bool] = field(default_factory=dict, repr=False)
    # names of definitions, for "did you mean"
    defined: frozenset[str] = field(default_factory=frozenset, repr=False)
    # function -> where each of its top-level definitions is, in the order the cells run:
    # ((filename, line of the def, first line with its decorators), ...), the last MAX_PLACES
    places: dict[str, tuple[Place, ...]] = field(default_factory=dict, repr=False)
    # functions defined only inside a top-level `if __name__ == "__main__":` block (not run when a .py is graded)
    under_main: frozenset[str] = field(default_factory=frozenset, repr=False)
    reading: Reading | None = field(default=None, repr=False, compare=False)  # the work reading it took

    def stubs(self, names: Iterable[str]) -> set[str]:
        """Which of the functions `names` are, at their last top-level definition, still stubs."""
        return {name for name in names if self.stub_status.get(name)} if self.problem is None else set()


def read_submission(name: str, data: bytes | bytearray, budget: Budget | None = None) -> Submission:
    """Turn the bytes of a .py, .ipynb or Otter export .zip into cells, with the facts the
    grader needs about them (stubs, names defined); never raises: any failure is the
    submission's problem, with its reason. Bytes that are not bytes are the caller's fault:
    TypeError."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"a submission is read from bytes, not {type(data).__name__}")
    name = safe_name(name)  # the one place a submission's name becomes text the grader works with
    read = untrusted(_read_submission, name, data, budget=budget)
    # the value is there exactly when there is no problem
    submission = cast(Submission, read.value) if read.problem is None else \
        Submission(name, problem=read.problem, problem_detail=read.detail)
    submission.reading = read.reading
    return submission


def _read_submission(name: SafeText, data: bytes | bytearray, reading: Reading) -> Submission:
    budget = reading.budget
    if len(data) > budget.file_bytes:
        return Submission(name, problem="too_large", problem_detail=detail("size", size=len(data)))
    kind = not_code(name)
    if kind:
        return Submission(name, problem="not_code", problem_detail=detail("filename", filename=kind))
    if name.lower().endswith(".zip"):
        inner, data = zipped_submission(data, reading=reading)
        name = safe_name(f"{name}/{inner}")
    if not data.strip():
        return Submission(name, problem="empty")
    try:
        text = safe_text(data.decode("utf-8-sig"))  # a notebook's JSON escapes are made safe cell by cell
    except UnicodeDecodeError as error:
        return Submission(name, problem="not_utf8", problem_detail=detail("byte_at", position=error.start + 1))
    definitions = _Definitions(reading)
    if name.lower().endswith(".ipynb"):
        submission = _read_notebook(name, text, reading, definitions)
    else:
        cells = script_cells(text, safe_text(_basename(name)), reading)
        for cell in cells:
            definitions.add(cell["source"], cell["filename"])
        submission = Submission(name, cells=cells)
    if submission.problem is None:
        submission.stub_status, submission.defined = definitions.last, definitions.names()
        submission.places, submission.under_main = definitions.places, definitions.only_under_main()
    return submission


def _basename(name: str) -> str:
    return name.replace("\\", "/").rsplit("/", 1)[-1] or "submission.py"


# Notebooks -------------------------------------------------------------------------------------

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


def _read_notebook(name: SafeText, text: str, reading: Reading, definitions: _Definitions) -> Submission:
    try:
        notebook = notebook_json(text, reading)
    except ValueError as error:
        return Submission(name, problem="notebook_not_json", problem_detail=json_error_detail(error))
    except RecursionError:
        return Submission(name, problem="notebook_not_json", problem_detail=detail("too_deep"))
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        return Submission(name, problem="notebook_malformed", problem_detail=detail("no_cell_list"))
    code_cells: list[Cell] = []
    graders: set[str] = set()  # names bound to an otter.Notebook in the cells so far
    for number, cell, source in code_cells_of(cells, reading):
        if is_checker_cell(cell):
            continue
        if source is None:
            return Submission(name, problem="notebook_malformed", problem_detail=detail("cell_without_text", cell=number))
        reading.count_lines(source.count("\n") + 1)
        source = safe_text(without_ipython_syntax(source))  # JSON may escape a lone surrogate: "\ud800"
        if does_only_checking(source, graders, reading):
            continue
        definitions.add(source, notebook_cell(number))
        code_cells.append({"source": source, "filename": safe_text(notebook_cell(number))})
    return Submission(name, cells=code_cells)


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


# A .py as cells --------------------------------------------------------------------------------

CELL_MARK = re.compile(r"# ?%%")
_WRAP = "(" * 8 + "\n"  # brackets opened around a file while it is tokenized: no indentation is read


def script_cells(text: SafeText, filename: SafeText, reading: Reading | None = None,
                 statements: bool = False) -> list[Cell]:
    """A .py file as cells, so that a syntax error costs only its part of the file: a file that
    compiles stays whole; one that does not is cut at its `# %%` marks (the twin's cells), else
    before each top-level definition (`statements`: before each top-level statement, marks or
    not, for a reader that looks into each part alone). Cuts come from the tokenizer: a mark or a definition
    counts only as a token of its own at column 0, never inside a string (or any token). Each
    cell is padded with blank lines to its place, so every message names the file's own line
    numbers. A file too long, with too long a line, or split too finely stays one cell."""
    reading = reading or Reading()
    budget = reading.budget
    whole: list[Cell] = [{"source": text, "filename": filename}]
    if len(text) > budget.parse_chars:
        return whole
    lines = _lines(text)
    if len(lines) > budget.script_lines \
            or any(len(line) > budget.token_line_chars for line in lines) \
            or "\r" in text.replace("\r\n", "\n"):  # a lone CR ends a line for Python, not here
        return whole
    if reading.compiles(text, filename) is not False:  # it compiles, or may not be tried
        return whole
    kinds = _line_kinds(lines, reading)
    marked = [index for index, kind in sorted(kinds.items()) if kind == "mark"]
    if statements:
        starts = sorted({0, *_definition_starts(kinds, statements=True)})
    else:
        starts = sorted({0, *(marked or _definition_starts(kinds))})
    if len(starts) == 1 or len(starts) > budget.script_cells:
        return whole
    ends = starts[1:] + [len(lines)]
    return [{"source": safe_text("\n" * start + "".join(lines[start:end])), "filename": filename}
            for start, end in zip(starts, ends) if "".join(lines[start:end]).strip()]


def _lines(text: str) -> list[str]:
    """The file's lines as Python counts them (ended by "\\n" only), each with its end."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


_FSTRING_STARTS = {getattr(tokenize, name) for name in ("FSTRING_START", "TSTRING_START") if hasattr(tokenize, name)}
_FSTRING_ENDS = {getattr(tokenize, name) for name in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, name)}
_LAYOUT = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def _line_kinds(lines: list[str], reading: Reading) -> dict[int, str]:
    """{line index: what its first token is} for the lines where a token starts at column 0,
    outside any f-string: "mark" (a `# %%` comment), "comment", "def" (def, async, class),
    "decorator" or "code". The file is tokenized inside brackets it never closes, so a bad
    indentation stops nothing; after an error the tokenizer starts again just past it (a
    few times at most), and an unterminated string ends the reading: nothing after its start
    is cut."""
    kinds: dict[int, str] = {}
    row, column = 0, 0  # where tokenizing (re)starts
    for _ in range(reading.budget.token_restarts + 1):
        fed = [_WRAP, " " * column + lines[row][column:], *lines[row + 1:]]
        reading.tokenized_chars += sum(map(len, fed))
        reading.check_time()
        depth = 0  # of f-strings
        try:
            for token in tokenize.generate_tokens(functools.partial(next, iter(fed), "")):
                if token.type in _FSTRING_STARTS:
                    depth += 1
                elif token.type in _FSTRING_ENDS:
                    depth -= 1
                if token.start[1] == 0 and token.start[0] >= 2 and depth == 0 and token.type not in _LAYOUT:
                    kinds.setdefault(row + token.start[0] - 2, _kind(token))
            return kinds
        except (tokenize.TokenError, SyntaxError) as error:
            message, (line, offset) = _token_error(error)
            if line is None or "EOF" in message or "triple-quoted" in message:
                return kinds  # the end of the file, or a string that never ends
            at = (row + line - 2, max(offset, 0))
            if at <= (row, column):
                at = (row, column + 1)
            row, column = at
            if row >= len(lines):
                return kinds
            if column >= len(lines[row]):
                row, column = row + 1, 0
            if row >= len(lines):
                return kinds
    return kinds


def _token_error(error: tokenize.TokenError | SyntaxError) -> tuple[str, tuple[int | None, int]]:
    """(message, (fed line, column just past the error)) of a tokenizer error."""
    if isinstance(error, tokenize.TokenError):
        message = str(error.args[0]) if error.args else ""
        position = error.args[1] if len(error.args) > 1 and isinstance(error.args[1], tuple) else (None, 0)
        line, column = (position + (0,))[:2]
        return message, (line, (column or 0))  # 1-based offsets on 3.12+: past the bad character
    return str(error.msg or ""), (error.lineno, (error.offset or 0))


def _kind(token: tokenize.TokenInfo) -> str:
    if token.type == tokenize.COMMENT:
        return "mark" if CELL_MARK.match(token.string) else "comment"
    if token.type == tokenize.NAME and token.string in ("def", "async", "class"):
        return "def"
    if token.type == tokenize.OP and token.string == "@":
        return "decorator"
    return "code"


def _definition_starts(kinds: dict[int, str], statements: bool = False) -> list[int]:
    """Line indexes where a top-level definition (with its decorators) begins; with `statements`,
    where any top-level statement begins (a line of code at column 0 not after a decorator)."""
    starts: list[int] = []
    previous_decorator = False
    for index, kind in sorted(kinds.items()):
        if kind in ("def", "decorator") or (statements and kind == "code"):
            if not previous_decorator:
                starts.append(index)
            previous_decorator = kind == "decorator"
        elif kind == "code":
            previous_decorator = False
    return starts


# Stubs and names defined -----------------------------------------------------------------------

MAX_PLACES = 8  # places kept of one function's definitions: the last ones, the graded one among them

class _Definitions:
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


def file_detail(name: str, status: str, submission: Submission, function_names: Iterable[str],
                defined_at: tuple[str, int] | None) -> dict[str, Any]:
    """What the file itself shows about step `name`'s function, given the step's status, as every
    face says it: for a missing one, what `missing_detail` finds; for one that failed, which of its
    definitions was graded when there are several (`redefined`)."""
    if status == "missing":
        return missing_detail(name, submission, function_names, imported=not is_notebook(submission.cells))
    if status != "passed":
        return redefined(submission.places.get(name, ()), defined_at)
    return {}


def missing_detail(name: str, submission: Submission, function_names: Iterable[str],
                   imported: bool) -> dict[str, object]:
    """What the file shows of a function the grader did not find (both faces say it so): a
    function with a close name, or, when the file ran as an imported module (a .py), the
    function defined only under `if __name__ == "__main__":`, which does not run then."""
    if imported and name in submission.under_main:
        return {"under_main": True}
    similar = similar_definition(name, submission, function_names)
    return {"similar": similar} if similar else {}


def find_stubs(cells: Iterable[Mapping[str, str]], function_names: Collection[str],
               reading: Reading | None = None) -> set[str]:
    """Names among `function_names` whose last top-level definition does nothing yet.

    Runs in the grader's process, so each cell is parsed within the budget (see Reading.parse);
    a cell left unparsed is only scanned for `def` lines, its definitions counted as written.
    """
    definitions = _Definitions(reading or Reading())
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


# Zips: Otter's export, or one file zipped by hand -------------------------------------------------

class NotAnOtterExport(Refusal):
    """A .zip that is neither the one `otter.Notebook.export()` writes nor one holding a single
    .ipynb or .py, or whose file cannot be read."""

    def __init__(self, detail: Detail, problem: str = "not_otter_export") -> None:
        super().__init__(detail, problem)


GRADABLE_SUFFIXES = (".ipynb", ".py")
# The kinds of file a submission is graded from, in the order one attempt's files are preferred.
SUBMISSION_KINDS: tuple[tuple[str, ...], ...] = ((".ipynb",), (".py",), (".zip",))


def kind_rank(name: str) -> int | None:
    """INVARIANT (docs/ta/index.md, "Which file is graded"): the one order of kinds among one
    attempt's files, shared by `grade` (batch.collect.newest_first, on a tie in time) and the LMS's
    zip (otter.gradescope.file_choice): the notebook (0), then the .py (1), then a zip (2); None for
    any other file. The notebook comes first because it is what students are told to hand in (the
    .py twin is the same lab for those without Jupyter), and the choice is made from names alone,
    before any file is read, so that both faces choose the same file for the same attempt."""
    lower = name.lower()
    return next((rank for rank, suffixes in enumerate(SUBMISSION_KINDS) if lower.endswith(suffixes)), None)
# What operating systems and editors add to a zip a student makes by hand.
ZIP_SYSTEM_DIRS = {"__MACOSX", ".ipynb_checkpoints", "__pycache__", ".git"}
ZIP_SYSTEM_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}
# The signature of a zip's central directory entry: one per member (the count can only be too high).
_MEMBER_SIGNATURE = b"PK\x01\x02"


def not_code(name: str) -> str:
    """"" for a name the grader reads (.ipynb, .py, or a .zip holding one); else the file's own name
    ("report.docx"), for the one sentence that says what to submit instead. Decided by the name,
    as students and the LMS name files: one rule for `check`, `grade`, the LMS and the kit."""
    base = _basename(name)
    return "" if base.lower().endswith(GRADABLE_SUFFIXES + (".zip",)) else base


def zipped_submission(data: bytes | bytearray, reading: Reading | None = None) -> tuple[str, bytes]:
    """(name, bytes) of the file to grade inside a submitted .zip: the notebook of the zip Otter's
    export() writes (by Otter's rule, when the zip carries Otter's marker), else the one .ipynb or
    .py a student zipped by hand (at any depth; what operating systems add does not count; other
    files, data or pictures, are never read). Raises NotAnOtterExport with the reason, never
    anything else. Within the reading's budget (see `_zipped`)."""
    return _zip_reading(_zipped, data, reading, otter_only=False)


def otter_export_notebook(data: bytes | bytearray, reading: Reading | None = None) -> tuple[str, bytes]:
    """(name, bytes) of the notebook inside the zip `otter.Notebook(...).export()` writes: the
    notebook nearest the top of the zip (`_export_notebook`), beside `__zip_filename__`, usually `.OTTER_LOG` (a pickle:
    never unpickled, never even read here), maybe a PDF and files the student attached. Raises
    NotAnOtterExport with the reason otherwise, never anything else."""
    return _zip_reading(_zipped, data, reading, otter_only=True)


def hand_zipped_file(data: bytes | bytearray, reading: Reading | None = None) -> tuple[str, bytes]:
    """(name, bytes) of the only .ipynb or .py in a zip a student made by hand (Windows' "send to
    compressed folder", macOS' "compress"). Raises NotAnOtterExport saying what the zip holds when
    it is not exactly one."""
    return _zip_reading(_zipped, data, reading, otter_only=False, hand_only=True)


def zipped_problem(data: bytes | bytearray) -> Detail | Literal[""]:
    """"" when `data` is a zip `zipped_submission` grades, else why not (a Detail; `str()` of it
    in English); told from the zip's directory alone, its file never decompressed. Never raises."""
    read = untrusted(_zipped, data, False, False, False)
    return read.detail if read.problem is not None and read.detail is not None else ""


def otter_export_problem(data: bytes | bytearray) -> Detail | Literal[""]:
    """`zipped_problem` for Otter's export alone."""
    read = untrusted(_zipped, data, True, False, False)
    return read.detail if read.problem is not None and read.detail is not None else ""


def _zip_reading(work: Callable[..., tuple[str, bytes]], data: bytes | bytearray, reading: Reading | None,
                 otter_only: bool, hand_only: bool = False) -> tuple[str, bytes]:
    if reading is not None:  # inside a caller's untrusted()
        return work(data, otter_only, hand_only, True, reading=reading)
    read = untrusted(work, data, otter_only, hand_only, True)
    # untrusted gives a detail with every problem, and the value exactly when there is none
    if read.problem is not None:
        raise NotAnOtterExport(cast(Detail, read.detail), read.problem)
    return cast("tuple[str, bytes]", read.value)


@overload
def _zipped(data: bytes | bytearray, otter_only: bool, hand_only: bool, inflate: Literal[True], *,
            reading: Reading) -> tuple[str, bytes]: ...
@overload
def _zipped(data: bytes | bytearray, otter_only: bool, hand_only: bool, inflate: bool, *,
            reading: Reading) -> tuple[str, bytes | None]: ...
def _zipped(data: bytes | bytearray, otter_only: bool, hand_only: bool, inflate: bool, *,
            reading: Reading) -> tuple[str, bytes | None]:
    """The member to grade of a submitted zip, chosen on its directory: its members counted before
    it is opened (at most `export_members`), the member a regular, unencrypted file declaring at
    most `file_bytes`. That one member alone is decompressed (when `inflate`), within the
    reading's budget of decompressed bytes; a zip inside is never opened. Every member is
    addressed by its ZipInfo, never by name."""
    budget = reading.budget
    counted = data.count(_MEMBER_SIGNATURE)
    if counted > budget.export_members:
        raise NotAnOtterExport(detail("zip_members_over", count=counted, most=budget.export_members))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except Exception as error:  # noqa: BLE001 (zipfile raises many kinds on a damaged directory)
        raise NotAnOtterExport(detail("zip_unreadable", type=error_type(error)), "unreadable") from None
    with archive:
        members = archive.infolist()
        if len(members) > budget.export_members:
            raise NotAnOtterExport(detail("zip_members_over", count=len(members), most=budget.export_members))
        marked = any(info.filename in (OTTER_LOG, OTTER_ZIP_NAME) for info in members)
        if marked and not hand_only:  # Otter's rule
            member = _export_notebook(members)
        elif otter_only:
            raise NotAnOtterExport(detail("zip_not_export"))
        else:  # zipped by hand
            gradable = [info for info in members if not info.is_dir() and not _zip_system_member(info.filename)
                        and info.filename.lower().endswith(GRADABLE_SUFFIXES)]
            if not gradable:
                raise NotAnOtterExport(detail("zip_no_gradable"))
            if len(gradable) > 1:
                shown = ", ".join(info.filename for info in gradable[:3]) + (", ..." if len(gradable) > 3 else "")
                raise NotAnOtterExport(detail("zip_several_gradable", count=len(gradable), files=shown))
            member = gradable[0]
        what = member.filename
        if not zip_member_is_regular(member):
            raise NotAnOtterExport(detail("zip_member_special", member=what))
        if member.flag_bits & 0x1:
            raise NotAnOtterExport(detail("zip_member_encrypted", member=what), "unreadable")
        if member.file_size > budget.file_bytes:
            raise NotAnOtterExport(detail("size", size=member.file_size), "too_large")
        name = member.filename.replace("\\", "/")
        if not inflate:
            return name, None
        reading.inflate(member.file_size)  # zipfile never yields more than the size declared
        try:
            with archive.open(member) as handle:
                content = handle.read(budget.file_bytes + 1)
        except Exception as error:  # noqa: BLE001 (zlib.error, BadZipFile, EOFError, ...)
            raise NotAnOtterExport(detail("zip_member_unreadable", member=what, type=error_type(error)),
                                   "unreadable") from None
        if len(content) > budget.file_bytes:
            raise NotAnOtterExport(detail("size_over", most=budget.file_bytes), "too_large")
        return name, content


def _export_notebook(members: list[zipfile.ZipInfo]) -> zipfile.ZipInfo:
    """The notebook of an Otter export: the one .ipynb nearest the top of the zip, at any depth.
    Otter's `export()` stores the notebook under the path it was given, and JupyterLab and VS Code
    give an absolute one (`tmp/work/lab/self_attention_lab.ipynb`); several at that depth are a
    named problem, never a guess."""
    notebooks = [info for info in members if not info.is_dir() and not _zip_system_member(info.filename)
                 and info.filename.lower().endswith(".ipynb")]
    depth = min((_zip_depth(info.filename) for info in notebooks), default=0)
    nearest = [info for info in notebooks if _zip_depth(info.filename) == depth]
    if len(nearest) != 1:
        raise NotAnOtterExport(detail("zip_export_notebooks", count=len(nearest)))
    return nearest[0]


def _zip_depth(name: str) -> int:
    return len([part for part in name.replace("\\", "/").split("/") if part]) - 1


def _zip_system_member(name: str) -> bool:
    parts = [part for part in name.replace("\\", "/").split("/") if part]
    return (not parts or any(part in ZIP_SYSTEM_DIRS for part in parts[:-1])
            or parts[-1] in ZIP_SYSTEM_FILES or parts[-1].startswith("._"))


def zip_member_is_regular(info: zipfile.ZipInfo) -> bool:
    """False for members a Unix zip tool stored as symbolic links, FIFOs or devices."""
    kind = stat.S_IFMT(info.external_attr >> 16)
    return kind in (0, stat.S_IFREG, stat.S_IFDIR)  # 0: a zip tool that records no file type


# What a file says about its lab (the lab guess reads through the reader's own steps) -----------

METADATA_KEY = "autograder_lab"  # a notebook made from a lab's assignment names the lab there


@dataclass(frozen=True, kw_only=True)
class LabEvidence:
    """What a submission says about the lab it was written for."""

    declared: str | None = None  # the lab its notebook's metadata names
    sources: tuple[str, ...] = ()  # the code of the file: a .py, or every code cell (checker cells too)


def lab_evidence(data: object, budget: Budget | None = None) -> LabEvidence | None:
    """LabEvidence of a submission's bytes (its name unknown), or None when nothing in it can be
    read. Read as `read_submission` reads, within the same budget and catch-all, but a part that
    cannot be read is left out rather than refusing the file: a cell without text or beyond the
    code-cell budget does not stop the others from saying which lab they are for."""
    return untrusted(_lab_evidence, data, budget=budget).value


def _lab_evidence(data: object, reading: Reading) -> LabEvidence | None:
    if not isinstance(data, (bytes, bytearray)) or len(data) > reading.budget.file_bytes:
        return None
    if data.startswith(b"PK"):
        try:
            _, data = zipped_submission(data, reading=reading)
        except NotAnOtterExport:
            return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    if not text.strip():
        return None
    try:
        notebook = notebook_json(text, reading)
    except (ValueError, RecursionError):
        return LabEvidence(sources=(text,))  # not JSON: read as a .py
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        return None
    metadata = notebook.get("metadata")
    declared = metadata.get(METADATA_KEY) if isinstance(metadata, dict) else None
    return LabEvidence(declared=declared if isinstance(declared, str) else None,
                       sources=tuple(source for _, _, source in code_cells_of(cells, reading, strict=False)
                                     if source is not None))


# Regular files ---------------------------------------------------------------------------------

class NotARegularFile(OSError):
    """The path names a FIFO, device, socket, folder or (when links are refused) a symbolic link;
    `detail` says which (a Detail)."""

    def __init__(self, number: int, text: str, what: str) -> None:
        super().__init__(number, text)
        self.detail = detail(what)


def read_regular_file(path: str | os.PathLike[str], follow_links: bool = True, limit: int = MAX_BYTES,
                      dir_fd: int | None = None) -> bytes:
    """The bytes of a regular file, at most `limit` + 1 of them (so callers can tell "too large").

    Opened non-blocking (a FIFO never hangs the open), checked with fstat on the open descriptor
    (no race between the check and the read). With follow_links=False a symbolic link as the last
    part of the path is refused (O_NOFOLLOW). Raises NotARegularFile or OSError.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= os.O_NOFOLLOW
    try:
        descriptor = os.open(path, flags, dir_fd=dir_fd)
    except OSError as error:
        if not follow_links and error.errno == 40:  # ELOOP: the last part is a link
            raise NotARegularFile(error.errno, "a symbolic link", "link") from None
        raise
    try:
        mode = os.fstat(descriptor).st_mode
        kind = file_kind(mode)
        if kind != "regular file":
            raise NotARegularFile(0, f"a {kind}, not a regular file", kind_detail(mode))
        os.set_blocking(descriptor, True)
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def kind_detail(mode: int) -> str:
    """The detail code of what an inode is, when it is not a regular file."""
    for test, code in ((stat.S_ISDIR, "folder"), (stat.S_ISLNK, "link"), (stat.S_ISFIFO, "fifo"),
                       (stat.S_ISCHR, "device"), (stat.S_ISBLK, "device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return code
    return "special_file"


def file_kind(mode: int) -> str:
    """Words for what an inode is, for messages ("FIFO", "character device", ...)."""
    for test, word in ((stat.S_ISREG, "regular file"), (stat.S_ISDIR, "folder"), (stat.S_ISLNK, "symbolic link"),
                       (stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return word
    return "special file"


# Notes and names for the feedback --------------------------------------------------------------

def load_note(event: Mapping[str, Any], submission: Submission) -> dict[str, Any]:
    """A loading event of the run (a syntax error, a skipped statement) as a note on the file."""
    note: dict[str, Any] = {"code": event.get("ev")}
    cell = event.get("cell")
    if isinstance(cell, int) and 0 <= cell < len(submission.cells):
        note["filename"] = submission.cells[cell]["filename"]
        note["cell"] = cell
    note["line"] = event.get("line")
    for key in ("type", "message"):
        if key in event:
            note[key] = str(event[key])[:300]
    return note


def syntax_error_near(name: str, notes: Iterable[Mapping[str, Any]], submission: Submission) -> bool:
    """Whether a cell defining `name` failed to parse (then the function is missing for that reason)."""
    return any(note["code"] == "syntax_error" and "cell" in note
               and f"def {name}" in submission.cells[note["cell"]]["source"] for note in notes)


DEFINED = re.compile(r"^[ \t]*def[ \t]+([A-Za-z_]\w*)[ \t]*\(", re.MULTILINE)


def similar_definition(name: str, submission: Submission, function_names: Iterable[str]) -> str | None:
    """A function the file defines under a name close to `name` ("sofmax"), when one is; among
    the names found while reading it (at most `defined_names` of them)."""
    close = difflib.get_close_matches(name, sorted(submission.defined - set(function_names)), n=1, cutoff=0.75)
    return close[0] if close else None
