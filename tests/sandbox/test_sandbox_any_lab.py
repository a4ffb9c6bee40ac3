"""The sandbox knows no lab: the caller names the lab's functions, and any lab runs through it.

Here a masked multi-head attention lab (split_heads, causal_mask, masked_attention and a
composed multi_head) goes through run() end to end, its composed step's parts answered by the
grader's helper callback.
"""
import pathlib
import re

import numpy as np
import pytest

from autograder.core.child import codec, worker
from autograder.sandbox.runner import Call, HelperRefused, Limits, run
from labs.self_attention.steps import STEPS

LIMITS = Limits(step_seconds=5.0, load_seconds=5.0)
SANDBOX = pathlib.Path(worker.__file__).parent
FUNCTIONS = ("split_heads", "causal_mask", "masked_attention", "multi_head", "merge_heads")

MASKED_LAB = '''
import numpy as np

def split_heads(X, heads):
    return X.reshape(X.shape[0], heads, -1)  # wrong on purpose: the heads axis must come first

def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool), k=1)

def masked_attention(Q, K, V, mask):
    s = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    s = np.where(mask, -np.inf, s)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    return (w / w.sum(axis=-1, keepdims=True)) @ V

def multi_head(X, heads):
    parts = split_heads(X, heads)
    return masked_attention(parts, parts, parts, causal_mask(X.shape[0]))

make_qkv = "a name of another lab, not reported here"
'''


def right_split_heads(X, heads):
    return X.reshape(X.shape[0], heads, -1).transpose(1, 0, 2)


def right_causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool), k=1)


def right_masked_attention(Q, K, V, mask):
    s = np.where(mask, -np.inf, Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1]))
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    return (w / w.sum(axis=-1, keepdims=True)) @ V


class Reference:
    """The grader's helper callback for the masked lab; keeps the requests it answered."""

    functions = {"split_heads": right_split_heads, "causal_mask": right_causal_mask,
                 "masked_attention": right_masked_attention}

    def __init__(self):
        self.asked = []

    def __call__(self, call_id, name, args):
        self.asked.append(name)
        if name not in self.functions:
            raise HelperRefused("not_stood_in")
        return codec.encode(self.functions[name](*args))


def masked_calls():
    X = np.arange(24.0).reshape(4, 6) / 10
    return X, [
        Call(0, "split_heads", "split_heads", (codec.encode(X), codec.encode(2))),
        Call(1, "causal_mask", "causal_mask", (codec.encode(3),)),
        Call(2, "multi_head", "multi_head", (codec.encode(X), codec.encode(2)),
             helpers=("split_heads", "causal_mask", "masked_attention")),
    ]


def test_a_lab_with_other_function_names_runs_end_to_end(zygote):
    X, calls = masked_calls()
    reference = Reference()
    outcome = run(zygote, [{"source": MASKED_LAB, "filename": "masked.py"}], calls, LIMITS, reference,
                  functions=FUNCTIONS)
    assert outcome.load_events == []
    assert outcome.names == {"split_heads": "function", "causal_mask": "function",
                             "masked_attention": "function", "multi_head": "function",
                             "merge_heads": "absent"}
    assert [outcome.calls[i].kind for i in range(3)] == ["returned"] * 3
    # The submission's own split_heads answers its own step (wrongly) ...
    assert outcome.calls[0].value.shape == (4, 2, 3)
    assert np.array_equal(outcome.calls[1].value, right_causal_mask(3))
    # ... and the composed step is graded on its own: its parts are the grader's answers.
    assert reference.asked == ["split_heads", "causal_mask", "masked_attention"]
    parts = right_split_heads(X, 2)
    expected = right_masked_attention(parts, parts, parts, right_causal_mask(4))
    assert outcome.calls[2].value.shape == (2, 4, 3) and np.allclose(outcome.calls[2].value, expected)


