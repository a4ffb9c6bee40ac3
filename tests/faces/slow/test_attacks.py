"""Attacks on the grader written from its code and docs alone (tests/corpora/attacks/, attacks2/; the later
rounds in test_attacks_third.py, _fourth.py and _fifth.py, one file each so that they run side by
side): each must hold.

Every attack runs through the face it targets (`autograder check`, `grade`, `export`, the
Gradescope entry point) and its verdict says whether the promise of docs/SECURITY.md it targets
held; each folder's run_all.py replays them by hand with the evidence. The time bound (07) is
left to that replay, since tests never assert on wall-clock time: the driver test below checks the
mechanism behind it.
"""
import importlib.util
import os
import sys

import pytest

from autograder.core.child import codec
from autograder.sandbox.runner import Call, Limits, run
from conftest import CORPORA, ROOT

TIMED = {7}  # its verdict is a measured time


# tests/corpora/attacks2, 08: a submission prints the machine's folders it can read, spelled with a sign of
# its choosing for the slash. Not defended (docs/SECURITY.md): the filter covers what Python and
# the grader write, and a submission can spell out anything its own code reads.
NOT_DEFENDED = {("attacks2", 8)}


def _replay(folder, variable, tmp_path_factory):
    os.environ[variable] = str(tmp_path_factory.mktemp(folder))
    spec = importlib.util.spec_from_file_location(f"{folder}_replay", CORPORA / folder / "run_all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    return {"attacks": _replay("attacks", "ATTACKS_OUT", tmp_path_factory),
            "attacks2": _replay("attacks2", "ATTACKS2_OUT", tmp_path_factory)}


CASES = [("attacks", n) for n in range(1, 14) if n not in TIMED] + \
    [("attacks2", n) for n in range(1, 13) if ("attacks2", n) not in NOT_DEFENDED]


@pytest.mark.parametrize("folder, number", CASES, ids=[f"{f}-{n:02d}" for f, n in CASES])
def test_attack_holds(replays, folder, number):
    replay = replays[folder]
    before = len(replay.RESULTS)
    replay.ATTACKS[number - 1]()
    (_, name, face, verdict, evidence), = replay.RESULTS[before:]
    assert verdict == "HELD", f"{name} [{face}]: {evidence}"


def test_the_submissions_time_is_shared_by_every_child_of_a_run(zygote):
    """A run given an `until` stops there, whatever deadlines its children would have had:
    calls not made by then are not run, and the run says its time was spent."""
    import time

    source = ("import time\n"
              "time.sleep(0)\n"
              "def softmax(x):\n    time.sleep(0.6)\n    return x\n")
    calls = [Call(i, f"step{i % 3}", "softmax", (codec.encode(float(i)),)) for i in range(12)]
    outcome = run(zygote, [{"source": source, "filename": "slow.py"}], calls,
                  Limits(step_seconds=5.0, load_seconds=5.0), functions=("softmax",), until=time.monotonic() + 2.0)
    kinds = [outcome.calls[i].kind for i in range(12)]
    assert outcome.spent and kinds[0] == "returned" and kinds[-1] == "not_run"
    assert "timeout" not in kinds  # the submission's time, not a step's: nothing is called a timeout


def test_a_submission_that_spends_its_time_is_told_and_its_last_tests_are_not_run(zygote, plan, tmp_path):
    from dataclasses import dataclass

    from autograder.grading import grade_file
    from autograder.core.render.feedback import as_text

    @dataclass(frozen=True)
    class Short(Limits):
        def submission_seconds(self, steps):
            return 1.5

    path = tmp_path / "slow.py"
    path.write_text((ROOT / "solutions" / "self_attention.py").read_text("utf-8") + (
        "\n\nimport time\n_make_qkv = make_qkv\n\n\n"
        "def make_qkv(X, W_Q, W_K, W_V):\n    time.sleep(0.5)\n    return _make_qkv(X, W_Q, W_K, W_V)\n"), "utf-8")
    result = grade_file(path, zygote, plan, Short(step_seconds=5.0, load_seconds=5.0))
    assert [n.code for n in result.notes] == ["time_spent"]
    codes = {c.code for s in result.steps for c in s.cases if not c.passed}
    assert codes == {"not_run"} and "timeout" not in {s.status for s in result.steps}
    assert "1.5" in as_text(result, plan.lab, "en").split("\n")[1]
