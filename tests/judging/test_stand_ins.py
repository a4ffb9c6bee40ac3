"""The grader never computes on student-chosen inputs, and no hidden value or verdict reaches a student.

- A composed step's stand-ins answer only from a table the lab computes in advance from the running
  test's own inputs (the reference's own calls on that test); any other request is refused, with the
  grader's own record of why; answering is a look-up and counts inside the step's deadline.
- A child answers every public test before it is given any hidden test's input, one call at a time
  (tests/sandbox/test_protocol.py checks the plan and the driver).
- What a student is shown before grades are published is judged from public outcomes alone; what is
  shown of a hidden test comes from the grader's own facts, never from text the child sent.
"""
import dataclasses
import importlib
import json
import os
import tempfile
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.core import stand_in
from autograder.core.case_detail import REFUSAL_REASONS, HiddenRaised, Raised, RaisedError, Refusal
from autograder.batch.outputs import (feedback_html, feedback_markdown, load_earlier, output_paths, record_of,
                                      write_outputs)
from autograder.batch.saved import Judgement
from autograder.grading import grade_file
from autograder.grading.plan import ALL, PUBLIC, Plan
from autograder.otter.results import VISIBILITIES, gradescope_results
from autograder.registry import lab_names, load
from autograder.core.render.feedback import as_dict, as_text, text_of, feedback
from autograder.core.render.step import step_feedback
from autograder.core.child import codec
from autograder.core.child.protocol import MAX_HELPER_REQUESTS
from autograder.sandbox.runner import Call, Limits, run
from conftest import CORPORA, ROOT

HOSTILE = CORPORA / "hostile"
SOLUTION = ROOT / "solutions" / "self_attention.py"
LIMITS = Limits(step_seconds=5.0, load_seconds=5.0)
LABS = [load(name) for name in lab_names()]


# The tables ---------------------------------------------------------------------------------------

def _recorded_calls(lab, probe):
    """(name, args, value) of every helper call the reference's composed step makes on `probe`."""
    module = importlib.import_module(lab.solution)
    step = next(s for s in lab.steps if s.composed)
    calls = []
    originals = {name: getattr(module, name) for name in lab.reachable_from(step) if hasattr(module, name)}

    def recording(name, function):
        def call(*args):
            value = function(*args)
            calls.append((name, args, value))
            return value
        return call
    try:
        for name, function in originals.items():
            setattr(module, name, recording(name, function))
        getattr(module, step.name)(*probe.args)
    finally:
        for name, function in originals.items():
            setattr(module, name, function)
    return calls


@pytest.mark.parametrize("lab", LABS, ids=lambda lab: lab.name)
def test_the_tables_answer_every_call_the_reference_makes_on_every_test(lab):
    plan = Plan.build(lab)
    step = next(s for s in lab.steps if s.composed)
    for probe in plan.probes[step.name]:
        table = tuple(lab.stand_ins(probe.case, probe.trace))
        calls = _recorded_calls(lab, probe)
        assert calls, probe.case.name
        for name, args, value in calls:
            answered = stand_in.answer(table, name=name, args=list(args))
            got = answered if isinstance(answered, tuple) else (answered,)
            want = value if isinstance(value, tuple) else (value,)
            assert len(got) == len(want) and all(np.allclose(a, b) for a, b in zip(got, want)), (name, probe.case.name)


@pytest.fixture(params=LABS, ids=lambda lab: lab.name)
def answering(request):
    """A lab's plan whose tables are built, with the reference made unusable from then on."""
    lab = request.param
    plan = Plan.build(lab)
    answers = plan.stand_ins
    module = importlib.import_module(lab.solution)
    saved = {name: getattr(module, name) for name in dir(module) if callable(getattr(module, name))}

    def forbidden(*args, **kwargs):
        raise AssertionError("the reference ran while a stand-in answered")
    for name in saved:
        if not name.startswith("_") and getattr(saved[name], "__module__", "") == module.__name__:
            setattr(module, name, forbidden)
    yield plan, answers
    for name, function in saved.items():
        setattr(module, name, function)


ARRAYS = st.builds(lambda shape, seed, scale: np.random.default_rng(seed).normal(size=shape) * scale,
                   st.lists(st.integers(1, 7), min_size=1, max_size=3).map(tuple),
                   st.integers(0, 2**16), st.sampled_from([1e-3, 1.0, 30.0, 1e6]))
