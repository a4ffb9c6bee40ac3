"""A call is made a second time (to see state kept between calls) only when its code can keep
state: `code_evidence.can_keep_state`, read from the byte code before the call. A function it
says cannot keep state returns the same values on fresh copies of the same arguments, so the
repeat it saves would have shown nothing; every way of keeping state it knows is still repeated."""
import pathlib
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.core.child import code_evidence
from autograder.core.child.code_evidence import can_keep_state, state_kept, watch
from autograder.grading.plan import Plan
from autograder.core.child import codec
from autograder.sandbox.runner import Call, Limits, run
from labs.masked_attention import LAB as LAB2
from labs.self_attention import LAB as LAB1
from conftest import CORPORA, ROOT

FOLDERS = [ROOT / "samples", ROOT / "solutions", CORPORA / "corpus_blind", CORPORA / "corpus_blind2"]


def _functions(source, name="submission"):
    namespace = {"__name__": name}
    exec(compile(textwrap.dedent(source), f"{name}.py", "exec"), namespace)
    return namespace


KEEPS_STATE = {
    "a global list it appends to": """
        import numpy as np
        seen = []
        def f(x):
            seen.append(1)
            return x * len(seen)""",
    "a global dict as a cache": """
        cache = {}
        def f(x):
            return cache.setdefault(len(cache) % 2, x * 2)""",
    "a global it rebinds": """
        count = 0
        def f(x):
            global count
            count += 1
            return x + count""",
    "a mutable default": """
        def f(x, parts=[]):
            parts.append(x)
            return len(parts)""",
    "a keyword-only mutable default": """
        def f(x, *, parts={}):
            parts[len(parts)] = x
            return len(parts)""",
    "a closure": """
        def make():
            calls = [0]
            def f(x):
                calls[0] += 1
                return x + calls[0]
            return f
        f = make()""",
    "a helper of its own that keeps the state": """
        total = [0]
        def helper(x):
            total[0] += 1
            return x + total[0]
        def f(x):
            return helper(x)""",
    "a helper two calls down": """
        import numpy as np
        log = []
        def inner(x):
            log.append(x)
            return len(log)
        def middle(x):
            return inner(x)
        def f(x):
            return middle(x) + np.sum(x)""",
    "numpy's random numbers": """
        import numpy as np
        def f(x):
            return x + np.random.rand()""",
    "the random module": """
        import random
        def f(x):
            return x + random.random()""",
    "a clock": """
        import time
        def f(x):
            return time.perf_counter()""",
    "an attribute it writes": """
        import numpy as np
        def f(x):
            np.calls = getattr(np, "calls", 0) + 1
            return x""",
    "an attribute written on its own function": """
        def f(x):
            f.calls = 1
            return x""",
    "a file": """
        def f(x):
            with open("state.txt", "a") as handle:
                handle.write("x")
            return x""",
    "the namespace": """
        def f(x):
            globals()["n"] = globals().get("n", 0) + 1
            return x""",
    "an import in the call": """
        def f(x):
            import collections
            return x""",
    "a class of its own": """
        class Counter:
            n = 0
        def f(x):
            Counter.n += 1
            return x + Counter.n""",
    "an object of its own": """
        class Memo:
            def __init__(self):
                self.n = 0
            def __call__(self, x):
                self.n += 1
                return x + self.n
        memo = Memo()
        def f(x):
            return memo(x)""",
    "a module's mutable data": """
        import numpy as np
        def f(x):
            np.typecodes["extra"] = "x"
            return len(np.typecodes)""",
    "a global iterator": """
        counter = iter(range(100))
        def f(x):
            return x + next(counter)""",
    "setattr": """
        import numpy as np
        def f(x):
            setattr(np, "y", 1)
            return x""",
    "a function's own defaults through its code object": """
        def f(x):
            return f.__defaults__""",
}


