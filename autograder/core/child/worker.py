"""The submission's side: run its code, call its functions, send back plain data.

Runs in a forked child that holds no grader state: no reference, no cases, no expected values.
Commands arrive one JSON line at a time; events leave one JSON line at a time. The load command
names the lab's functions (this module knows no lab). A step graded with other steps' functions
calls them through proxies: each call is a "helper" event, answered by the grader with the value
alone, so no reference code ever reaches this process.
"""
from __future__ import annotations

import __future__
import ast
import base64
import linecache
import marshal
import os
import signal
import sys
import time
from typing import TYPE_CHECKING

import numpy as np

from . import codec
from .code_evidence import code_evidence, state_kept, watch

if TYPE_CHECKING:
    from collections.abc import Callable, Container
    from types import CodeType, FrameType
    from typing import Any, NoReturn

    from .codec import Encoded

    # A command or an event: one JSON line's data (a command is the grader's, never checked here).
    Message = dict[str, Any]
    # The names the submission's code runs in.
    Globals = dict[str, Any]

    from typing import Protocol

    class Sends(Protocol):
        """What loading cells needs of a channel: events out (the students' kit records them)."""

        def send(self, **event: object) -> None: ...

MAX_FRAMES = 5
WHOLE_CELL = -1  # statement number that stands for parsing the whole cell
AT_ONCE = -2  # statement number that stands for running the whole cell at once
# The grader's question to a child whose load ran past its deadline while a cell ran whole: which
# of the cell's statements is running (see _tell_where)?
WHERE_SIGNAL = signal.SIGUSR1


class Channel:
    def __init__(self, command_fd: int, event_fd: int) -> None:
        self._commands = os.fdopen(command_fd, "r", encoding="utf-8", closefd=True)
        self._event_fd = event_fd
        # Captured now: a submission that replaces os.write cannot reach these references.
        self._write = os.write
        self._dumps = codec.dumps
        self._readline = self._commands.readline
        self._loads = codec.loads
        self._asked = 0  # helper requests sent: each answer names the request it answers

    def receive(self) -> Message:
        line = self._readline()
        return self._loads(line) if line else {"cmd": "exit"}

    def ask_helper(self, call_id: int, name: str, args: list[Encoded], keywords: dict[str, Encoded] | None = None
                   ) -> Message:
        """Send one helper request and wait for its answer. The grader sends one call at a time,
        so nothing but answers arrives meanwhile."""
        self._asked += 1
        self.send(ev="helper", id=call_id, seq=self._asked, name=name, args=args,
                  **({"kwargs": keywords} if keywords else {}))
        while True:
            line = self._readline()
            if not line:
                return {"error": {"type": "RuntimeError", "message": "the grader stopped answering"}}
            command: Message = self._loads(line)
            if command.get("cmd") == "helper_answer" and command.get("seq") == self._asked:
                return command

    def send(self, **event: object) -> None:
        data = (self._dumps(event) + "\n").encode("utf-8")
        while data:
            written = self._write(self._event_fd, data)
            data = data[written:]


def serve(channel: Channel) -> None:
    """Answer commands until told to exit."""
    signal.signal(WHERE_SIGNAL, lambda number, frame: _tell_where(channel, frame))
    namespace: Globals = {"__name__": "__main__", "__builtins__": __builtins__}
    filenames: set[str] = set()
    functions: tuple[str, ...] = ()
    while True:
        command = channel.receive()
        kind = command.get("cmd")
        if kind == "load":
            functions = load(channel, namespace, filenames, command)
        elif kind == "call":
            call(channel, namespace, filenames, command, functions)
        elif kind != "helper_answer":  # an answer nobody waits for any more is dropped
            return


