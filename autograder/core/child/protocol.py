"""What crosses the pipes, seen from the grader: calls as commands, outcomes as plain data.

Everything a child sends is untrusted: its events are reduced to short plain fields here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from . import codec
from .worker import AT_ONCE

if TYPE_CHECKING:
    from collections.abc import Container, Iterable
    from typing import Any

    from .codec import Encoded

# The largest answer event read: one over it is skipped unparsed (an answer that large is a
# wrong answer). See child_pipes for the other bounds on what the grader reads.
ANSWER_BYTES = 256 * 1024  # a call's answer, unless the plan gives the call its own bound
MAX_FRAMES = 5
MAX_HELPER_REQUESTS = 32  # helper calls answered per call of a step; later ones are refused
MAX_REMEMBERED = 16  # decoded outcomes kept per call
REMEMBERED_EVENT_BYTES = 16 * 1024  # only answers this small are remembered


@dataclass(frozen=True)
class Call:
    """One call of a student function on plain arguments."""

    id: int
    step: str
    function: str
    args: tuple[Encoded, ...]  # encoded with codec.encode
    # Step functions the grader answers itself during this call (helper requests): the choice
    # is the grader's, per call; the child's own functions stand for every other name.
    helpers: tuple[str, ...] = ()
    answer_bytes: int = ANSWER_BYTES  # the largest answer event read; a larger one is a wrong answer
    # (helper name, its parameters' names) pairs: the keywords the reference's function takes,
    # which the child sends on with a helper request (the grader binds them, see stand_in.answer)
    takes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # A definition of `function` to call in place of the submission's own (a candidate repair of
    # it, autograder.repair: the student's code with one edit of the grader's); None: its own.
    source: str | None = None
    # `source` as the grader compiled it (worker.candidate_code), so the child need not compile it again
    code: list[str] | None = field(default=None, repr=False, compare=False)
    # A public test's call: its inputs and expected values are shown to students anyway, so it may
    # share a child with other public calls (driver.may_share). A call is secret unless it says so.
    public: bool = False
    # A composed step's call: the other steps' inputs may hold its answers (driver.may_share).
    composed: bool = False
    # The time limit of the call's step, when not the run's (Limits.step_seconds): a grader's
    # candidate run among the submission's own calls (grading.repairs.kept_checks).
    seconds: float | None = None
    # (helper name, its number of outputs) pairs: the student's own step functions whose returned
    # lists the child makes NumPy arrays during this call (worker.returning_arrays), as a helper's
    # own tests accept them (file_facts.again_with_arrayed_helpers).
    arrayed: tuple[tuple[str, int], ...] = ()

    def known(self, event: bytes) -> CallOutcome | None:
        """The outcome already decoded from this very event, if a child sent it before."""
        # Kept in the instance's own __dict__ (the dataclass is frozen): {event: CallOutcome}.
        return self.__dict__.get("_seen", {}).get(event)  # type: ignore[no-any-return]

    def remember(self, outcome: CallOutcome) -> None:
        """Keep a decoded outcome for the next child that sends the same bytes.

        Most submissions of a class answer alike, so decoding is mostly skipped. Its arrays are
        made read-only: one outcome object now serves many submissions.
        """
        if outcome.event is None or len(outcome.event) > REMEMBERED_EVENT_BYTES:
            return  # a large answer is rare and costly to keep: it is decoded again if it comes back
        seen: dict[bytes, CallOutcome] = self.__dict__.setdefault("_seen", {})
        if len(seen) >= MAX_REMEMBERED:
            seen.clear()  # memory stays bounded; the common answers come back first
        _freeze(outcome.value)
        for value in outcome.args_after or ():
            _freeze(value)
        seen[outcome.event] = outcome

    @property
    def command(self) -> str:
        """The call as one command line for the child (built once: a plan's calls never change)."""
        try:
            return self.__dict__["_command"]  # type: ignore[no-any-return]  # the text set below
        except KeyError:
            takes = {name: list(params) for name, params in self.takes if name in self.helpers}
            text = codec.dumps({"cmd": "call", "id": self.id, "function": self.function,
                                "args": list(self.args), "helpers": list(self.helpers),
                                **({"takes": takes} if takes else {}),
                                **({"arrayed": dict(self.arrayed)} if self.arrayed else {}),
                                **({"source": self.source} if self.source is not None else {}),
                                **({"code": self.code} if self.code is not None else {})}) + "\n"
            object.__setattr__(self, "_command", text)
            return text


def _freeze(value: object) -> None:
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif isinstance(value, (list, tuple)):
        for item in value:
            _freeze(item)
    elif isinstance(value, dict):
        for item in value.values():
            _freeze(item)
    elif isinstance(value, codec.Labelled):
        _freeze(value.values)


@dataclass
class CallOutcome:
    """What happened to one call: returned a value, raised, ran out of time or took the process down."""

    kind: str  # "returned" | "raised" | "timeout" | "crashed" | "not_run"
    value: object = None
    args_after: list[object] | None = None  # per argument: its value after the call, None when left unchanged
    error: dict[str, Any] | None = None
    # The child's event, byte for byte: equal events are equal outcomes (see Call.known).
    event: bytes | None = field(default=None, repr=False, compare=False)
    # Helper requests the grader refused during the call: [{"helper", "reason"}] (its own record).
    refused: list[dict[str, str]] = field(default_factory=list)
    # The helpers whose stand-ins answered a request during the call (its own record too).
    stood_in: list[str] = field(default_factory=list)
    # What the child says the call showed of state kept between calls (plain_state): words only.
    state: dict[str, Any] = field(default_factory=dict)


@dataclass
class RunOutcome:
    names: dict[str, str] = field(default_factory=dict)  # function name -> "function" | "absent" | type name
    # function name -> what the child says its code reads (plain_evidence): words only, never points
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)
    load_events: list[dict[str, Any]] = field(default_factory=list)  # syntax/load errors and skipped statements
    calls: dict[int, CallOutcome] = field(default_factory=dict)  # call id -> CallOutcome
    sandbox: dict[str, Any] = field(default_factory=dict)  # how children were confined: user, landlock, ...
    skip: list[list[int | None]] = field(default_factory=list)  # [cell, statement] pairs a later run of the cells skips
    spent: bool = False  # the submission's time ran out during this run (its last calls not run)


