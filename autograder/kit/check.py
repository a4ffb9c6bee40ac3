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
import time
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

from ..core.child.code_evidence import code_evidence, state_kept, watch
from ..core.file_facts import (again_with_arrayed_helpers, again_with_own_helpers, arrayed_helpers,
                               fits_arrayed_helpers, fits_own_helpers, helpers_used, linked, with_file_facts)
from ..core.judge import judge_step
from ..core.verdict import StepResult
from ..core.lab import Lab
from ..core.render.step import step_feedback
from ..core import stand_in
from ..core.stand_in import StandIn, keyword_parameters
from ..core.child import codec
from ..core.child.protocol import MAX_HELPER_REQUESTS, plain_evidence, plain_state, refusal_message
from ..core.child.worker import _as_defaults, describe_exception, kind_of, returning_arrays, stand_in_refusal

if TYPE_CHECKING:
    from ..core import declaration
from ..core.reading.definitions import find_stubs
from ..core.reading.submission import Submission, file_detail
from . import public
from .public import Probe


@dataclass
class Outcome:
    kind: str  # "returned" | "raised" | "timeout" | "not_run"
    value: object = None
    args_after: list[object] | None = None
    error: dict[str, Any] | None = None
    # stand-in calls refused during the call (see stand_in): [{"helper": name, "reason": code}]
    refused: list[dict[str, str]] = field(default_factory=list)
    stood_in: list[str] = field(default_factory=list)  # helpers whose stand-ins answered during the call
    state: dict[str, Any] = field(default_factory=dict)  # what the call showed of state kept (code_evidence)


StepFunction = Callable[..., object]


class ProbeCall(Protocol):
    """How a check calls the student's function on one probe (call_probe, or one that wraps it)."""

    def __call__(self, function: StepFunction, probe: Probe, /, *, stand_ins: Sequence[str] = ...) -> Outcome: ...


class FramedProbeCall(ProbeCall, Protocol):
    """A ProbeCall that may be told which files' frames an error keeps (as call_probe is)."""

    def __call__(self, function: StepFunction, probe: Probe, /, filenames: Container[str | None] | None = ...,
                 stand_ins: Sequence[str] = ...) -> Outcome: ...


def check_step(name: str, env: Mapping[str, object], lang: str = "ko") -> StepResult:
    """Judge step `name` on the public cases; raise AssertionError with the feedback when it fails.

    The plain form, for code outside a notebook; `grader.check(...)` in a notebook runs
    notebook.StepCase, which shows the same feedback with its heat-maps.
    """
    result = judge_public(name, env)
    if result.status != "passed":
        raise AssertionError(step_feedback(result, public.load()[0], lang))
    return result


