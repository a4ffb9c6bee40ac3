"""Public checks for otter.Notebook: call the student's function on the public probes, judge, render.

Runs inside the student's own kernel, for the student's own feedback; scores that count are
decided by the autograder zip, never here.
"""
import contextlib
import dataclasses
import inspect
import io
import warnings
import textwrap
from dataclasses import dataclass

import numpy as np

from ..judge import _close, fits_own_helpers, helpers_used, judge_step, linked
from ..render import step_feedback
from ..sandbox import codec
from ..sandbox.worker import _as_defaults, describe_exception, kind_of, stand_in_refusal
from ..submission import find_stubs
from . import public


@dataclass
class Outcome:
    kind: str  # "returned" | "raised"
    value: object = None
    args_after: list = None
    error: dict = None


def check_step(name, env, lang="ko"):
    """Judge step `name` on the public cases; raise AssertionError with the feedback when it fails.

    The plain form, for code outside a notebook; `grader.check(...)` in a notebook runs
    notebook.StepCase, which shows the same feedback with its heat-maps.
    """
    result = judge_public(name, env)
    if result.status != "passed":
        raise AssertionError(step_feedback(result, public.load()[0], lang))
    return result


def judge_public(name, env, is_stub=None, syntax_suspect=False, call=None, others=None):
    """StepResult of step `name` on the public cases, calling the function found in `env`.

    `is_stub` (default: read from the function's source) and `syntax_suspect` are the facts the
    engine reads from the file; `call(function, probe)` may replace the plain in-process call.
    For a composed step, `others` holds the other steps' results when already known (else they
    are checked here first, with `call`): those that passed run as the student wrote them.
    """
    lab, probes_of = public.load()
    step = lab.steps_by_name[name]
    probes = probes_of[name]
    defined = kind_of(env[name]) if name in env else "absent"
    if defined != "function":
        return judge_step(step, probes, [None] * len(probes), defined, False, syntax_suspect, lab.page_case)
    function = env[name]
    if step.needs_helpers and others is None:
        others = _others_judged(lab, name, env, call)
    passing = {other for other, result in (others or {}).items() if result.status == "passed"}
    context = _reference_outputs(function, name, passing) if step.needs_helpers else contextlib.nullcontext()
    with context:
        outcomes = [(call or call_probe)(function, probe) for probe in probes]
    stub = _is_stub(function, lab.function_names) if is_stub is None else is_stub
    result = judge_step(step, probes, outcomes, defined, stub, syntax_suspect, lab.page_case)
    if step.needs_helpers:  # as the engine says it: which other functions ran as written
        helpers = lab.helpers_of(step)
        result = dataclasses.replace(result, detail={**result.detail, **helpers_used(helpers, passing)})
        result = linked(step, result, others)
        if result.status not in ("passed", "missing") and result.detail["reference_helpers"]:
            with _reference_outputs(function, name, set(helpers)):  # every helper the student's own
                again = [(call or call_probe)(function, probe) for probe in probes]
            result = fits_own_helpers(step, result, judge_step(step, probes, again, defined, stub,
                                                               syntax_suspect, lab.page_case))
    return result


def _others_judged(lab, name, env, call):
    """The other (plain) steps' results, found quietly: their checks are the student's to run,
    and their warnings are not this step's output."""
    with warnings.catch_warnings(), np.errstate(all="ignore"), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        return {other.name: judge_public(other.name, env, call=call)
                for other in lab.steps if other.name != name and not other.needs_helpers}


def call_probe(function, probe, filenames=None):
    """Call the function on a copy of the probe's arguments; what it did, as plain data.

    An error keeps the frames of the files in `filenames` (default: the function's own file).
    """
    args = [_copy(a) for a in probe.args]
    try:
        value = function(*args)
    except Exception as error:
        if filenames is None:
            filenames = {getattr(getattr(function, "__code__", None), "co_filename", None)}
        return Outcome("raised", error=describe_exception(error, filenames))
    # The same plain-data round trip as the sandbox, so both graders judge the same values.
    return Outcome("returned", value=_plain(value), args_after=[_plain(a) for a in args])


def _plain(value):
    return codec.decode(codec.loads(codec.dumps(codec.encode(value))))


def _copy(value):
    if isinstance(value, np.ndarray):
        return value.copy()
    return list(value) if isinstance(value, (list, tuple)) else value


def _is_stub(function, names):
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return False
    return function.__name__ in find_stubs([{"source": source, "filename": "<check>"}], names)


@contextlib.contextmanager
def _reference_outputs(function, name, passing):
    """While `name` is checked, the other steps the student has not got right answer the public
    probes with the expected values; those that pass their own public checks run as written.

    A composed step is then judged on its own, as the autograder does; calls the probes do not
    cover fall through to the student's own function.
    """
    namespace = getattr(function, "__globals__", {})
    others = [other for other in public.load()[0].function_names if other != name]
    saved = {other: namespace.get(other, _ABSENT) for other in others if other not in passing}
    for other, own in saved.items():
        namespace[other] = _answering(other, None if own is _ABSENT else own)
    try:
        yield
    finally:
        for other, own in saved.items():
            if own is _ABSENT:
                namespace.pop(other, None)
            else:
                namespace[other] = own


_ABSENT = object()


def _answering(name, own):
    lab, probes_of = public.load()
    single = len(lab.steps_by_name[name].outputs) == 1

    def answer(*args, **keywords):
        if keywords:  # as the grader's stand-in does (see sandbox.worker._proxy)
            args, keywords = _as_defaults(own, args, keywords)
        if keywords and callable(own):
            return own(*args, **keywords)
        if keywords:
            raise stand_in_refusal(name, keywords)
        for probe in probes_of[name]:
            if _same_args(args, probe.args):
                values = tuple(_copy(v) for v in probe.expected)
                return values[0] if single else values
        if own is None:
            raise NameError(f"name '{name}' is not defined")
        return own(*args)

    answer.__name__ = name
    return answer


def _same_args(got, known):
    if len(got) != len(known):
        return False
    for a, b in zip(got, known):
        if isinstance(b, np.ndarray):
            try:
                a = np.asarray(a, dtype=float)
            except (TypeError, ValueError):
                return False
            if a.shape != b.shape or not _close(a, b):
                return False
        elif isinstance(b, (list, tuple)):
            if not isinstance(a, (list, tuple)) or list(a) != list(b):
                return False
        elif a != b:
            return False
    return True