def load(channel: Sends, namespace: Globals, filenames: set[str], command: Message) -> tuple[str, ...]:
    """Run the cells in order; an error in one top-level statement does not stop the next ones.

    Returns the lab's function names the command gave (its "functions"); the "loaded" event says
    what each of them is in the submission, and what their code reads unless the command's
    "evidence" is false (the grader knows it from an earlier run of the same cells).

    A cell first runs whole, compiled at once (the common case, and the cheap one). Only when it
    raises is it parsed, to name the statement that failed and run the ones after it one by one.
    A cell that hung while running whole names the statement it hung in when the grader asks
    (WHERE_SIGNAL, see _tell_where), and the next child skips that statement. One that does not
    answer (it hung inside C code) or ended the process is run statement by statement by the next
    child (the grader asks for it), so the statement to skip can be named.
    """
    # A notebook runs as __main__ (as in Jupyter); a .py file as an imported module, so its
    # `if __name__ == "__main__":` demo does not run during grading.
    namespace["__name__"] = command.get("module_name", "__main__")
    if namespace["__name__"] == "__main__":
        # What a Jupyter kernel gives every notebook without an import.
        namespace.setdefault("display", _display)
        namespace.setdefault("get_ipython", _get_ipython)
    functions = tuple(name for name in command.get("functions") or () if isinstance(name, str))
    skip = {tuple(pair) for pair in command.get("skip", [])}
    for c, cell in enumerate(command["cells"]):
        if (c, WHOLE_CELL) in skip:
            continue
        filename = cell["filename"]
        filenames.add(filename)
        _remember_lines(filename, cell["source"])
        first: int | None
        body: list[ast.stmt] | None
        first, body = 0, None
        if (c, AT_ONCE) not in skip:
            channel.send(ev="stmt", cell=c, stmt=AT_ONCE, line=1)
            _RUNNING_WHOLE.cell = (c, cell["source"], filename)
            try:
                failed = _run_whole(cell["source"], filename, namespace)
            finally:
                _RUNNING_WHOLE.cell = None
            if failed is _DONE:
                continue
            if failed is not _UNCOMPILED:
                line: int | None
                error: BaseException
                line, error = failed  # type: ignore[misc]  # (line, error): neither _DONE nor _UNCOMPILED
                first, body = _report_failed_statement(channel, c, cell["source"], filename, filenames,
                                                       line, error)
                if first is None:
                    continue
        _run_statements(channel, c, cell["source"], filename, namespace, filenames, skip, first, body)
    channel.send(ev="loaded", names={name: kind_of(namespace.get(name, _ABSENT)) for name in functions},
                 evidence=code_evidence(namespace, functions) if command.get("evidence", True) is not False else {})
    return functions


_DONE, _UNCOMPILED = object(), object()


class _RunningWhole:
    """The cell running whole right now, if one: (its number, its source, its file name)."""

    cell: tuple[int, str, str] | None = None


_RUNNING_WHOLE = _RunningWhole()


