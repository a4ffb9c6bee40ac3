"""Evidence from a step function's code and calls, as names only, never values: which
module-level data it reads, which parameters it never reads, whether a default argument is
mutable, and what a call showed of state kept between calls.

Computed where the student's code runs (the sandbox's child, or the students' kit in their own
process) and read by the judge as untrusted words (child.protocol.plain_evidence and
plain_state): it chooses the words of a cause, never points.
"""
from __future__ import annotations

import dis
import types
from typing import TYPE_CHECKING

import numpy as np

from . import codec

if TYPE_CHECKING:  # the sandbox's child imports this module: nothing new at run time
    from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
    from typing import Any

_ABSENT = object()
_ndarray = np.ndarray
_tobytes = np.ndarray.tobytes

MAX_EVIDENCE_NAMES = 16
MAX_CODE_OBJECTS = 200
REPEAT_SECONDS = 0.2  # a call is made a second time, to see state kept, only when it was this quick
_LOAD_GLOBAL = {"LOAD_GLOBAL", "LOAD_NAME"}
_MUTABLE = (list, dict, set, bytearray, np.ndarray)
# What a call could change of a name it reads (_fingerprint), keyed by ("global" or "default", name).
Fingerprints = dict[tuple[str, str], tuple[object, ...]]


def code_evidence(namespace: Mapping[str, object], functions: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Per lab function that is a plain Python function: the module-level data names it reads
    (not modules, functions or classes), its parameters it never reads, whether a default
    argument is mutable, and the file (cell) and line its code came from. Anything that cannot be
    read is left out."""
    evidence: dict[str, dict[str, Any]] = {}
    for name in functions:
        function = namespace.get(name)
        if type(function) is not types.FunctionType:
            continue
        try:
            loaded, globals_read = _names_read(function.__code__)
            parameters = function.__code__.co_varnames[:_parameter_count(function.__code__)]
            overwritten, stored = _assigned(function.__code__)
            evidence[name] = {
                "globals": _data_globals(globals_read, function.__globals__),
                "unused": [p for p in parameters if p not in loaded
                           or p in overwritten][:MAX_EVIDENCE_NAMES],
                # assigned anew somewhere (`W_Q = np.random.randn(*W_Q.shape)`): read, and replaced
                "rebound": [p for p in parameters if p in stored][:MAX_EVIDENCE_NAMES],
                "mutable_defaults": _mutable_defaults(function) != {},
                # where its code was compiled: the parent matches it to a definition it read itself
                "file": function.__code__.co_filename, "line": function.__code__.co_firstlineno}
        except BaseException:
            continue
    return evidence


def _assigned(code: types.CodeType) -> tuple[set[str], set[str]]:
    """(the names the function's straight-line start assigns before it reads them, a parameter
    replaced at once: `W_Q = np.random.randn(4, 4)`, where nothing after the first jump counts;
    the local names its code assigns or deletes anywhere), from one reading of its byte code."""
    touched: set[str]
    overwritten: set[str]
    stored: set[str]
    touched, overwritten, stored = set(), set(), set()
    straight = True
    for instruction in dis.get_instructions(code):
        opname, value = instruction.opname, instruction.argval
        if opname in ("STORE_FAST", "STORE_DEREF", "DELETE_FAST", "DELETE_DEREF"):
            stored.add(str(value))
        if not straight:
            continue
        if "JUMP" in opname or opname in ("FOR_ITER", "RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS"):
            straight = False
            continue
        names = value if isinstance(value, tuple) else (value,)
        if opname == "STORE_FAST":
            overwritten.update(n for n in names if n not in touched and n not in code.co_cellvars)
        touched.update(n for n in names if isinstance(n, str))
    return overwritten, stored


def _parameter_count(code: types.CodeType) -> int:
    flags = code.co_flags
    return code.co_argcount + code.co_kwonlyargcount + bool(flags & 0x04) + bool(flags & 0x08)


_names_of_code: dict[types.CodeType, tuple[set[str], list[str]]] = {}


def _names_read(code: types.CodeType) -> tuple[set[str], list[str]]:
    """(local and free names loaded, global names loaded) by `code` and the code nested in it."""
    known = _names_of_code.get(code)
    if known is None:
        known = _names_of_code[code] = _read_names(code)
    return known


def _read_names(code: types.CodeType) -> tuple[set[str], list[str]]:
    loaded: set[str]
    globals_read: list[str]
    loaded, globals_read, stack, seen = set(), [], [code], 0
    while stack and seen < MAX_CODE_OBJECTS:
        current = stack.pop()
        seen += 1
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
        for instruction in dis.get_instructions(current):
            opname, value = instruction.opname, instruction.argval
            if opname in _LOAD_GLOBAL:
                if isinstance(value, str) and value not in globals_read:
                    globals_read.append(value)
            elif "LOAD" in opname or "DEREF" in opname or "CLOSURE" in opname or opname == "DELETE_FAST":
                loaded.update(value if isinstance(value, tuple) else (value,))
        loaded.update(current.co_freevars)
    return loaded, globals_read


def _data_globals(names: Iterable[str], module: object) -> list[str]:
    found = []
    for name in names:
        value = module.get(name, _ABSENT) if type(module) is dict else _ABSENT
        if value is _ABSENT or isinstance(value, (types.ModuleType, type)) or callable(value):
            continue
        found.append(name)
        if len(found) == MAX_EVIDENCE_NAMES:
            break
    return found


def _mutable_defaults(function: types.FunctionType) -> dict[str, object]:
    """{parameter name: its default} of the defaults a call can change in place."""
    code = function.__code__
    positional = code.co_varnames[:code.co_argcount]
    defaults = function.__defaults__ or ()
    found: dict[str, object] = {p: d for p, d in zip(positional[len(positional) - len(defaults):], defaults)
                                if isinstance(d, _MUTABLE)}
    kwdefaults = function.__kwdefaults__
    if type(kwdefaults) is dict:
        found.update({p: d for p, d in kwdefaults.items() if isinstance(d, _MUTABLE)})
    return found


def watch(function: object, namespace: Mapping[str, object]) -> Fingerprints | None:
    """{name: fingerprint} of the module-level data and mutable defaults `function` reads, taken
    before a call (None when it is not a plain function or cannot be read)."""
    if type(function) is not types.FunctionType:
        return None
    try:
        _, globals_read = _names_read(function.__code__)
        watched = {("global", name): _fingerprint(namespace.get(name, _ABSENT))
                   for name in _data_globals(globals_read, namespace)}
        watched.update({("default", name): _fingerprint(value)
                        for name, value in _mutable_defaults(function).items()})
        return watched
    except BaseException:
        return None


def _fingerprint(value: Any, limit: int = 100_000) -> tuple[object, ...]:
    """What a call could change of `value`, compared by identity and bytes: never by the
    submission's own __eq__. `value` is anything a notebook holds: its exact type is read first."""
    kind = type(value)
    if kind is _ndarray:
        return (id(value), value.shape, value.dtype.str, _tobytes(value) if value.size <= limit else None)
    if kind in (list, tuple):
        return (id(value), len(value), tuple(map(id, value[:limit])))
    if kind is dict:
        return (id(value), len(value), tuple((id(k), id(v)) for k, v in list(value.items())[:limit]))
    if kind in (set, frozenset):
        return (id(value), len(value), frozenset(map(id, list(value)[:limit])))
    if kind is bytearray:
        return (id(value), bytes(value[:limit]))
    return (id(value),)


def state_kept(function: Any, watched: Fingerprints | None, encoded: object, pristine: Sequence[object],
               helpers: Collection[object], seconds: float, copy: Callable[[Any], object]) -> dict[str, object]:
    """What one returned call shows of state kept between calls: the module-level names and
    defaults it changed, and whether the same call made again returned something else. `function`:
    the submission's own (anything; every read of it is inside the try)."""
    state: dict[str, object] = {}
    try:
        if watched:
            after = watch(function, function.__globals__) or {}
            changed = [key for key, fingerprint in watched.items() if after.get(key) != fingerprint]
            if any(kind == "global" for kind, _ in changed):
                state["globals"] = [name for kind, name in changed if kind == "global"][:MAX_EVIDENCE_NAMES]
            if any(kind == "default" for kind, _ in changed):
                state["defaults"] = [name for kind, name in changed if kind == "default"][:MAX_EVIDENCE_NAMES]
        if not helpers and seconds < REPEAT_SECONDS and can_keep_state(function):
            try:
                again = codec.dumps(codec.encode(function(*[copy(p) for p in pristine])))
            except BaseException:
                again = None
            if again != codec.dumps(encoded):
                state["repeat_differs"] = True
    except BaseException:
        return state
    return state


# Built-in functions through which a call can reach state outside its arguments (files, the
# namespace, attributes of anything it is handed, code made from text).
_STATEFUL_BUILTINS = frozenset({"open", "exec", "eval", "compile", "globals", "vars", "locals", "setattr",
                                "delattr", "getattr", "__import__", "input", "breakpoint", "memoryview"})
# Names (of globals or attributes) through which a call reaches state a library keeps: random
# number generators, clocks, the environment, the loaded modules.
_STATEFUL_NAMES = frozenset({"random", "default_rng", "RandomState", "Generator", "seed", "getrandbits",
                             "urandom", "uuid1", "uuid4", "time", "time_ns", "perf_counter", "monotonic",
                             "process_time", "now", "today", "environ", "getenv", "stdin", "modules",
                             "__dict__", "__globals__", "__defaults__", "__kwdefaults__", "__closure__",
                             "__builtins__", "__class__", "__self__", "__func__", "__code__"})
# Operations that write somewhere other than the call's own local names and arguments.
_WRITES_OUTSIDE = frozenset(dis.opmap[name] for name in ("STORE_ATTR", "DELETE_ATTR", "STORE_GLOBAL",
                                                         "DELETE_GLOBAL", "STORE_NAME", "DELETE_NAME",
                                                         "IMPORT_NAME", "IMPORT_STAR")
                            if name in dis.opmap)
_MUTABLE_MODULE_DATA = (list, dict, set, bytearray, np.ndarray)
MAX_FUNCTIONS_FOLLOWED = 32
MAX_GLOBALS_READ = 256


def can_keep_state(function: object) -> bool:
    """Whether a call of `function` can leave anything behind that a later call reads, judged from
    its byte code before the call: True when it, or a function of the notebook it calls by a global
    name, reads module-level data, has a mutable default or is a closure, writes an attribute or a
    global, imports, names a built-in that reaches outside (`open`, `globals`, `setattr`, ...), a
    random number generator or a clock, or reads a module's mutable data. Anything it cannot read
    counts as able to.

    A call is repeated to see state kept (state_kept) only when this is True: a function that can
    keep none returns the same values on fresh copies of the same arguments.
    """
    try:
        return _can_keep_state(function)
    except BaseException:
        return True


def _can_keep_state(function: object) -> bool:
    followed, pending = set(), [function]
    while pending:
        current = pending.pop()
        if id(current) in followed:
            continue
        followed.add(id(current))
        if len(followed) > MAX_FUNCTIONS_FOLLOWED or type(current) is not types.FunctionType:
            return True
        code, namespace = current.__code__, current.__globals__
        if current.__closure__ or code.co_freevars or _mutable_defaults(current) or type(namespace) is not dict:
            return True
        names, operations, complete = _names_and_operations(code)
        _, globals_read = _names_read(code)
        if not complete or operations & _WRITES_OUTSIDE or names & _STATEFUL_NAMES \
                or len(globals_read) >= MAX_GLOBALS_READ:
            return True
        for name in globals_read:
            value = namespace.get(name, _ABSENT)
            if value is _ABSENT:
                if name in _STATEFUL_BUILTINS:
                    return True
            elif isinstance(value, types.ModuleType):
                data = value.__dict__
                if type(data) is not dict or any(isinstance(data.get(name), _MUTABLE_MODULE_DATA) for name in names):
                    return True
            elif type(value) is types.FunctionType and not _from_library(value, namespace):
                pending.append(value)
            elif not _from_library(value, namespace):
                return True
    return False


_names_and_operations_of_code: dict[types.CodeType, tuple[frozenset[str], frozenset[int], bool]] = {}


def _names_and_operations(code: types.CodeType) -> tuple[frozenset[str], frozenset[int], bool]:
    """(every name the code and the code nested in it refer to, the operation codes they use,
    whether all of it was read)."""
    known = _names_and_operations_of_code.get(code)
    if known is None:
        names: set[str]
        operations: set[int]
        names, operations, stack, seen = set(), set(), [code], 0
        while stack and seen < MAX_CODE_OBJECTS:
            current = stack.pop()
            seen += 1
            stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
            names.update(current.co_names)
            operations.update(current.co_code[::2])  # word code: each unit's first byte is its operation
        known = _names_and_operations_of_code[code] = (frozenset(names), frozenset(operations), not stack)
    return known


# Libraries whose functions and classes a step may name directly (`from numpy import exp`).
_LIBRARIES = frozenset({"numpy", "pandas", "math", "cmath", "builtins", "functools", "itertools", "operator",
                        "collections", "typing", "fractions", "decimal", "statistics", "string"})


def _from_library(value: object, namespace: Mapping[str, object]) -> bool:
    """A built-in function, or a function or class one of _LIBRARIES defines (not the notebook)."""
    if isinstance(value, types.BuiltinFunctionType):
        return getattr(value, "__name__", None) not in _STATEFUL_BUILTINS
    if not callable(value):
        return False  # module-level data
    module = getattr(value, "__module__", None)
    return isinstance(module, str) and module != namespace.get("__name__") and module.split(".")[0] in _LIBRARIES