@pytest.mark.parametrize("what", sorted(KEEPS_STATE))
def test_every_way_of_keeping_state_is_repeated(what):
    assert can_keep_state(_functions(KEEPS_STATE[what])["f"]) is True


PURE = {
    "numpy on its arguments": """
        import numpy as np
        def f(x):
            shifted = np.exp(x - x.max(axis=-1, keepdims=True))
            return shifted / shifted.sum(axis=-1, keepdims=True)""",
    "a helper of its own that is pure": """
        import numpy as np
        def softmax(x):
            e = np.exp(x - np.max(x))
            return e / e.sum()
        def f(x):
            return softmax(x) * 2""",
    "names imported from numpy and math": """
        from numpy import exp, sqrt
        import math
        def f(x):
            return exp(x) / sqrt(math.pi)""",
    "pandas": """
        import pandas as pd
        def f(x):
            return pd.DataFrame(x).idxmax(axis=1).to_dict()""",
    "a comprehension and loops": """
        def f(x):
            rows = [[v * 2 for v in row] for row in x.tolist()]
            for row in rows:
                row.append(0)
            return rows""",
    "an immutable default": """
        def f(x, axis=-1, eps=1e-9, name="x"):
            return x.sum(axis=axis) + eps""",
    "recursion": """
        def f(x, depth=3):
            return x if depth == 0 else f(x, depth - 1)""",
}


@pytest.mark.parametrize("what", sorted(PURE))
def test_functions_that_keep_no_state_are_called_once(what):
    assert can_keep_state(_functions(PURE[what])["f"]) is False


def test_anything_it_cannot_read_counts_as_able_to_keep_state():
    assert can_keep_state(np.exp) is True
    assert can_keep_state(len) is True
    assert can_keep_state(lambda x, parts=[]: parts) is True

    class Callable:
        def __call__(self, x):
            return x

    assert can_keep_state(Callable()) is True


def test_the_reference_solutions_are_called_once():
    for module in ("solutions.self_attention", "solutions.masked_attention"):
        source = (ROOT / (module.replace(".", "/") + ".py")).read_text("utf-8")
        namespace = _functions(source, module)
        lab = LAB1 if "self" in module else LAB2
        for name in lab.function_names:
            assert can_keep_state(namespace[name]) is False, (module, name)


# Generated functions: building blocks, pure or keeping state, put together in any order. Whatever
# the predicate says cannot keep state must return the same encoded values every call.
BLOCKS = {
    "pure_numpy": ("", "    y = np.exp(y - y.max())\n"),
    "pure_loop": ("", "    y = np.array([v * 2.0 for v in y.ravel()]).reshape(y.shape)\n"),
    "pure_helper": ("def _double(v):\n    return v * 2.0\n", "    y = _double(y)\n"),
    "global_list": ("_seen = []\n", "    _seen.append(1)\n    y = y + len(_seen)\n"),
    "global_dict": ("_memo = {}\n", "    _memo[len(_memo)] = 1\n    y = y + len(_memo)\n"),
    "global_counter": ("_count = 0\n", "    _count += 1\n    y = y + _count\n"),  # declared global first
    "helper_state": ("_log = []\ndef _logged(v):\n    _log.append(0)\n    return v + len(_log)\n",
                     "    y = _logged(y)\n"),
    "random": ("", "    y = y + np.random.rand()\n"),
    "attribute": ("", "    np.bench_calls = getattr(np, 'bench_calls', 0) + 1\n    y = y + np.bench_calls\n"),
    "default": ("", "    parts.append(0)\n    y = y + len(parts)\n"),
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(sorted(BLOCKS)), min_size=1, max_size=5), st.integers(0, 10_000))
def test_a_function_said_to_keep_no_state_returns_the_same_every_call(blocks, seed):
    head = "import numpy as np\n" + "".join(dict.fromkeys(BLOCKS[b][0] for b in blocks))
    default = ", parts=[]" if "default" in blocks else ""
    body = "".join(BLOCKS[b][1] for b in blocks)
    declared = "    global _count\n" if "global_counter" in blocks else ""
    source = f"{head}def f(x{default}):\n{declared}    y = np.array(x, dtype=float)\n{body}    return y\n"
    f = _functions(source)["f"]
    x = np.random.default_rng(seed).normal(size=(3, 2))
    values = [codec.dumps(codec.encode(f(x.copy()))) for _ in range(3)]
    if not can_keep_state(f):
        assert values[0] == values[1] == values[2], source
    stateful = {"global_list", "global_dict", "global_counter", "helper_state", "random", "attribute", "default"}
    assert can_keep_state(f) is bool(stateful & set(blocks)), source


