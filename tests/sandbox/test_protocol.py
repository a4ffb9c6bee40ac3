"""The grader<->child protocol: what a child may read, what the grader reads of it, and helpers.

No reference code and no expected value of a call it has not answered ever enters a process that
runs student code; calls are sent one at a time (but a search's public candidates, in a child given
nothing else), public tests before hidden ones; helper requests
are answered one at a time, as untrusted requests, from the running test's own values only; what
the grader reads is bounded per event and per run, and read in linear time and constant memory.
"""
import json
import os
import subprocess
import sys
import threading
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from autograder.helpers import StandInAnswers
from autograder.core.stand_in import StandIn
from autograder.grading.plan import answer_bytes
from autograder.core.child import codec
from autograder.sandbox.child_pipes import TOO_LARGE, Child, OutputSpent, ReadBudget
from autograder.core.child.protocol import MAX_HELPER_REQUESTS
from autograder.core.child.protocol import plain_error, plain_load_event
from autograder.sandbox.runner import Call, CallOutcome, Limits, run
from labs.self_attention.steps import STEPS
from conftest import CORPORA, ROOT
from labs.self_attention import LAB

LIMITS = Limits(step_seconds=5.0, load_seconds=5.0)
REFERENCE_TEXT = ("Softmax over the last axis", "Blend the value vectors", "Project the word vectors",
                  "idxmax", "def make_qkv", "def softmax")

ASKED = np.array([[0.0, np.log(3.0)]])
ANSWERS = StandInAnswers({0: (StandIn(name="softmax", args=(ASKED,), value=np.array([[0.25, 0.75]])),
                              StandIn(name="scores", args=(np.eye(2), np.eye(2)), value=np.eye(2))),
                          2: (StandIn(name="scores", args=(np.eye(2), np.eye(2)), value=np.eye(2)),)})


def run_calls(zygote, source, calls, helper=ANSWERS):
    return run(zygote, [{"source": source, "filename": "probe.py"}], calls, LIMITS, helper)


# What a child can read -------------------------------------------------------------------------

def test_no_command_holds_reference_code(plan):
    calls, _ = plan.calls
    for call in calls:
        assert not any(text in call.command for text in REFERENCE_TEXT), call.step
        assert all(isinstance(name, str) for name in call.helpers)


def _decoded_arrays(call):
    values = [codec.decode(a) for a in call.args]
    return [v for v in values if isinstance(v, np.ndarray)]


def _children(plan):
    """The plan's calls as the children that run them (driver.may_share): every public test in one;
    the hidden tests of the plain steps in another; each composed step's hidden tests in one of its own."""
    calls, _ = plan.calls
    composed = [step.name for step in plan.lab.grading_order if step.composed]
    return [[c for c in calls if c.public], [c for c in calls if not c.public and not c.composed]] + \
        [[c for c in calls if not c.public and c.step == name] for name in composed]


def test_no_command_a_child_can_read_holds_an_answer_it_has_not_given(plan):
    """Calls are sent one at a time, each once the one before has answered, and a composed step's
    hidden tests run in a child of their own. So what a child can read while answering a call is
    that call's arguments and those of the calls it answered before. None of them may equal the
    expected output of a later hidden call of that child (mix's weights are softmax's answers and
    self_attention's). A call's own arguments may (mix of one word returns its V): the call is
    given them anyway. A public test's answers may be read before they are given (most_attended's
    weights are self_attention's): its feedback shows them anyway."""
    _, probe_of = plan.calls

    def same(a, b):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape and np.allclose(a, b)

    for child in _children(plan):
        for position, call in enumerate(child):
            readable = [(c.id, a) for c in child[:position + 1] for a in _decoded_arrays(c)]
            answered = [probe_of[c.id] for c in child[:position]]
            for later in child[position:]:
                if later.public:
                    continue
                for index, expected in enumerate(probe_of[later.id].expected):
                    # A hidden test that repeats a public one (the page's case again) has that test's answers.
                    repeated = any(p.step.name == later.step and same(p.expected[index], expected) for p in answered)
                    if isinstance(expected, np.ndarray) and expected.size > 1 and not repeated:
                        assert not any(same(a, expected) for owner, a in readable if owner != later.id), \
                            (call.step, later.step)


