"""The step graph: `Step(calls=...)` declares which steps a composed step calls; steps are graded in
a topological order at any depth; a callee that passed runs as the student's own, one that did
not is answered by a stand-in, whose arguments are bound to the reference's signature (defaults
applied), and a composed step's note names exactly the callees it declares.

The lab of these tests (tests/corpora/labs/positional/) is installed on the fly as a real lab is found, by
its entry point: four steps, encoder_input → add_and_norm → layer_norm two levels deep, and
layer_norm's reference has a default argument (eps=1e-5).
"""
import csv
import inspect
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import positional_lab
from autograder import cli
from autograder.core import stand_in
from autograder.core.declaration import Case, Output, Probe, Step
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.file_facts import helpers_used
from autograder.core.lab import Lab, LabError
from autograder.core.render.feedback import as_text
from autograder.sandbox.runner import Limits
from autograder.core.stand_in import StandIn
from conftest import ROOT

from autograder.authoring import fill

LIMITS = Limits(step_seconds=5.0, load_seconds=5.0)

SOLUTION = '''
import numpy as np


def positional_encoding(n, d):
    position = np.arange(n)[:, None]
    column = np.arange(d)[None, :]
    angle = position / np.power(10000.0, (2 * (column // 2)) / d)
    return np.where(column % 2 == 0, np.sin(angle), np.cos(angle))


def layer_norm(x, eps=1e-5):
LAYER_NORM_BODY


def add_and_norm(x, sublayer_out):
    return ADD_CALL


def encoder_input(X):
    n, d = X.shape
    return add_and_norm(X, positional_encoding(n, d))
'''
RIGHT_NORM = ("    mean = x.mean(axis=-1, keepdims=True)\n"
              "    return (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)")
NOT_CENTRED = "    return x / np.sqrt(x.var(axis=-1, keepdims=True) + eps)"
# How a student's add_and_norm may call layer_norm: omitting eps, by position, by keyword.
CALL_FORMS = {"omitted": "layer_norm(x + sublayer_out)",
              "positional": "layer_norm(x + sublayer_out, 1e-5)",
              "keyword": "layer_norm(x + sublayer_out, eps=1e-5)",
              "all_by_keyword": "layer_norm(x=x + sublayer_out, eps=0.00001)"}


def submission(norm=RIGHT_NORM, call=CALL_FORMS["omitted"]):
    return SOLUTION.replace("LAYER_NORM_BODY", norm).replace("ADD_CALL", call)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    with positional_lab.installed(tmp_path_factory.mktemp("site")) as installed:
        yield installed


@pytest.fixture(scope="module")
def plan(lab):
    return Plan.build(lab)


@pytest.fixture(scope="module")
def graded(lab, plan, zygote):
    def grade(text):
        return grade_bytes("s.py", text.encode(), zygote, plan, LIMITS)
    return grade


def by_name(result):
    return {step.name: step for step in result.steps}


# The graph, as the lab declares it ------------------------------------------------------------------

def _step(name, calls=()):
    return Step(name=name, points=1, page_step=1, params=("x",), outputs=(Output(name="y"),), calls=tuple(calls))


def _lab(steps):
    return Lab(name="graph", titles={}, steps=tuple(steps), public_cases=lambda: [])


def test_the_test_lab_is_found_by_its_entry_point_and_graded_in_its_graph_order(lab):
    from autograder import registry

    assert "positional" in registry.lab_names() and registry.load("positional") is lab
    assert [step.name for step in lab.grading_order] == ["positional_encoding", "layer_norm", "add_and_norm",
                                                         "encoder_input"]
    assert lab.reachable_from(lab.steps_by_name["encoder_input"]) == ("positional_encoding", "layer_norm",
                                                                      "add_and_norm")
    assert str(lab.callee_signatures["layer_norm"]) == "(x, eps=1e-05)"


@pytest.mark.parametrize("steps, words", [
    ([_step("a", ["b"])], ["'a' calls 'b'", "no step of the lab"]),
    ([_step("a", ["a"])], ["'a' lists itself"]),
    ([_step("a", ["b"]), _step("b", ["c"]), _step("c", ["a"])], ["in a circle", "a → b → c → a"]),
    ([_step("a"), _step("a")], ["two steps are named a"]),
])
def test_a_wrong_graph_is_refused_when_the_lab_is_built(steps, words):
    with pytest.raises(LabError) as refused:
        _lab(steps)
    for word in words:
        assert word in str(refused.value)


def test_calls_must_be_names():
    with pytest.raises(TypeError, match="calls= takes a tuple of step names"):
        Step(name="a", points=1, page_step=1, params=("x",), outputs=(Output(name="y"),), calls="b")