def _corpus_files():
    return sorted(p for folder in FOLDERS for p in folder.rglob("*.py") if p.name != "__init__.py")


def test_in_the_corpora_every_function_said_to_keep_no_state_returns_the_same_on_every_public_test():
    """The students' files we have: each lab function the predicate lets go without a repeat,
    called twice on fresh copies of every public test's arguments, returns the same both times."""
    plans = {LAB1.name: Plan.build(LAB1), LAB2.name: Plan.build(LAB2)}
    checked = 0
    for path in _corpus_files():
        source = path.read_text("utf-8")
        lab = LAB2 if "lab2" in path.name or "masked" in path.name or "causal_mask" in source else LAB1
        try:
            with np.errstate(all="ignore"):
                namespace = _functions(source, "corpus_" + path.stem)
        except BaseException:
            continue
        calls, probe_of = plans[lab.name].calls
        for call in calls:
            probe = probe_of[call.id]
            function = namespace.get(call.function)
            if probe.case.hidden or call.helpers or not callable(function) or can_keep_state(function):
                continue
            answers = []
            for _ in range(2):
                args = [codec.decode(a) for a in call.args]
                try:
                    with np.errstate(all="ignore"):
                        answers.append(codec.dumps(codec.encode(function(*args))))
                except Exception as error:
                    answers.append(type(error).__name__)
            assert answers[0] == answers[1], (path.name, call.function)
            checked += 1
    assert checked > 500


def test_state_kept_repeats_only_what_can_keep_state():
    """The repeat itself (state_kept, shared by the sandbox's child and the students' kit): its
    fresh copies of the arguments are made only for a call it repeats."""
    pure = _functions(PURE["numpy on its arguments"])["f"]
    stateful = _functions(KEEPS_STATE["a global list it appends to"])["f"]
    x = np.arange(6.0).reshape(2, 3)
    for function, repeated in ((pure, False), (stateful, True)):
        copies = []

        def copy(value):
            copies.append(value)
            return value.copy()

        watched = watch(function, function.__globals__)
        encoded = codec.encode(function(x.copy()))
        state = state_kept(function, watched, encoded, [x.copy()], (), 0.0, copy)
        assert bool(copies) is repeated
        assert state.get("repeat_differs", False) is repeated
    # Never with stand-ins answering, nor after a slow call, whatever the code.
    for helpers, seconds in ((("softmax",), 0.0), ((), code_evidence.REPEAT_SECONDS)):
        copies = []
        state_kept(stateful, watch(stateful, stateful.__globals__), codec.encode(1), [x.copy()], helpers, seconds,
                   lambda value: copies.append(value) or value.copy())
        assert copies == []


LIMITS = Limits(step_seconds=5, load_seconds=5)