def test_by_default_the_names_the_calls_use_are_reported(zygote):
    _, calls = masked_calls()
    outcome = run(zygote, [{"source": MASKED_LAB, "filename": "masked.py"}], calls, LIMITS, Reference())
    assert list(outcome.names) == ["split_heads", "causal_mask", "multi_head", "masked_attention"]
    assert set(outcome.names.values()) == {"function"}


def test_a_part_the_grader_refuses_raises_in_the_composed_step(zygote):
    _, calls = masked_calls()
    refusing = Reference()
    refusing.functions = {}
    outcome = run(zygote, [{"source": MASKED_LAB, "filename": "masked.py"}], calls, LIMITS, refusing,
                  functions=FUNCTIONS)
    assert outcome.calls[2].kind == "raised" and outcome.calls[2].error["type"] == "LookupError"
    assert outcome.calls[2].refused[0]["reason"] == "not_stood_in"
    assert outcome.calls[0].kind == "returned"


def test_only_the_named_functions_are_reported_and_proxied(zygote):
    source = MASKED_LAB + "\nmerge_heads = 3\n"
    calls = [Call(0, "multi_head", "multi_head", (codec.encode(np.eye(4)), codec.encode(2)),
                  helpers=("split_heads",))]
    reference = Reference()
    outcome = run(zygote, [{"source": source, "filename": "masked.py"}], calls, LIMITS, reference,
                  functions=("multi_head", "split_heads", "merge_heads"))
    assert outcome.names == {"multi_head": "function", "split_heads": "function", "merge_heads": "int"}
    assert "make_qkv" not in outcome.names
    # causal_mask and masked_attention were not helpers of this call: the submission's own ran.
    assert reference.asked == ["split_heads"] and outcome.calls[0].kind == "returned"


def test_calls_naming_a_function_outside_the_given_names_are_refused_before_any_child(zygote):
    _, calls = masked_calls()
    cells = [{"source": MASKED_LAB, "filename": "masked.py"}]
    with pytest.raises(ValueError, match="masked_attention"):
        run(zygote, cells, calls, LIMITS, Reference(), functions=("split_heads", "causal_mask", "multi_head"))
    with pytest.raises(ValueError, match="identifiers"):
        run(zygote, cells, calls, LIMITS, Reference(), functions=FUNCTIONS + ("not a name",))


class Recorder:
    def __init__(self):
        self.sent = []

    def send(self, **event):
        self.sent.append(event)


def test_the_worker_proxies_only_helpers_among_the_loaded_names():
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    channel = Recorder()
    source = "def f():\n    return g()\ndef g():\n    return 'own'\n"
    functions = worker.load(channel, namespace, set(), {"cells": [{"source": source, "filename": "f.py"}],
                                                         "functions": ["f", 7]})
    # f reads g, a function: no data global is named as evidence
    assert functions == ("f",) and channel.sent[-1] == {
        "ev": "loaded", "names": {"f": "function"},
        "evidence": {"f": {"globals": [], "unused": [], "rebound": [], "mutable_defaults": False, "file": "f.py", "line": 1}}}
    worker.call(channel, namespace, set(), {"id": 0, "function": "f", "args": [], "helpers": ["g"]}, functions)
    assert channel.sent[-1]["ev"] == "returned" and codec.decode(channel.sent[-1]["value"]) == "own"


def test_a_load_without_names_reports_none():
    channel = Recorder()
    worker.load(channel, {"__builtins__": __builtins__}, set(),
                {"cells": [{"source": "def make_qkv():\n    pass\n", "filename": "a.py"}]})
    assert channel.sent[-1] == {"ev": "loaded", "names": {}, "evidence": {}}


def test_no_module_of_the_sandbox_names_a_lab_function():
    names = {step.name for step in STEPS} | set(FUNCTIONS)
    for path in SANDBOX.glob("*.py"):
        text = path.read_text("utf-8")
        assert not [name for name in names if re.search(rf"\b{name}\b", text)], path.name
