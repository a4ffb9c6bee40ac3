"""Points a TA would sign: the rubric's invariants on generated answers of both labs, and the
cases that broke them, through `autograder check` and `autograder grade`.

- monotone: of two answers to a step, the one right on more tests (raising on fewer) never gets
  fewer points; an error costs its test what an unnamed wrong value costs it; a name never costs;
- calling the lab's own step functions never costs points: a composed step is graded on what it
  returns, and a helper's own convention is charged once, in the helper's step;
- names do not hang on a constant: any mask fill acting as -inf names the additive mask.
"""
import csv
import json
import pathlib
import subprocess
import sys
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from autograder.core import rubric
from autograder.core.causes import CODE_CAUSES
from autograder.core.compare import matches
from autograder.core.predictions import predictions
from autograder.core.verdict import CaseResult
from autograder.grading.plan import Plan
from autograder.core.judge import judge_step
from autograder.core.render.step import step_feedback
from autograder.sandbox.runner import CallOutcome
from labs.masked_attention import LAB as MASKED_LAB
from labs.self_attention import LAB as SELF_LAB
from conftest import ROOT

SELF_SOLUTION = (ROOT / "solutions" / "self_attention.py").read_text("utf-8")
MASKED_SOLUTION = (ROOT / "solutions" / "masked_attention.py").read_text("utf-8")
PLANS = {}


def plan_of(lab):
    if lab.name not in PLANS:
        PLANS[lab.name] = Plan.build(lab)
    return PLANS[lab.name]


STEPS = [(lab, step) for lab in (SELF_LAB, MASKED_LAB) for step in lab.steps]


# Generated answers -------------------------------------------------------------------------

def _answer(probe):
    return probe.expected if len(probe.expected) > 1 else probe.expected[0]


def _returned(probe, value):
    after = [a.copy() if isinstance(a, np.ndarray) else a for a in probe.args]
    return CallOutcome("returned", value=value, args_after=after)


def _tag(probe):
    """A number fixed by the call's arguments: the same call gets the same wrong value (no
    "random numbers" read into it), other arguments other values (no "ignores its arguments")."""
    data = b"".join(np.ascontiguousarray(a).tobytes() if isinstance(a, np.ndarray) else repr(a).encode()
                    for a in probe.args)
    return 1 + (zlib.crc32(data) % 89) / 7


def _garbage(probe):
    """A wrong value no mistake names: the answer shifted by the call's own tag."""
    tag = _tag(probe)
    values = []
    for output, expected in zip(probe.step.outputs, probe.expected):
        if output.kind == "mapping":
            values.append({key: f"~{tag:.3f}" for key in expected})
        else:
            values.append(np.asarray(expected, dtype=float) + tag)
    return tuple(values) if len(values) > 1 else values[0]


def _named(probe, code):
    """The prediction of mistake `code` on this call, where it differs from the answer; else None."""
    for mistake in probe.step.mistakes:
        if mistake.code == code:
            differing = predictions(probe, mistake)[0]
            if differing:
                for candidate in mistake.candidates(probe):
                    if candidate is not None and not matches(probe.step.outputs, list(probe.expected), candidate):
                        return tuple(candidate) if len(candidate) > 1 else candidate[0]
    return None


def outcome(probe, kind, code=None):
    if kind == "right":
        return _returned(probe, _answer(probe))
    if kind == "raise":
        return CallOutcome("raised", error={"type": "ValueError", "message": "boom", "frames": []})
    if kind == "named":
        value = _named(probe, code)
        return _returned(probe, _garbage(probe) if value is None else value)
    return _returned(probe, _garbage(probe))


def graded(lab, step, kinds, code=None):
    probes = plan_of(lab).probes[step.name]
    return judge_step(step, probes, [outcome(p, k, code) for p, k in zip(probes, kinds)], "function", False,
                      page=lab.page_case)


def computes_nothing(result):
    """Told as answers not computed from the inputs (fitted to the page or the public tests, the
    same values for other arguments, random numbers; or that, worded after the code's evidence):
    those passes earn nothing by design, and the invariants speak of answers that compute."""
    told = {code for code in result.mistakes}
    rule = (result.rubric or {})
    if rule.get("rule") == "mistake":
        told.add(rule["code"])
    return any(rubric.computes_nothing(code) or code in CODE_CAUSES for code in told)


def _codes_to_name(step):
    return [m.code for m in step.mistakes if not rubric.computes_nothing(m.code)]


