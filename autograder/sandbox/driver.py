"""Running a submission's calls: load its cells in a child, make the calls step by step, answer
helper requests, and start a fresh child after a hang or a crash.

Everything here returns plain outcome data; judging values happens elsewhere.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, cast

from ..core.cells import Cell, module_name
from ..core.child import codec
from .child_pipes import TOO_LARGE, ChildGone, ReadBudget
from .limits import Limits
from ..core.child.protocol import (MAX_HELPER_REQUESTS, CallOutcome, HelperRefused, RunOutcome, parse_event,
                                   refusal_message, plain_error, plain_evidence, plain_load_event, plain_names, plain_state,
                                   plain_text, small_int)
from ..core.child.worker import AT_ONCE, WHERE_SIGNAL

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Sequence
    from typing import Any, Protocol

    from .child_pipes import Child
    from ..core.child.codec import Encoded
    from ..core.child.protocol import Call
    from .zygote_client import Zygote

    class Helper(Protocol):
        """Answers one helper request: the encoded value, or HelperRefused (see Call.helpers).
        A function of its arguments alone: a request repeated within one call gets the first
        one's answer without asking again."""

        def __call__(self, call_id: int, name: str, args: list[object], keywords: dict[str, object] = ...,
                     /) -> Encoded: ...

    # The step groups still to run, each its calls in order.
    Pending = list[list[Call]]
    # A run's `then` (see run): the calls to make next once the outcomes so far are in.
    Then = Callable[[RunOutcome], Sequence[Call]]
    # (cell, statement, line) of the statement a child was running.
    Statement = tuple[int | None, int | None, int | None]

HELPER_REQUEST_BYTES = 1024 * 1024  # the largest helper request read while a call runs
MAX_RESTARTS = 12
MAX_LOAD_EVENTS = 50
# A call's helper answers kept to give a repeated request (_answer_helper): a bounded few, of
# requests whose line is small (its content, written out again, is no longer than the line).
MAX_KEPT_ANSWERS = 64
KEPT_REQUEST_BYTES = 64 * 1024
# How long a child whose load ran out of time has to say where it hung (see worker._tell_where):
# an answer takes milliseconds; waiting longer only delays the fallback.
WHERE_SECONDS = 0.5