def test_a_child_answers_every_public_test_before_it_is_given_a_hidden_one(plan):
    """Nothing a child sends about a public test (shown to the student at once) can carry a value of
    a hidden test: a child is given public tests or hidden ones, never both."""
    _, probe_of = plan.calls
    kinds = [{probe_of[c.id].case.hidden for c in child} for child in _children(plan)]
    assert kinds[0] == {False} and all(kind == {True} for kind in kinds[1:]) and len(kinds) > 2


class _ScriptedChild:
    """A child that answers each call at once, and notes what it was sent before each answer."""

    def __init__(self):
        self.sent, self.unanswered_when_sent = [], []
        self.pending = []

    def send(self, deadline=None, **command):
        self.sent.append(command)

    def next_event(self, deadline):
        return {"ev": "loaded", "names": {"softmax": "function", "mix": "function"}}

    def send_text(self, text, deadline=None):
        command = json.loads(text)
        self.unanswered_when_sent.append(len(self.pending))
        self.pending.append(command["id"])

    def take_credit(self):
        return 0.0  # never kept waiting by the machine

    def credited(self, deadline):
        return 0.0

    def next_line(self, deadline, limit=None):
        call_id = self.pending.pop(0)
        return json.dumps({"ev": "returned", "id": call_id, "value": {"t": "none"}, "args_after": [None]}).encode()


def test_a_child_is_sent_one_call_at_a_time():
    """A call's command goes out only once every call before it has answered: while a call runs,
    the command pipe holds nothing else (not the next call, not a later test's inputs)."""
    from autograder.sandbox.driver import _one_child
    from autograder.core.child.protocol import RunOutcome

    child = _ScriptedChild()
    calls = [Call(i, step, step, (codec.encode(float(i)),)) for i, step in enumerate(["softmax"] * 3 + ["mix"] * 2)]
    outcome = RunOutcome()
    pending = _one_child(child, [], ("softmax", "mix"), [calls[:3], calls[3:]], [], set(), outcome, LIMITS)
    assert pending is None and sorted(outcome.calls) == [0, 1, 2, 3, 4]
    assert child.unanswered_when_sent == [0] * 5


class _PipeChild(_ScriptedChild):
    """A scripted child with a command pipe of a given size."""

    pipe_bytes = 64 * 1024

    def __init__(self, names=("softmax", "mix")):
        super().__init__()
        self.names = names
        self.given_when_sent = []  # for each command: the ids sent before it and not answered

    def next_event(self, deadline):
        return {"ev": "loaded", "names": {name: "function" for name in self.names}}

    def send_text(self, text, deadline=None):
        self.given_when_sent.append(list(self.pending))
        super().send_text(text, deadline)


def _candidate(number, step="softmax", **changes):
    fields = dict(source=f"def {step}(x):\n    return x * {number}\n", public=True)
    fields.update(changes)
    return Call(number, f"{step} #{number}", step, (codec.encode(1.0),), **fields)


def test_a_searchs_public_candidates_alone_in_a_child_are_sent_ahead():
    """A child given nothing but public repair candidates finds its next calls waiting (the
    search's thousands of calls without a wait each); every call still gets its own outcome."""
    from autograder.sandbox.driver import AHEAD_CALLS, _one_child
    from autograder.core.child.protocol import RunOutcome

    child = _PipeChild()
    calls = [_candidate(i) for i in range(100)]
    outcome = RunOutcome()
    assert _one_child(child, [], ("softmax", "mix"), [[call] for call in calls], [], set(), outcome, LIMITS) is None
    assert sorted(outcome.calls) == list(range(100))
    assert max(child.unanswered_when_sent) == AHEAD_CALLS  # the call being answered and those sent after it
    assert len(child.unanswered_when_sent) == 100  # each command once


KINDS = st.sampled_from(["candidate", "own", "hidden candidate", "candidate with a helper", "composed candidate"])


