"""Reading a submission file into code cells the sandbox can run (pure text work, no execution)."""
import ast
import json
import re
from dataclasses import dataclass, field
from functools import cached_property

MAX_BYTES = 20 * 1024 * 1024
MAX_PARSED_CHARS = 256 * 1024  # larger cells are scanned for definitions, not parsed
_TOP_LEVEL_DEF = re.compile(r"^(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
STUB_CALLS = {"NotImplementedError", "NotImplemented"}
# Cell magics whose body is still ordinary Python.
# Tags of the student notebook's checker cells (see assignments/build_notebook.py).
CHECKER_TAGS = ("grader-init", "check-all", "export")
CHECKER_TAG_PREFIXES = ("check:",)
PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun", "debug"}
# Each character can match only one way (no nested or overlapping repeats), so a hostile line
# of a million spaces costs linear time, not quadratic.
_ASSIGNED_ESCAPE = re.compile(r"^([ \t]*)([A-Za-z_][\w.\[\],]*(?: +[\w.\[\],]+)*) *= *[!%]")
_ESCAPE_AFTER_EQUALS = re.compile(r"= *[!%]")
_HELP = re.compile(r"^\s*(\?\??[\w\.]+|[\w\.]+\?\??)\s*$")


@dataclass
class Submission:
    name: str
    cells: list = field(default_factory=list)  # [{"source": str, "filename": str}]
    problem: str = None  # why it cannot be read at all: too_large, not_utf8, notebook_not_json, ...
    problem_detail: str = ""

    @cached_property
    def stubs(self):
        """Step functions whose last definition is still a stub (parsed when first asked)."""
        return find_stubs(self.cells) if self.problem is None else set()


def read_submission(name, data):
    """Turn the bytes of a .py or .ipynb file into cells; never raises on bad input."""
    if len(data) > MAX_BYTES:
        return Submission(name, problem="too_large", problem_detail=f"{len(data)}")
    if not data.strip():
        return Submission(name, problem="empty")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return Submission(name, problem="not_utf8", problem_detail=f"byte {error.start}")
    if name.lower().endswith(".ipynb"):
        submission = _read_notebook(name, text)
    else:
        submission = Submission(name, cells=[{"source": text, "filename": _basename(name)}])
    return submission


def _basename(name):
    return name.replace("\\", "/").rsplit("/", 1)[-1] or "submission.py"


def _read_notebook(name, text):
    try:
        notebook = json.loads(text)
    except ValueError as error:
        return Submission(name, problem="notebook_not_json", problem_detail=str(error)[:200])
    except RecursionError:
        return Submission(name, problem="notebook_not_json", problem_detail="nested too deeply")
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        return Submission(name, problem="notebook_malformed", problem_detail="no cell list")
    code_cells = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code" or is_checker_cell(cell):
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            return Submission(name, problem="notebook_malformed",
                              problem_detail=f"cell {number} has no text")
        code_cells.append({"source": without_ipython_syntax(source), "filename": f"<cell {number}>"})
    return Submission(name, cells=code_cells)


def is_checker_cell(cell):
    """The notebook's self-check plumbing (grader set-up, checks, export): not the student's work."""
    metadata = cell.get("metadata") if isinstance(cell, dict) else None
    tags = metadata.get("tags") if isinstance(metadata, dict) else None
    if not isinstance(tags, list):
        return False
    return any(isinstance(tag, str) and (tag in CHECKER_TAGS or tag.startswith(CHECKER_TAG_PREFIXES))
               for tag in tags)


def without_ipython_syntax(source):
    """Replace magics, shell escapes and help lines by no-ops, keeping line numbers."""
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


def find_stubs(cells):
    """Names among the step functions whose last top-level definition does nothing yet.

    Runs in the grader's process, so huge cells are only scanned, never parsed: parsing a few
    megabytes of one-line statements takes seconds and gigabytes. A stub is small; a definition
    in a huge cell counts as written.
    """
    from .steps import FUNCTION_NAMES

    last = {}
    for cell in cells:
        if len(cell["source"]) > MAX_PARSED_CHARS:
            for name in _TOP_LEVEL_DEF.findall(cell["source"]):
                if name in FUNCTION_NAMES:
                    last[name] = False
            continue
        try:
            tree = ast.parse(cell["source"])
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in FUNCTION_NAMES:
                last[node.name] = _is_stub_body(node.body)
    return {name for name, stub in last.items() if stub}


def _is_stub_body(body):
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


def _raised_name(node):
    if isinstance(node, ast.Call):
        node = node.func
    return node.id if isinstance(node, ast.Name) else None