def run(zygote: Zygote, cells: Sequence[Cell], calls: Sequence[Call], limits: Limits = Limits(),
        helper: Helper | None = None, functions: Iterable[str] | None = None,
        skip: Iterable[list[int | None]] = (), until: float | None = None, evidence: bool = True,
        clock: Clock | None = None, then: Then | None = None) -> RunOutcome:
    """Load `cells` in fresh children and make `calls` (grouped by step, in order), one at a time.

    A statement that hangs or ends the process while loading is skipped on the next try; a step
    whose calls run out of time or end the process costs that step only. A step's calls have
    `limits.step_seconds` in all, over every run sharing `clock` (see Clock). `helper(call_id, name,
    args)` answers a call's helper requests (see Call.helpers) with an encoded value, or raises
    HelperRefused; without it every helper request is refused. `functions`: the lab's function
    names, each reported in RunOutcome.names (default: the names the calls use); every call's
    function and helpers must be among them. `skip`: statements an earlier run of the same cells
    found hanging or ending the process (that run's RunOutcome.skip), skipped from the start.
    `until`: the time.monotonic() at which the whole submission's time is spent (several runs
    share it, see grading): no deadline reaches past it, and what has not run by then is
    "not_run" (RunOutcome.spent). `clock`: the submission's Clock, shared by its runs (by default
    one of this run alone, ending at `until`). `evidence`: whether the children report what each
    function's code reads (RunOutcome.evidence); a later run of cells whose evidence is known does
    without. `then(outcome)`: called once every call given so far has its outcome in `outcome`
    (the grader judges them); returns the calls to make next in this run, or none when it is done.
    Each group of calls goes to the child that ran the group before it when `may_share` allows,
    else to a fresh child.

    Load events (syntax errors, failed statements) are kept only from loads before the run's first
    call: a child that was given a call may have seen a test's inputs, and so may a process it
    shares anything with; nothing such a child says at its own load is shown.
    """
    functions = lab_functions(calls, functions)
    outcome = RunOutcome()
    clock = clock or Clock(until)
    skip = [list(pair) for pair in skip]
    outcome.skip = skip
    pending: Pending | None = _group_by_step(calls)
    follow = _Follow(then, functions, zygote)
    seen_load: set[tuple[object, ...]] = set()
    restarts = 0
    ours = 0  # children ended by the grader's own runs made inside `then` (never the submission's)
    budget = ReadBudget()
    # Whatever an earlier run left running under the sandbox user is gone before this run starts.
    # (Sweeping before, not after, lets a killed child finish dying while the grader judges.)
    zygote.sweep()
    workdir = zygote.workdir_for(limits)
    try:
        while True:
            if pending is None:
                if _sandbox_failed(outcome):
                    break
                pending = follow.next(outcome)
                if pending is None:
                    break
            if clock.spent():
                _not_run(pending, outcome)
                follow.not_run(outcome)
                outcome.spent = True
                break
            restarts += 1
            if restarts > 1:
                zygote.sweep()
                # Nothing an earlier child wrote reaches the next one (with a private disk per
                # child, the folder is only where each mounts its own).
                zygote.discard(workdir)
                workdir = zygote.workdir_for(limits)
            child = zygote.spawn(workdir, limits, budget)
            try:
                pending = _one_child(child, cells, functions, pending, skip, seen_load, outcome, limits,
                                     helper, clock, evidence, follow)
            finally:
                child.kill()
            if follow.swept:
                ours += 1
                follow.swept = False
            if pending is not None and (restarts - ours > MAX_RESTARTS or budget.spent):
                _not_run(pending, outcome)
                follow.not_run(outcome)
                break
    finally:
        zygote.discard(workdir)
    outcome.sandbox = dict(zygote.confinement, user=zygote.user_for(limits))
    return outcome


# A step that ran out of its time on its public tests gets a short second look on its hidden tests
# (in a later child): a tenth of its limit, at least half a second, at most half the limit. Its
# public tests run with its limit less that look, so that a step that never returns costs its
# limit once over both.
SECOND_LOOK_SHARE = 0.1
SECOND_LOOK_LEAST = 0.5


def second_look(seconds: float) -> float:
    """The time a step whose public tests ran out of a limit of `seconds` has for its hidden ones."""
    return min(seconds / 2, max(seconds * SECOND_LOOK_SHARE, SECOND_LOOK_LEAST))


