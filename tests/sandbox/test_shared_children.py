"""Which calls share a child (driver.may_share, docs/SECURITY.md "Every public outcome before any
hidden input"): a submission's public tests, plain and composed steps together, run in one child;
a child given a hidden test's input was given no public test's; a child given a composed step's
hidden test was given no other step's calls.

Checked over generated labs (any graph of steps, any number of public and hidden tests, any mix of
right, wrong and raising answers) graded through `grading.grade_bytes` by a scripted zygote that
notes the calls each child received; and once with the real sandbox on lab 1.
"""
import dataclasses
import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.core.declaration import Case, Output, Probe, Step
from autograder.grading import repairs
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.grading.repairs import REPAIR_IDS
from autograder.repair import RepairCache
from autograder.core.lab import Lab
from autograder.core.child import codec
from autograder.sandbox.driver import Given, may_share
from autograder.sandbox.runner import Call, Limits

LIMITS = Limits(step_seconds=5.0, load_seconds=5.0)


def _step(name, calls):
    return Step(name=name, points=1, page_step=1, params=("x",), outputs=(Output(name="y"),), calls=tuple(calls),
                make_probes=lambda s, case, t: [Probe(step=s, case=case, trace=t, args=(case.x,), expected=(case.x,))])


@st.composite
def labs(draw):
    """A lab of 1 to 6 steps, each calling steps made before it, with 1 to 3 public tests and 0 to 3
    hidden ones (each test's input is its answer: the scripted child is right by returning it)."""
    count = draw(st.integers(min_value=1, max_value=6))
    names = [f"s{i}" for i in range(count)]
    steps = [_step(name, draw(st.lists(st.sampled_from(names[:i]), unique=True)) if i else [])
             for i, name in enumerate(names)]
    public = [Case(name="page" if i == 0 else f"public-{i}", words=("w",), inputs={"x": np.full(2, float(i))})
              for i in range(draw(st.integers(min_value=1, max_value=3)))]
    hidden = [Case(name=f"hidden-{i}", words=("w",), inputs={"x": np.full(2, 10.0 + i)}, hidden=True)
              for i in range(draw(st.integers(min_value=0, max_value=3)))]
    return Lab(name="graph", titles={}, steps=tuple(steps), public_cases=lambda: public,
               hidden_cases=lambda: hidden, trace=lambda case: None)


class _Child:
    """Answers each call as `answer` says (right, wrong or raising) and notes every call it is given."""

    def __init__(self, names, answer, given):
        self.names, self.answer, self.given = names, answer, given

    def send(self, deadline=None, **command):
        pass  # the load command

    def next_event(self, deadline, limit=None):
        return {"ev": "loaded", "names": {name: "function" for name in self.names}}

    def send_text(self, text, deadline=None):
        self.call = json.loads(text)
        self.given.append(self.call["id"])

    def take_credit(self):
        return 0.0  # never kept waiting by the machine

    def credited(self, deadline):
        return 0.0

    def next_line(self, deadline, limit=None):
        call = self.call
        kind = self.answer(call["id"], call["function"])
        if kind == "raises":
            return json.dumps({"ev": "raised", "id": call["id"], "type": "ValueError", "message": "no",
                               "frames": []}).encode()
        value = codec.decode(call["args"][0]) + (0.0 if kind == "right" else 1.0)
        return codec.dumps({"ev": "returned", "id": call["id"], "value": codec.encode(value),
                            "args_after": [None]}).encode()

    def signal(self, number):
        pass

    def kill(self):
        pass


class _Zygote:
    confinement = {}
    sweeps = 0

    def __init__(self, names, answer):
        self.names, self.answer, self.children = names, answer, []

    def spawn(self, workdir, limits, budget=None):
        self.children.append([])
        return _Child(self.names, self.answer, self.children[-1])

    def sweep(self):
        pass

    def workdir_for(self, limits):
        return "unused"

    def discard(self, workdir):
        pass

    def user_for(self, limits):
        return None

    def doomed(self):
        return False


def _source(lab):
    return "".join(f"def {name}(x):\n    return x\n\n" for name in lab.function_names).encode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labs(), st.data())
def test_no_child_given_a_hidden_input_ran_public_code_or_another_step_beside_a_composed_one(lab, data):
    answers = {}

    def answer(call_id, function):
        if call_id >= REPAIR_IDS:  # a repair's candidate (public inputs only): right or wrong, so repairs are
            return data.draw(st.sampled_from(["right", "wrong"]))  # found, kept and checked on later files
        if (call_id, function) not in answers:
            answers[call_id, function] = data.draw(st.sampled_from(["right", "wrong", "raises"]))
        return answers[call_id, function]

    plan = Plan.build(lab)
    calls, probe_of = plan.calls
    kept = repairs._REPAIRS
    repairs._REPAIRS = RepairCache()  # each example its own class: a second file is told the first's repairs
    try:
        for name in ("first.py", "second.py"):
            zygote = _Zygote(lab.function_names, answer)
            result = grade_bytes(name, _source(lab), zygote, plan, LIMITS)
            assert len(result.steps) == len(lab.steps)
            _assert_children_kept_apart(lab, calls, probe_of, zygote.children)
    finally:
        repairs._REPAIRS = kept