@given(st.lists(KINDS, min_size=1, max_size=40), st.integers(0, 39))
def test_a_call_is_sent_ahead_only_in_a_child_given_nothing_but_public_candidates(kinds, given_before):
    """Whatever calls a child is given, a command goes out before the ones before it answered only
    when that call and every call the child was given are public candidates (driver.may_send_ahead)."""
    from autograder.sandbox.driver import _one_child, may_send_ahead
    from autograder.core.child.protocol import RunOutcome

    def made(number, kind):
        if kind == "own":
            return Call(number, "softmax", "softmax", (codec.encode(1.0),), public=True)
        return _candidate(number, public=kind != "hidden candidate",
                          helpers=("mix",) if kind == "candidate with a helper" else (),
                          composed=kind == "composed candidate")

    calls = [made(number, kind) for number, kind in enumerate(kinds)]
    child = _PipeChild()
    outcome = RunOutcome()
    # Groups that share a child by the sharing rule: public and hidden apart, as the driver gives them.
    public = [[c] for c in calls if c.public]
    hidden = [[c] for c in calls if not c.public]
    for groups in (public, hidden):
        if not groups:
            continue
        child = _PipeChild()
        _one_child(child, [], ("softmax", "mix"), groups, [], set(), outcome, LIMITS)
        by_id = {c.id: c for c in calls}
        sent_order = [c[0].id for c in groups]
        for position, waiting in enumerate(child.given_when_sent):
            if waiting:
                given = [by_id[i] for i in sent_order[:position + 1]]
                assert all(may_send_ahead(c) for c in given), [c.step for c in given]
    assert set(outcome.calls) == {c.id for c in calls}