VALUES = st.one_of(ARRAYS, st.integers(-3, 10**6), st.floats(allow_nan=True), st.text(max_size=5),
                   st.lists(st.text(max_size=4), max_size=4), st.none(), st.lists(st.floats(), max_size=5))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_request_gets_a_rows_value_or_a_refusal_and_the_reference_never_runs(answering, data):
    plan, answers = answering
    calls, probe_of = plan.calls
    composed = [call for call in calls if call.helpers]
    call = data.draw(st.sampled_from(composed))
    table = answers.tables[call.id]
    row = data.draw(st.sampled_from(table))
    name = data.draw(st.sampled_from([row.name, *call.helpers, "print", "__import__"]))
    if data.draw(st.booleans()):  # a row's own arguments, perturbed or not
        args = [a * data.draw(st.sampled_from([1.0, 1.0 + 1e-9, 1.001, -1.0])) if isinstance(a, np.ndarray) else a
                for a in row.args]
    else:
        args = data.draw(st.lists(VALUES, max_size=5))
    try:
        encoded = answers(call.id, name, args)
    except stand_in_refused():
        assert not any(r.name == name and stand_in.same_arguments(args, r.args) for r in table)
        return
    value = codec.decode(encoded)
    matching = [r for r in table if r.name == name and stand_in.same_arguments(args, r.args)]
    assert matching and codec.dumps(codec.encode(value)) == codec.dumps(codec.encode(matching[0].value))


def stand_in_refused():
    from autograder.sandbox.runner import HelperRefused
    return HelperRefused


def test_a_huge_request_is_refused_without_the_grader_computing_it():
    """Lab 2's causal_mask(n) for a large n built an n×n table in the grader; now it is a refusal."""
    lab = load("masked_attention")
    plan = Plan.build(lab)
    calls, _ = plan.calls
    call = next(c for c in calls if "causal_mask" in c.helpers)
    tracemalloc.start()
    try:
        for n in (10**4, 10**5, 3 * 10**5):
            with pytest.raises(stand_in_refused()):
                plan.stand_ins(call.id, "causal_mask", [n])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


class _Slow:
    """A helper callback that takes its time: time spent answering must count inside the deadline."""

    def __init__(self, seconds):
        self.seconds, self.asked = seconds, 0

    def __call__(self, call_id, name, args):
        self.asked += 1
        time.sleep(self.seconds)
        return codec.encode(1.0)


def test_time_spent_answering_counts_inside_the_steps_deadline(zygote):
    # 40 answers of 0.25 s: 10 s, beyond the 1 s limit even stretched threefold for a loaded machine
    # (the sandbox moves a deadline by the time a child waited for a CPU, up to 3 times its length).
    source = "def self_attention():\n    return sum(softmax(i) for i in range(40))\n"
    slow = _Slow(0.25)
    outcome = run(zygote, [{"source": source, "filename": "probe.py"}],
                  [Call(0, "self_attention", "self_attention", (), helpers=("softmax",))],
                  Limits(step_seconds=1.0, load_seconds=5.0), slow)
    assert outcome.calls[0].kind == "timeout" and slow.asked < 40


class _AskingChild:
    """A child that asks for a helper on every read, its requests there whenever the grader looks
    (as on a loaded machine, where the grader wakes late); `late`: the call's time has passed."""

    def __init__(self, late):
        self.late, self.answered = late, 0

    def send_text(self, text, deadline=None):
        pass

    def send(self, deadline=None, **command):
        self.answered += 1

    def next_line(self, deadline, limit):
        if self.answered >= 3:
            return json.dumps({"ev": "returned", "id": 0, "value": codec.encode(1.0), "args_after": []}).encode()
        return json.dumps({"ev": "helper", "id": 0, "seq": self.answered + 1, "name": "softmax",
                           "args": [codec.encode(1.0)]}).encode()

    def overdue(self, deadline):
        return self.late