class Clock:
    """The time of one submission, shared by every run and child of it.

    INVARIANT: a time limit costs its time once, and a step that never returns on one test still
    has its other tests judged. Each deadline is its own length, none past the submission's
    `until`; a step's calls share one `step_seconds` over every run (its public tests, its hidden
    tests in a later child, a composed step's rerun with the student's own helpers). A step with
    tests in a later run (`later`: its hidden tests) keeps its second look for them
    (`second_look`: a tenth of the limit, at least half a second, at most half) while its public
    tests run; once a deadline of the step's own has passed, its next run gets that second look,
    so a step that loops on one public input still shows what its hidden tests compute; what has
    no time left is "not_run". So a step that never returns makes the grader wait its limit once,
    its public deadline and its second look together. `expired` lists each full deadline that
    passed, by what it was for ("load", or a step's name); `looked_out`, each second look that
    passed: together every wait the submission's code cost. `now` reads the time the children's
    deadlines are in (time.monotonic). The time the machine kept a child waiting for a CPU is
    neither the step's nor the submission's (child_pipes.Child.next_line moves the deadline; the
    runs give it back here and `charge` excuses it).
    """

    def __init__(self, until: float | None = None, now: Callable[[], float] = time.monotonic,
                 later: Collection[str] = ()) -> None:
        self.until = until
        self.now = now
        self.later = frozenset(later)  # steps with tests in a later run: their public tests leave them a second look
        self.used: dict[str, float] = {}  # step name -> seconds its calls have run, every run together
        self.expired: list[str] = []
        self.looked: list[str] = []  # steps given their second look
        self.looked_out: list[str] = []

    def give_back(self, seconds: float) -> None:
        """The grader's own work done meanwhile (a repair search) is not the submission's time:
        its end moves by as much."""
        if self.until is not None and seconds > 0:
            self.until += seconds

    def deadline(self, seconds: float) -> float:
        own = self.now() + seconds
        return own if self.until is None else min(own, self.until)

    def left(self, step: str, seconds: float, public: bool = False) -> float:
        """What is left of a step's `seconds` for its calls about to be made (`public`: its public
        tests, which leave a step with `later` tests its second look): that second look once a
        deadline of its own has passed, nothing after that."""
        if step not in self.expired:
            kept = second_look(seconds) if public and step in self.later else 0.0
            return seconds - kept - self.used.get(step, 0.0)
        return 0.0 if step in self.looked else second_look(seconds)

    def begin(self, step: str, seconds: float, public: bool = False) -> float:
        """`left`, for calls of the step about to be made: a second look left is taken."""
        left = self.left(step, seconds, public)
        if step in self.expired and left > 0:
            self.looked.append(step)
        return left

    def timed_out(self, step: str) -> None:
        """A deadline of the step's passed: its own limit, or its second look."""
        (self.looked_out if step in self.looked else self.expired).append(step)

    def charge(self, step: str, since: float, excused: float = 0.0) -> None:
        """Count the time from `since` (a now()) to now as the step's, but the `excused` seconds
        the machine kept its child waiting for a CPU."""
        self.used[step] = self.used.get(step, 0.0) + max(0.0, self.now() - since - excused)

    def spent(self) -> bool:
        return self.until is not None and self.now() >= self.until


class _Follow:
    """A run's `then`, asked until it has no more calls, and never again after that."""

    def __init__(self, then: Then | None, functions: tuple[str, ...], zygote: Zygote) -> None:
        self.then, self.functions, self.done = then, functions, then is None
        self.zygote = zygote
        # Whether the last `then` made runs of its own (the grader's repair search, judging): each
        # begins by sweeping the sandbox user's processes and ends by removing the working folder,
        # so a child left waiting across it is gone, and its next calls go to a fresh child.
        self.swept = False

    def next(self, outcome: RunOutcome) -> Pending | None:
        """The next calls to make, grouped by step; None once there are none."""
        if self.done or self.then is None:
            return None
        sweeps = self.zygote.sweeps
        calls = list(self.then(outcome))
        self.swept = self.zygote.sweeps != sweeps
        if not calls:
            self.done = True
            return None
        lab_functions(calls, self.functions)  # every name among the run's functions, as for its first calls
        return _group_by_step(calls)

    def not_run(self, outcome: RunOutcome) -> None:
        """The run ends early: every call still to come is "not_run"."""
        while (pending := self.next(outcome)) is not None:
            _not_run(pending, outcome)


def _sandbox_failed(outcome: RunOutcome) -> bool:
    return any(event.get("ev") == "sandbox_failed" for event in outcome.load_events)


def may_share(given: Sequence[Call], group: Sequence[Call]) -> bool:
    """Whether a child that was given the calls `given` may also be given `group`.

    INVARIANT (docs/SECURITY.md, "Every public outcome before any hidden input"): a child given a
    hidden test's input is given no public test's, and a child given a composed step's hidden
    test is given no other step's calls (the other steps' inputs may hold its answers). Public
    tests, whose inputs and expected values the feedback shows anyway, share a child. A call is
    hidden unless it says it is public (Call.public). Every child of every run is given its
    calls through this rule (`_serve`, by way of `Given`, which keeps what it reads).
    """
    return Given.of(given).admits(group)