def judge_public(name: str, env: Mapping[str, object], is_stub: bool | None = None, syntax_suspect: bool = False,
                 call: ProbeCall | None = None, others: Mapping[str, StepResult] | None = None,
                 submission: Submission | None = None) -> StepResult:
    """StepResult of step `name` on the public cases, calling the function found in `env`.

    `is_stub` (default: read from the function's source) and `syntax_suspect` are the facts the
    engine reads from the file; `call(function, probe)` may replace the plain in-process call.
    For a composed step, `others` holds the other steps' results when already known (else they
    are checked here first, with `call`): those that passed run as the student wrote them.
    `submission`: the file's own reading, when the namespace was loaded from one, to say what the
    file shows of the function (reading.submission.file_detail), as the engine says it.
    """
    lab, probes_of = public.load()
    step = lab.steps_by_name[name]
    # The kit's probes carry the same fields the judge reads (step, case, trace, args, expected,
    # label), with the mistakes' predictions stored rather than computed: read as the engine's.
    probes = probes_of[name]
    read = cast("list[declaration.Probe]", probes)
    defined = kind_of(env[name]) if name in env else "absent"
    if defined != "function":
        return _with_file_detail(judge_step(step, read, [None] * len(probes), defined, False, syntax_suspect,
                                            lab.page_case, vocabulary=lab.vocabulary), lab, submission, None)
    function = cast(StepFunction, env[name])  # callable: kind_of said so
    # What the code reads, as the sandbox's child reports it to the engine (words, never points).
    evidence = plain_evidence(code_evidence(env, [name]), [name]).get(name)
    if step.composed and others is None:
        others = _others_judged(lab, name, env, call)
    passing = {other for other, result in (others or {}).items() if result.status == "passed"}
    outcomes = [_called(function, name, probe, passing if step.composed else None, call) for probe in probes]
    stub = _is_stub(function, lab.function_names) if is_stub is None else is_stub
    result = judge_step(step, read, outcomes, defined, stub, syntax_suspect, lab.page_case,
                        vocabulary=lab.vocabulary, evidence=evidence)
    if step.composed:  # as the engine says it: which of the steps it calls ran as written
        reachable = lab.reachable_from(step)
        used = helpers_used(step.calls, passing, outcomes, reachable=reachable)
        result = dataclasses.replace(result, helpers=used)
        result = linked(step, result, others or {})
        if again_with_own_helpers(result):  # every helper the student's own
            again = [_called(function, name, probe, set(reachable), call) for probe in probes]
            result = fits_own_helpers(step, result, judge_step(step, read, again, defined, stub,
                                                               syntax_suspect, lab.page_case,
                                                               vocabulary=lab.vocabulary, evidence=evidence))
        if again_with_arrayed_helpers(result):  # the lists its own passing helpers return made arrays
            arrayed = arrayed_helpers(lab, passing)
            again = [_called(function, name, probe, passing, call, arrayed=arrayed) for probe in probes]
            result = fits_arrayed_helpers(result, judge_step(step, read, again, defined, stub, syntax_suspect,
                                                             lab.page_case, vocabulary=lab.vocabulary,
                                                             evidence=evidence))
    return _with_file_detail(result, lab, submission, evidence)


def _with_file_detail(result: StepResult, lab: Lab, submission: Submission | None,
                      evidence: Mapping[str, Any] | None) -> StepResult:
    if submission is None:
        return result
    found = file_detail(result.name, result.status, submission, lab.function_names,
                        (evidence or {}).get("defined_at"))
    return with_file_facts(result, found)


def _called(function: StepFunction, name: str, probe: Probe, passing: Container[str] | None,
            call: ProbeCall | None, arrayed: Mapping[str, int] | None = None) -> Outcome:
    """The outcome of one probe; for a composed step (`passing` not None), with the grader's
    stand-ins answering, from this test's table, for the other steps that did not pass."""
    if passing is None:
        return (call or call_probe)(function, probe)
    refused: list[dict[str, str]] = []
    stood_in: list[str] = []
    with _reference_outputs(function, name, passing, probe, refused, stood_in, arrayed or {}) as answered:
        outcome = (call or call_probe)(function, probe, stand_ins=answered)
    if isinstance(outcome, Outcome):
        outcome.refused, outcome.stood_in = refused, stood_in
    return outcome


def _others_judged(lab: Lab, name: str, env: Mapping[str, object], call: ProbeCall | None) -> dict[str, StepResult]:
    """The results of the steps `name` reaches, each judged after the steps it calls (as the
    engine grades them), found quietly: their checks are the student's to run, and their
    warnings are not this step's output."""
    reachable = lab.reachable_from(lab.steps_by_name[name])
    results: dict[str, StepResult] = {}
    with warnings.catch_warnings(), np.errstate(all="ignore"), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        for other in lab.grading_order:
            if other.name in reachable:
                results[other.name] = judge_public(other.name, env, call=call,
                                                   others=dict(results) if other.composed else None)
    return results


def call_probe(function: StepFunction, probe: Probe, filenames: Container[str | None] | None = None,
               stand_ins: Sequence[str] = ()) -> Outcome:
    """Call the function on a copy of the probe's arguments; what it did, as plain data.

    An error keeps the frames of the files in `filenames` (default: the function's own file).
    `stand_ins`: the other steps answered by stand-ins during the call (then it is not repeated
    to see state kept, as in the sandbox).
    """
    args = [_copy(a) for a in probe.args]
    pristine = [_copy(a) for a in args]
    namespace = getattr(function, "__globals__", None)
    watched = watch(function, namespace) if type(namespace) is dict else None
    started = time.monotonic()
    try:
        value = function(*args)
    except Exception as error:
        if filenames is None:
            filenames = {getattr(getattr(function, "__code__", None), "co_filename", None)}
        return Outcome("raised", error=describe_exception(error, filenames))
    # The same plain-data round trip as the sandbox, so both graders judge the same values.
    encoded = codec.encode(value)
    state = state_kept(function, watched, encoded, pristine, stand_ins, time.monotonic() - started, _copy)
    return Outcome("returned", value=codec.decode(codec.loads(codec.dumps(encoded))),
                   args_after=[_plain(a) for a in args], state=plain_state(state))