@pytest.mark.parametrize("late", [False, True])
def test_a_helper_request_read_after_the_calls_time_ends_the_call_as_a_timeout(late):
    """INVARIANT (docs/SECURITY.md, "a busy machine"): a call never runs past its limit by asking for
    helpers: a request read once its deadline has passed (moved by the machine's waits) is not
    answered, and the call is a timeout; before then each is answered."""
    from autograder.sandbox import driver
    child = _AskingChild(late)
    call = Call(0, "self_attention", "self_attention", (), helpers=("softmax",))
    outcome = driver._awaited(child, call, time.monotonic() + 60, _Slow(0.0), [], sent=True)
    assert (outcome.kind, child.answered) == (("timeout", 0) if late else ("returned", 3))


# Hidden values in what a student sees ------------------------------------------------------------------

def _outputs(result, lab):
    """Everything graded output holds that a student may read, in both languages."""
    texts = []
    for lang in ("ko", "en"):
        texts.append(as_text(result, lab, lang))
        texts.append(json.dumps(as_dict(result, lab, lang), ensure_ascii=False))
        for visibility in VISIBILITIES:
            texts.append(json.dumps(gradescope_results(result, lab, lang, visibility), ensure_ascii=False))
        record = record_of(result, "s1", "s1.py", "key", [], "graded", lab)
        text = text_of(feedback(result, lab, lang))
        texts.append(feedback_markdown(record, text, lab, lang))
        texts.append(feedback_html(record, text, lab, lang, result))
        texts.append(_batch_files(result, record, lab, lang))
    return "\n".join(texts)


def _batch_files(result, record, lab, lang):
    """Every file `autograder grade` writes for the student, the saved judged result in
    results/<id>.json included (batch.saved), as read back from the disk."""
    with tempfile.TemporaryDirectory() as folder:
        for name in ("feedback", "results"):
            os.mkdir(os.path.join(folder, name))
        write_outputs(folder, result, record, lab, lang, Judgement(key="key", status="graded", result=result))
        paths = output_paths(folder, "s1")
        assert load_earlier(folder, "s1", lab).judgement is not None  # the judged result is in the file searched
        return "\n".join(open(paths[kind], encoding="utf-8").read() for kind in ("md", "html", "json"))


def _public_twin(case, lab):
    """Whether a hidden test repeats a public one exactly (the page's case again)."""
    return any(all(np.array_equal(case.inputs[k], p.inputs[k]) for k in case.inputs)
               for p in lab.public_cases() if p.inputs.keys() == case.inputs.keys())


def test_hidden_values_never_reach_a_student(zygote, plan):
    lab = plan.lab
    result = grade_file(HOSTILE / "leak__hidden_values_through_the_stand_ins.py", zygote, plan, LIMITS)
    shown = _outputs(result, lab)
    assert "LEAKAHEAD" not in shown and "LEAKORACLE" not in shown  # nothing read ahead, no oracle answered
    attention = next(s for s in result.steps if s.name == "self_attention")
    assert all(not c.passed for c in attention.cases)
    shown_public = []

    def values_of(probe):
        weights = probe.expected[1]
        return repr(np.round(weights, 3).tolist()), "LEAK" + str(abs(int(np.sum(weights) * 1000)))
    # A hidden test's value that a public test has too is a public value (a one-word test's
    # weights are [[1.0]] on any input): every public test's detail is in the saved result.
    public_values = {value for probe in plan.probes["self_attention"] if not probe.case.hidden
                     for value in values_of(probe)}
    for probe in plan.probes["self_attention"]:
        said, kind = values_of(probe)
        if probe.case.hidden and not _public_twin(probe.case, lab) and not {said, kind} & public_values:
            assert said not in shown and kind not in shown, probe.case.name
            for value in probe.case.inputs.values():
                if isinstance(value, np.ndarray) and value.size > 1:
                    assert repr(np.round(value, 3).tolist()) not in shown
        elif not probe.case.hidden:
            shown_public.append(said in shown)
    assert shown_public[0]  # the first public failure is told in full: the same channels carry public values