# What a submission's code is told when a helper request is refused (its feedback words the
# refusal from the grader's own record instead: see CallOutcome.refused).
REFUSALS = {
    "not_stood_in": "{name!r} is not one of the functions the grader stands in for in this call",
    "too_many": "more than {most} calls of the grader's stand-ins in one call",
    "arguments": ("the grader's stand-in for {name} answers only the calls the reference solution makes "
                  "on this test, with the same values; this call's arguments are not among them"),
}


def refusal_message(reason: str, name: str) -> str:
    return REFUSALS.get(reason, REFUSALS["arguments"]).format(name=name, most=MAX_HELPER_REQUESTS)


class HelperRefused(Exception):
    """A helper request the grader does not answer with a value; its one argument is the reason
    code ("arguments", "not_stood_in", "too_many")."""


def parse_event(line: bytes) -> dict[str, Any]:
    try:
        event = codec.loads(line.decode("utf-8"))
    except (ValueError, RecursionError, MemoryError):
        return {"ev": "garbled"}
    return event if isinstance(event, dict) else {"ev": "garbled"}


def small_int(value: object) -> int | None:
    return value if type(value) is int and AT_ONCE <= value < 10**7 else None


def plain_text(value: object, limit: int) -> str:
    """A string from the child, cut short and without control characters; "" for anything else."""
    return codec.clean_text(value, limit) if isinstance(value, str) else ""


def plain_names(names: object, functions: Iterable[str]) -> dict[str, str]:
    """What the child says each of `functions` is: those names only, short strings only."""
    if not isinstance(names, dict):
        return {}
    return {name: plain_text(names.get(name), 60) or "absent" for name in functions}


def plain_load_event(event: dict[str, Any]) -> dict[str, Any]:
    plain = {"ev": event.get("ev"), "cell": small_int(event.get("cell")),
             "stmt": small_int(event.get("stmt")), "line": small_int(event.get("line")),
             "message": plain_text(event.get("message"), 500)}
    if event.get("ev") == "load_error":
        plain.update(plain_error(event))
    return plain


def plain_error(event: dict[str, Any]) -> dict[str, Any]:
    frames = event.get("frames")
    frames = [f for f in frames if isinstance(f, list) and len(f) == 4][-MAX_FRAMES:] \
        if isinstance(frames, list) else []
    return {"type": plain_text(event.get("type"), 100) or "Exception",
            "message": plain_text(event.get("message"), 500),
            "frames": [[plain_text(f[0], 200), small_int(f[1]), plain_text(f[2], 100),
                        plain_text(f[3], 200)] for f in frames]}


# Evidence from the code, as the child reports it: untrusted data that chooses words, never points.
MAX_EVIDENCE_NAMES = 8
MAX_NAME_LENGTH = 40


def plain_identifiers(value: object, allowed: Container[str] | None = None) -> list[str]:
    """A list of at most MAX_EVIDENCE_NAMES distinct Python identifiers of at most MAX_NAME_LENGTH
    characters (within `allowed` when given); anything else in it is dropped."""
    if not isinstance(value, list):
        return []
    names: list[str] = []
    for item in value[:64]:
        if type(item) is not str or not 0 < len(item) <= MAX_NAME_LENGTH or not item.isascii():
            continue
        name = codec.clean_text(item, MAX_NAME_LENGTH)
        if name != item or not name.isidentifier() or name in names or (allowed is not None and name not in allowed):
            continue
        names.append(name)
        if len(names) == MAX_EVIDENCE_NAMES:
            break
    return names


MAX_PLACE_CHARS = 300  # a file name the child says a function came from, longer is dropped


def plain_evidence(evidence: object, functions: Iterable[str]) -> dict[str, dict[str, Any]]:
    """What the child says each lab function's code reads: {function: {"globals": [names],
    "unused": [parameters never read], "rebound": [parameters assigned anew somewhere],
    "mutable_defaults": bool, "defined_at": (file, line)}},
    for `functions` only (the judge keeps of "unused" only the step's own parameters)."""
    if not isinstance(evidence, dict):
        return {}
    plain: dict[str, dict[str, Any]] = {}
    for name in functions:
        facts = evidence.get(name)
        if not isinstance(facts, dict):
            continue
        plain[name] = {"globals": plain_identifiers(facts.get("globals")),
                       "unused": plain_identifiers(facts.get("unused")),
                       "rebound": plain_identifiers(facts.get("rebound")),
                       "mutable_defaults": facts.get("mutable_defaults") is True}
        where = (facts.get("file"), facts.get("line"))
        if type(where[0]) is str and len(where[0]) <= MAX_PLACE_CHARS and type(where[1]) is int and where[1] > 0:
            plain[name]["defined_at"] = where  # only ever matched against the parent's own reading
    return plain


def plain_state(state: object) -> dict[str, Any]:
    """What the child says one call showed: the module-level names and the defaults it changed,
    and whether the same call made again returned something else."""
    if not isinstance(state, dict):
        return {}
    plain: dict[str, Any] = {key: plain_identifiers(state.get(key)) for key in ("globals", "defaults")}
    plain = {key: names for key, names in plain.items() if names}
    if state.get("repeat_differs") is True:
        plain["repeat_differs"] = True
    return plain
