"""Evidence from the code: what the child reports of a step function (the globals it reads, its
unused parameters, the state its calls keep) is untrusted data. It is reduced to short identifiers
(`protocol.plain_evidence`, `plain_state`) and chooses the words of a failure, never its points
(`causes.caused_by_code` runs after the rubric)."""
import pathlib
import subprocess
import sys

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.core.judge import judge_step
from autograder.core.child import protocol
from autograder.sandbox.runner import CallOutcome
from labs.self_attention.steps import STEPS_BY_NAME
from conftest import CORPORA, ROOT

BLIND = CORPORA / "corpus_blind"

junk = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=80),
                    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.text(max_size=20), inner, max_size=6),
                    max_leaves=40)
reports = st.dictionaries(st.sampled_from(["softmax", "mix", "x", ""]) | st.text(max_size=10),
                          st.dictionaries(st.sampled_from(["globals", "unused", "mutable_defaults"]) | st.text(max_size=8),
                                          junk, max_size=4) | junk, max_size=4) | junk
states = st.dictionaries(st.sampled_from(["globals", "defaults", "repeat_differs"]) | st.text(max_size=8),
                         junk, max_size=4) | junk


def _plain_names(names):
    return isinstance(names, list) and len(names) <= protocol.MAX_EVIDENCE_NAMES and all(
        type(n) is str and n.isidentifier() and n.isascii() and len(n) <= protocol.MAX_NAME_LENGTH for n in names) \
        and len(set(names)) == len(names)


@settings(max_examples=400, deadline=None)
@given(reports)
def test_a_forged_report_of_the_code_becomes_short_identifiers_or_nothing(report):
    plain = protocol.plain_evidence(report, ("softmax", "mix"))
    assert set(plain) <= {"softmax", "mix"}
    for facts in plain.values():
        assert set(facts) == {"globals", "unused", "rebound", "mutable_defaults"}
        assert _plain_names(facts["globals"]) and _plain_names(facts["unused"]) and _plain_names(facts["rebound"])
        assert type(facts["mutable_defaults"]) is bool


@settings(max_examples=400, deadline=None)
@given(states)
def test_a_forged_report_of_a_call_becomes_short_identifiers_or_nothing(state):
    plain = protocol.plain_state(state)
    assert set(plain) <= {"globals", "defaults", "repeat_differs"}
    assert all(_plain_names(plain[k]) for k in ("globals", "defaults") if k in plain)
    assert plain.get("repeat_differs", True) is True


def _probes(plan, name):
    return plan.probes[name]


def _answers(probe, how):
    expected = probe.expected[0] if len(probe.expected) == 1 else tuple(probe.expected)
    if how == "right":
        return expected
    if how == "page_only":
        return expected if probe.case.name == "page" else np.asarray(expected) + 1
    return np.asarray(expected) + 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["softmax", "mix", "scores"]), st.sampled_from(["right", "page_only", "wrong"]),
       reports, st.lists(states, min_size=1, max_size=3))
def test_forged_evidence_never_changes_points_and_never_raises(plan, name, how, report, call_states):
    step = STEPS_BY_NAME[name]
    probes = _probes(plan, name)
    base = [CallOutcome("returned", value=_answers(p, how), args_after=[None] * len(p.args)) for p in probes]
    plain = protocol.plain_evidence(report, (name,)).get(name)
    forged = [CallOutcome("returned", value=o.value, args_after=o.args_after,
                          state=protocol.plain_state(call_states[i % len(call_states)]))
              for i, o in enumerate(base)]
    honest = judge_step(step, probes, base, "function", False)
    told = judge_step(step, probes, forged, "function", False, evidence=plain)
    assert told.score == honest.score and told.status == honest.status
    assert [c.passed for c in told.cases] == [c.passed for c in honest.cases]
    assert told.rubric.get("percent") == honest.rubric.get("percent")


