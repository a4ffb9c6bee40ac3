"""The error model (single changes, then pairs), mistakes told across two steps, and what two
calls show together (random numbers, ignored arguments): on toy computations and on real files."""
import json
import subprocess
import sys

import numpy as np
import pytest

from autograder.core.declaration import Output, Probe, Step
from autograder.error_model import ErrorModel, Point, Several
from autograder.core.rubric import parts
from autograder.grading import grade_bytes
from autograder.core.judge import judge_step
from autograder.otter import build as otter_build
from autograder.core.render.feedback import as_text
from autograder.sandbox.runner import CallOutcome
from autograder.core.verdict import FollowsOwnHelpers
from labs.self_attention import LAB

# A toy step: y = (x - shift) / divisor, with two places to go wrong.


def _toy(probe, at):
    (x,) = probe.args
    shift = at("shift", x.mean(), no_shift=0.0)
    divisor = at("divisor", 2.0, by_three=3.0, by_four_or_five=Several(4.0, 5.0),
                 only_for_long=10.0 if x.size > 3 else None)
    if divisor is None:
        raise ValueError("not on short inputs")
    return ((x - shift) / divisor,)


TOY = ErrorModel(_toy, (Point("shift", ("no_shift",)), Point("divisor", ("by_three", "by_four_or_five", "only_for_long"))))
TOY_STEP = Step(name="toy", points=1, page_step=1, params=("x",), outputs=(Output(name="y"),),
                mistakes=TOY.mistakes())


class _Case:
    hidden = False
    words = ("a", "b", "c")

    def __init__(self, name):
        self.name = name

    def sizes(self):
        return ()


def _probe(x, name="c"):
    x = np.asarray(x, dtype=float)
    return Probe(step=TOY_STEP, case=_Case(name), trace=None, args=(x,), expected=((x - x.mean()) / 2.0,))


def test_the_model_yields_single_changes_first_then_pairs_at_two_different_points():
    codes = [(m.code, m.size) for m in TOY.mistakes()]
    assert codes[:4] == [("no_shift", 1), ("by_three", 1), ("by_four_or_five", 1), ("only_for_long", 1)]
    assert ("no_shift+by_three", 2) in codes
    assert not any(size == 2 and "by_three" in code and "by_four" in code for code, size in codes)  # one point
    assert parts("no_shift+by_three") == ("no_shift", "by_three")


def test_several_ways_of_one_mistake_are_each_a_prediction_and_pairs_combine_them():
    probe = _probe([1.0, 2.0, 6.0])
    several = next(m for m in TOY.mistakes() if m.code == "by_four_or_five")
    assert [c[0].tolist() for c in several.candidates(probe)] == [[-0.5, -0.25, 0.75], [-0.4, -0.2, 0.6]]
    pair = next(m for m in TOY.mistakes() if m.code == "no_shift+by_four_or_five")
    assert [c[0].tolist() for c in pair.candidates(probe)] == [[0.25, 0.5, 1.5], [0.2, 0.4, 1.2]]


def test_a_change_that_cannot_be_made_or_raises_predicts_nothing():
    only_long = next(m for m in TOY.mistakes() if m.code == "only_for_long")
    assert list(only_long.candidates(_probe([1.0, 2.0, 6.0]))) == []
    assert len(list(only_long.candidates(_probe([1.0, 2.0, 6.0, 7.0])))) == 1


def _verdict(student):
    probes = [_probe([1.0, 2.0, 6.0], "one"), _probe([0.0, 3.0, -1.0, 4.0], "two"), _probe([5.0, 5.0, 8.0], "three")]
    outcomes = [CallOutcome("returned", value=student(p.args[0]), args_after=[None]) for p in probes]
    return judge_step(TOY_STEP, probes, outcomes, "function", False, page="one")


def test_a_single_change_is_named_by_its_code():
    assert _verdict(lambda x: (x - x.mean()) / 3.0).mistakes == ["by_three"]


def test_two_changes_at_once_are_named_as_the_pair():
    assert _verdict(lambda x: x / 5.0).mistakes == ["no_shift+by_four_or_five"]


def test_values_nothing_explains_stay_unexplained():
    assert _verdict(lambda x: x * 7.0).mistakes == ["wrong_values"]


