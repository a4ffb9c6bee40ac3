"""Reading a submission file into code cells the sandbox can run (pure text work, no execution)."""
import ast
import difflib
import io
import json
import os
import re
import stat
import zipfile
from dataclasses import dataclass, field

MAX_BYTES = 20 * 1024 * 1024
# An Otter export holds a notebook, its log, a name file and a few attachments; more is not one.
MAX_EXPORT_MEMBERS = 1000
# Names `otter.Notebook.export()` writes besides the notebook (otter/check/notebook.py).
OTTER_LOG = ".OTTER_LOG"
OTTER_ZIP_NAME = "__zip_filename__"
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

    def stubs(self, names):
        """Which of the functions `names` are, at their last definition, still stubs."""
        names = tuple(names)
        known = self.__dict__.setdefault("_stubs", {})
        if names not in known:
            known[names] = find_stubs(self.cells, names) if self.problem is None else set()
        return known[names]


def read_submission(name, data):
    """Turn the bytes of a .py, .ipynb or Otter export .zip into cells; never raises on bad input."""
    if len(data) > MAX_BYTES:
        return Submission(name, problem="too_large", problem_detail=f"{len(data)}")
    kind = not_code(name)
    if kind:
        return Submission(name, problem="not_code", problem_detail=kind)
    if name.lower().endswith(".zip"):
        try:
            inner, data = zipped_submission(data)
        except NotAnOtterExport as refusal:
            return Submission(name, problem=refusal.problem, problem_detail=refusal.detail)
        name = f"{name}/{inner}"
    if not data.strip():
        return Submission(name, problem="empty")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return Submission(name, problem="not_utf8", problem_detail=f"byte {error.start}")
    if name.lower().endswith(".ipynb"):
        submission = _read_notebook(name, text)
    else:
        submission = Submission(name, cells=script_cells(text, _basename(name)))
    return submission


CELL_MARK = re.compile(r"^# ?%%")
TOP_LEVEL_START = re.compile(r"^(?:(?:async[ \t]+)?def[ \t]|class[ \t(:]|@)")
MAX_SCRIPT_CELLS = 200
MAX_SPLIT_LINES = 5000


def script_cells(text, filename):
    """A .py file as cells, so that a syntax error costs only its part of the file: a file that
    compiles stays whole; one that does not is cut at its `# %%` marks (the twin's cells), else
    before each top-level definition. Each cell is padded
    with blank lines to its place, so every message names the file's own line numbers. A file
    too long or split too finely stays one cell."""
    lines = text.splitlines(True)
    if len(lines) > MAX_SPLIT_LINES or len(text) > MAX_PARSED_CHARS or _compiles(text, filename):
        return [{"source": text, "filename": filename}]
    marked = [i for i, line in enumerate(lines) if CELL_MARK.match(line)]
    starts = marked or _definition_starts(lines)
    starts = sorted({0, *starts})
    if len(starts) == 1 or len(starts) > MAX_SCRIPT_CELLS:
        return [{"source": text, "filename": filename}]
    ends = starts[1:] + [len(lines)]
    return [{"source": "\n" * start + "".join(lines[start:end]), "filename": filename}
            for start, end in zip(starts, ends) if "".join(lines[start:end]).strip()]