class _Time:
    """An injected clock: it moves only when a scripted child spends time."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class _TimedChild:
    """A child whose calls each take a scripted time on `clock`; a call past its deadline, or of a
    step in `endless`, is a timeout (the clock stops at the deadline, as a real wait would)."""

    def __init__(self, clock, names, seconds, endless, spent):
        self.clock, self.names, self.seconds, self.endless, self.spent = clock, names, seconds, endless, spent
        self.call = None

    def send(self, deadline=None, **command):
        pass  # the load command

    def next_event(self, deadline, limit=None):
        return {"ev": "loaded", "names": {name: "function" for name in self.names}}

    def send_text(self, text, deadline=None):
        self.call = json.loads(text)

    def take_credit(self):
        return 0.0  # never kept waiting by the machine

    def credited(self, deadline):
        return 0.0

    def next_line(self, deadline, limit=None):
        call, start = self.call, self.clock.now
        end = deadline if call["function"] in self.endless else start + self.seconds[call["id"]]
        self.clock.now = min(end, deadline)
        self.spent[call["function"]] = self.spent.get(call["function"], 0.0) + self.clock.now - start
        if end >= deadline:
            return None
        return json.dumps({"ev": "returned", "id": call["id"], "value": {"t": "none"}, "args_after": [None]}).encode()

    def signal(self, number):
        pass

    def kill(self):
        pass


class _TimedZygote:
    confinement = {}
    sweeps = 0

    def __init__(self, *child):
        self.child = child

    def sweep(self):
        pass

    def workdir_for(self, limits):
        return "unused"

    def discard(self, workdir):
        pass

    def user_for(self, limits):
        return None

    def spawn(self, workdir, limits, budget=None):
        return _TimedChild(*self.child)


STEP_SECONDS = 1.0
# Each step: how long each of its public and hidden calls takes, and whether it never returns.
TIMED_STEP = st.tuples(st.lists(st.floats(0.0, 0.6), min_size=1, max_size=3),
                       st.lists(st.floats(0.0, 0.6), min_size=1, max_size=3), st.booleans())


@given(st.lists(TIMED_STEP, min_size=1, max_size=5))
def test_a_steps_time_limit_is_spent_once_over_all_its_runs(steps):
    """INVARIANT (driver.Clock): a step's calls have `step_seconds` in all, its public tests and its
    hidden ones together, though each runs in its own child: its public tests that limit less the
    second look its hidden tests keep, which they get whole once a deadline of the step's passed in
    its public run. So a step that never returns makes the grader wait its limit once, no step's
    calls run longer than its limit, a step whose calls fit in its limit (its public ones in their
    share) runs every one of them, as before, and a step that timed out on a public test still
    answers the hidden calls that fit in its second look."""
    from autograder.sandbox.driver import Clock, second_look

    clock, spent = _Time(), {}
    names = [f"step{i}" for i in range(len(steps))]
    endless = {name for name, (_, _, never) in zip(names, steps) if never}
    public, hidden, seconds = [], [], {}
    for name, (public_seconds, hidden_seconds, _) in zip(names, steps):
        for taken, into in [(t, public) for t in public_seconds] + [(t, hidden) for t in hidden_seconds]:
            call = Call(len(seconds), name, name, (codec.encode(0.0),), public=into is public)
            seconds[call.id] = taken
            into.append(call)
    zygote = _TimedZygote(clock, names, seconds, endless, spent)
    limits = Limits(step_seconds=STEP_SECONDS, load_seconds=STEP_SECONDS)
    shared = Clock(now=clock, later=names)
    outcomes = {}
    for calls in (public, hidden):  # two runs, as grading makes them: public tests, then hidden ones
        outcomes.update(run(zygote, [], calls, limits, clock=shared).calls)
    look = second_look(STEP_SECONDS)
    for name, (public_seconds, hidden_seconds, never) in zip(names, steps):
        kinds = [outcomes[c.id].kind for c in public + hidden if c.step == name]
        public_kinds, hidden_kinds = kinds[:len(public_seconds)], kinds[len(public_seconds):]
        public_out = never or sum(public_seconds) >= STEP_SECONDS - look
        assert shared.expired.count(name) == (1 if public_out or sum(public_seconds + hidden_seconds) >= STEP_SECONDS
                                              else 0)
        assert shared.looked_out.count(name) <= (1 if public_out else 0)
        assert spent[name] <= STEP_SECONDS + 1e-9
        if never:
            assert spent[name] >= STEP_SECONDS - 1e-9  # its limit, once: its public share and its second look
        if not public_out and sum(public_seconds + hidden_seconds) < STEP_SECONDS:
            assert kinds == ["returned"] * len(kinds)
        elif never:
            assert public_kinds[0] == "timeout" and set(public_kinds[1:]) <= {"not_run"}
            assert hidden_kinds[0] == "timeout" and set(hidden_kinds[1:]) <= {"not_run"}
        elif public_out:  # a second look for the hidden calls: those that fit in it are answered
            fits = len([t for t in _running_totals(hidden_seconds) if t < look - 1e-9])
            assert hidden_kinds[:fits] == ["returned"] * fits
    assert "load" not in shared.expired


def _running_totals(values):
    total, totals = 0.0, []
    for value in values:
        total += value
        totals.append(total)
    return totals


def test_a_composed_step_runs_in_a_child_that_saw_no_other_step(zygote):
    source = ("import os\nSEEN = []\n"
              "def mix(weights):\n    SEEN.append(weights)\n    open('kept', 'w').write('w')\n    return os.getpid()\n"
              "def self_attention():\n    return [SEEN, os.path.exists('kept'), os.getpid()]\n")
    calls = [Call(0, "mix", "mix", (codec.encode(7),)),
             Call(1, "self_attention", "self_attention", (), helpers=("mix",))]
    outcome = run_calls(zygote, source, calls)
    seen, kept, pid = outcome.calls[1].value
    assert seen == [] and kept is False and pid != outcome.calls[0].value


def test_composed_steps_come_last_and_name_the_helpers_the_grader_answers(plan):
    calls, _ = plan.calls
    helped = [c for c in calls if c.helpers]
    assert helped and calls[-len(helped):] == helped
    # Exactly the steps the composed step declares it calls (most_attended is not one of them).
    assert helped[0].helpers == ("make_qkv", "scores", "softmax", "mix")


# Helper requests ---------------------------------------------------------------------------------

HELPED = """
import gc
import numpy as np

def _channel():
    return next(o for o in gc.get_objects() if type(o).__name__ == "Channel")