@dataclass(kw_only=True)
class Given:
    """What `may_share` reads of the calls a child was given, kept as calls are added: a child
    given a search's thousand candidates is asked about each next one without reading them all."""

    public: int = 0
    hidden: int = 0
    steps: set[str] = field(default_factory=set)
    composed: bool = False  # a composed step's call, or one with helpers, among them

    @classmethod
    def of(cls, calls: Sequence[Call]) -> Given:
        given = cls()
        given.add(calls)
        return given

    def add(self, calls: Sequence[Call]) -> None:
        for call in calls:
            if call.public:
                self.public += 1
            else:
                self.hidden += 1
            self.steps.add(call.step)
            self.composed = self.composed or bool(call.composed or call.helpers)

    def admits(self, group: Sequence[Call]) -> bool:
        """The rule of `may_share`, on these calls and `group`."""
        public = self.public + sum(1 for call in group if call.public)
        if public == self.public + self.hidden + len(group):
            return True
        if public:
            return False
        steps = self.steps | {call.step for call in group}
        return len(steps) == 1 or not (self.composed or any(call.composed or call.helpers for call in group))


def _not_run(pending: Pending, outcome: RunOutcome) -> None:
    for group in pending:
        for call in group:
            outcome.calls.setdefault(call.id, CallOutcome("not_run"))


def lab_functions(calls: Iterable[Call], functions: Iterable[str] | None = None) -> tuple[str, ...]:
    """The function names a run reports on: `functions`, or those the calls use, in order."""
    used = tuple(dict.fromkeys(name for call in calls for name in (call.function, *call.helpers)))
    if functions is None:
        return used
    functions = tuple(functions)
    if not all(isinstance(name, str) and name.isidentifier() for name in functions):
        raise ValueError(f"function names must be identifiers: {functions!r}")
    unknown = [name for name in used if name not in functions]
    if unknown:
        raise ValueError(f"calls name functions outside {functions!r}: {unknown!r}")
    return functions


def _group_by_step(calls: Iterable[Call]) -> Pending:
    groups: Pending = []
    for call in calls:
        if groups and groups[-1][0].step == call.step:
            groups[-1].append(call)
        else:
            groups.append([call])
    return groups


def _one_child(child: Child, cells: Sequence[Cell], functions: tuple[str, ...], pending: Pending,
               skip: list[list[int | None]], seen_load: set[tuple[object, ...]], outcome: RunOutcome, limits: Limits,
               helper: Helper | None = None, clock: Clock | None = None, evidence: bool = True,
               follow: _Follow | None = None) -> Pending | None:
    """Drive one child; returns the step groups still to run (None when all are done). Once its
    groups are done, the child is given `follow`'s next calls where `may_share` allows."""
    clock = clock or Clock()
    current: Statement | None = None
    told = not outcome.calls  # no call was made yet: what this load says may be shown
    deadline = clock.deadline(limits.load_seconds)
    try:
        child.send(deadline, cmd="load", cells=cells, skip=skip, module_name=module_name(cells),
                   functions=list(functions), evidence=bool(evidence))
        while True:
            event = child.next_event(deadline)
            clock.give_back(child.take_credit())  # the machine's time, not the submission's
            if event is None:
                if clock.spent():
                    return pending  # the submission's time, not this statement's: nothing to skip
                clock.expired.append("load")
                if current is not None and current[1] == AT_ONCE:
                    hung = _where_it_hung(child, current[0], clock.deadline(WHERE_SECONDS))
                    if hung is not None:
                        skip.append([current[0], AT_ONCE])  # the cell runs statement by statement from now on
                        current = hung
                return _skip_statement(current, "load_timeout", skip, outcome, pending, told)
            kind = event.get("ev")
            if kind == "stmt":
                current = (small_int(event.get("cell")), small_int(event.get("stmt")),
                           small_int(event.get("line")))
            elif kind in ("syntax_error", "load_error"):
                event = plain_load_event(event)
                key = (kind, event.get("cell"), event.get("stmt"))
                if told and key not in seen_load and len(seen_load) < MAX_LOAD_EVENTS:
                    seen_load.add(key)
                    outcome.load_events.append(event)
            elif kind == "loaded":
                outcome.names = plain_names(event.get("names"), functions)
                outcome.evidence = plain_evidence(event.get("evidence"), functions)
                break
    except ChildGone:
        return _skip_statement(current, "load_crash", skip, outcome, pending, told)
    finally:
        clock.give_back(child.take_credit())

    given: list[Call] = []  # every call this child was given
    while True:
        rest = _serve(child, pending, given, outcome, limits, helper, clock)
        if rest is not None:
            return rest or None
        more = follow.next(outcome) if follow is not None else None
        if more is None:
            return None
        if follow is not None and follow.swept:
            return more  # this child was swept while the grader judged: the calls go to a fresh one
        pending = more