@st.composite
def answers(draw, kinds=("right", "wrong", "raise", "named")):
    """(lab, step, per-test kinds, the mistake named where "named") of one step."""
    lab, step = draw(st.sampled_from(STEPS))
    count = len(plan_of(lab).probes[step.name])
    codes = _codes_to_name(step)
    allowed = [k for k in kinds if k != "named" or codes]
    chosen = draw(st.lists(st.sampled_from(allowed), min_size=count, max_size=count))
    code = draw(st.sampled_from(codes)) if codes else None
    return lab, step, chosen, code


UPGRADES = [("raise", "wrong"), ("raise", "right"), ("wrong", "right"), ("named", "right"), ("raise", "named")]
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(answer=answers(), data=st.data())
def test_points_never_go_down_when_one_test_gets_more_right(answer, data):
    lab, step, kinds, code = answer
    upgrades = [(i, new) for i, old in enumerate(kinds) for before, new in UPGRADES if old == before]
    assume(upgrades)
    index, new = data.draw(st.sampled_from(upgrades))
    better = list(kinds)
    better[index] = new
    worse_result, better_result = graded(lab, step, kinds, code), graded(lab, step, better, code)
    assume(not computes_nothing(better_result))
    assert better_result.score >= worse_result.score - 1e-12, (
        step.name, kinds[index], new, worse_result.rubric, better_result.rubric)


@SETTINGS
@given(answer=answers(kinds=("right", "wrong", "raise")), data=st.data())
def test_an_error_costs_its_test_what_an_unnamed_wrong_value_costs(answer, data):
    lab, step, kinds, _ = answer
    index = data.draw(st.integers(0, len(kinds) - 1))
    raising, wrong = list(kinds), list(kinds)
    raising[index], wrong[index] = "raise", "wrong"
    raising_result, wrong_result = graded(lab, step, raising), graded(lab, step, wrong)
    assume(not computes_nothing(raising_result) and not computes_nothing(wrong_result))
    assert raising_result.score == pytest.approx(wrong_result.score), (step.name, kinds)


@SETTINGS
@given(answer=answers(kinds=("right", "named", "raise")))
def test_a_name_never_costs_points(answer):
    """The same answer with its named wrong values replaced by values no mistake names."""
    lab, step, kinds, code = answer
    assume(code is not None and "named" in kinds)
    unnamed = ["wrong" if kind == "named" else kind for kind in kinds]
    named_result, unnamed_result = graded(lab, step, kinds, code), graded(lab, step, unnamed)
    assume(not computes_nothing(unnamed_result) and not computes_nothing(named_result))
    assert named_result.score >= unnamed_result.score - 1e-12, (step.name, named_result.rubric)


@SETTINGS
@given(answer=answers(kinds=("right", "wrong", "raise")))
def test_points_are_the_share_of_tests_passed_when_nothing_is_named(answer):
    """A test is one call: a failed call costs its own test, never the other calls of its case."""
    lab, step, kinds, _ = answer
    result = graded(lab, step, kinds)
    assume(not computes_nothing(result))
    probes = plan_of(lab).probes[step.name]
    counted = [k for p, k in zip(probes, kinds) if k != "right" or not rubric.is_degenerate(p.case)]
    if all(k == "right" for k in kinds):
        assert result.score == step.points
    elif result.rubric["rule"] == "cases":
        passed = sum(k == "right" for k in counted)
        assert result.score == pytest.approx(step.points * passed / len(counted))


# The rule as data ---------------------------------------------------------------------------

def case(name, passed, code=None, raised=False, degenerate=False):
    return CaseResult(case=name, hidden=False, label="", passed=passed, code=code, raised=raised,
                            degenerate=degenerate)


def test_a_named_error_is_words_only_and_costs_its_test():
    cases = [case("a", True), case("a", False, "fixed_axis", raised=True), case("b", True), case("b", True)]
    points, rule = rubric.score(2, cases, named={"fixed_axis"})
    assert points == pytest.approx(1.5) and rule == {"rule": "cases", "passed": 3, "total": 4}


def test_a_named_mistake_keeps_the_share_of_tests_passed_when_that_is_more():
    cases = [case(name, True) for name in "abcde"] + [case("f", False, "missing_scale")]
    points, rule = rubric.score(6, cases, named={"missing_scale"})
    assert points == 5 and rule == {"rule": "cases", "passed": 5, "total": 6, "code": "missing_scale"}


def test_answers_not_computed_earn_nothing_for_their_passes():
    cases = [case("page", True), case("b", False, "hardcoded", raised=True), case("c", False, "hardcoded")]
    assert rubric.score(3, cases, named={"hardcoded"})[0] == 0


# The cases quoted: through `autograder check` and `autograder grade` ------------------------