def test_a_hidden_error_is_told_by_a_type_python_defines_only(zygote, plan, tmp_path):
    """The type's name, the message, the place and the source line a child sends about a hidden test
    are its own choice; the feedback keeps only a type Python defines."""
    path = tmp_path / "hidden_error.py"
    path.write_text(SOLUTION.read_text("utf-8") + (
        "\n\nclass ShapeProblem(Exception):\n    pass\n\n\n"
        "def mix(weights, V):\n"
        "    if weights.shape[0] in (6,):\n"
        "        import linecache\n"
        "        for name in list(linecache.cache):\n"
        "            size, mtime, lines, full = linecache.cache[name]\n"
        "            linecache.cache[name] = (size, mtime, ['SEC' + 'RETLINE\\n'] * len(lines), full)\n"
        "        raise type('SEC' + 'RETTYPE' + str(V.shape), (ValueError,), {})('SEC' + 'RET ' + repr(V.tolist()))\n"
        "    if weights.shape[0] in (4,) and V.shape[1] == 6:\n"
        "        raise ShapeProblem('SEC' + 'RET')\n"
        "    return weights @ V\n"), "utf-8")
    result = grade_file(path, zygote, plan, LIMITS)
    mix = next(s for s in result.steps if s.name == "mix")
    hidden = [c for c in mix.cases if c.hidden and not c.passed]
    assert hidden and all(isinstance(c.detail, HiddenRaised) for c in hidden)
    shown = _outputs(result, plan.lab)
    assert "SECRET" not in shown
    types = {c.detail.error.type for c in hidden}
    assert types == {"Exception"}  # a made-up type, and the file's own class: one of many it could choose
    assert all(c.detail.error.frames == () and c.detail.error.message == "" for c in hidden)  # never where either


def test_the_public_view_is_judged_from_public_tests_only(zygote, plan, tmp_path):
    """softmax fails one hidden test (six words) only: the public tests do not say so, through the
    softmax step or through which helpers the grader stood in for in self_attention."""
    path = tmp_path / "hidden_only.py"
    path.write_text(SOLUTION.read_text("utf-8") + (
        "\n\n_right = softmax\n\n\n"
        "def softmax(x):\n"
        "    x = np.asarray(x, dtype=float)\n"
        "    return _right(x) ** 2 if x.shape[-1] == 6 else _right(x)\n"), "utf-8")
    result = grade_file(path, zygote, plan, LIMITS)
    full = {s.name: s for s in result.steps}
    public = {s.name: s for s in result.public_steps}
    assert full["softmax"].status == "failed" and public["softmax"].status == "passed"
    assert "softmax" in full["self_attention"].helpers.reference
    assert public["self_attention"].helpers.reference == ()
    assert not any(c.hidden for s in result.public_steps for c in s.cases)
    for lang in ("ko", "en"):
        results = gradescope_results(result, plan.lab, lang, "after_published")
        assert results["tests"][0]["status"] == "passed"
        assert results["tests"][0]["output"] == "\n\n".join(
            [_public_text(step, lab=plan.lab, lang=lang) for step in result.public_steps])


def _public_text(step, *, lab, lang):
    from autograder.core.render.messages import Messages
    say = Messages(lang, lab)
    text = step_feedback(step, lab, lang).split("\n")
    return "\n".join([say("text", "public_step_header", name=step.name, status=say("status", step.status))] + text[1:])


# Refusals, worded by the grader ------------------------------------------------------------------------

STUB_SOFTMAX = "\n\ndef softmax(x):\n    raise NotImplementedError\n"


@pytest.mark.parametrize("body, code", [
    # Scores divided by d_k instead of √d_k: the table holds it, so the mistake is still named.
    ("    w = softmax(scores(Q, K) / K.shape[1])\n", "scale_by_dk"),
    # The scores' transpose is nothing the reference passes: refused, and the feedback says so.
    ("    w = softmax((scores(Q, K) / np.sqrt(K.shape[1])).T)\n", "stand_in_refused"),
])
def test_a_composed_step_with_a_stand_in_is_named_or_told_why_not(zygote, plan, tmp_path, body, code):
    path = tmp_path / "composed.py"
    path.write_text(SOLUTION.read_text("utf-8") + STUB_SOFTMAX + (
        "\n\ndef self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
        + body + "    return mix(w, V), w\n"), "utf-8")
    result = grade_file(path, zygote, plan, LIMITS)
    attention = next(s for s in result.steps if s.name == "self_attention")
    assert attention.mistakes[0] == code
    if code == "stand_in_refused":
        case = next(c for c in attention.cases if not c.passed and not c.hidden)
        assert case.detail.refused == Refusal(helper="softmax", reason="arguments")
        ko, en = (step_feedback(attention, plan.lab, lang) for lang in ("ko", "en"))
        assert "softmax() 호출에는 채점기가 답하지 않았습니다" in ko and "참조 풀이" in ko
        assert "The grader did not answer this call of softmax()" in en
        assert "LookupError" not in ko  # the grader's own sentence, not the child's exception