@st.composite
def dags(draw):
    """A lab's steps in a random order, each calling a random set of steps made before it."""
    count = draw(st.integers(min_value=1, max_value=8))
    names = [f"s{i}" for i in range(count)]
    calls = {name: draw(st.lists(st.sampled_from(names[:i]), unique=True)) if i else []
             for i, name in enumerate(names)}
    order = draw(st.permutations(names))
    return [_step(name, calls[name]) for name in order]


@settings(max_examples=200, deadline=None)
@given(dags())
def test_the_grading_order_is_a_topological_order_of_any_graph(steps):
    lab = _lab(steps)
    order = [step.name for step in lab.grading_order]
    assert sorted(order) == sorted(step.name for step in steps)
    for step in steps:
        assert all(order.index(callee) < order.index(step.name) for callee in step.calls)
    # A lab whose order already fits keeps it.
    assert [s.name for s in _lab(lab.grading_order).grading_order] == order


@settings(max_examples=100, deadline=None)
@given(dags(), st.data())
def test_a_graph_with_a_cycle_is_refused(steps, data):
    composed = [step for step in steps if step.calls]
    if not composed:
        return
    step = data.draw(st.sampled_from(composed))
    callee = data.draw(st.sampled_from(step.calls))
    closed = [_step(s.name, list(s.calls) + [step.name]) if s.name == callee else s for s in steps]
    with pytest.raises(LabError, match="in a circle"):
        _lab(closed)


class _Outcome:
    def __init__(self, stood_in):
        self.stood_in, self.refused = list(stood_in), []


@settings(max_examples=200, deadline=None)
@given(dags(), st.data())
def test_a_composed_steps_note_names_exactly_the_steps_it_calls(steps, data):
    """Whatever passed and whatever the step asked, each callee it declares is named once: its own,
    answered by the reference, or not called; steps reached only through its callees are told apart."""
    lab = _lab(steps)
    names = lab.function_names
    passing = set(data.draw(st.lists(st.sampled_from(names), unique=True))) if names else set()
    asked = set(data.draw(st.lists(st.sampled_from(names), unique=True))) if names else set()
    for step in lab.grading_order:
        if not step.calls:
            continue
        reachable = lab.reachable_from(step)
        stood_in = [name for name in reachable if name in asked and name not in passing]
        note = helpers_used(step.calls, passing, [_Outcome(stood_in)], reachable=reachable)
        told = note.own + note.reference + note.unused
        assert sorted(told) == sorted(step.calls) and len(told) == len(set(told))
        assert set(note.own) == set(step.calls) & passing
        assert set(note.reference) == set(step.calls) & set(stood_in)
        assert set(note.nested_reference) == set(stood_in) - set(step.calls)
        assert set(reachable) >= set(step.calls)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dags())
def test_the_plan_runs_composed_steps_in_grading_order_with_stand_ins_for_all_they_reach(steps):
    lab = Lab(name="graph", titles={}, steps=tuple(replace_probes(s) for s in steps),
              public_cases=lambda: [Case(name="page", words=("w",), inputs={"x": np.ones(2)})], trace=lambda case: None)
    calls, _ = Plan.build(lab).calls
    composed = [c.step for c in calls if lab.steps_by_name[c.step].calls]
    order = [s.name for s in lab.grading_order if s.calls]
    assert composed == order
    for call in calls:
        assert call.helpers == lab.reachable_from(lab.steps_by_name[call.step])


def replace_probes(step):
    import dataclasses

    return dataclasses.replace(step, make_probes=lambda s, case, t: [Probe(step=s, case=case, trace=t, args=(case.x,),
                                                                         expected=(case.x,))])


# Stand-ins bind a call to the reference's signature ------------------------------------------------

def _layer_norm(x, eps=1e-5):
    return x


LAYER_NORM = inspect.signature(_layer_norm)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=2, max_size=6), st.sampled_from(["omitted", "positional", "keyword",
                                                                          "all_by_keyword"]))
def test_a_defaulted_argument_may_be_omitted_or_given_either_way(values, form):
    x = np.array(values)
    table = (StandIn(name="layer_norm", args=(x.copy(),), value="answer"),)
    args, keywords = {"omitted": ([x], {}), "positional": ([x, 1e-5], {}), "keyword": ([x], {"eps": 1e-5}),
                      "all_by_keyword": ([], {"x": x, "eps": 1e-5})}[form]
    assert stand_in.answer(table, name="layer_norm", args=args, keywords=keywords, signature=LAYER_NORM) == "answer"
    # A row written with the default spelled out matches the same calls.
    spelled = (StandIn(name="layer_norm", args=(x.copy(), 1e-5), value="answer"),)
    assert stand_in.answer(spelled, name="layer_norm", args=args, keywords=keywords, signature=LAYER_NORM) == "answer"


