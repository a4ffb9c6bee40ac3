"""The bytes of one submission file (.py, .ipynb or a zip) -> a `Submission`: its cells and the facts
the grader needs about them; and what a file says about its lab. Never raises: a file that cannot
be read is a `Submission` with its problem and reason."""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from ..cells import Cell, is_notebook, notebook_cell
from ..guard import SafeText, safe_name, safe_text
from .budget import Budget, Reading, untrusted
from .definitions import Definitions, Place, redefined
from .names import basename, not_code
from .notebook import (code_cells_of, does_only_checking, is_checker_cell, json_error_detail, notebook_json,
                       without_ipython_syntax)
from .problems import Detail, detail
from .script import script_cells
from .zips import NotAnOtterExport, zipped_submission


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
    definitions = Definitions(reading)
    if name.lower().endswith(".ipynb"):
        submission = _read_notebook(name, text, reading, definitions)
    else:
        cells = script_cells(text, safe_text(basename(name)), reading)
        for cell in cells:
            definitions.add(cell["source"], cell["filename"])
        submission = Submission(name, cells=cells)
    if submission.problem is None:
        submission.stub_status, submission.defined = definitions.last, definitions.names()
        submission.places, submission.under_main = definitions.places, definitions.only_under_main()
    return submission


def _read_notebook(name: SafeText, text: str, reading: Reading, definitions: Definitions) -> Submission:
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


def similar_definition(name: str, submission: Submission, function_names: Iterable[str]) -> str | None:
    """A function the file defines under a name close to `name` ("sofmax"), when one is; among
    the names found while reading it (at most `defined_names` of them)."""
    close = difflib.get_close_matches(name, sorted(submission.defined - set(function_names)), n=1, cutoff=0.75)
    return close[0] if close else None