SOFTMAX_BODY = '''    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)'''
STABLE_TABLES_ONLY = SELF_SOLUTION.replace(SOFTMAX_BODY, '''    n, m = x.shape
    out = np.zeros((n, m))
    for i in range(n):
        row = np.exp(x[i] - x[i].max())
        out[i] = row / row.sum()
    return out''')
UNSTABLE_AXIS_1 = SELF_SOLUTION.replace(SOFTMAX_BODY, '''    e = np.exp(x)
    return e / e.sum(axis=1, keepdims=True)''')
STABLE_AXIS_1 = SELF_SOLUTION.replace(SOFTMAX_BODY, '''    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)''')

MASK_BODY = '''def causal_mask(n):
    """(n, n) booleans, True where word i may attend to word j: j ≤ i."""
    n = int(n)
    return np.arange(n)[None, :] <= np.arange(n)[:, None]'''
MASKED_CALL = "    weights = masked_softmax(scores, causal_mask(X.shape[0]))"


def additive(fill, helper="causal_mask"):
    """multi_head_attention adding an additive 0/fill mask made by `helper` (the lab's causal_mask,
    or a privately named copy) and taking a plain softmax: right, in another convention."""
    source = MASKED_SOLUTION.replace(MASK_BODY, f'''def causal_mask(n):
    """(n, n) additive mask: 0 where word i may attend to word j, {fill} elsewhere."""
    return np.where(np.tril(np.ones((n, n), dtype=bool)), 0.0, {fill})


def _additive(n):
    return np.where(np.tril(np.ones((n, n), dtype=bool)), 0.0, {fill})''')
    source = source.replace(MASKED_CALL, f'''    scores = scores + {helper}(X.shape[0])
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = shifted / shifted.sum(axis=-1, keepdims=True)''')
    assert source.count("np.tril") == 2 and MASKED_CALL not in source
    return source


FILLS = ["-np.inf", "-1e9", "-1e10", "np.finfo(float).min", "-1e30", "float('-inf')"]


def check_json(path, *extra):
    done = subprocess.run([sys.executable, "-m", "autograder", "check", str(path), "--json", *extra],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    return {step["name"]: step for step in json.loads(done.stdout)["steps"]}


def test_the_quoted_sources_are_what_they_say():
    assert STABLE_TABLES_ONLY != SELF_SOLUTION and UNSTABLE_AXIS_1 != SELF_SOLUTION and STABLE_AXIS_1 != SELF_SOLUTION


def test_check_a_stable_softmax_for_tables_only_never_scores_below_an_unstable_fixed_axis(tmp_path):
    (tmp_path / "stable.py").write_text(STABLE_TABLES_ONLY, "utf-8")
    (tmp_path / "unstable.py").write_text(UNSTABLE_AXIS_1, "utf-8")
    (tmp_path / "axis1.py").write_text(STABLE_AXIS_1, "utf-8")
    stable, unstable, axis1 = (check_json(tmp_path / name, "--lang", "en")["softmax"]
                               for name in ("stable.py", "unstable.py", "axis1.py"))
    assert stable["score"] > 0 and stable["score"] >= unstable["score"]
    # The same 1-D failure costs the same, named by its error or not: its tests.
    assert stable["score"] == axis1["score"] and axis1["mistakes"][:1] == ["fixed_axis"]
    assert unstable["score"] < stable["score"]
    assert "Grading rule: the share of tests passed" in stable["feedback"]


@pytest.mark.parametrize("fill", FILLS)
def test_check_names_an_additive_mask_whatever_fill_acts_as_minus_inf(tmp_path, fill):
    path = tmp_path / "additive.py"
    path.write_text(additive(fill), "utf-8")
    steps = check_json(path, "--lab", "masked_attention")
    mask = steps["causal_mask"]
    assert mask["mistakes"] == ["additive_mask"] and mask["score"] == pytest.approx(0.25)
    # multi_head_attention calls the student's own causal_mask, in its own convention: no points lost.
    attention = steps["multi_head_attention"]
    assert attention["status"] == "passed" and attention["score"] == attention["max_score"]
    assert "직접 작성한 함수(causal_mask)와 함께 쓰면 값이 맞으므로" in attention["feedback"]


def test_check_a_private_copy_and_the_labs_own_helper_score_alike(tmp_path):
    own, private = tmp_path / "own.py", tmp_path / "private.py"
    own.write_text(additive("-np.inf"), "utf-8")
    private.write_text(additive("-np.inf", helper="_additive"), "utf-8")
    by_own, by_copy = check_json(own, "--lab", "masked_attention"), check_json(private, "--lab", "masked_attention")
    assert {name: step["score"] for name, step in by_own.items()} == \
        {name: step["score"] for name, step in by_copy.items()}


def test_a_fill_that_does_not_act_as_minus_inf_is_not_called_additive(tmp_path):
    """-1 or -100 in the blocked cells: a table of other numbers, not the additive mask."""
    for fill in ("-1.0", "-100.0"):
        path = tmp_path / "other.py"
        path.write_text(additive(fill), "utf-8")
        assert "additive_mask" not in check_json(path, "--lab", "masked_attention")["causal_mask"]["mistakes"]


def test_grade_writes_the_same_points_into_the_class_sheet(tmp_path):
    self_class, masked_class = tmp_path / "self", tmp_path / "masked"
    self_class.mkdir()
    masked_class.mkdir()
    (self_class / "kim_101_1_stable.py").write_text(STABLE_TABLES_ONLY, "utf-8")
    (self_class / "lee_102_2_unstable.py").write_text(UNSTABLE_AXIS_1, "utf-8")
    (masked_class / "park_201_1_own.py").write_text(additive("-1e10"), "utf-8")
    (masked_class / "choi_202_2_copy.py").write_text(additive("-1e10", helper="_additive"), "utf-8")
    rows = {}
    for folder, lab in ((self_class, "self_attention"), (masked_class, "masked_attention")):
        out = tmp_path / f"out-{lab}"
        done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(folder), "--out", str(out),
                               "--lab", lab], capture_output=True, text=True, timeout=600, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
            rows.update({row["name"]: row for row in csv.DictReader(handle)})
    assert float(rows["kim"]["softmax"]) > float(rows["lee"]["softmax"]) > 0
    for name in ("park", "choi"):
        assert float(rows[name]["causal_mask"]) == pytest.approx(0.25)
        assert float(rows[name]["multi_head_attention"]) == 3.0
    assert rows["park"]["total"] == rows["choi"]["total"]