# On real files: mistakes across two steps --------------------------------------------------

RIGHT = '''
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = softmax(scores(Q, K) / np.sqrt(K.shape[1]))
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
'''
SCORES_DIVIDES = RIGHT.replace("    return Q @ K.T\n", "    return Q @ K.T / np.sqrt(K.shape[1])\n")
MOVED = SCORES_DIVIDES.replace("softmax(scores(Q, K) / np.sqrt(K.shape[1]))", "softmax(scores(Q, K))")
RANDOM_UNSEEDED = RIGHT.replace("    return X @ W_Q, X @ W_K, X @ W_V\n", (
    "    W_Q = np.random.randn(*W_Q.shape)\n"
    "    W_K = np.random.randn(*W_K.shape)\n"
    "    W_V = np.random.randn(*W_V.shape)\n"
    "    return X @ W_Q, X @ W_K, X @ W_V\n"))
RANDOM_SEEDED = RANDOM_UNSEEDED.replace("    W_Q = np.random.randn", "    np.random.seed(42)\n    W_Q = np.random.randn")


@pytest.fixture(scope="module")
def graded(zygote, plan):
    return lambda source: grade_bytes("s.py", source.encode(), zygote, plan)


def by_name(result):
    return {step.name: step for step in result.steps}


def test_the_division_moved_into_scores_is_told_as_one_mistake_charged_in_scores(graded):
    """self_attention returns the right values with the student's own scores: graded on them, it
    loses nothing; the moved division is told beside it and charged once, in scores."""
    result = by_name(graded(MOVED))
    assert result["scores"].mistakes == ["scaled_early"] and result["scores"].score < result["scores"].max_score
    attention = result["self_attention"]
    assert attention.status == "passed" and attention.score == attention.max_score
    assert attention.follows_own_helpers == FollowsOwnHelpers(code="scale_moved", helpers=("scores",))
    assert "scores가 이미 √d_k로 나눈 점수를 돌려주기 때문에" in as_text(graded(MOVED), LAB, "ko")


def test_dividing_in_scores_and_again_in_self_attention_costs_scores_only(graded):
    """With scores failing, the reference's scores stands in: self_attention is right as written."""
    result = by_name(graded(SCORES_DIVIDES))
    assert result["scores"].mistakes == ["scaled_early"]
    assert result["self_attention"].status == "passed"


def test_a_missing_division_with_a_right_scores_is_not_called_moved(graded):
    result = by_name(graded(RIGHT.replace("softmax(scores(Q, K) / np.sqrt(K.shape[1]))", "softmax(scores(Q, K))")))
    assert result["scores"].status == "passed"
    assert result["self_attention"].mistakes == ["missing_scale"]


# On real files: what two calls show together ----------------------------------------------

@pytest.mark.parametrize("source, code", [(RANDOM_UNSEEDED, "nondeterministic"),
                                          (RANDOM_SEEDED, "ignores_arguments")])
def test_weights_drawn_inside_the_function_are_named_from_what_the_calls_show(graded, source, code):
    result = graded(source)
    step = by_name(result)["make_qkv"]
    assert step.mistakes == [code] and step.score == 0
    if code == "ignores_arguments":
        assert step.ignored == ("W_Q", "W_K", "W_V")
        assert "W_Q, W_K, W_V만 다른 두 입력" in as_text(result, LAB, "ko")
    assert all(s.status == "passed" for name, s in by_name(result).items() if name not in ("make_qkv",))


def test_the_page_answer_written_in_is_still_called_hardcoded_not_ignored(graded):
    source = RIGHT.replace(
        "    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()\n",
        "    return {'나는': '먹었다', '사과를': '나는', '먹었다': '나는'}\n")
    step = by_name(graded(source))["most_attended"]
    assert step.mistakes and set(step.mistakes) <= {"hardcoded", "wrong_values"}
    assert "ignores_arguments" not in step.mistakes


# The students' kit tells the moved division too ------------------------------------------

@pytest.fixture(scope="module")
def student_half(tmp_path_factory):
    out = tmp_path_factory.mktemp("half")
    return otter_build.build(out, LAB, self_check=False)["student"]