@pytest.mark.parametrize("args, keywords", [
    ([np.ones(3), 1e-3], {}),  # another eps: not what the reference passes
    ([np.ones(3)], {"eps": 1e-3}),
    ([np.ones(3)], {"axis": -1}),  # a keyword the reference does not take
    ([np.ones(3), 1e-5, 0], {}),  # too many
    ([], {}),  # x missing
    ([np.ones(3)], {"x": np.ones(3)}),  # x twice
    ([np.ones(3) * 2], {}),  # other values
])
def test_anything_else_is_refused_never_computed(args, keywords):
    table = (StandIn(name="layer_norm", args=(np.ones(3),), value="answer"),)
    with pytest.raises(stand_in.Refused) as refused:
        stand_in.answer(table, name="layer_norm", args=args, keywords=keywords, signature=LAYER_NORM)
    assert refused.value.reason == "arguments"


# Grading, through every face -------------------------------------------------------------------------

def test_a_correct_submission_gets_full_marks(lab, graded):
    result = graded(submission())
    assert result.score == result.max_score == lab.total_points, \
        [(s.name, s.status, s.mistakes, s.helpers) for s in result.steps]


@pytest.mark.parametrize("form", sorted(CALL_FORMS))
def test_a_wrong_layer_norm_costs_only_its_own_points(lab, graded, form):
    """The two composed steps above it pass with the stand-in, however add_and_norm passes eps."""
    result = graded(submission(norm=NOT_CENTRED, call=CALL_FORMS[form]))
    steps = by_name(result)
    assert steps["layer_norm"].status == "failed" and steps["layer_norm"].mistakes == ["not_centred"]
    assert steps["layer_norm"].score < steps["layer_norm"].max_score
    for name in ("positional_encoding", "add_and_norm", "encoder_input"):
        assert steps[name].status == "passed" and steps[name].score == steps[name].max_score, (name, steps[name])
    assert result.score == lab.total_points - (steps["layer_norm"].max_score - steps["layer_norm"].score)
    add = steps["add_and_norm"].helpers
    assert add.reference == ("layer_norm",) and add.own == ()
    # encoder_input ran the student's own add_and_norm (it passed), which called the stand-in.
    encoder = steps["encoder_input"].helpers
    assert encoder.own == ("positional_encoding", "add_and_norm")
    assert encoder.reference == () and encoder.nested_reference == ("layer_norm",)


def test_the_note_says_which_callees_were_the_students_and_which_the_reference_answered(lab, graded):
    result = graded(submission(norm=NOT_CENTRED))
    english, korean = as_text(result, lab, "en"), as_text(result, lab, "ko")
    encoder = english[english.index("encoder_input"):]
    assert ("Answered by the grader with the reference (their steps did not pass): none. Your own functions "
            "used as written: positional_encoding, add_and_norm. Inside your own functions above, also "
            "answered by the grader with the reference: layer_norm.") in encoder
    add = english[english.index("■ add_and_norm"):english.index("■ encoder_input")]
    assert "Answered by the grader with the reference (their steps did not pass): layer_norm. Your own " \
           "functions used as written: none." in add
    assert "내 함수를 그대로 쓴 함수: positional_encoding, add_and_norm." in korean
    assert "위의 내 함수 안에서 채점기가 기준 답으로 바꿔 계산한 함수: layer_norm." in korean


def test_another_eps_is_refused_with_a_sentence_not_answered(lab, graded):
    """The grader never computes on a student's values: eps=1e-3 is not a call the reference makes."""
    result = graded(submission(norm=NOT_CENTRED, call="layer_norm(x + sublayer_out, eps=1e-3)"))
    add = by_name(result)["add_and_norm"]
    assert add.status != "passed" and "stand_in_refused" in add.mistakes
    assert "not the values the reference solution passes to layer_norm()" in as_text(result, lab, "en")


def test_a_composed_step_that_does_not_call_a_failed_callee_says_so(lab, graded):
    """encoder_input computing the positions itself: its failed positional_encoding is never called."""
    text = submission().replace("np.sin(angle), np.cos(angle))", "np.cos(angle), np.sin(angle))", 1)
    text = text.replace("    return add_and_norm(X, positional_encoding(n, d))",
                        "    column = np.arange(d)[None, :]\n"
                        "    angle = np.arange(n)[:, None] / np.power(10000.0, (2 * (column // 2)) / d)\n"
                        "    return add_and_norm(X, np.where(column % 2 == 0, np.sin(angle), np.cos(angle)))")
    steps = by_name(graded(text))
    assert steps["positional_encoding"].status == "failed" and steps["encoder_input"].status == "passed"
    note = steps["encoder_input"].helpers
    assert note.unused == ("positional_encoding",) and note.reference == ()
    assert note.own == ("add_and_norm",)