def _assert_children_kept_apart(lab, calls, probe_of, children):
    # A repair's children (autograder.repair: candidate calls, ids from REPAIR_IDS on) are given the
    # repair plan's calls only, public and generated inputs (tests/judging/test_repair.py), never a test's.
    # A repair kept from another file is checked among a public child's calls, after all of them.
    repairs = [child for child in children if child and min(child) >= REPAIR_IDS]
    grading_children = [child for child in children if child and child not in repairs]
    for child in grading_children:
        graded = [i for i in child if i < REPAIR_IDS]
        if len(graded) < len(child):
            assert child[:len(graded)] == graded, "a repair's call before a test's in a grading child"
            assert all(probe_of[i].case.hidden is False for i in graded), "a repair's call in a hidden test's child"
    given = [[i for i in child if i < REPAIR_IDS] for child in grading_children]
    for child in given:
        hidden = {probe_of[i].case.hidden for i in child}
        assert len(hidden) == 1, "a child was given public and hidden tests"
        if hidden == {True} and any(lab.steps_by_name[calls[i].step].composed for i in child):
            assert len({calls[i].step for i in child}) == 1, "a composed step's hidden test beside another step"
    # Public tests share a child: the first run gives every public call to one child (a rerun of a
    # composed step with the student's own helpers is a later run, in a child of its own).
    public = {c.id for c in calls if c.public}
    assert public <= set(given[0]) and not set(given[0]) - public


def _call(number, step, *, public, composed):
    return Call(number, step, step, (codec.encode(0.0),), helpers=("h",) if composed else (), public=public,
                composed=composed)


CALLS = st.builds(lambda n, s, p, c: _call(n, s, public=p, composed=c), st.integers(0, 99),
                  st.sampled_from(["a", "b", "c"]), st.booleans(), st.booleans())


@given(st.lists(CALLS, max_size=6), st.lists(CALLS, min_size=1, max_size=4))
def test_the_rule_itself_over_any_calls(given_calls, group):
    allowed = may_share(given_calls, group)
    together = [*given_calls, *group]
    if any(call.public for call in together) and not all(call.public for call in together):
        assert not allowed
    elif all(call.public for call in together):
        assert allowed
    elif any(call.composed for call in together) and len({call.step for call in together}) > 1:
        assert not allowed
    # A call that does not say it is public is secret: default calls never share with public ones.
    plain = Call(0, "a", "a", ())
    assert not plain.public and not may_share([plain], [dataclasses.replace(plain, id=1, public=True)])


@given(st.lists(st.lists(CALLS, min_size=1, max_size=4), max_size=6), st.lists(CALLS, min_size=1, max_size=4))
def test_what_a_child_was_given_kept_group_by_group_answers_as_the_rule_on_every_call(groups, group):
    """`_serve` keeps what a child was given (driver.Given) as it gives each group: asked about the
    next group, it answers as the rule read on every call given so far."""
    kept = Given()
    for earlier in groups:
        kept.add(earlier)
    given_calls = [call for earlier in groups for call in earlier]
    assert kept.admits(group) is may_share(given_calls, group)


def test_lab_1_runs_its_public_tests_in_one_child_and_keeps_the_hidden_ones_apart(zygote, plan):
    """Through the real sandbox: a correct file costs three children (public tests; hidden tests of
    the plain steps; hidden tests of self_attention), and each received only what the rule allows."""
    from conftest import ROOT

    children = []
    spawn = type(zygote).spawn

    def noting(self, *args, **kwargs):
        child = spawn(self, *args, **kwargs)
        children.append([])
        send_text = child.send_text

        def send(text, deadline=None):
            command = json.loads(text)
            if command.get("cmd") == "call":
                children[-1].append(command["id"])
            return send_text(text, deadline)

        child.send_text = send
        return child

    type(zygote).spawn = noting
    try:
        data = (ROOT / "solutions" / "self_attention.py").read_bytes()
        result = grade_bytes("attention.py", data, zygote, plan, LIMITS)
    finally:
        type(zygote).spawn = spawn
    calls, probe_of = plan.calls
    assert result.all_passed
    steps = [{calls[i].step for i in child} for child in children]
    hidden = [{probe_of[i].case.hidden for i in child} for child in children]
    assert hidden == [{False}, {True}, {True}]
    assert steps[0] == set(plan.lab.steps_by_name) and steps[2] == {"self_attention"}
    assert "self_attention" not in steps[1]


def test_a_repair_search_made_while_judging_never_ends_the_child_the_composed_step_waits_in(zygote, plan):
    """The public tests of the plain steps and of the composed step share a child; between the two
    batches the grader judges the plain steps, and a failing one's repair search runs children of
    its own, each run beginning with a sweep of the sandbox user's processes. The child left waiting
    is gone after that: the composed step's tests go to a fresh child, never told as a crash of
    the student's (scores transposes Q and K when they are taller than wide: right on the page,
    wrong on "wide"; everything else is the reference's)."""
    from conftest import ROOT

    data = (ROOT / "solutions" / "self_attention.py").read_text(encoding="utf-8")
    wrong = data.replace("    return Q @ K.T\n",
                         "    if Q.shape[0] > Q.shape[1]:\n        Q, K = Q.T, K.T\n    return Q @ K.T\n", 1)
    assert wrong != data
    sweeps = zygote.sweeps
    result = grade_bytes("attention.py", wrong.encode(), zygote, plan, LIMITS)
    steps = {step.name: step for step in result.steps}
    assert steps["scores"].status == "failed"
    assert zygote.sweeps - sweeps > 3  # the repair search ran children of its own while judging
    composed = steps["self_attention"]
    assert [case.code for case in composed.cases if not case.passed] == []
    assert composed.status == "passed" and composed.follows_own_helpers is None
    assert composed.helpers is not None and composed.helpers.reference == ("scores",)