def self_attention(call_id, mode):
    if mode == "after":
        return scores(None, None)
    seen = {"value": softmax(np.array([[0.0, np.log(3.0)]])).tolist(),
            "as list": softmax([[0.0, float(np.log(3.0))]]).tolist(),
            "bound": [name for name in ("make_qkv", "scores", "softmax", "mix", "most_attended")
                      if name in globals() and globals()[name].__code__.co_filename != "probe.py"]}
    for label, args in [("count", (np.eye(2),)), ("text", ("x", "y")), ("big", (np.zeros((100, 2)), np.zeros((100, 2)))),
                        ("other values", (np.eye(2), 2 * np.eye(2))), ("deep", ([[[1.0]]], np.eye(1))),
                        ("huge int", ([[10 ** 30]], np.eye(1))), ("same", (np.eye(2), np.eye(2)))]:
        try:
            scores(*args)
            seen[label] = "answered"
        except Exception as error:
            seen[label] = type(error).__name__
    channel = _channel()
    for label, (identity, name, args) in {"not a helper": (call_id, "mix", []),
                                          "not a step": (call_id, "__import__", []),
                                          "other call": (call_id + 1, "softmax", [codec_encode(np.eye(2))]),
                                          "garbage": (call_id, "softmax", [{"t": "array", "f8": 5}])}.items():
        answer = channel.ask_helper(identity, name, args)
        seen[label] = answer.get("error", {}).get("type") if "error" in answer else "answered"
    return seen

def codec_encode(value):
    return {"t": "array", "kind": "f", "dtype": "<f8", "shape": list(value.shape),
            "f8": __import__("base64").b64encode(value.astype("<f8").tobytes()).decode()}

def most_attended():
    answered = 0
    for _ in range(""" + str(MAX_HELPER_REQUESTS + 5) + """):
        try:
            scores(np.eye(2), np.eye(2))
            answered += 1
        except LookupError:
            pass
    return answered

def scores(Q, K):
    return "the student's own"
"""


def test_helpers_are_answered_from_the_running_tests_own_values_only(zygote):
    calls = [Call(0, "self_attention", "self_attention", (codec.encode(0), codec.encode("probe")),
                  helpers=("scores", "softmax")),
             Call(1, "self_attention", "self_attention", (codec.encode(1), codec.encode("after"))),
             Call(2, "most_attended", "most_attended", (), helpers=("scores",))]
    outcome = run_calls(zygote, HELPED, calls)
    seen = outcome.calls[0].value
    assert np.allclose(seen["value"], [[0.25, 0.75]]) and np.allclose(seen["as list"], [[0.25, 0.75]])
    assert seen["bound"] == ["scores", "softmax"]  # only the helpers the grader chose for this call
    assert seen["same"] == "answered"
    # Every other request is refused: the grader computes nothing on values a submission chose.
    for label in ("count", "text", "big", "other values", "deep", "huge int", "not a helper", "not a step",
                  "other call", "garbage"):
        assert seen[label] == "LookupError", label
    reasons = [(r["helper"], r["reason"]) for r in outcome.calls[0].refused]
    assert ("scores", "arguments") in reasons and ("mix", "not_stood_in") in reasons
    assert ("softmax", "not_stood_in") in reasons  # asked as if for another call
    assert outcome.calls[1].value == "the student's own"  # the submission's own names come back
    assert outcome.calls[2].value == MAX_HELPER_REQUESTS
    assert {r["reason"] for r in outcome.calls[2].refused} == {"too_many"}


class CountingAnswers:
    """ANSWERS, counting the requests it is asked."""

    def __init__(self):
        self.asked = []

    def __call__(self, call_id, name, args, keywords=None):
        self.asked.append((call_id, name))
        return ANSWERS(call_id, name, args, keywords) if keywords else ANSWERS(call_id, name, args)


REPEATED = """
import numpy as np

def self_attention(rounds):
    seen = []
    for _ in range(rounds):
        for args in ((np.eye(2), np.eye(2)), (np.eye(2), 2 * np.eye(2))):
            try:
                seen.append(scores(*args).tolist())
            except LookupError as error:
                seen.append(str(error)[:20])
    return seen