def test_a_hidden_timeout_still_lets_the_public_view_try_the_students_own_helpers(zygote, plan, tmp_path):
    """self_attention loops forever on one hidden test (six words) and is right only with the
    student's own make_qkv (Q, V, K returned and unpacked in that order): the grade says timeout;
    the public view runs the public tests again with the student's own helpers, as the kit does."""
    path = tmp_path / "own_helpers.py"
    path.write_text(SOLUTION.read_text("utf-8") + (
        "\n\ndef make_qkv(X, W_Q, W_K, W_V):\n    return X @ W_Q, X @ W_V, X @ W_K\n\n\n"
        "def self_attention(X, W_Q, W_K, W_V):\n"
        "    while X.shape[0] == 6:\n        pass\n"
        "    Q, V, K = make_qkv(X, W_Q, W_K, W_V)\n"
        "    w = softmax(scores(Q, K) / np.sqrt(K.shape[1]))\n"
        "    return mix(w, V), w\n"), "utf-8")
    result = grade_file(path, zygote, plan, Limits(step_seconds=2.0, load_seconds=5.0))
    full = {s.name: s for s in result.steps}
    public = {s.name: s for s in result.public_steps}
    assert full["self_attention"].status == "timeout"
    assert public["self_attention"].status == "passed"
    assert public["self_attention"].follows_own_helpers.code == "fits_own_helpers"


def test_the_feedback_names_only_the_stand_ins_a_step_asked(zygote, plan, tmp_path):
    """most_attended is wrong, but self_attention never calls it: no stand-in is said to have stood in."""
    path = tmp_path / "asked.py"
    path.write_text(SOLUTION.read_text("utf-8") + STUB_SOFTMAX + (
        "\n\ndef most_attended(weights, words):\n    return {}\n"), "utf-8")
    result = grade_file(path, zygote, plan, LIMITS)
    attention = next(s for s in result.steps if s.name == "self_attention")
    assert attention.status == "passed" and attention.helpers.reference == ("softmax",)


@settings(max_examples=200, deadline=None)
@given(helper=st.text(max_size=40), reason=st.sampled_from(REFUSAL_REASONS))
def test_a_hidden_tests_refused_request_keeps_a_helpers_name_only_when_it_is_the_labs(helper, reason):
    """A refused stand-in request's name is the child's choice, made after it saw a hidden test's
    inputs: of a hidden test the kept detail names the helper only when it is one of the lab's
    functions (what a results file, a page or a summary may then show)."""
    from autograder.grading.hidden import hidden_facts_only
    from autograder.core.verdict import CaseResult, StepResult
    from autograder.core.reading.submission import read_submission

    lab = LABS[0]
    refused = Refusal(helper=helper, reason=reason)
    cases = [CaseResult(case=name, hidden=hidden, label=name, passed=False, code="stand_in_refused", raised=True,
                        detail=Raised(error=RaisedError(type="LookupError", message=helper,
                                                        frames=(("f.py", 3, helper, helper),)), refused=refused))
             for name, hidden in (("public", False), ("hidden", True))]
    result = StepResult(name="self_attention", score=0.0, max_score=3.0, status="failed", mistakes=[], cases=cases)
    kept = hidden_facts_only(result, read_submission(str(SOLUTION), SOLUTION.read_bytes()),
                             lab_names=lab.function_names)
    public, hidden = kept.cases
    assert public.detail == cases[0].detail
    shown = helper if helper in lab.function_names else ""
    assert hidden.detail == HiddenRaised(error=RaisedError(type="LookupError", message=""),
                                         refused=Refusal(helper=shown, reason=reason))
    assert hidden.detail.as_data() == {"refused": {"helper": shown, "reason": reason},
                                       "error": {"type": "LookupError", "message": "", "frames": []}}