def _serve(child: Child, pending: Pending, given: list[Call], outcome: RunOutcome, limits: Limits,
           helper: Helper | None, clock: Clock) -> Pending | None:
    """Make `pending`'s calls in a loaded child that was given `given` (extended here). None: all
    made and the child may go on; else the groups a fresh child must run ([] for none: this
    child hung or ended)."""
    runnable = [(index, group) for index, group in enumerate(pending)
                if outcome.names.get(group[0].function) == "function"]
    # One call at a time: a call's command is sent once the call before it has answered, so the
    # commands a child can read hold the inputs of the call it is answering and of those it has
    # answered, never a later call's (a later case's inputs, or another step's answer: one step's
    # input is often an earlier step's right answer). Which calls share a child: may_share.
    sharing = Given.of(given)
    ahead = _Ahead(child, runnable) if all(may_send_ahead(call) for call in given) and \
        all(may_send_ahead(call) for _, group in runnable for call in group) else None
    for index, group in runnable:
        step = group[0].step
        public = all(call.public for call in group)
        seconds = group[0].seconds or limits.step_seconds
        left = clock.left(step, seconds, public=public)
        if left <= 0:
            # The step's time (and its second look) went on its earlier tests: these are not run,
            # and the child is not given them.
            for call in group:
                outcome.calls[call.id] = CallOutcome("not_run")
            continue
        if not sharing.admits(group):
            return pending[index:]
        given.extend(group)
        sharing.add(group)
        left = clock.begin(step, seconds, public=public)
        started = clock.now()
        deadline = clock.deadline(left)
        try:
            for number, call in enumerate(group):
                try:
                    if ahead is not None:
                        ahead.send(call, deadline)
                    result = _await_call(child, call, deadline, helper, sent=ahead is not None)
                except ChildGone:
                    result = CallOutcome("crashed")
                clock.give_back(child.take_credit())  # the machine's time, not the submission's
                if result.kind == "timeout" and clock.spent():
                    return pending[index:]  # the submission's time ran out, not this step's: not run
                outcome.calls[call.id] = result
                if result.kind in ("timeout", "crashed"):
                    if result.kind == "timeout":
                        clock.timed_out(step)
                    for later in group[number + 1:]:
                        outcome.calls[later.id] = CallOutcome("not_run")
                    return pending[index + 1:]
        finally:
            clock.give_back(child.take_credit())
            clock.charge(step, started, excused=child.credited(deadline))
    return None


def _where_it_hung(child: Child, cell: int | None, deadline: float) -> Statement | None:
    """Ask a child whose load ran out of time while cell `cell` ran whole which of the cell's
    statements is running (worker._tell_where); None when it does not say by `deadline`.

    The answer is the submission's word, like every event: a wrong one only skips another
    statement of its own code.
    """
    child.signal(WHERE_SIGNAL)
    try:
        while (event := child.next_event(deadline)) is not None:
            if event.get("ev") == "hung" and small_int(event.get("cell")) == cell:
                stmt = small_int(event.get("stmt"))
                if stmt is not None and stmt >= 0:
                    return cell, stmt, small_int(event.get("line"))
    except ChildGone:
        pass
    return None


def _skip_statement(current: Statement | None, reason: str, skip: list[list[int | None]], outcome: RunOutcome,
                    pending: Pending, told: bool = True) -> Pending | None:
    """Note the statement that hung or ended the process (told only for a load before any call);
    the next child skips it."""
    if current is None:
        # No statement of the submission had started: retrying cannot help.
        outcome.load_events.append({"ev": "sandbox_failed"})
        return None
    cell, stmt, line = current
    skip.append([cell, stmt])
    if stmt != AT_ONCE and told:  # a cell run at once is run statement by statement next: nothing to say yet
        outcome.load_events.append({"ev": reason, "cell": cell, "stmt": stmt, "line": line})
    return pending