# Words: "the shape is right" of arrays only; 1-D named alike; the rule said briefly -----------

def _feedback(lab, step_name, value_of, lang):
    step = lab.steps_by_name[step_name]
    probes = plan_of(lab).probes[step_name]
    result = judge_step(step, probes, [_returned(p, value_of(p)) for p in probes], "function", False,
                        page=lab.page_case)
    return step_feedback(result, lab, lang)


@pytest.mark.parametrize("lang, array_words, list_words", [
    ("en", "The shape is right", "The list has the expected size"),
    ("ko", "모양은 맞지만", "리스트의 크기는 맞지만")])
def test_the_shape_is_said_to_be_right_of_arrays_only(lang, array_words, list_words):
    def wrong_list(probe):
        return (np.asarray(probe.expected[0]) + 1).tolist()

    def wrong_array(probe):
        return np.asarray(probe.expected[0]) + 1

    as_list = _feedback(SELF_LAB, "mix", wrong_list, lang)
    assert list_words in as_list and array_words not in as_list
    assert ("Size of the list" if lang == "en" else "list의 크기") in as_list
    as_array = _feedback(SELF_LAB, "mix", wrong_array, lang)
    assert array_words in as_array and list_words not in as_array


@pytest.mark.parametrize("lang, words", [("en", "paired with other words"), ("ko", "다른 낱말에 짝지어졌습니다")])
def test_a_dict_with_other_words_is_told_as_a_dict(lang, words):
    def scrambled(probe):
        expected = probe.expected[0]
        keys = list(expected)
        return {key: expected[keys[(i + 1) % len(keys)]] + "x" for i, key in enumerate(keys)}
    text = _feedback(SELF_LAB, "most_attended", scrambled, lang)
    assert words in text and "The shape is right" not in text and "모양은 맞지만" not in text


def test_a_one_dimensional_test_is_named_alike_in_each_language():
    def wrong_row(probe):
        return probe.expected[0] + (1 if probe.label == "1-D" else 0)
    ko = _feedback(SELF_LAB, "softmax", wrong_row, "ko")
    en = _feedback(SELF_LAB, "softmax", wrong_row, "en")
    assert "(1차원 입력)" in ko and "1-D 입력" not in ko
    assert "(1-D input)" in en


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_rubric_sentence_is_one_short_sentence(lang):
    def wrong_page(probe):  # and wrong where a wrong formula is right too: every test counts, nothing to explain
        return probe.expected[0] + (1 if probe.case.name == "page" or probe.case.degenerate else 0)
    lines = [line for line in _feedback(SELF_LAB, "mix", wrong_page, lang).splitlines()
             if "Grading rule" in line or "채점 기준" in line]
    assert len(lines) == 1 and len(lines[0].strip()) <= 60, lines
