"""What a student reads: numpy's order, words for cells, hidden cases kept hidden, no internals."""
import dataclasses
import re
import string

import numpy as np
import pytest

from labs.self_attention import page as lab
from autograder.core.judge import judge_step
from autograder.core.reading.problems import detail
from autograder.core.verdict import Note, SubmissionResult
from autograder.core.render.feedback import as_dict, as_text
from autograder.core.render.messages import LANGUAGES, catalog
from autograder.core.render.notes import load_notes
from autograder.core.render.step import step_feedback
from autograder.core.render.text import position
from autograder.sandbox.runner import CallOutcome
from labs.self_attention.steps import STEPS, STEPS_BY_NAME
from labs.self_attention import LAB


def answer(probe):
    return probe.expected if len(probe.expected) > 1 else probe.expected[0]


def returned(probe, value):
    return CallOutcome("returned", value=value,
                       args_after=[a.copy() if isinstance(a, np.ndarray) else a for a in probe.args])


def result_for(plan, step_name, outcome_of):
    probes = plan.probes[step_name]
    return judge_step(STEPS_BY_NAME[step_name], probes, [outcome_of(p) for p in probes], "function", False)


def marker(lang, section, key):
    """The longest fixed piece of a message (the text between its placeholders)."""
    pieces = [literal.strip() for literal, *_ in string.Formatter().parse(catalog(lang, LAB)[section][key])]
    return max(pieces, key=len)


def line_of(text, lang, section, key):
    lines = text.split("\n")
    found = [i for i, line in enumerate(lines) if marker(lang, section, key) in line]
    assert found, (key, text)
    return found[0]


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def column_softmax(probe):
    (x,) = probe.args
    return returned(probe, _softmax(x, axis=0) if x.ndim == 2 else _softmax(x))


def divide_by_dk(probe):
    weights = _softmax(probe.trace.scores / probe.case.W_K.shape[1])
    return returned(probe, (weights @ probe.trace.V, weights))


def elementwise(probe):
    Q, K = probe.args
    return returned(probe, Q * K)


def indices(probe):
    weights, words = probe.args
    return returned(probe, {word: int(j) for word, j in zip(words, weights.argmax(axis=1))})


ORDER = ("criterion", "shape_ok", "mismatched", "worst_cell", "values_got", "values_expected")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("step_name, student", [("softmax", column_softmax),
                                                ("self_attention", divide_by_dk)])
