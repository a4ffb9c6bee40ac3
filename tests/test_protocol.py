"""The grader<->child protocol: what a child may read, what the grader reads of it, and helpers.

No reference code and no expected value ever enters a process that runs student code; helper
requests are answered one at a time, as untrusted requests; what the grader reads is bounded per
event and per run, and read in linear time and constant memory.
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

from autograder.helpers import HelperAnswers
from autograder.sandbox.runner import HelperRefused
from labs.self_attention import reference
from autograder.grading import answer_bytes
from autograder.sandbox import codec
from autograder.sandbox.child_pipes import TOO_LARGE, Child, OutputSpent, ReadBudget
from autograder.sandbox.driver import MAX_HELPER_REQUESTS
from autograder.sandbox.protocol import plain_error, plain_load_event
from autograder.sandbox.runner import Call, CallOutcome, Limits, run
from labs.self_attention.steps import STEPS
from conftest import ROOT
from labs.self_attention import LAB

LIMITS = Limits(step_seconds=5.0, load_seconds=5.0)
REFERENCE_TEXT = ("Softmax over the last axis", "Blend the value vectors", "Project the word vectors",
                  "idxmax", "def make_qkv", "def softmax")

ANSWERS = HelperAnswers(reference.helpers())


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


def test_no_command_a_child_can_read_holds_an_answer_it_has_not_given(plan):
    """A step's calls are sent once the step before has answered, and a step graded with helpers
    runs in a child of its own. So what a child can read while answering a step is that step's
    arguments and those of earlier steps of the same child. None of them may equal the expected
    output of another call of that step or a later step of that child (mix's weights are
    softmax's answers and self_attention's). A call's own arguments may (mix of one word
    returns its V): the call is given them anyway."""
    calls, probe_of = plan.calls
    order = []
    for call in calls:
        if call.step not in order:
            order.append(call.step)
    alone = {c.step for c in calls if c.helpers}
    same_child = {step: [s for s in order if (s in alone) == (step in alone)] for step in order}
    for step in order:
        mine = same_child[step]
        readable = [(c.id, a) for c in calls if c.step in mine and mine.index(c.step) <= mine.index(step)
                    for a in _decoded_arrays(c)]
        for call in calls:
            if call.step not in mine or mine.index(call.step) < mine.index(step):
                continue
            for expected in probe_of[call.id].expected:
                if isinstance(expected, np.ndarray) and expected.size > 1:
                    assert not any(a.shape == expected.shape and np.allclose(a, expected)
                                   for owner, a in readable if owner != call.id), (step, call.step, call.id)


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
    assert set(helped[0].helpers) == {s.name for s in STEPS} - {helped[0].step}


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
            "bound": [name for name in ("make_qkv", "scores", "softmax", "mix", "most_attended")
                      if name in globals() and globals()[name].__code__.co_filename != "probe.py"]}
    for label, args in [("count", (np.eye(2),)), ("text", ("x", "y")), ("big", (np.zeros((100, 2)), np.zeros((100, 2)))),
                        ("shapes", (np.zeros((2, 3)), np.zeros((2, 4)))), ("deep", ([[[1.0]]], np.eye(1))),
                        ("huge int", ([[10 ** 30]], np.eye(1)))]:
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
        except RuntimeError:
            pass
    return answered

def scores(Q, K):
    return "the student's own"
"""


def test_helpers_are_answered_by_the_grader_as_untrusted_requests(zygote):
    calls = [Call(0, "self_attention", "self_attention", (codec.encode(0), codec.encode("probe")),
                  helpers=("scores", "softmax")),
             Call(1, "self_attention", "self_attention", (codec.encode(1), codec.encode("after"))),
             Call(2, "most_attended", "most_attended", (), helpers=("scores",))]
    outcome = run_calls(zygote, HELPED, calls)
    seen = outcome.calls[0].value
    assert np.allclose(seen["value"], [[0.25, 0.75]])  # the reference's softmax, computed by the grader
    assert seen["bound"] == ["scores", "softmax"]  # only the helpers the grader chose for this call
    assert seen["count"] == "TypeError" and seen["text"] == "TypeError" and seen["big"] == "TypeError"
    assert seen["shapes"] == "ValueError"  # the reference's own error, without its source
    assert seen["deep"] == "TypeError" and seen["huge int"] == "answered"
    assert seen["not a helper"] == seen["not a step"] == seen["other call"] == "NameError"
    assert seen["garbage"] == "TypeError"
    assert outcome.calls[1].value == "the student's own"  # the submission's own names come back
    assert outcome.calls[2].value == MAX_HELPER_REQUESTS


def test_without_an_answering_helper_every_request_is_refused(zygote):
    source = "def self_attention():\n    try:\n        return scores(1, 2)\n    except NameError:\n        return 'refused'\n"
    outcome = run_calls(zygote, source, [Call(0, "self_attention", "self_attention", (), helpers=("scores",))],
                        helper=None)
    assert outcome.calls[0].value == "refused"


def test_helper_answers_refuse_strange_arguments_without_running_them():
    with pytest.raises(HelperRefused):
        ANSWERS("scores", [np.zeros((65, 2)), np.zeros((65, 2))])
    with pytest.raises(HelperRefused):
        ANSWERS("most_attended", [np.eye(2), ["a", 3]])
    with pytest.raises(HelperRefused):
        ANSWERS("self_attention", [np.eye(2)] * 4)
    with pytest.raises(HelperRefused):
        ANSWERS("softmax", [codec.Opaque("x")])
    assert codec.decode(ANSWERS("most_attended", [np.eye(2), ["a", "b"]])) == {"a": "a", "b": "b"}


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
from autograder.grading import Plan, grade_file
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
    hostile = ROOT / "tests" / "hostile"
    honest = peak_kib(ROOT / "solutions" / "self_attention.py")
    flooded = peak_kib(hostile / "resource__huge_event_lines.py", *[hostile / "resource__huge_answers.py"] * 6)
    # Old readers took a 24 MB line from 74 MB to 731 MB; remembered answers grew by the class.
    assert flooded < honest + 64 * 1024, (honest, flooded)