def _check(lab, path):
    done = subprocess.run([sys.executable, "-m", "autograder", "check", "--lab", lab, str(path)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    return done.stdout


def test_the_five_misleading_messages_of_the_blind_corpus_are_gone():
    """Through `autograder check`: each file's step is told by what its code or values show."""
    qkv = _check("self_attention", BLIND / "lab1" / "lab1__make_qkv__int_cast_x.py")
    assert "100번째 줄: 이 줄(`X = np.array(X, dtype=int)`)은 없어야 합니다" in qkv
    assert "페이지 예제를 따른 값" not in qkv and "페이지의 예제에서는 맞고" not in qkv
    # Right on the page's whole-number X only, but its own code computes (its smallest repair removes
    # the cast: grading.repairs.computes): the share of tests passed, not the page's numbers' 0.
    assert "make_qkv — 0.55/2점" in qkv and "합계 8.55 / 10점" in qkv

    soft = _check("self_attention", BLIND / "lab1" / "lab1__softmax__row_loop_1d_ones.py")
    assert "인자를 바꿔도" not in soft and "쓰지 않는다" not in soft
    assert "1차원 입력 테스트" in soft and "정수" not in soft
    # Right on every table, wrong on single rows: those tests cost, not every table's too.
    assert "softmax — 0/2점" not in soft and "채점 기준: 통과한 테스트의 비율만큼 받습니다" in soft

    most = _check("self_attention", BLIND / "lab1" / "lab1__most_attended__global_result_dict.py")
    assert "전역 변수 `result`" in most and "페이지 예제를 따른 값" not in most
    assert "most_attended — 0/1점" in most and "합계 9 / 10점" in most

    split = _check("masked_attention", BLIND / "lab2" / "lab2__split_heads__assumes_two_heads.py")
    assert "인자 `n_heads`" in split and "순서" not in split.split("■ causal_mask")[0]
    # Right on the tests of two heads (four public; hidden-1, hidden-5 and hidden-6) of the ten that count.
    assert "split_heads — 1.2/2점" in split

    mask = _check("masked_attention", BLIND / "lab2" / "lab2__masked_softmax__max_before_mask.py")
    assert "softmax 뒤에 마스크를 씌웠습니다" not in mask and "최댓값" in mask
    # Wrong on the one large-valued test only: named, and never below the share of tests passed.
    section = mask.split("■ masked_softmax")[1].split("■ ")[0]
    assert "masked_softmax — 0.5/2점" not in mask and "통과한 테스트의 비율만큼 받습니다(25개 중 24개)" in section


def test_global_names_are_told_in_english_too():
    done = subprocess.run([sys.executable, "-m", "autograder", "check", "--lang", "en", "--lab", "self_attention",
                           str(BLIND / "lab1" / "lab1__most_attended__global_result_dict.py")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert "global variable `result`" in done.stdout


def test_an_argument_the_code_reads_whose_values_are_lost_is_never_told_as_unread(zygote):
    """Every word mapped to the last column's word whatever the weights (a melt's labels taken for
    row positions): the values ignore `weights`, but the code reads it, so the cause is where its
    values are lost, never "made anew or read from the notebook". A function that never reads it
    keeps that cause."""
    from autograder.grading import grade_bytes
    from autograder.grading.plan import Plan
    from labs.self_attention import LAB

    correct = (ROOT / "samples" / "correct.py").read_text("utf-8")
    lost = ("\n\ndef most_attended(weights, words):\n"
            "    frame = pd.DataFrame(weights, index=words, columns=words)\n"
            "    long = frame.melt(ignore_index=False, var_name='target', value_name='weight')\n"
            "    best = long.loc[long.groupby(level=0)['weight'].idxmax()]\n"
            "    return dict(zip(best.index, best['target']))\n")
    unread = "\n\ndef most_attended(weights, words):\n    return {word: words[-1] for word in words}\n"
    plan = Plan.build(LAB)
    codes = {}
    for name, source in (("lost", lost), ("unread", unread)):
        result = grade_bytes("m.py", (correct + source).encode(), zygote, plan)
        step = next(s for s in result.steps if s.name == "most_attended")
        codes[name] = {case.code for case in step.cases if not case.passed}
    assert codes["lost"] == {"argument_values_lost"}, codes
    assert "argument_values_lost" not in codes["unread"] and codes["unread"], codes
