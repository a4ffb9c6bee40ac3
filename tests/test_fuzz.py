"""Property tests: no input, however malformed, crashes the grader.

Every file becomes a Submission, and every submission a SubmissionResult with all six steps.
"""
import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.grading import grade_bytes
from autograder.judge import SubmissionResult, judge_call
from autograder.sandbox import codec
from autograder.sandbox.runner import CallOutcome, Limits
from labs.self_attention.steps import STEPS
from autograder.submission import Submission, read_submission

LIMITS = Limits(step_seconds=2.0, load_seconds=2.0, memory_bytes=512 * 1024 * 1024)
SLOW = settings(max_examples=15, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FAST = settings(max_examples=150, deadline=None)

names = st.sampled_from(["a.py", "a.ipynb", "A.IPYNB", "x", "dir/sub\\b.py", ""])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)
weird_sources = st.sampled_from([
    "def make_qkv(X, W_Q, W_K, W_V)\n  return X", "%%bash\nrm -rf /", "!ls\nx = !pwd", "?np.dot",
    "def softmax(x):\n    return softmax(x)", "import os\nos._exit(0)", "raise SystemExit",
    "\x00", "\ufeffdef mix(w, V): return w @ V", "def scores(Q, K):\n\treturn Q @ K.T\n",
    "lambda: (yield)", "async def softmax(x): return x", "del __builtins__", "((((((((((((" * 50,
]) | st.text(max_size=200)
cell = st.fixed_dictionaries({"cell_type": st.sampled_from(["code", "markdown", "raw", None, 3]),
                              "source": weird_sources | st.lists(weird_sources, max_size=3) | json_values})
notebooks = st.fixed_dictionaries({"cells": st.lists(cell | json_values, max_size=6)}) | json_values


def as_notebook_bytes(notebook, cut):
    text = json.dumps(notebook).encode()
    return text if cut is None else text[:cut]


def assert_graded(result):
    assert isinstance(result, SubmissionResult)
    assert [s.name for s in result.steps] == [s.name for s in STEPS]
    assert all(0 <= s.score <= s.max_score for s in result.steps)


@FAST
@given(names, st.binary(max_size=2000))
def test_reading_random_bytes_never_raises(name, data):
    assert isinstance(read_submission(name, data), Submission)


@FAST
@given(notebooks, st.none() | st.integers(min_value=0, max_value=400))
def test_reading_malformed_notebooks_never_raises(notebook, cut):
    submission = read_submission("n.ipynb", as_notebook_bytes(notebook, cut))
    assert submission.problem is not None or isinstance(submission.cells, list)


@SLOW
@given(names, st.binary(max_size=500))
def test_grading_random_bytes_gives_six_steps(zygote, plan, name, data):
    assert_graded(grade_bytes(name or "x.py", data, zygote, plan, LIMITS))


@SLOW
@given(notebooks, st.none() | st.integers(min_value=0, max_value=400))
def test_grading_malformed_notebooks_gives_six_steps(zygote, plan, notebook, cut):
    assert_graded(grade_bytes("n.ipynb", as_notebook_bytes(notebook, cut), zygote, plan, LIMITS))


@SLOW
@given(st.lists(weird_sources, min_size=1, max_size=4))
def test_grading_weird_python_gives_six_steps(zygote, plan, sources):
    assert_graded(grade_bytes("w.py", "\n".join(sources).encode("utf-8", "surrogatepass"),
                              zygote, plan, LIMITS))


forged = st.recursive(
    json_values | st.fixed_dictionaries({"t": st.sampled_from(["array", "series", "frame", "number",
                                                               "str", "list", "tuple", "dict", "none"])},
                                        optional={"kind": st.sampled_from(["f", "i", "b", "U", "O", 3]),
                                                  "dtype": st.sampled_from(["<f4", "<f8", 4]),
                                                  "shape": st.lists(st.integers(-2, 6), max_size=3),
                                                  "data": st.lists(st.floats() | st.integers() | st.text(max_size=3),
                                                                   max_size=12),
                                                  "v": json_values}),
    lambda inner: st.fixed_dictionaries({"t": st.sampled_from(["list", "tuple", "dict", "series", "frame"]),
                                         "items": st.lists(inner | st.lists(inner, max_size=2), max_size=3),
                                         "values": inner, "index": st.lists(inner, max_size=3)}),
    max_leaves=12)


@FAST
@given(forged)
def test_decoding_forged_values_never_raises(data):
    codec.decode(data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(forged, st.integers(min_value=0, max_value=len(STEPS) - 1))
def test_judging_any_decodable_value_never_raises(plan, data, index):
    step = STEPS[index]
    probe = plan.probes[step.name][0]
    value = codec.decode(data)
    args_after = [codec.decode(codec.encode(a)) for a in probe.args]
    with np.errstate(all="ignore"):
        verdict = judge_call(probe, CallOutcome("returned", value=value, args_after=args_after), False)
    assert isinstance(verdict.passed, bool)