def _compiles(text, filename):
    try:
        compile(text, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _definition_starts(lines):
    """Line indexes where a top-level definition (with its decorators) begins; only lines that
    start in column 0 are read."""
    starts, previous_decorator = [], False
    for index, line in enumerate(lines):
        if TOP_LEVEL_START.match(line):
            if not previous_decorator:
                starts.append(index)
            previous_decorator = line.startswith("@")
        elif line.strip() and not line.startswith((" ", "\t", "#")):
            previous_decorator = False
    return starts


class NotAnOtterExport(ValueError):
    """A .zip that is not the one `otter.Notebook.export()` writes, or whose notebook cannot be read."""

    def __init__(self, detail, problem="not_otter_export"):
        super().__init__(detail)
        self.problem, self.detail = problem, detail


def otter_export_notebook(data):
    """(name, bytes) of the notebook inside the zip `otter.Notebook(...).export()` writes.

    Otter writes the notebook at the top of the zip, `__zip_filename__`, usually `.OTTER_LOG`
    (a pickle: never unpickled, never even read here), maybe a PDF, a `.otter` file and files the
    student attached. Accepted: a zip with one of Otter's own marker members and exactly one
    top-level notebook, a regular member of at most MAX_BYTES. Every member is addressed by its
    ZipInfo, never by name, and the notebook is read with a cap, whatever size the zip declares.
    Raises NotAnOtterExport with the reason otherwise.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError, NotImplementedError, OverflowError, OSError) as error:
        raise NotAnOtterExport(f"not a readable zip: {error}"[:200], "unreadable") from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_EXPORT_MEMBERS:
            raise NotAnOtterExport(f"{len(members)} files in the zip")
        names = {info.filename for info in members}
        if not names & {OTTER_LOG, OTTER_ZIP_NAME}:
            raise NotAnOtterExport(f"no {OTTER_ZIP_NAME} or {OTTER_LOG}: not written by otter's export()")
        notebooks = [info for info in members if not info.is_dir() and "/" not in info.filename
                     and info.filename.lower().endswith(".ipynb")]
        if len(notebooks) != 1:
            raise NotAnOtterExport(f"{len(notebooks)} notebooks at the top of the zip, expected 1")
        notebook = notebooks[0]
        if not zip_member_is_regular(notebook):
            raise NotAnOtterExport("the notebook in the zip is a link or a special file")
        if notebook.flag_bits & 0x1:
            raise NotAnOtterExport("the notebook in the zip is encrypted", "unreadable")
        if notebook.file_size > MAX_BYTES:
            raise NotAnOtterExport(f"{notebook.file_size}", "too_large")
        try:
            with archive.open(notebook) as handle:
                content = handle.read(MAX_BYTES + 1)
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError, ValueError, OSError,
                OverflowError) as error:
            raise NotAnOtterExport(f"the notebook in the zip cannot be read: {error}"[:200], "unreadable") from None
        if len(content) > MAX_BYTES:
            raise NotAnOtterExport(f"more than {MAX_BYTES}", "too_large")
        return notebook.filename, content


GRADABLE_SUFFIXES = (".ipynb", ".py")
# What operating systems and editors add to a zip a student makes by hand.
ZIP_SYSTEM_DIRS = {"__MACOSX", ".ipynb_checkpoints", "__pycache__", ".git"}
ZIP_SYSTEM_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}


def not_code(name):
    """"" for a name the grader reads (.ipynb, .py, or a .zip holding one); else the file's own name
    ("report.docx"), for the one sentence that says what to submit instead. Decided by the name,
    as students and the LMS name files: one rule for `check`, `grade`, the LMS and the kit."""
    base = _basename(name)
    return "" if base.lower().endswith(GRADABLE_SUFFIXES + (".zip",)) else base


def zipped_submission(data):
    """(name, bytes) of the file to grade inside a submitted .zip: the notebook of the zip Otter's
    export() writes (by Otter's rule, when the zip carries Otter's marker), else the one .ipynb or
    .py a student zipped by hand (hand_zipped_file). Raises NotAnOtterExport with the reason."""
    try:
        return otter_export_notebook(data)
    except NotAnOtterExport as refusal:
        if refusal.problem != "not_otter_export" or _has_otter_marker(data):
            raise
    return hand_zipped_file(data)


def _has_otter_marker(data):
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return any(info.filename in (OTTER_LOG, OTTER_ZIP_NAME) for info in archive.infolist()[:MAX_EXPORT_MEMBERS + 1])
    except Exception:  # a zip that cannot be listed says nothing of Otter's
        return False


def hand_zipped_file(data):
    """(name, bytes) of the only .ipynb or .py in a zip a student made by hand (Windows' "send to
    compressed folder", macOS' "compress"), at any depth; files that operating systems add
    (__MACOSX/, .DS_Store, .ipynb_checkpoints/) do not count, other files (data, pictures) are
    never read. Raises NotAnOtterExport saying what the zip holds when it is not exactly one."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except Exception as error:  # any damage is a reason, never a crash
        raise NotAnOtterExport(f"not a readable zip: {error}"[:200], "unreadable") from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_EXPORT_MEMBERS:
            raise NotAnOtterExport(f"{len(members)} files in the zip")
        files = [info for info in members if not info.is_dir() and not _zip_system_member(info.filename)]
        gradable = [info for info in files if info.filename.lower().endswith(GRADABLE_SUFFIXES)]
        if len(gradable) != 1:
            shown = ", ".join(info.filename for info in gradable[:3]) + (", ..." if len(gradable) > 3 else "")
            raise NotAnOtterExport(f"{len(gradable)} .ipynb or .py files in the zip" + (f": {shown}" if shown else ""))
        member = gradable[0]
        if not zip_member_is_regular(member):
            raise NotAnOtterExport(f"{member.filename} in the zip is a link or a special file")
        if member.flag_bits & 0x1:
            raise NotAnOtterExport(f"{member.filename} in the zip is encrypted", "unreadable")
        if member.file_size > MAX_BYTES:
            raise NotAnOtterExport(f"{member.file_size}", "too_large")
        try:
            with archive.open(member) as handle:
                content = handle.read(MAX_BYTES + 1)
        except Exception as error:
            raise NotAnOtterExport(f"{member.filename} in the zip cannot be read: {error}"[:200], "unreadable") from None
        if len(content) > MAX_BYTES:
            raise NotAnOtterExport(f"more than {MAX_BYTES}", "too_large")
        return member.filename.replace("\\", "/"), content


def _zip_system_member(name):
    parts = [part for part in name.replace("\\", "/").split("/") if part]
    return (not parts or any(part in ZIP_SYSTEM_DIRS for part in parts[:-1])
            or parts[-1] in ZIP_SYSTEM_FILES or parts[-1].startswith("._"))


def zip_member_is_regular(info):
    """False for members a Unix zip tool stored as symbolic links, FIFOs or devices."""
    kind = stat.S_IFMT(info.external_attr >> 16)
    return kind in (0, stat.S_IFREG, stat.S_IFDIR)  # 0: a zip tool that records no file type


class NotARegularFile(OSError):
    """The path names a FIFO, device, socket, folder or (when links are refused) a symbolic link."""


def read_regular_file(path, follow_links=True, limit=MAX_BYTES, dir_fd=None):
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
            raise NotARegularFile(error.errno, "a symbolic link") from None
        raise
    try:
        kind = file_kind(os.fstat(descriptor).st_mode)
        if kind != "regular file":
            raise NotARegularFile(0, f"a {kind}, not a regular file")
        os.set_blocking(descriptor, True)
        chunks, remaining = [], limit + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def file_kind(mode):
    """Words for what an inode is, for messages ("FIFO", "character device", ...)."""
    for test, word in ((stat.S_ISREG, "regular file"), (stat.S_ISDIR, "folder"), (stat.S_ISLNK, "symbolic link"),
                       (stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return word
    return "special file"


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
    graders = set()  # names bound to an otter.Notebook in the cells so far
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code" or is_checker_cell(cell):
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            return Submission(name, problem="notebook_malformed",
                              problem_detail=f"cell {number} has no text")
        source = without_ipython_syntax(source)
        if does_only_checking(source, graders):
            continue
        code_cells.append({"source": source, "filename": f"<cell {number}>"})
    return Submission(name, cells=code_cells)


CHECKER_METHODS = {"check", "check_all", "export", "submit", "to_pdf", "run_plugin"}
# How far the recogniser looks: a dotted name of more parts, or a set-up function of more nodes,
# is not the course's checker plumbing (and is never walked further).
MAX_DOTTED_PARTS = 8
MAX_FACTORY_NODES = 5000


def does_only_checking(source, graders):
    """Whether a cell only sets up or runs Otter's checks, as untagged copies of the checker cells
    in Colab or pasted notebooks are: `import otter`, `grader = otter.Notebook(...)`, the course's
    set-up cell (a function that returns an `otter.Notebook`, and `grader = that_function()`),
    `grader.check("softmax")`, ... Names bound to a Notebook are added to `graders`.

    Told by what the cell does, never by its text; never raises, never recurses.
    """
    if not source.strip() or len(source) > MAX_PARSED_CHARS:
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    try:
        found = _checker_names(tree, graders)
    except Exception:  # noqa: BLE001 - a cell the recogniser cannot read is the student's work
        return False
    if found is None:
        return False
    graders |= found
    return True


def _checker_names(tree, graders):
    """The names a cell of only checker plumbing binds to graders, or None when it does more."""
    found, factories = set(), set()
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
            found |= {target.id for target in node.targets}
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


def _dotted(node):
    """"otter.Notebook" for an attribute chain of plain names, else None (read without recursion)."""
    parts = []
    while isinstance(node, ast.Attribute) and len(parts) < MAX_DOTTED_PARTS:
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or len(parts) >= MAX_DOTTED_PARTS:
        return None
    return ".".join([node.id, *reversed(parts)])


def _is_notebook(node, factories=()):
    """A call that makes an otter.Notebook: the class itself, or a set-up function that returns one."""
    if not isinstance(node, ast.Call):
        return False
    name = _dotted(node.func)
    return name in ("otter.Notebook", "Notebook") or name in factories


def _makes_a_notebook(function):
    """Whether a top-level function is a grader set-up: it returns an otter.Notebook(...) from its
    own body and declares no `global` (it binds no name of the notebook). Nested functions and
    classes are its helpers: their returns are not its own. Walked with a stack, at most
    MAX_FACTORY_NODES nodes."""
    returns_notebook = False
    stack, seen = [(node, True) for node in function.body], 0
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


def _is_check_call(node, graders):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("print", "display") \
            and len(node.args) == 1:
        node = node.args[0]
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id in graders
            and node.func.attr in CHECKER_METHODS)


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


def find_stubs(cells, function_names):
    """Names among `function_names` whose last top-level definition does nothing yet.

    Runs in the grader's process, so huge cells are only scanned, never parsed: parsing a few
    megabytes of one-line statements takes seconds and gigabytes. A stub is small; a definition
    in a huge cell counts as written.
    """
    last = {}
    for cell in cells:
        if len(cell["source"]) > MAX_PARSED_CHARS:
            for name in _TOP_LEVEL_DEF.findall(cell["source"]):
                if name in function_names:
                    last[name] = False
            continue
        try:
            tree = ast.parse(cell["source"])
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in function_names:
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


def load_note(event, submission):
    """A loading event of the run (a syntax error, a skipped statement) as a note on the file."""
    note = {"code": event.get("ev")}
    cell = event.get("cell")
    if isinstance(cell, int) and 0 <= cell < len(submission.cells):
        note["filename"] = submission.cells[cell]["filename"]
        note["cell"] = cell
    note["line"] = event.get("line")
    for key in ("type", "message"):
        if key in event:
            note[key] = str(event[key])[:300]
    return note


def syntax_error_near(name, notes, submission):
    """Whether a cell defining `name` failed to parse (then the function is missing for that reason)."""
    return any(note["code"] == "syntax_error" and "cell" in note
               and f"def {name}" in submission.cells[note["cell"]]["source"] for note in notes)


DEFINED = re.compile(r"^[ \t]*def[ \t]+([A-Za-z_]\w*)[ \t]*\(", re.MULTILINE)
MAX_SCANNED = 1024 * 1024  # of a cell's text, looking for definitions


def similar_definition(name, submission, function_names):
    """A function the file defines under a name close to `name` ("sofmax"), when one is."""
    defined = {found for cell in submission.cells for found in DEFINED.findall(cell["source"][:MAX_SCANNED])}
    close = difflib.get_close_matches(name, sorted(defined - set(function_names)), n=1, cutoff=0.75)
    return close[0] if close else None