def may_send_ahead(call: Call) -> bool:
    """Whether `call` may be sent before the call before it has answered: only a repair
    candidate's call (Call.source) on a public input, with no helper answered, in a child given
    nothing else (`_serve`).

    INVARIANT (docs/SECURITY.md, "One call at a time"): a child that runs any test of the
    student's own code, a hidden input or a stand-in is sent one call at a time. A search's child
    is given one step's candidates on the repair plan's public and generated inputs only, every
    candidate on the same ones: a later command holds nothing it is not given anyway, and what a
    candidate makes of it changes which repair is named, never a point."""
    return call.source is not None and call.public and not call.helpers and not call.composed


# Commands sent ahead of their turn at most (and at most half what the command pipe holds, so
# writing them never waits on the child).
AHEAD_CALLS = 32


class _Ahead:
    """The commands sent to a child before their turn (may_send_ahead): the child finds its next
    call waiting instead of waiting for it, a search's thousand candidates in far fewer waits."""

    def __init__(self, child: Child, runnable: list[tuple[int, list[Call]]]) -> None:
        self.child = child
        self.calls = [call for _, group in runnable for call in group]
        self.position = {call.id: k for k, call in enumerate(self.calls)}
        self.sent: dict[int, int] = {}  # position -> its command's bytes, sent and not yet answered
        self.next = 0  # the position of the first call not sent

    def send(self, call: Call, deadline: float) -> None:
        """Send `call`, unless sent before, and the calls after it while they fit. Every call
        before it has answered or was left unrun.

        A child gone is not this call's outcome: a child may run the calls it was sent and end
        at a later one before the grader reads them, and what it answered is still in the pipe.
        The call is then read as any other (_awaited): its answer, or the child gone."""
        try:
            self._send(call, deadline)
        except ChildGone:
            pass

    def _send(self, call: Call, deadline: float) -> None:
        here = self.position[call.id]
        for answered in [k for k in self.sent if k <= here]:
            del self.sent[answered]
        self.next = max(self.next, here)
        room = self.child.pipe_bytes // 2 - sum(self.sent.values())
        while self.next < len(self.calls) and len(self.sent) < AHEAD_CALLS:
            command = self.calls[self.next].command
            size = len(command.encode("utf-8"))
            if self.next > here and size > room:
                break
            self.child.send_text(command, deadline)
            if self.next > here:
                self.sent[self.next] = size
                room -= size
            self.next += 1


def _await_call(child: Child, call: Call, deadline: float, helper: Helper | None = None, *, sent: bool = False
                ) -> CallOutcome:
    """Send one call (`sent`: it was sent already, _Ahead) and read its outcome; helper requests
    are answered on the way, within the step's deadline (answering them takes the grader a table
    look-up)."""
    stood_in: list[str] = []
    outcome = _awaited(child, call, deadline, helper, stood_in, sent)
    if stood_in:
        outcome = replace(outcome, stood_in=stood_in)  # remembered outcomes are shared: never changed
    return outcome


