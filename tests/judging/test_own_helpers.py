"""A composed step runs the student's own step functions where they passed, the reference's only
where they did not, and says which; a correct student never loses points to how it is graded."""
import pytest

from autograder import registry
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.core.render.feedback import as_text
from autograder.sandbox.runner import Limits

SELF_ATTENTION = '''
import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x, dim=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=AXIS, keepdims=True))
    return e / e.sum(axis=AXIS, keepdims=True)


def mix(weights, V):
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    weights = CALL
    return mix(weights, V), weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
'''
OWN_CALL = "softmax(scores(Q, K) / np.sqrt(K.shape[-1]), dim=-1)"
PLAIN_CALL = "softmax(scores(Q, K) / np.sqrt(K.shape[-1]))"
OTHER_AXIS_CALL = "softmax(scores(Q, K) / np.sqrt(K.shape[-1]), dim=0)"


def source(axis="dim", call=OWN_CALL):
    return SELF_ATTENTION.replace("AXIS", axis).replace("CALL", call).encode()


@pytest.fixture(scope="module")
def graded(zygote):
    labs = {}

    def grade(lab_name, data, name="s.py"):
        if lab_name not in labs:
            labs[lab_name] = Plan.build(registry.load(lab_name))
        return grade_bytes(name, data, zygote, labs[lab_name], Limits(step_seconds=5, load_seconds=5))
    return grade


def steps(result):
    return {step.name: step for step in result.steps}


def test_own_helpers_with_their_own_keyword_arguments_get_full_marks(graded):
    result = graded("self_attention", source())
    assert result.score == result.max_score == 10
    composed = steps(result)["self_attention"]
    assert composed.helpers.reference == () and "softmax" in composed.helpers.own
    assert "기준 답으로 대신" not in as_text(result, registry.load("self_attention"), "ko")


@pytest.mark.parametrize("call", [PLAIN_CALL, OWN_CALL])
def test_a_failed_helper_is_replaced_by_the_reference_and_the_feedback_says_so(graded, call):
    """Their softmax normalises columns; their self_attention is right, called either way."""
    result = graded("self_attention", source(axis="0", call=call))
    by_name = steps(result)
    assert by_name["softmax"].status == "failed" and by_name["self_attention"].status == "passed"
    assert by_name["self_attention"].helpers.reference == ("softmax",)
    lab = registry.load("self_attention")
    korean, english = as_text(result, lab, "ko"), as_text(result, lab, "en")
    assert "단계를 통과하지 못해 채점기가 기준 답으로 바꿔 계산한 함수: softmax." in korean
    assert "내 함수를 그대로 쓴 함수: make_qkv, scores, mix." in korean
    assert "Answered by the grader with the reference (their steps did not pass): softmax." in english


def test_a_keyword_that_changes_the_call_runs_the_students_own_function(graded):
    """Their softmax fails (always columns); their self_attention asks for dim=0, which the
    step's function does not promise: their own softmax answers, and the columns show there."""
    result = graded("self_attention", source(axis="0", call=OTHER_AXIS_CALL))
    composed = steps(result)["self_attention"]
    assert composed.status == "failed" and composed.mistakes[:1] == ["wrong_axis"]


def test_a_failed_default_is_not_charged_to_a_composed_step_that_asks_for_the_right_axis(graded):
    """softmax(x, dim=0) by default fails its step; self_attention calls it with dim=-1, which
    is right: their own softmax runs for that call and self_attention keeps its points."""
    text = source(axis="dim", call=OWN_CALL).decode().replace("def softmax(x, dim=-1):", "def softmax(x, dim=0):")
    result = graded("self_attention", text.encode())
    by_name = steps(result)
    assert by_name["softmax"].status == "failed"
    assert by_name["self_attention"].status == "passed", by_name["self_attention"].mistakes