def _tell_where(channel: Sends, frame: FrameType | None) -> None:
    """Answer WHERE_SIGNAL: send which top-level statement of the cell running whole is running.

    The grader asks once the load's deadline has passed, and the next child skips that statement,
    so a cell that never ends costs the load's time once (not again in a child that runs it
    statement by statement to find the statement). Python runs this between two byte codes of the
    submission; a cell stuck inside C code does not answer, and is found the slow way.
    """
    running = _RUNNING_WHOLE.cell
    if running is None:
        return
    c, source, filename = running
    while frame is not None and not (frame.f_code.co_filename == filename and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None:
        return
    try:
        body = ast.parse(source, filename).body
    except BaseException:
        return
    k = _statement_at(body, frame.f_lineno)
    if k is not None:
        channel.send(ev="hung", cell=c, stmt=k, line=body[k].lineno)


def _statement_at(body: list[ast.stmt], line: int | None) -> int | None:
    """The number of the top-level statement holding `line` (its decorators included), if one."""
    for k, statement in enumerate(body):
        first = min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", ())])
        if first <= (line or 0) <= (statement.end_lineno or statement.lineno):
            return k
    return None


def _display(*objects: object, **options: object) -> None:
    """IPython's display(): nothing is shown while grading."""


class _Shell:
    """get_ipython() while grading: every method (run_line_magic, system, ...) does nothing."""

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: None


def _get_ipython() -> _Shell:
    return _Shell()


def _remember_lines(filename: str, source: str) -> None:
    """Traceback lines for `filename`. Cells of one .py file share its name, each padded with blank
    lines to its place in the file: their lines are laid over each other, so every line shows."""
    lines = source.splitlines(True)
    known = linecache.cache.get(filename)
    # An entry of another shape (linecache's lazy one: a 1-tuple) is replaced, never read.
    if known and len(known) == 4 and known[3] == filename and len(known[2]) <= len(lines) + len(known[2]):
        merged = list(known[2]) + ["\n"] * max(0, len(lines) - len(known[2]))
        for index, line in enumerate(lines):
            if line.strip():
                merged[index] = line
        lines = merged
    linecache.cache[filename] = (sum(map(len, lines)), None, lines, filename)


def _run_whole(source: str, filename: str, namespace: Globals) -> object:
    """_DONE, _UNCOMPILED (the statement-by-statement path reports why), or (line, error)."""
    try:
        code = compile(source, filename, "exec")
    except BaseException:
        return _UNCOMPILED
    try:
        exec(code, namespace)
    except BaseException as error:  # a submission's SystemExit must not end the load
        return _module_line(error, filename), error
    return _DONE


def _module_line(error: BaseException, filename: str) -> int | None:
    """The line of the cell's own top-level code that was running when `error` went up."""
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == filename and code.co_name == "<module>":
            return tb.tb_lineno
        tb = tb.tb_next
    return None


def _report_failed_statement(channel: Sends, c: int, source: str, filename: str, filenames: set[str],
                             line: int | None, error: BaseException) -> tuple[int | None, list[ast.stmt]]:
    """Send the load error of the statement holding `line`; (the next statement's number, the
    cell's statements), the number None when the statement cannot be told."""
    try:
        body = ast.parse(source, filename).body
    except BaseException:
        body = []
    k = _statement_at(body, line)
    channel.send(ev="load_error", cell=c, stmt=k, line=line if k is None else body[k].lineno,
                 **describe_exception(error, filenames))
    return (None if k is None else k + 1), body


def _parse_statements(channel: Sends, c: int, source: str, filename: str) -> list[ast.stmt]:
    # Parsing a huge cell can itself run out of time: the grader then skips the whole cell.
    channel.send(ev="stmt", cell=c, stmt=WHOLE_CELL, line=1)
    try:
        return ast.parse(source, filename).body
    except (SyntaxError, ValueError) as error:
        channel.send(ev="syntax_error", cell=c, line=getattr(error, "lineno", None),
                     message=str(getattr(error, "msg", error))[:300])
    except (RecursionError, MemoryError) as error:
        channel.send(ev="syntax_error", cell=c, line=None, message=type(error).__name__)
    return []


def _run_statements(channel: Sends, c: int, source: str, filename: str, namespace: Globals, filenames: set[str],
                    skip: Container[tuple[int, int]], first: int, body: list[ast.stmt] | None = None) -> None:
    """Run the cell's top-level statements from `first` on, one by one (`body`: parsed already)."""
    if body is None:
        body = _parse_statements(channel, c, source, filename)
    for k, statement in enumerate(body):
        if k < first or (c, k) in skip:
            continue
        channel.send(ev="stmt", cell=c, stmt=k, line=statement.lineno)
        try:
            code = compile(ast.Module([statement], type_ignores=[]), filename, "exec")
            exec(code, namespace)
        except BaseException as error:  # a submission's SystemExit must not end the load
            channel.send(ev="load_error", cell=c, stmt=k, line=statement.lineno,
                         **describe_exception(error, filenames))


_ABSENT = object()


def kind_of(value: object) -> str:
    if value is _ABSENT:
        return "absent"
    if callable(value):
        return "function"
    return type(value).__name__[:60]


def call(channel: Channel, namespace: Globals, filenames: set[str], command: Message,
         functions: tuple[str, ...] = ()) -> None:
    """Call one of the submission's functions; `functions`: the lab's names (see load). With a
    "source", the definition it holds is called instead (a candidate repair, see Call.source): it
    is made in a scratch namespace reading the submission's globals, which it leaves as they were."""
    function = namespace.get(command["function"])
    source = command.get("source")
    if isinstance(source, str):
        scratch: Globals = {}
        try:
            code = _candidate(source, command.get("code"))
            exec(code, namespace, scratch)  # noqa: S102 - the sandbox's own
        except BaseException as error:
            channel.send(ev="raised", id=command["id"], **describe_exception(error, filenames))
            return
        function = scratch.get(command["function"])
    args = [codec.decode(a) for a in command["args"]]
    args = [list(a) if isinstance(a, tuple) else a for a in args]
    # The grader names the step functions it answers itself during this call, so the step is
    # graded on its own; the names are bound back to the submission's own afterwards.
    helpers = [name for name in command.get("helpers") or () if name in functions
               and name != command["function"]]
    own = {name: namespace.get(name, _ABSENT) for name in helpers}
    takes = command.get("takes") if isinstance(command.get("takes"), dict) else {}
    for name in helpers:
        namespace[name] = _proxy(channel, command["id"], name, own[name],
                                 takes.get(name) or ())  # type: ignore[union-attr]  # a dict: see above
    arrayed = command.get("arrayed") if isinstance(command.get("arrayed"), dict) else {}
    for name, outputs in arrayed.items():  # type: ignore[union-attr]  # a dict: see above
        if name in functions and name not in own and name != command["function"] and callable(namespace.get(name)) \
                and isinstance(outputs, int):
            own[name] = namespace[name]
            namespace[name] = returning_arrays(namespace[name], outputs)
    pristine = [_copy(a) for a in args]
    # A candidate repair is judged by its value alone (grading.repairs): what it keeps between
    # calls is never read, so it is neither watched nor called again to see.
    candidate = isinstance(source, str)
    if candidate and callable(function) and command["function"] not in own:
        # The candidate stands for the function everywhere during its call: a call of itself (a
        # recursive one) reaches the edited function, not the one as written.
        own[command["function"]] = namespace.get(command["function"], _ABSENT)
        namespace[command["function"]] = function
    watched = None if candidate else watch(function, namespace)
    started = time.monotonic()
    try:
        value = function(*args)  # type: ignore[misc]  # None raises TypeError: the call's error
    except BaseException as error:
        channel.send(ev="raised", id=command["id"], **describe_exception(error, filenames))
        return
    finally:
        for name, function_of_its_own in own.items():
            if function_of_its_own is _ABSENT:
                namespace.pop(name, None)
            else:
                namespace[name] = function_of_its_own
    try:
        encoded = codec.encode(value)
    except BaseException as error:
        encoded = {"t": "other", "type": f"unreadable ({type(error).__name__})"}
    # An argument comes back only when the call changed it (null otherwise): the grader judges it.
    args_after = [None if _unchanged(a, p) else codec.encode(a) for a, p in zip(args, pristine)]
    state = {} if candidate else state_kept(function, watched, encoded, pristine, helpers, time.monotonic() - started,
                                            _copy)
    channel.send(ev="returned", id=command["id"], value=encoded, args_after=args_after,
                 **({"state": state} if state else {}))


def returning_arrays(function: Callable[..., object], outputs: int) -> Callable[..., object]:
    """`function` with the lists it returns made NumPy arrays (each of its `outputs` when several):
    a list where an array is asked, which the step's own tests accept, given on as the array it
    stands for. Anything that is no list of numbers is given on as it is."""
    def called(*args: object, **keywords: object) -> object:
        value = function(*args, **keywords)
        if outputs == 1:
            return _as_array(value)
        if isinstance(value, (tuple, list)) and len(value) == outputs:
            return tuple(_as_array(item) for item in value)
        return value
    return called


def _as_array(value: object) -> object:
    if not isinstance(value, (list, tuple)):
        return value
    try:
        array = np.asarray(value)
    except (TypeError, ValueError, OverflowError, RecursionError, MemoryError):
        return value
    return value if array.dtype == object else array


REPAIR_FILENAME = "<repair>"
_COMPILED: dict[str, CodeType] = {}
# Compiled as this module compiles the submission's cells (its `from __future__ import annotations`).
_CANDIDATE_FLAGS = __future__.annotations.compiler_flag
_CODE_TAG = f"{sys.implementation.cache_tag}:{sys.version}"
# Captured before any submission runs, as the codec's are.
_loads_code, _b64decode, _CodeType = marshal.loads, base64.b64decode, type(compile("", "", "exec"))


def compile_candidate(source: str) -> CodeType:
    """A candidate repair's definition compiled as a child runs it: the grader compiles each one
    this way to know it compiles, and sends what it compiled (`candidate_code`)."""
    code: CodeType = compile(source, REPAIR_FILENAME, "exec", flags=_CANDIDATE_FLAGS, dont_inherit=True)
    return code


def candidate_code(code: CodeType) -> list[str]:
    """What a call command carries of a candidate the grader compiled: the interpreter it was
    compiled by and the code, marshalled (the child compiles the source itself on another one)."""
    return [_CODE_TAG, base64.b64encode(marshal.dumps(code)).decode("ascii")]


def _candidate(source: str, compiled: object) -> CodeType:
    """The candidate's code: as the grader compiled it, when it sent it for this interpreter."""
    if isinstance(compiled, list) and len(compiled) == 2 and compiled[0] == _CODE_TAG and isinstance(compiled[1], str):
        code = _loads_code(_b64decode(compiled[1]))
        if type(code) is _CodeType:
            return code
    code = _COMPILED.get(source) or _COMPILED.setdefault(source, compile_candidate(source))
    if len(_COMPILED) > 64:  # a candidate is called once per input, one after the other
        _COMPILED.clear()
    return code
_ndarray = np.ndarray
_ndarray_copy = np.ndarray.copy
_tobytes = np.ndarray.tobytes


def _copy(value: object) -> object:
    if type(value) is _ndarray:
        return _ndarray_copy(value)
    return list(value) if type(value) is list else value


def _unchanged(after: object, before: object) -> bool:
    if type(before) is _ndarray:
        return (type(after) is _ndarray and after.shape == before.shape
                and after.dtype == before.dtype and _tobytes(after) == _tobytes(before))
    return type(after) is list and type(before) is list and list.__eq__(after, before) is True


_ANSWER_ERRORS: dict[str, type[Exception]] = {"ValueError": ValueError, "TypeError": TypeError, "IndexError": IndexError,
                  "KeyError": KeyError, "NameError": NameError, "LookupError": LookupError}


def _proxy(channel: Channel, call_id: int, name: str, own: object = _ABSENT, takes: Container[str] = ()
           ) -> Callable[..., object]:
    """A stand-in for step function `name` whose value the grader computes, one call at a time.

    The student's composed function calls it as it calls their own `name`. Keywords the
    reference's function takes (`takes`: `layer_norm(x, eps=1e-5)`) go to the grader, which binds
    them to the reference's signature. Other keyword arguments their own function gives as
    defaults anyway (`f(x, dim=-1)` where their own `f` says `dim=-1`) change nothing and are
    dropped. A call with any other keyword (`f(x, dim=-1)` where their own `f` says `dim=0`) asks
    for something the step's function does not promise: it runs their own function as they call
    it; without one, it is refused with a message that says why.
    """
    encode, decode = codec.encode, codec.decode

    def helper(*args: object, **keywords: object) -> object:
        given = {key: value for key, value in keywords.items() if key in takes}
        keywords = {key: value for key, value in keywords.items() if key not in takes}
        if keywords:
            args, keywords = _as_defaults(own, args, keywords)
        if keywords and callable(own) and own is not _ABSENT:
            return own(*args, **given, **keywords)
        if keywords:
            raise stand_in_refusal(name, keywords)
        answer = channel.ask_helper(call_id, name, [encode(a) for a in args],
                                    {key: encode(value) for key, value in given.items()})
        error = answer.get("error")
        if isinstance(error, dict):
            # Any JSON value for the type: one not named above raises RuntimeError.
            raise _ANSWER_ERRORS.get(error.get("type"),  # type: ignore[arg-type]
                                     RuntimeError)(str(error.get("message", ""))[:300])
        return decode(answer.get("value"))

    helper.__name__ = helper.__qualname__ = name
    return helper


def stand_in_refusal(name: str, keywords: dict[str, object]) -> TypeError:
    return TypeError(f"{name}() here is the grader's stand-in for your own {name}, which did not pass its "
                     f"step; it takes the step's arguments by position only, not "
                     f"{', '.join(sorted(keywords))[:100]}")


def _as_defaults(own: object, args: tuple[object, ...], keywords: dict[str, object]
                 ) -> tuple[tuple[object, ...], dict[str, object]]:
    """(args, keywords left) once keywords equal to the defaults of the student's own function
    are dropped; anything that cannot be read safely stays, and is refused by the caller."""
    try:
        import inspect

        parameters = inspect.signature(own).parameters  # type: ignore[arg-type]  # if not callable: raises
        left = {}
        for key, value in keywords.items():
            parameter = parameters.get(key)
            default = parameter.default if parameter is not None else inspect.Parameter.empty
            same = default is not inspect.Parameter.empty and type(default) in (int, float, str, bool, type(None)) \
                and type(value) is type(default) and value == default
            if not same:
                left[key] = value
        return args, left
    except Exception:
        return args, keywords


def describe_exception(error: BaseException, filenames: Container[str | None]) -> dict[str, Any]:
    """The error's type, message and the submission's own frames (never the grader's)."""
    frames = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in filenames:
            line = linecache.getline(code.co_filename, tb.tb_lineno).strip()
            frames.append([code.co_filename, tb.tb_lineno, code.co_name, line[:200]])
        tb = tb.tb_next
    try:
        message = str(error)[:500]
    except BaseException:
        message = ""
    return {"type": type(error).__name__[:100], "message": message, "frames": frames[-MAX_FRAMES:]}


def child_main(command_fd: int, event_fd: int) -> NoReturn:
    """Entry point of a forked child: serve, then leave without running any cleanup hooks."""
    status = 0
    try:
        serve(Channel(command_fd, event_fd))
    except BaseException:
        status = 70
    finally:
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        os._exit(status)