"""


def test_a_request_asked_again_in_one_call_gets_the_first_answer_without_asking_the_stand_in_again(zygote):
    """The same request, answered or refused, gets the same answer each time; the stand-in is asked
    it once per call (a hostile step asking one request over and over costs the grader a look-up),
    and a request is never answered from another call's."""
    counting = CountingAnswers()
    rounds = MAX_HELPER_REQUESTS // 2
    calls = [Call(0, "self_attention", "self_attention", (codec.encode(rounds),), helpers=("scores",)),
             Call(2, "self_attention", "self_attention", (codec.encode(1),), helpers=("scores",))]
    outcome = run_calls(zygote, REPEATED, calls, helper=counting)
    first, second = outcome.calls[0].value, outcome.calls[2].value
    assert first[0::2] == [np.eye(2).tolist()] * rounds and len(set(map(str, first[1::2]))) == 1
    assert isinstance(first[1], str)  # refused each time
    assert second == first[:2]
    assert sorted(counting.asked) == [(0, "scores"), (0, "scores"), (2, "scores"), (2, "scores")]
    assert [r["reason"] for r in outcome.calls[0].refused] == ["arguments"] * rounds
    assert outcome.calls[0].stood_in == ["scores"]


def test_without_an_answering_helper_every_request_is_refused(zygote):
    source = "def self_attention():\n    try:\n        return scores(1, 2)\n    except LookupError:\n        return 'refused'\n"
    outcome = run_calls(zygote, source, [Call(0, "self_attention", "self_attention", (), helpers=("scores",))],
                        helper=None)
    assert outcome.calls[0].value == "refused"


def test_answering_a_helper_adds_nothing_to_the_steps_deadline(zygote):
    """Asking the stand-ins again and again (each answered at once) still ends at the step's deadline."""
    source = ("import numpy as np\n"
              "def self_attention():\n"
              "    while True:\n"
              "        try:\n"
              "            scores(np.eye(2), np.eye(2))\n"
              "        except LookupError:\n"
              "            pass\n")
    limits = Limits(step_seconds=1.0, load_seconds=5.0)
    outcome = run(zygote, [{"source": source, "filename": "probe.py"}],
                  [Call(0, "self_attention", "self_attention", (), helpers=("scores",))], limits, ANSWERS)
    assert outcome.calls[0].kind == "timeout"


# What the grader reads ---------------------------------------------------------------------------

def _child_reading(data, budget=None):
    """A Child whose event pipe a thread fills with `data`; close the child, then join the thread."""
    read_end, write_end = os.pipe()

    def write():
        try:
            os.write(write_end, data)
        except OSError:
            pass  # the reader stopped first
        finally:
            os.close(write_end)

    writer = threading.Thread(target=write)
    writer.start()
    return Child(0, os.open(os.devnull, os.O_WRONLY), read_end, budget=budget), writer


def test_an_event_over_its_limit_is_skipped_unparsed_in_constant_memory():
    huge = b'{"ev": "returned", "pad": "' + b"x" * (60 * 1024 * 1024) + b'"}\n'
    child, writer = _child_reading(huge + b'{"ev": "stmt"}\n')
    tracemalloc.start()
    try:
        first = child.next_line(time.monotonic() + 60, limit=1024 * 1024)
        second = child.next_event(time.monotonic() + 60)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        child.close()
        writer.join()
    assert first is TOO_LARGE and second == {"ev": "stmt"}
    assert peak < 4 * 1024 * 1024  # the 60 MB line never sat in memory


def test_a_run_that_sends_too_much_is_stopped():
    child, writer = _child_reading(b"x" * (3 * 1024 * 1024), budget=ReadBudget(1024 * 1024))
    try:
        with pytest.raises(OutputSpent):
            child.next_line(time.monotonic() + 60, limit=64)
    finally:
        child.close()
        writer.join()


def test_many_lines_in_one_read_come_out_one_by_one():
    lines = [json.dumps({"ev": "stmt", "stmt": i}).encode() for i in range(5000)]
    child, writer = _child_reading(b"\n".join(lines) + b"\n")
    try:
        got = [child.next_line(time.monotonic() + 30) for _ in lines]
    finally:
        child.close()
        writer.join()
    assert got == lines