MASKED = '''
import numpy as np


def split_heads(M, n_heads):
    n, d = M.shape
    return M.reshape(n, n_heads, d // n_heads).transpose(1, 0, 2)


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def masked_softmax(scores, mask, axis=-1, fill=-np.inf):
    s = np.where(mask, scores, fill)
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def merge_heads(H):
    h, n, d = H.shape
    return H.transpose(1, 0, 2).reshape(n, h * d)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads):
    Q, K, V = (split_heads(X @ W, n_heads) for W in (W_Q, W_K, W_V))
    s = Q @ K.transpose(0, 2, 1) / np.sqrt(Q.shape[-1])
    weights = masked_softmax(s, causal_mask(len(X)), axis=-1, fill=-np.inf)
    return merge_heads(weights @ V) @ W_O, weights
'''


def test_the_second_labs_composed_step_uses_its_own_helpers_too(graded):
    result = graded("masked_attention", MASKED.encode())
    assert result.score == result.max_score == 10, [(s.name, s.status, s.mistakes) for s in result.steps]
    wrong = MASKED.replace("return np.tril(np.ones((n, n), dtype=bool))", "return np.triu(np.ones((n, n), dtype=bool))")
    result = graded("masked_attention", wrong.encode())
    by_name = steps(result)
    assert by_name["causal_mask"].status == "failed" and by_name["multi_head_attention"].status == "passed"
    assert by_name["multi_head_attention"].helpers.reference == ("causal_mask",)


# corpus_blind17 (split_heads, returns_list_of_heads): a passing helper's list, which its own tests
# accept, reaching a composed step that reads `.shape` of it.
LIST_HEADS = MASKED.replace("    return M.reshape(n, n_heads, d // n_heads).transpose(1, 0, 2)\n",
                            "    w = d // n_heads\n    return [M[:, h * w:(h + 1) * w] for h in range(n_heads)]\n").replace(
    "    s = Q @ K.transpose(0, 2, 1) / np.sqrt(Q.shape[-1])\n",
    "    s = Q @ K.transpose(0, 2, 1) / np.sqrt(K.shape[-1])\n")


def test_a_form_a_helpers_tests_accept_costs_no_points_in_the_composed_step_that_cannot_take_it(graded):
    """One mistake costs its own step only: a list of heads passes split_heads (a list where an array
    is asked is accepted), so the composed step that reads `.shape` of it is graded with the lists its
    own helpers return made arrays, and told why its own helpers break it."""
    result = graded("masked_attention", LIST_HEADS.encode())
    assert result.score == result.max_score == 10, [(s.name, s.status, s.mistakes) for s in result.steps]
    composed = steps(result)["multi_head_attention"]
    assert composed.follows_own_helpers is not None and composed.follows_own_helpers.code == "helper_lists_as_arrays"
    assert "split_heads" in composed.follows_own_helpers.helpers
    lab = registry.load("masked_attention")
    assert "돌려주는 값을 NumPy 배열로 바꾸면 값이 맞으므로 이 단계에서는 감점하지 않았습니다" in as_text(result, lab, "ko")
    assert "Right once what your own functions" in as_text(result, lab, "en")


def test_a_composed_step_wrong_with_the_stand_ins_too_keeps_its_own_mistake(graded):
    wrong = LIST_HEADS.replace("    return merge_heads(weights @ V) @ W_O, weights\n",
                               "    return merge_heads(weights @ V), weights\n")
    composed = steps(graded("masked_attention", wrong.encode()))["multi_head_attention"]
    assert composed.status in ("failed", "error") and composed.score < 3
    assert composed.follows_own_helpers is None


def test_a_list_the_composed_step_hands_its_own_helper_stays_its_own_mistake(graded):
    """corpus_blind11 (multi_head_attention, merge_heads_given_list): only what a passing helper
    returns is made an array; what the composed step itself passes its helpers is left as it is."""
    wrong = MASKED.replace("    return merge_heads(weights @ V) @ W_O, weights\n",
                           "    return merge_heads(list(weights @ V)) @ W_O, weights\n")
    by_name = steps(graded("masked_attention", wrong.encode()))
    assert by_name["merge_heads"].status == "passed"
    composed = by_name["multi_head_attention"]
    assert composed.status in ("failed", "error") and composed.score < 3 and composed.follows_own_helpers is None