def test_value_mistake_reads_in_numpys_order_then_cause_then_hint(plan, lang, step_name, student):
    text = step_feedback(result_for(plan, step_name, student), LAB, lang)
    positions = [line_of(text, lang, "text", key) for key in ORDER]
    positions += [line_of(text, lang, "text", "cause"), line_of(text, lang, "text", "hint")]
    assert positions == sorted(positions) and len(set(positions)) == len(positions), text
    assert "Traceback" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_worst_cell_is_named_by_its_words(plan, lang):
    text = step_feedback(result_for(plan, "softmax", column_softmax), LAB, lang)
    worst = text.split("\n")[line_of(text, lang, "text", "worst_cell")]
    assert re.search(r"'(나는|사과를|먹었다)'.*'(나는|사과를|먹었다)'", worst), worst


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shape_mistake_shows_both_shapes_before_the_values(plan, lang):
    text = step_feedback(result_for(plan, "scores", elementwise), LAB, lang)
    shape = line_of(text, lang, "text", "shape_mismatch")
    assert line_of(text, lang, "text", "criterion") < shape < line_of(text, lang, "text", "values_got")
    assert "(3, 4)" in text.split("\n")[shape] and "(3, 3)" in text.split("\n")[shape]
    assert lab.HAND_SCORE in text.split("\n")[line_of(text, lang, "text", "hint")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mapping_mistake_names_the_first_wrong_word(plan, lang):
    text = step_feedback(result_for(plan, "most_attended", indices), LAB, lang)
    order = [line_of(text, lang, "text", key) for key in
             ("mapping_criterion", "mapping_mismatch", "mapping_first", "values_got", "values_expected")]
    assert order == sorted(order)
    assert "'나는' → " in text.split("\n")[order[2]]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("step_name, value, kind", [("most_attended", ["먹었다", "나는", "나는"], "mapping"),
                                                   ("scores", {"a": 1}, "array")])
def test_a_value_of_the_wrong_type_is_told_what_it_should_have_been(plan, lang, step_name, value, kind):
    """corpus_blind16 (most_attended, returns_ndarray_of_names): the type returned beside the one asked."""
    text = step_feedback(result_for(plan, step_name, lambda probe: returned(probe, value)), LAB, lang)
    told = text.split("\n")[line_of(text, lang, "text", "wrong_type")]
    assert catalog(lang, LAB)["expected_kind"][kind] in told and type(value).__name__ in told, told


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wrong_axis_hint_says_which_sums_should_be_one(plan, lang):
    text = step_feedback(result_for(plan, "softmax", column_softmax), LAB, lang)
    hint = text.split("\n")[line_of(text, lang, "text", "hint")]
    assert "0.340 + 0.138 + 0.522 = 1" in hint and "(" in hint and "4" in hint


# Hidden cases -----------------------------------------------------------------------------

def hidden_secrets(plan, step_name):
    """Words and numbers that appear only in hidden cases."""
    probes = plan.probes[step_name]
    public_words = {w for p in probes if not p.case.hidden for w in p.case.words}
    words = {w for p in probes if p.case.hidden for w in p.case.words} - public_words
    def numbers_of(hidden):
        found = set()
        for probe in probes:
            if probe.case.hidden == hidden:
                for value in list(probe.expected) + [probe.case.X]:
                    for v in np.ravel(np.asarray(value, dtype=float)):
                        found |= {f"{v:.3f}", f"{v:.4g}", f"{v + 1:.4g}", f"{v:.2f}"}
        return found
    # Hidden tests built on the page's own sentence share its (public) numbers: those are no secret.
    numbers = numbers_of(True) - numbers_of(False)
    quoted = " ".join(str(fact) for fact in LAB.hint_facts().values())  # the page's, quoted by hints
    return words, {n for n in numbers if len(n.strip("-0.")) >= 3 and n not in quoted}


def wrong_on_hidden(probe):
    # Right on one hidden test of other sizes too: computed, so not fitted to the public tests.
    if not probe.case.hidden or probe.case.name == "hidden-2":
        return returned(probe, answer(probe))
    if probe.case.name.endswith("1"):
        n = len(probe.case.words)
        return CallOutcome("raised", error={
            "type": "IndexError", "message": f"index {n} is out of bounds for '{probe.case.words[0]}'",
            "frames": [["attention.py", 12, "mix", "out[i] = weights[i] @ V"]]})
    return returned(probe, answer(probe) + 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hidden_feedback_reveals_no_words_or_numbers(plan, lang):
    result = result_for(plan, "mix", wrong_on_hidden)
    # Right on every public test, the larger ones of other sizes too: nothing says the values are
    # fitted to the page, so the hidden failures keep their plain codes.
    assert result.status == "error" and set(result.mistakes) == {"exception", "wrong_values"}
    text = step_feedback(result, LAB, lang)
    words, numbers = hidden_secrets(plan, "mix")
    assert words and numbers
    assert not [w for w in words if w in text], text
    assert not [n for n in numbers if n in text], text
    assert "out of bounds" not in text  # the error's message may quote sizes; type and line may not
    assert "IndexError" in text and "out[i] = weights[i] @ V" in text
    hidden_total = len({p.case.name for p in plan.probes["mix"] if p.case.hidden})
    assert f"{hidden_total}" in text.split("\n")[line_of(text, lang, "text", "hidden_summary")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hidden_summary_counts_calls_as_the_grading_rule_does(plan, lang):
    """softmax is called more than once per case: one test is one call, in the hidden summary as
    in the grading rule and in a passed step's line."""
    def wrong_everywhere_hidden(probe):
        return returned(probe, answer(probe) * 2 if probe.case.hidden else answer(probe))
    text = step_feedback(result_for(plan, "softmax", wrong_everywhere_hidden), LAB, lang)
    calls = sum(p.case.hidden for p in plan.probes["softmax"])
    assert calls > len({p.case.name for p in plan.probes["softmax"] if p.case.hidden})
    summary = text.split("\n")[line_of(text, lang, "text", "hidden_summary")]
    assert summary.count(str(calls)) == 2, summary


# Errors, timeouts, JSON -------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_student_error_shows_their_line_and_no_traceback(plan, lang):
    error = {"type": "ValueError", "message": "shapes (3,3) and (4,3) not aligned",
             "frames": [["attention.py", 20, "mix", "return np.dot(weights, V.T)"]]}
    text = step_feedback(result_for(plan, "mix", lambda p: CallOutcome("raised", error=error)), LAB, lang)
    assert "ValueError: shapes (3,3) and (4,3) not aligned" in text
    assert "attention.py" in text and "20" in text and "return np.dot(weights, V.T)" in text
    assert "Traceback" not in text and "autograder" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_error_told_as_the_cause_has_its_line_shown_when_an_earlier_test_only_returned_wrong(plan, lang):
    """The cause of an error says its line is shown above: so the first public test that raised is
    shown in detail too, when the first failing one returned a wrong value."""
    error = {"type": "ValueError", "message": "shapes (3,3) and (4,3) not aligned",
             "frames": [["attention.py", 20, "mix", "return np.dot(weights, V.T)"]]}
    public = [p for p in plan.probes["mix"] if not p.case.hidden]
    first = public[0]
    result = result_for(plan, "mix", lambda p: returned(p, answer(p) + 1.0) if p is first
                        else CallOutcome("raised", error=error) if not p.case.hidden else returned(p, answer(p)))
    assert "exception" in result.mistakes and not result.cases[0].raised, result.mistakes
    text = step_feedback(result, LAB, lang)
    assert "return np.dot(weights, V.T)" in text and "20" in text
    assert line_of(text, lang, "cause", "exception") > text.split("\n").index(
        next(line for line in text.split("\n") if "return np.dot(weights, V.T)" in line))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_error_raised_before_any_line_of_the_students_never_says_its_line_is_shown(plan, lang):
    """tests/corpora/corpus_blind16 (scores, lru_cache on array arguments): the decorator hashes the
    arguments before the student's function runs, so the error has no frame of his: its cause says
    so, never that the line is shown above."""
    error = {"type": "TypeError", "message": "unhashable type: 'numpy.ndarray'", "frames": []}
    result = result_for(plan, "mix", lambda p: CallOutcome("raised", error=error))
    assert result.mistakes[:1] == ["exception"]
    text = step_feedback(result, LAB, lang)
    assert marker(lang, "text", "exception_no_line_cause") in text
    assert marker(lang, "cause", "exception") not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_error_on_hidden_tests_only_never_says_its_line_is_shown(plan, lang):
    """A hidden test keeps no line of an error (grading.hidden): its cause says so and what to try,
    never that the line is shown above."""
    from autograder.core.reading.submission import read_submission
    from autograder.grading.hidden import hidden_facts_only

    error = {"type": "IndexError", "message": "index 3 is out of bounds",
             "frames": [["attention.py", 2, "mix", "return weights[3] @ V"]]}
    result = result_for(plan, "mix", lambda p: CallOutcome("raised", error=error) if p.case.hidden
                        else returned(p, answer(p)))
    assert "exception" in result.mistakes
    submission = read_submission("attention.py", b"def mix(weights, V):\n    return weights[3] @ V\n")
    text = step_feedback(hidden_facts_only(result, submission, lab_names=LAB.function_names), LAB, lang)
    assert "return weights[3] @ V" not in text
    assert marker(lang, "text", "hidden_exception_cause") in text
    assert marker(lang, "cause", "exception") not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_timeout_says_the_limit_and_counts_the_calls_it_stopped(plan, lang):
    first = plan.probes["mix"][0]
    result = result_for(plan, "mix", lambda p: CallOutcome("timeout" if p is first else "not_run"))
    result = dataclasses.replace(result, seconds=3)
    text = step_feedback(result, LAB, lang)
    assert result.status == "timeout" and result.mistakes == ["timeout"]
    assert "3" in text.split("\n")[line_of(text, lang, "text", "cause")]
    hidden = len({p.case.name for p in plan.probes["mix"] if p.case.hidden})
    assert text.split("\n")[line_of(text, lang, "text", "hidden_summary")].count(str(hidden)) == 2


def test_passed_steps_are_one_line_and_json_keeps_its_shape(plan):
    steps = [result_for(plan, step.name, lambda p: returned(p, answer(p))) for step in STEPS]
    steps[2] = result_for(plan, "softmax", column_softmax)
    report = as_dict(SubmissionResult(submission="s.py", steps=steps), LAB, "en")
    assert set(report) == {"submission", "lab", "score", "max_score", "steps", "notes"}
    assert [s["name"] for s in report["steps"]] == [step.name for step in STEPS]
    assert report["steps"][2]["mistakes"] == ["wrong_axis"]
    assert report["steps"][0]["feedback"].count("\n") == 1
    text = as_text(SubmissionResult(submission="s.py", steps=steps), LAB, "ko")
    assert "합계" in text.splitlines()[-1]


# Strings the student controls --------------------------------------------------------------

CONTROLS = ("\x1b", "\x9b", "\x07", "\r", "\u202e", "\u2028")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_student_strings_stay_on_their_line_and_never_reach_a_terminal_raw(plan, lang):
    error = {"type": "\x1b[2JEvil\u202e", "message": "a\n# Total 10 / 10\x1b[32m\r\x9b0m",
             "frames": [["attention\x07.py", 20, "mix\u2028", "return 1  # \x1b]0;title\x07"]]}
    text = step_feedback(result_for(plan, "mix", lambda p: CallOutcome("raised", error=error)), LAB, lang)
    assert not any(ch in text for ch in CONTROLS)
    assert "\\x1b[2JEvil\\u202e: a\\n# Total 10 / 10\\x1b[32m\\r\\x9b0m" in text
    assert not any(line.startswith("# Total") for line in text.split("\n"))
    notes = [Note(code="load_error", filename="<cell 1>\n", line=3, type="X\x1b", message="m\nn"),
             Note(code="problem", problem="not_utf8", detail=detail("filename", filename="byte 3\x1b[31m\n"))]
    result = SubmissionResult(submission="s\x1b.py", steps=[result_for(plan, s.name, lambda p: returned(p, answer(p)))
                                                          for s in STEPS], notes=notes)
    for shown in (as_text(result, LAB, lang), str(as_dict(result, LAB, lang))):
        assert not any(ch in shown for ch in CONTROLS)
    assert as_dict(result, LAB, lang)["submission"] == "s\\x1b.py"



# Positions and places ----------------------------------------------------------------------

@pytest.mark.parametrize("index, words", [(0, "첫 번째"), (1, "두 번째"), (2, "세 번째"), (3, "네 번째"),
                                          (9, "열 번째"), (10, "11번째"), (63, "64번째")])
def test_korean_counts_positions_from_one_in_words(index, words):
    assert position(index, "ko") == words


def test_english_keeps_the_index_numpy_uses_and_says_its_ordinal():
    assert [position(i, "en") for i in (0, 1, 3, 9, 10)] == \
        ["0 (the first)", "1 (the second)", "3 (the fourth)", "9 (the tenth)", "10"]


def feature_cell_result(plan):
    """self_attention's output: rows are words, columns are features (no words)."""
    result = result_for(plan, "self_attention", divide_by_dk)
    page = next(c for c in result.cases if c.case == "page" and not c.passed)
    assert not page.detail.worst.cell.column_is_word
    return result, page.detail.worst.cell


def test_a_feature_column_reads_as_an_ordinal_in_korean(plan):
    result, cell = feature_cell_result(plan)
    text = step_feedback(result, LAB, "ko")
    worst = text.split("\n")[line_of(text, "ko", "text", "worst_cell")]
    assert f"('{cell.row}' 행, {position(cell.index[1], 'ko')} 열)" in worst, worst
    assert "번 열" not in worst


def test_a_feature_column_keeps_its_index_in_english(plan):
    result, cell = feature_cell_result(plan)
    text = step_feedback(result, LAB, "en")
    worst = text.split("\n")[line_of(text, "en", "text", "worst_cell")]
    assert f"row '{cell.row}', column {cell.index[1]} (the " in worst, worst


def test_a_word_cell_reads_row_then_column_in_korean(plan):
    text = step_feedback(result_for(plan, "softmax", column_softmax), LAB, "ko")
    worst = text.split("\n")[line_of(text, "ko", "text", "worst_cell")]
    assert re.search(r"\('[^']+' 행, '[^']+' 열\)", worst), worst


NOTEBOOK_NOTES = [Note(code="syntax_error", filename="<cell 8>", line=1, message="expected ':'"),
                  Note(code="load_error", filename="<cell 9>", line=7, type="NameError",
                       message="name 'x' is not defined")]


def test_notebook_places_name_the_cell_in_korean_words():
    syntax, error = load_notes(NOTEBOOK_NOTES, LAB, "ko")
    assert syntax.startswith("8번째 셀 1번째 줄: ") and error.startswith("9번째 셀 7번째 줄: ")
    assert "<cell" not in syntax + error and "문장" not in error


def test_notebook_places_stay_as_they_were_in_english():
    syntax, error = load_notes(NOTEBOOK_NOTES, LAB, "en")
    assert syntax.startswith("<cell 8> line 1: ") and error.startswith("<cell 9> line 7: ")


@pytest.mark.parametrize("lang, place", [("ko", "5번째 셀 3번째 줄"), ("en", "<cell 5> line 3")])
def test_an_error_in_a_notebook_cell_names_the_cell(plan, lang, place):
    error = {"type": "ValueError", "message": "bad", "frames": [["<cell 5>", 3, "mix", "return V.T"]]}
    text = step_feedback(result_for(plan, "mix", lambda p: CallOutcome("raised", error=error)), LAB, lang)
    assert place in text.split("\n")[line_of(text, lang, "text", "error_line")]


def test_a_file_named_like_a_cell_but_not_one_keeps_its_name():
    (note,) = load_notes([Note(code="load_timeout", filename="<cell 8>.py", line=2)], LAB, "ko")
    assert note.startswith("<cell 8>.py 2번째 줄: ")


# Dict answers --------------------------------------------------------------------------

def without_first_word(probe):
    weights, words = probe.args
    best = {word: words[j] for word, j in zip(words, np.asarray(weights).argmax(axis=1))}
    return returned(probe, {word: other for word, other in best.items() if word != words[0]})


def first_word_to_none(probe):
    weights, words = probe.args
    best = {word: words[j] for word, j in zip(words, np.asarray(weights).argmax(axis=1))}
    return returned(probe, {**best, words[0]: None})


@pytest.mark.parametrize("lang, says", [("ko", "내 사전에 '나는' 키가 없습니다"), ("en", "'나는' is missing")])
def test_a_missing_key_is_called_missing_not_none(plan, lang, says):
    text = step_feedback(result_for(plan, "most_attended", without_first_word), LAB, lang)
    first = [line for line in text.split("\n") if says in line]
    assert first and "None" not in first[0], text


@pytest.mark.parametrize("lang, says", [("ko", "'나는' → 내 값 None"), ("en", "'나는' → got None")])
def test_a_key_present_with_none_shows_its_none(plan, lang, says):
    text = step_feedback(result_for(plan, "most_attended", first_word_to_none), LAB, lang)
    assert says in text, text


# Several mistakes in one step ---------------------------------------------------------------

def column_softmax_without_max(probe):
    (x,) = probe.args
    with np.errstate(all="ignore"):
        e = np.exp(x)
        return returned(probe, e / e.sum(axis=0, keepdims=True))


def column_softmax_then_off_on_hidden(probe):
    """Columns on the public tests; on the hidden ones, values nothing explains."""
    if probe.case.hidden:
        return returned(probe, answer(probe) + 0.5)
    return column_softmax(probe)


def test_a_second_cause_in_korean_says_it_comes_from_other_tests(plan):
    result = result_for(plan, "softmax", column_softmax_then_off_on_hidden)
    assert result.mistakes[0] == "wrong_axis" and len(result.mistakes) == 2
    lines = step_feedback(result, LAB, "ko").split("\n")
    assert [line.split(":")[0].strip() for line in lines if "짐작되는 원인:" in line] == [
        "짐작되는 원인", "다른 테스트에서 짐작되는 원인"]


def test_a_second_cause_in_english_is_worded_as_before(plan):
    lines = step_feedback(result_for(plan, "softmax", column_softmax_then_off_on_hidden), LAB, "en").split("\n")
    assert sum(line.strip().startswith("Likely cause: ") for line in lines) == 2


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_two_mistakes_at_once_are_told_as_one_cause_with_both_parts(plan, lang):
    """Columns and no maximum subtracted: one explanation true on every test, in both words."""
    result = result_for(plan, "softmax", column_softmax_without_max)
    assert result.mistakes == ["wrong_axis+unstable"]
    text = step_feedback(result, LAB, lang)
    table = catalog(lang, LAB)
    for part in ("wrong_axis", "unstable"):
        assert table["title"][part] in text and table["cause"][part] in text, part
    causes = [line for line in text.split("\n") if line.strip().startswith(("짐작되는 원인", "Likely cause"))]
    assert len(causes) == 1
    assert "wrong_axis+unstable" not in text


@pytest.mark.parametrize("lang, separator", [("ko", " / "), ("en", ", ")])
def test_hidden_titles_are_listed_with_the_languages_separator(plan, lang, separator):
    def student(probe):  # an error on a hidden case of the page's own sizes stays an error
        if probe.case.hidden and probe.case.sizes() == plan.probes["mix"][0].case.sizes():
            return CallOutcome("raised", error={"type": "IndexError", "message": "boom", "frames": []})
        return wrong_on_hidden(probe)
    result = result_for(plan, "mix", student)
    say = catalog(lang)["title"]
    text = step_feedback(result, LAB, lang)
    summary = text.split("\n")[line_of(text, lang, "text", "hidden_summary")]
    titles = [say[code] for code in ("exception", "wrong_values")]
    assert separator.join(titles) in summary or separator.join(reversed(titles)) in summary, summary


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hint_follows_the_first_cause_not_a_later_one(plan, lang):
    """missing_scale has no hint of its own and rounded has one: the step's d_k hint still shows."""
    from dataclasses import replace

    result = result_for(plan, "self_attention", lambda p: returned(p, answer(p)))
    result = replace(result, status="failed", mistakes=["missing_scale", "rounded"], score=0.0)
    text = step_feedback(result, LAB, lang)
    hints = catalog(lang, LAB)["hint"]
    assert "rounded" in hints
    facts = LAB.hint_facts()
    assert hints["self_attention_scale"].format(**facts) in text
    assert hints["rounded"].format(**facts) not in text


def test_a_wrong_shape_speaks_of_a_matrix_product_only_in_steps_that_make_one():
    from autograder.core.render.messages import Messages
    from autograder.registry import load

    for lab_name, product_steps in (("self_attention", {"make_qkv", "mix", "self_attention"}),
                                    ("masked_attention", {"multi_head_attention"})):
        lab = load(lab_name)
        for lang, product in (("en", "matrix product"), ("ko", "행렬곱")):
            say = Messages(lang, lab)
            for step in lab.steps:
                told = say.stepwise("cause", step.name, "wrong_shape")
                assert (product in told or "@" in told) == (step.name in product_steps), (lab_name, step.name, told)