def _main(argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def test_check_and_grade_give_full_marks_and_charge_layer_norm_only(lab, tmp_path):
    right, wrong = tmp_path / "right.py", tmp_path / "wrong.py"
    right.write_text(submission(call=CALL_FORMS["keyword"]), "utf-8")
    wrong.write_text(submission(norm=NOT_CENTRED, call=CALL_FORMS["positional"]), "utf-8")
    code, out, err = _main(["check", str(right), "--lab", "positional", "--json"])
    assert code == 0, err
    checked = json.loads(out)
    assert checked["score"] == checked["max_score"] == lab.total_points
    code, out, err = _main(["check", str(wrong), "--lab", "positional", "--json"])
    assert code == 1
    statuses = {step["name"]: step["status"] for step in json.loads(out)["steps"]}
    assert statuses == {"positional_encoding": "passed", "layer_norm": "failed", "add_and_norm": "passed",
                        "encoder_input": "passed"}

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "kim.py").write_text(right.read_text("utf-8"), "utf-8")
    (folder / "lee.py").write_text(wrong.read_text("utf-8"), "utf-8")
    code, out, err = _main(["grade", str(folder), "--out", str(tmp_path / "out"), "--lab", "positional",
                            "--jobs", "1"])
    assert code == 0, err
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(
        (tmp_path / "out" / "grades.csv").read_text("utf-8-sig")))}
    assert float(rows["kim"]["total"]) == lab.total_points
    assert float(rows["lee"]["add_and_norm"]) == 1 and float(rows["lee"]["encoder_input"]) == 2
    assert float(rows["lee"]["layer_norm"]) < 2 and float(rows["lee"]["positional_encoding"]) == 2


# The students' kit reads the same graph -----------------------------------------------------------

@pytest.fixture(scope="module")
def student(lab, tmp_path_factory):
    from autograder.otter.student_half import write_student_half

    folder = tmp_path_factory.mktemp("positional-student")
    write_student_half(folder, lab, "en")
    return folder


def _kit(student, path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # nothing of this repository
    return subprocess.run([sys.executable, "-m", "lab_check", str(path), "--json"], cwd=student,
                          capture_output=True, text=True, timeout=300, env=env)


def test_the_kits_data_carries_the_graph_and_the_signatures(student):
    data = json.loads((student / "lab_check" / "kit" / "public_data.json").read_text("utf-8"))
    assert {step["name"]: step["calls"] for step in data["steps"]} == {
        "positional_encoding": [], "layer_norm": [], "add_and_norm": ["layer_norm"],
        "encoder_input": ["positional_encoding", "add_and_norm"]}
    assert [p["name"] for p in data["signatures"]["layer_norm"]] == ["x", "eps"]
    assert "default" in data["signatures"]["layer_norm"][1] and "needs_helpers" not in json.dumps(data["steps"])


@pytest.mark.parametrize("norm, form", [(RIGHT_NORM, "keyword"), (NOT_CENTRED, "omitted"),
                                        (NOT_CENTRED, "keyword"), (NOT_CENTRED, "positional")])
def test_the_kit_says_what_the_engine_says_on_public_tests(lab, student, zygote, tmp_path, norm, form, monkeypatch):
    monkeypatch.setenv("AUTOGRADER_REPAIR", "off")  # the kit runs no repair search (no sandbox)
    path = tmp_path / "mine.py"
    path.write_text(submission(norm=norm, call=CALL_FORMS[form]), "utf-8")
    done = _kit(student, path)
    assert done.stdout, done.stderr[-3000:]
    got = json.loads(done.stdout)
    engine = grade_bytes("mine.py", path.read_bytes(), zygote, Plan.build(lab, list(lab.public_cases())), LIMITS)
    assert {s["name"]: s["status"] for s in got["steps"]} == {s.name: s.status for s in engine.steps}
    assert got["score"] == engine.score
    steps = {s["name"]: s for s in got["steps"]}
    assert steps["add_and_norm"]["status"] == steps["encoder_input"]["status"] == "passed"
    assert done.returncode == (0 if norm == RIGHT_NORM else 1)


def test_the_filled_twin_passes_every_otter_check(lab, student):
    script = student / "filled_lab.py"
    script.write_text(fill.fill_script((student / "positional_lab.py").read_text("utf-8"), lab=lab), "utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, script.name], cwd=student, capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    for step in lab.steps:
        assert f"{step.name} results: All test cases passed!" in done.stdout, done.stdout[-3000:]