def test_an_answer_far_larger_than_the_right_one_is_a_wrong_answer(zygote):
    source = "import numpy as np\ndef scores():\n    return np.ones(200_000)\n"
    outcome = run_calls(zygote, source, [Call(0, "scores", "scores", (), answer_bytes=answer_bytes((), [np.eye(3)]))])
    result = outcome.calls[0]
    assert result.kind == "returned" and isinstance(result.value, codec.Opaque)
    assert "too large" in result.value.type_name


def test_a_run_sending_more_than_its_budget_loses_the_rest_not_the_grader(zygote):
    source = ("import os, stat\n"
              "def scores():\n"
              "    line = (b'{\"ev\": \"x\", \"pad\": \"' + b'y' * (60 << 10) + b'\"}\\n') * 600\n"
              "    for fd in range(3, 64):\n"
              "        try:\n"
              "            if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
              "                os.write(fd, b'')\n"
              "                for _ in range(4):\n"
              "                    view = memoryview(line)\n"
              "                    while view:\n"
              "                        view = view[os.write(fd, view):]\n"
              "        except OSError:\n"
              "            pass\n"
              "    return 1\n"
              "def softmax():\n    return 2\n")
    outcome = run_calls(zygote, source, [Call(0, "scores", "scores", ()), Call(1, "softmax", "softmax", ())])
    assert outcome.calls[0].kind == "crashed" and outcome.calls[1].kind == "not_run"


def test_only_small_answers_are_remembered():
    call = Call(0, "scores", "scores", ())
    big = CallOutcome("returned", value=np.zeros(10), args_after=[], event=b"x" * (1 << 20))
    small = CallOutcome("returned", value=np.zeros(10), args_after=[], event=b"y" * 100)
    call.remember(big)
    call.remember(small)
    assert call.known(big.event) is None and call.known(small.event) is small


def test_text_from_the_child_is_cut_short_and_free_of_control_characters():
    hostile = "\x1b[2J\x1b]0;title\x07ok\x9b31m\u202e\x00\r\tline\n" + "z" * 10_000
    error = plain_error({"type": "Value\x1b[31mError", "message": hostile,
                          "frames": [["f\x1b.py", 3, "g\x07", hostile]]})
    load = plain_load_event({"ev": "syntax_error", "message": hostile})
    texts = [error["type"], error["message"], *error["frames"][0][::2], error["frames"][0][3], load["message"]]
    assert error["type"] == "ValueError" and error["message"].startswith("ok\tline\n")
    for text in texts:
        assert not any(ord(c) < 32 and c not in "\n\t" or 0x7f <= ord(c) <= 0x9f or c == "\u202e" for c in text)
        assert len(text) <= 500
    assert codec.decode({"t": "other", "type": "\x1b[31mevil"}).type_name == "evil"


# The grader's memory ---------------------------------------------------------------------------

