"""The planted-mistake corpus: each file makes one named mistake in one step, the rest is right.

A file's name says what it plants: `<step>__<code>__<style>.py|.ipynb`. Grading it must report
that code in that step (and nothing else), and full marks in every other step. The files in
tests/corpora/corpus/correct/ are right but written unusually; they must get full marks and no codes.
"""
import pathlib

import pytest

from autograder.grading import grade_file
from autograder.core.render.feedback import as_dict, as_text
from autograder.sandbox.runner import Limits
from labs.self_attention.steps import STEPS, STEPS_BY_NAME
from labs.self_attention import LAB
from conftest import CORPORA
from test_saved_results import check_rewritten_equal_fresh

CORPUS = CORPORA / "corpus"
PLANTED = sorted(p for p in CORPUS.iterdir() if p.suffix in (".py", ".ipynb"))
CORRECT = sorted(p for p in (CORPUS / "correct").iterdir() if p.suffix in (".py", ".ipynb"))
# Codes reported with another one by design: a syntax error leaves the function missing.
COMPANIONS = {"syntax_error": {"missing"}}
# Every code the feedback contract promises to detect on purpose.
CONTRACT = {
    "not_implemented", "exception", "wrong_type", "wrong_shape", "transposed", "not_finite",
    "wrong_values", "mutates_input", "hardcoded", "qkv_order", "same_weight", "elementwise",
    "scaled_early", "wrong_axis", "global_sum", "no_exp", "unstable", "missing_scale",
    "scale_by_dk", "scale_wrong_dim", "scale_after_softmax", "transposed_weights",
    "indices_not_words", "keys_not_words", "argmin", "missing", "syntax_error", "missing_transpose",
    "return_order", "crashed", "timeout", "global_max", "skip_first_word", "scale_half_dk",
    "rounded", "no_keepdims", "uses_globals", "excludes_self", "transposed_q",
}
GRADER_PATHS = ("autograder/", "sandbox", "site-packages", "Traceback", str(CORPUS.parent.parent))


def _field_codes():
    from test_field_corpus import MANIFEST, NAMED

    return {(MANIFEST[name]["step"], code) for name, code in NAMED.items()}


FIELD_CODES = _field_codes()


def planted(path):
    step, code, _style = path.stem.split("__")
    return step, code


def parts_of(code):
    """A planted pair (see autograder.error_model) is named `a+b`."""
    return code.split("+")


def limits_for(path):
    # The endless loop only needs to outlast a short step limit.
    timeout = "__timeout__" in path.stem
    return Limits(step_seconds=1, load_seconds=5) if timeout else Limits()


@pytest.fixture(scope="module")
def graded(zygote, plan):
    cache = {}

    def grade(path):
        if path not in cache:
            cache[path] = grade_file(path, zygote, plan, limits_for(path))
        return cache[path]
    return grade


@pytest.mark.parametrize("path", PLANTED + CORRECT, ids=lambda p: p.name)
def test_outputs_written_from_the_saved_result_equal_this_gradings(graded, path, zygote, plan, tmp_path):
    """As tests/batch/slow/test_saved_results_corpora.py checks the corpora no test grades anyway."""
    check_rewritten_equal_fresh(path, zygote, {LAB.name: plan}, tmp_path, result=graded(path))


def test_file_names_name_real_steps_and_codes():
    for path in PLANTED:
        step, code = planted(path)
        assert step in STEPS_BY_NAME, path.name
        assert set(parts_of(code)) <= CONTRACT, path.name


def test_corpus_covers_every_promised_code_and_every_declared_mistake():
    codes = {planted(p)[1] for p in PLANTED}
    assert CONTRACT <= codes
    corpus = {planted(p) for p in PLANTED}
    for step in STEPS:
        for mistake in step.mistakes:
            if mistake.size > 1:
                continue  # pairs of the error model: their parts are planted, and some pairs
            # A mistake of the shared computation made inside the composed step (an inline softmax)
            # is planted at least once there, and each code on its own step.
            planted_here = (step.name, mistake.code) in corpus
            in_the_field = (step.name, mistake.code) in FIELD_CODES  # the blind corpus found it first
            assert planted_here or in_the_field or any(code == mistake.code for _, code in corpus | FIELD_CODES), \
                (step.name, mistake.code)
    assert any("+" in code for _, code in corpus)
    assert any(name == "self_attention" and code == "wrong_axis" for name, code in corpus)


def test_corpus_has_notebooks_and_correct_variants():
    assert any(p.suffix == ".ipynb" for p in PLANTED)
    assert any(p.suffix == ".ipynb" for p in CORRECT)
    assert len(CORRECT) >= 5


@pytest.mark.parametrize("path", PLANTED, ids=lambda p: p.name)
def test_planted_mistake_is_named_in_its_step_only(graded, path):
    step_name, code = planted(path)
    result = graded(path)
    for step in result.steps:
        if step.name == step_name:
            assert code in step.mistakes, (step.mistakes, step.status)
            assert set(step.mistakes) <= {code} | COMPANIONS.get(code, set()), step.mistakes
            assert step.score < step.max_score
            assert step.status != "passed"
        else:
            assert (step.score, step.status, step.mistakes) == (step.max_score, "passed", []), step


@pytest.mark.parametrize("path", CORRECT, ids=lambda p: p.name)
def test_correct_but_unusual_gets_full_marks_and_no_codes(graded, path):
    result = graded(path)
    assert result.score == result.max_score == 10
    assert all(step.status == "passed" and step.mistakes == [] for step in result.steps)


@pytest.mark.parametrize("path", PLANTED, ids=lambda p: p.name)
def test_feedback_renders_in_both_languages_without_grader_internals(graded, path):
    result = graded(path)
    step_name, code = planted(path)
    for lang in ("ko", "en"):
        text = as_text(result, LAB, lang)
        for marker in GRADER_PATHS:
            assert marker not in text, (lang, marker)
        feedback = {s["name"]: s["feedback"] for s in as_dict(result, LAB, lang)["steps"]}
        assert "\n" in feedback[step_name]  # header plus at least cause and hint


def test_students_error_shows_their_own_line(graded):
    result = graded(CORPUS / "mix__exception__dot.py")
    text = as_text(result, LAB, "en")
    assert "mix__exception__dot.py line" in text
    assert "np.dot(weights, V.T)" in text
    assert "ValueError" in text