def test_through_the_sandbox_a_stateless_step_is_called_once_and_a_stateful_one_twice(zygote):
    """In the child: a step that keeps a counter in a file of its own folder shows how often it ran."""
    source = textwrap.dedent("""
        import numpy as np
        def pure(x):
            return np.asarray(x) * 2
        seen = []
        def stateful(x):
            seen.append(1)
            return np.asarray(x) * len(seen)
        def counted(x):
            with open("runs.txt", "a") as handle:
                handle.write("x")
            with open("runs.txt") as handle:
                return len(handle.read())
    """)
    arg = (codec.encode(np.arange(3.0)),)
    calls = [Call(0, "pure", "pure", arg), Call(1, "stateful", "stateful", arg), Call(2, "counted", "counted", arg)]
    outcome = run(zygote, [{"source": source, "filename": "probe.py"}], calls, LIMITS,
                  functions=("pure", "stateful", "counted"))
    assert outcome.calls[0].kind == "returned" and outcome.calls[0].state == {}
    # The stateful step was made again: its module-level list changed, and the repeat differs.
    assert outcome.calls[1].state == {"globals": ["seen"], "repeat_differs": True}
    # The file counter: open() can reach state, so it was repeated, and the repeat saw one more run.
    assert outcome.calls[2].value == 1 and outcome.calls[2].state == {"repeat_differs": True}


def test_a_repair_candidate_is_called_once_and_reports_no_state(zygote):
    """A candidate repair (a call with a `source`) is judged by its value alone: the child neither
    watches what it keeps nor calls it again, even where the student's own function is repeated."""
    source = textwrap.dedent("""
        def counted(x):
            with open("runs.txt", "a") as handle:
                handle.write("x")
            with open("runs.txt") as handle:
                return len(handle.read())
    """)
    candidate = source.replace("return len(handle.read())", "return 10 * len(handle.read())")
    arg = (codec.encode(np.arange(3.0)),)
    calls = [Call(0, "counted", "counted", arg), Call(1, "counted #0", "counted", arg, source=candidate)]
    outcome = run(zygote, [{"source": source, "filename": "probe.py"}], calls, LIMITS, functions=("counted",))
    assert outcome.calls[0].value == 1 and outcome.calls[0].state == {"repeat_differs": True}
    # The student's own ran twice (its repeat), the candidate once: the file then holds three runs.
    assert outcome.calls[1].kind == "returned" and outcome.calls[1].value == 30 and outcome.calls[1].state == {}


def test_a_candidate_runs_as_the_grader_compiled_it_and_as_its_source_says_without_it(zygote):
    """The grader sends a candidate as it compiled it (worker.candidate_code): the child runs that
    code, the same as compiling the source itself; code marked for another interpreter, or that is
    not a code object, is ignored and the source is compiled."""
    import base64
    import marshal

    from autograder.core.child.worker import candidate_code, compile_candidate

    source = "def f(x: 'not evaluated' + 1):\n    return x * 2\n"
    other = "def f(x):\n    return x * 3\n"
    arg = (codec.encode(np.arange(3.0)),)
    code = candidate_code(compile_candidate(source))
    calls = [Call(0, "f #0", "f", arg, source=source),
             Call(1, "f #1", "f", arg, source=source, code=code),
             # The code is what runs when it is sent for this interpreter: the source is not compiled again.
             Call(2, "f #2", "f", arg, source=source, code=candidate_code(compile_candidate(other))),
             Call(3, "f #3", "f", arg, source=source, code=["another interpreter", code[1]]),
             Call(4, "f #4", "f", arg, source=source, code=[code[0], base64.b64encode(marshal.dumps(5)).decode()]),
             Call(5, "f #5", "f", arg, source=source, code=[code[0], base64.b64encode(b"\xff not code").decode()])]
    outcome = run(zygote, [{"source": "def f(x):\n    return x\n", "filename": "probe.py"}], calls, LIMITS,
                  functions=("f",))
    assert [list(outcome.calls[k].value) for k in (0, 1, 3, 4)] == [[0.0, 2.0, 4.0]] * 4
    assert list(outcome.calls[2].value) == [0.0, 3.0, 6.0]
    # Bytes that are no marshalled value raise in the child: that candidate is wrong, nothing else.
    assert outcome.calls[5].kind == "raised"