MEASURE = """
import resource, sys
from autograder.grading import grade_file
from autograder.grading.plan import Plan
from autograder.sandbox.runner import Limits, Zygote
from labs.self_attention import LAB
plan, limits = Plan.build(LAB), Limits(step_seconds=5.0, load_seconds=5.0)
with Zygote() as zygote:
    for path in sys.argv[1:]:
        grade_file(path, zygote, plan, limits)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_kib(*paths):
    done = subprocess.run([sys.executable, "-c", MEASURE, *map(str, paths)], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1])


def test_the_graders_memory_stays_bounded_by_huge_answers_and_lines():
    hostile = CORPORA / "hostile"
    honest = peak_kib(ROOT / "solutions" / "self_attention.py")
    flooded = peak_kib(hostile / "resource__huge_event_lines.py", *[hostile / "resource__huge_answers.py"] * 6)
    # Old readers took a 24 MB line from 74 MB to 731 MB; remembered answers grew by the class.
    assert flooded < honest + 64 * 1024, (honest, flooded)


def test_every_string_read_from_a_child_is_valid_unicode():
    """A forged event may escape a lone surrogate; once read, it is U+FFFD (a pair stays its character)."""
    event = codec.loads('{"ev": "raised", "type": "E\\ud800", "message": "\\ud83d\\ude00 \\udfff", '
                        '"frames": [["f\\udc00.py", 1, "g", "x"]], "\\ud800": 1}')
    texts = [event["type"], event["message"], event["frames"][0][0], *event]
    for text in texts:
        text.encode("utf-8")  # never raises
    assert event["message"] == "\U0001f600 \ufffd" and "\ufffd" in event


ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=5)  # lone surrogates included


@given(st.recursive(ANY_TEXT, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(ANY_TEXT, inner, max_size=3), max_leaves=20))
def test_any_json_a_child_writes_reads_back_as_valid_unicode(data):
    import json

    read = codec.loads(json.dumps(data))  # ensure_ascii: surrogates are escaped as a forger would
    json.dumps(read, ensure_ascii=False).encode("utf-8")


def test_a_child_that_ends_at_a_later_candidate_before_the_grader_reads_leaves_the_earlier_answers(zygote,
                                                                                                    monkeypatch):
    """A grader slow to read (a loaded machine) finds the child gone when it sends the next commands
    ahead: the candidates the child answered before it ended keep their answers, and only the one
    that ended it is told as crashed."""
    from autograder.sandbox import driver

    awaited = driver._await_call

    def slow_reader(child, call, deadline, helper=None, *, sent=False):
        outcome = awaited(child, call, deadline, helper, sent=sent)
        if call.id == 0:
            time.sleep(1.0)  # the child runs on through call 3, which ends it
        return outcome

    monkeypatch.setattr(driver, "_await_call", slow_reader)
    count = driver.AHEAD_CALLS + 8  # more than are sent at once: the next sends meet the gone child
    calls = [Call(k, f"f #{k}", "f", (codec.encode(np.arange(3.0)),), public=True, seconds=2.0,
                  source="def f(x):\n" + ("    import os\n    os._exit(3)\n" if k == 3 else f"    return x * {k}\n"))
             for k in range(count)]
    outcome = run(zygote, [{"source": "def f(x):\n    return x\n", "filename": "probe.py"}], calls,
                  Limits(step_seconds=5.0, load_seconds=5.0), functions=("f",))
    kinds = {k: outcome.calls[k].kind for k in range(count)}
    assert kinds[3] == "crashed", kinds
    assert all(kinds[k] == "returned" for k in range(count) if k != 3), kinds


def test_candidates_sent_ahead_each_get_their_own_outcome_past_a_loop_a_crash_and_an_error(zygote):
    """In a real child: a candidate that never returns costs its own limit, one that ends the
    process or raises costs itself; the candidates sent after it are answered all the same (a
    fresh child runs what a killed one was sent), each with its own value."""
    bodies = {5: "    while True:\n        pass\n", 9: "    import os\n    os._exit(3)\n",
              13: "    raise ValueError('no')\n"}
    calls = [Call(k, f"f #{k}", "f", (codec.encode(np.arange(3.0)),), public=True, seconds=0.5,
                  source="def f(x):\n" + bodies.get(k, f"    return x * {k}\n")) for k in range(40)]
    outcome = run(zygote, [{"source": "def f(x):\n    return x\n", "filename": "probe.py"}], calls,
                  Limits(step_seconds=5.0, load_seconds=5.0), functions=("f",))
    kinds = {k: outcome.calls[k].kind for k in range(40)}
    assert kinds[5] == "timeout" and kinds[9] == "crashed" and kinds[13] == "raised", kinds
    for k in set(range(40)) - set(bodies):
        assert kinds[k] == "returned" and list(outcome.calls[k].value) == [0.0, k, 2.0 * k], (k, outcome.calls[k])


def test_a_request_too_deep_to_write_again_is_answered_without_being_kept():
    """The key of a repeated request is its content written out again; a request nested deeper than
    the grader's stack allows there is not kept, and is answered (refused) as any other."""
    from autograder.sandbox.driver import _request_content

    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert _request_content("scores", [deep], {}) is None
    assert _request_content("scores", [[1.0, 2.0]], {"axis": -1}) == '["scores",[[1.0,2.0]],{"axis":-1}]'