def _awaited(child: Child, call: Call, deadline: float, helper: Helper | None, stood_in: list[str],
             sent: bool = False) -> CallOutcome:
    if not sent:
        child.send_text(call.command, deadline)
    refused: list[dict[str, str]]
    helped, refused = 0, []
    answered: dict[str, tuple[str, object]] = {}  # this call's requests, by their content
    while True:
        line = child.next_line(deadline, max(call.answer_bytes, HELPER_REQUEST_BYTES))
        if line is None:
            return CallOutcome("timeout", refused=refused)
        if line is TOO_LARGE:
            # Far larger than any right answer: a wrong one, never parsed.
            return CallOutcome("returned", value=codec.Opaque("answer too large to read"),
                               args_after=[None] * len(call.args), refused=refused)
        line = cast(bytes, line)  # neither None nor TOO_LARGE: an event's bytes
        known = call.known(line) if not refused else None
        if known is not None:
            return known
        event = parse_event(line)
        kind = event.get("ev")
        if kind == "helper":
            if child.overdue(deadline):
                # A request read past the call's time (a read kept for what the child sent in time,
                # when the grader woke late): answering it would run the call on beyond its limit.
                return CallOutcome("timeout", refused=refused)
            helped += 1
            _answer_helper(child, call, event, helper, helped, deadline, refused, stood_in,
                           answered if len(line) <= KEPT_REQUEST_BYTES else None)
            continue
        if event.get("id") != call.id:
            continue
        if len(line) > call.answer_bytes:
            return CallOutcome("returned", value=codec.Opaque("answer too large to read"),
                               args_after=[None] * len(call.args), refused=refused)
        if kind == "returned":
            args_after = event.get("args_after")
            if not isinstance(args_after, list) or len(args_after) != len(call.args):
                # Only a forged event lacks the arguments: it must not dodge the mutation check.
                return CallOutcome("crashed", refused=refused)
            outcome = CallOutcome("returned", value=codec.decode(event.get("value")),
                                  args_after=[None if a is None else codec.decode(a) for a in args_after],
                                  event=line, refused=refused, state=plain_state(event.get("state")))
        elif kind == "raised":
            outcome = CallOutcome("raised", error=plain_error(event), event=line, refused=refused)
        else:
            continue
        if not refused:
            call.remember(outcome)
        return outcome


def _request_content(name: object, args: object, keywords: object) -> str | None:
    """A helper request's content as one text, the key of a repeated one; None when it cannot be
    written again (nested deeper than the grader's stack allows here)."""
    try:
        return json.dumps([name, args, keywords], sort_keys=True, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError):
        return None


def _answer_helper(child: Child, call: Call, event: dict[str, Any], helper: Helper | None, count: int, deadline: float,
                   refused: list[dict[str, str]], stood_in: list[str],
                   answered: dict[str, tuple[str, object]] | None) -> None:
    """Answer one helper request of the running call: a value, or an error the child raises.

    Everything in the request is untrusted: only the call's own helpers, a bounded number of
    times; `helper` answers from the running test's own values or refuses (see stand_in). Each
    refusal is noted in `refused` ({"helper", "reason"}), the grader's own record of it.
    `answered`: this call's answers so far by the request's content, so a request asked again is
    neither decoded nor compared again (a composed step may ask the same one many times); None for
    a request too large to keep (its content is never written out again).
    """
    seq = small_int(event.get("seq"))
    name, args, keywords = event.get("name"), event.get("args"), event.get("kwargs", {})
    reason = None
    if event.get("id") != call.id or name not in call.helpers or helper is None:
        reason = "not_stood_in"
    elif count > MAX_HELPER_REQUESTS:
        reason = "too_many"
    elif not isinstance(args, list) or len(args) > 8 or not isinstance(keywords, dict) or len(keywords) > 8 \
            or not all(isinstance(key, str) and key.isidentifier() and len(key) <= 60 for key in keywords):
        reason = "arguments"
    else:
        content = _request_content(name, args, keywords) if answered is not None else None
        kept = answered.get(content) if answered is not None and content is not None else None
        if kept is None:
            try:
                decoded = [codec.decode(a) for a in args]
                kept = ("value", helper(call.id, name, decoded, {key: codec.decode(value) for key, value in keywords.items()})
                        if keywords else helper(call.id, name, decoded))
            except HelperRefused as refusal:
                kept = ("refused", refusal.args[0])
            if answered is not None and content is not None and len(answered) < MAX_KEPT_ANSWERS:
                answered[content] = kept
        if kept[0] == "value":
            answer = {"value": kept[1]}
            if name not in stood_in:
                stood_in.append(name)
        else:
            reason = cast(str, kept[1])
    if reason is not None:
        if len(refused) < MAX_LOAD_EVENTS:
            refused.append({"helper": plain_text(name, 40), "reason": reason})
        answer = {"error": {"type": "LookupError", "message": refusal_message(reason, plain_text(name, 40))}}
    child.send(deadline, cmd="helper_answer", seq=seq, **answer)