def test_the_students_kit_names_the_moved_division_and_a_pair(student_half, tmp_path):
    pair = RIGHT.replace("softmax(scores(Q, K) / np.sqrt(K.shape[1]))", "softmax(scores(Q, K)) / K.shape[1]")
    for source, step, code in ((MOVED, "scores", "scaled_early"),
                               (pair, "self_attention", "scale_by_dk+scale_after_softmax")):
        path = tmp_path / f"{code}.py"
        path.write_text(source, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "lab_check", str(path), "--json"],
                              capture_output=True, text=True, timeout=300, cwd=student_half)
        report = json.loads(done.stdout)
        found = {s["name"]: s for s in report["steps"]}
        assert found[step]["mistakes"][:1] == [code], found[step]
        if source == MOVED:  # self_attention right with the student's scores: told, not charged
            assert found["self_attention"]["status"] == "passed"
            assert "scores가 이미 √d_k로 나눈 점수를 돌려주기 때문에" in found["self_attention"]["feedback"]


# A composed step written to fit the student's own helpers --------------------------------

QVK = RIGHT.replace("    return X @ W_Q, X @ W_K, X @ W_V\n", "    return X @ W_Q, X @ W_V, X @ W_K\n").replace(
    "    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n", "    Q, V, K = make_qkv(X, W_Q, W_K, W_V)\n")


def test_a_composed_step_right_with_the_students_own_helpers_is_graded_on_what_it_returns(graded):
    """Calling the lab's own step functions never costs points: make_qkv's order is charged there, once."""
    result = by_name(graded(QVK))
    assert result["make_qkv"].mistakes == ["qkv_order"]
    attention = result["self_attention"]
    assert attention.status == "passed" and attention.score == 3 and attention.mistakes == []
    assert attention.follows_own_helpers == FollowsOwnHelpers(code="fits_own_helpers", helpers=("make_qkv",))
    text = as_text(graded(QVK), LAB, "ko")
    assert "직접 작성한 함수(make_qkv)와 함께 쓰면 값이 맞으므로 이 단계에서는 감점하지 않았습니다" in text


def test_a_composed_step_wrong_even_with_its_own_helpers_keeps_its_own_mistake(graded):
    source = QVK.replace("softmax(scores(Q, K) / np.sqrt(K.shape[1]))", "softmax(scores(Q, K))")
    attention = by_name(graded(source))["self_attention"]
    assert "fits_own_helpers" not in attention.mistakes and attention.score < 3
    assert attention.follows_own_helpers is None


def test_the_students_kit_tells_a_step_written_to_fit_its_own_helpers(student_half, tmp_path):
    path = tmp_path / "qvk.py"
    path.write_text(QVK, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "lab_check", str(path), "--json"],
                          capture_output=True, text=True, timeout=300, cwd=student_half)
    found = {s["name"]: s for s in json.loads(done.stdout)["steps"]}
    assert found["self_attention"]["status"] == "passed" and found["self_attention"]["score"] == 3
    assert "직접 작성한 함수(make_qkv)와 함께 쓰면 값이 맞으므로" in found["self_attention"]["feedback"]


def test_the_students_kit_tells_a_composed_step_that_cannot_take_a_passing_helpers_form(student_half, tmp_path):
    """As the grader tells it (tests/judging/test_own_helpers.py): a list of values where an array is
    asked passes its own step and costs the composed step nothing; the kit says so too."""
    list_qkv = RIGHT.replace("    return X @ W_Q, X @ W_K, X @ W_V\n",
                             "    return (X @ W_Q).tolist(), (X @ W_K).tolist(), (X @ W_V).tolist()\n")
    path = tmp_path / "lists.py"
    path.write_text(list_qkv, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "lab_check", str(path), "--json"],
                          capture_output=True, text=True, timeout=300, cwd=student_half)
    found = {s["name"]: s for s in json.loads(done.stdout)["steps"]}
    assert found["make_qkv"]["status"] == "passed", found["make_qkv"]
    assert found["self_attention"]["status"] == "passed" and found["self_attention"]["score"] == 3
    assert "NumPy 배열로 바꾸면 값이 맞으므로" in found["self_attention"]["feedback"]