def _plain(value: object) -> object:
    return codec.decode(codec.loads(codec.dumps(codec.encode(value))))


def _copy(value: object) -> object:
    if isinstance(value, np.ndarray):
        return value.copy()
    return list(value) if isinstance(value, (list, tuple)) else value


def _is_stub(function: StepFunction, names: Sequence[str]) -> bool:
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return False
    return function.__name__ in find_stubs([{"source": source, "filename": "<check>"}], names)


@contextlib.contextmanager
def _reference_outputs(function: StepFunction, name: str, passing: Container[str], probe: Probe,
                       refused: list[dict[str, str]], stood_in: list[str],
                       arrayed: Mapping[str, int]) -> Iterator[tuple[str, ...]]:
    """While `name` runs on `probe`, the other steps the student has not got right are answered
    as the grader's stand-ins answer them (from the test's own table, see autograder.core.stand_in;
    anything else refused, noted in `refused`); those that pass their own public checks run as
    written. Yields the names answered by stand-ins."""
    lab = public.load()[0]
    assert lab.stand_ins is not None  # public.load gives every lab its stand-ins
    table = tuple(lab.stand_ins(probe.case, None))
    namespace = getattr(function, "__globals__", {})
    others = lab.reachable_from(lab.steps_by_name[name])
    saved = {other: namespace.get(other, _ABSENT) for other in others if other not in passing}
    for other, own in saved.items():
        namespace[other] = _answering(other, None if own is _ABSENT else own, table, refused, stood_in,
                                      lab.callee_signatures.get(other))
    # The lists the student's own passing helpers return made arrays (as the sandbox's child does).
    wrapped = {other: namespace[other] for other in arrayed if other in passing and callable(namespace.get(other))}
    for other, own in wrapped.items():
        namespace[other] = returning_arrays(cast("Callable[..., object]", own), arrayed[other])
    try:
        yield tuple(saved)
    finally:
        for other, own in wrapped.items():
            namespace[other] = own
        for other, own in saved.items():
            if own is _ABSENT:
                namespace.pop(other, None)
            else:
                namespace[other] = own


_ABSENT = object()


def _answering(name: str, own: object, table: Sequence[StandIn], refused: list[dict[str, str]], stood_in: list[str],
               signature: inspect.Signature | None = None) -> StepFunction:
    count = [0]
    takes = keyword_parameters(signature)

    def answer(*args: object, **keywords: object) -> object:
        # As the grader's stand-in does (see child.worker._proxy): the reference's keywords
        # are bound to its signature; others follow the student's own function.
        given = {key: value for key, value in keywords.items() if key in takes}
        keywords = {key: value for key, value in keywords.items() if key not in takes}
        if keywords:
            args, keywords = _as_defaults(own, args, keywords)
        if keywords and callable(own):
            return own(*args, **given, **keywords)
        if keywords:
            raise stand_in_refusal(name, keywords)
        count[0] += 1
        try:
            if count[0] > MAX_HELPER_REQUESTS:
                raise stand_in.Refused(reason="too_many", helper=name)
            value = stand_in.answer(table, name=name, args=[_plain(a) for a in args],
                                    keywords={key: _plain(value) for key, value in given.items()},
                                    signature=signature)
        except stand_in.Refused as refusal:
            refused.append({"helper": refusal.helper, "reason": refusal.reason})
            raise LookupError(refusal_message(refusal.reason, name)) from None
        if name not in stood_in:
            stood_in.append(name)
        return _plain(value)

    answer.__name__ = name
    return answer


