"""Submissions written as a class writes them, without the grader's mistake catalog in view
(`tests/corpora/corpus_field/`, what each student did in MANIFEST.toml): each wrong file is named on its
own step by the mistake it makes, every other step keeps its points, the correct ones get full marks.
"""
import pathlib
try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib

import pytest

from autograder.grading import grade_file
from autograder.core.render.feedback import as_text
from conftest import CORPORA, ROOT
from test_saved_results import check_rewritten_equal_fresh
from labs.self_attention import LAB

FIELD = CORPORA / "corpus_field"
MANIFEST = tomllib.loads((FIELD / "MANIFEST.toml").read_text("utf-8"))

# The code that names each wrong file's mistake (the manifest says in words what the student did).
NAMED = {
    "make_qkv__all_wq_copy_paste.py": "same_weight",
    "make_qkv__einsum_array_of_ws.py": "stacked_weights",
    "make_qkv__loop_uses_wq.py": "same_weight",
    "make_qkv__np_stack_weights.py": "stacked_weights",
    "make_qkv__random_w_no_seed.py": "nondeterministic",
    "make_qkv__swapped_kv_weights.py": "qkv_order",  # the same values as K and V returned swapped
    "make_qkv__unpack_order_typo.py": "qkv_order",
    "make_qkv__w_times_x_transposed.py": "transposed",
    "make_qkv__weights_transposed.py": "weights_transposed",
    "mix__elementwise_star.py": "elementwise",
    "mix__np_round_output.py": "rounded",
    "mix__range_from_one.py": "skip_first_word",
    "mix__v_times_weights.py": "operands_swapped",
    "mix__weights_transposed.py": "transposed_weights",
    "most_attended__argmin.py": "argmin",
    "most_attended__fill_diagonal_df.py": "excludes_self",
    "most_attended__idxmax_axis0.py": "wrong_axis",
    "most_attended__misspelled_most_attented.py": "missing",
    "most_attended__returns_indices.py": "indices_not_words",
    "most_attended__skip_self_loop.py": "excludes_self",
    "scores__divides_sqrt_dk_once.py": "scaled_early",
    "scores__divides_then_self_attention_again.py": "scaled_early",
    "scores__forgot_transpose.py": "missing_transpose",
    "scores__k_times_q_transposed.py": "transposed",
    "scores__qt_times_k.py": "transposed_q",
    "scores__rounded_like_page.py": "rounded",
    "self_attention__colab_globals.ipynb": "uses_globals",
    "self_attention__divides_by_dk.py": "scale_by_dk",
    "self_attention__dk_and_after_softmax.py": "scale_by_dk+scale_after_softmax",
    "self_attention__dk_from_len_k.py": "scale_wrong_dim",
    "self_attention__dk_from_v.py": "scale_wrong_dim",
    "self_attention__hardcoded_divide_by_two.py": "hardcoded",
    "self_attention__inline_softmax_columns.py": "wrong_axis+global_max",
    "self_attention__mixes_x_not_v.py": "mixes_other_matrix",
    "self_attention__notebook_globals.py": "uses_globals",
    "self_attention__pow_half_precedence.py": "scale_half_dk",
    "self_attention__returns_cell_results.py": "uses_globals",
    "self_attention__returns_output_only.py": "wrong_type",
    "self_attention__returns_weights_first.py": "return_order",
    "self_attention__scale_after_softmax.py": "scale_after_softmax",
    "self_attention__scores_q_with_q.py": "scores_other_matrix",
    "self_attention__times_pow_minus_half.py": "scale_half_dk",
    "softmax__axis0_columns.py": "wrong_axis",
    "softmax__axis1_only_2d.py": "fixed_axis",
    "softmax__global_max.py": "global_max",
    "softmax__global_max_row_loop.py": "global_max",
    "softmax__inplace_shift.py": "mutates_input",
    "softmax__misspelled_sofmax.py": "missing",
    "softmax__no_keepdims.py": "no_keepdims",
    "softmax__no_max_shift.py": "unstable",
    "softmax__rows_from_one.py": "skip_first_word",
    "softmax__scales_inside.py": "scaled_inside",
    "softmax__scipy_special.py": "missing_module",
    "softmax__subtract_row_min.py": "unstable",  # right wherever exp does not overflow
    "softmax__sum_without_keepdims_axis1.py": "no_keepdims",
    "softmax__torch_inside.py": "missing_module",
    "softmax__whole_table_sum.py": "global_sum",
    # The page's weights re-made inside the function over its W arguments: the code never reads them.
    "make_qkv__reseeded_random_w.py": "unused_argument",
}
# Also told, on another step that passes, because the two functions were written together.
ALSO = {
    "scores__divides_sqrt_dk_once.py": ("self_attention", "scale_moved"),
    "softmax__scales_inside.py": ("self_attention", "scale_in_softmax"),
}
# Not named, and why: what the feedback says instead is true but general.
NOT_NAMED = {
    # Every word mapped to the last row's answer: values no known mistake predicts.
    "most_attended__nested_comprehension.py": "wrong_values",
}
# Accepted by design: a Series from idxmax answers like the dict the docstring asks for.
ACCEPTED = {"most_attended__returns_series.py"}

WRONG = sorted(name for name, entry in MANIFEST.items() if entry["step"] != "none" and name not in ACCEPTED)
CORRECT = sorted(name for name, entry in MANIFEST.items() if entry["step"] == "none") + sorted(ACCEPTED)


def test_the_manifest_lists_every_file_and_every_wrong_file_has_an_expectation():
    files = {p.name for p in FIELD.iterdir() if p.suffix in (".py", ".ipynb")}
    assert files == set(MANIFEST)
    assert set(WRONG) == set(NAMED) | set(NOT_NAMED)
    assert len(WRONG) >= 50 and len(CORRECT) >= 20


@pytest.fixture(scope="module")
def graded(zygote, plan):
    results = {}

    def grade(name):
        if name not in results:
            results[name] = grade_file(FIELD / name, zygote, plan)
        return results[name]
    return grade


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_outputs_written_from_the_saved_result_equal_this_gradings(graded, name, zygote, plan, tmp_path):
    """As tests/batch/slow/test_saved_results_corpora.py checks the corpora no test grades anyway."""
    check_rewritten_equal_fresh(FIELD / name, zygote, {LAB.name: plan}, tmp_path, result=graded(name))


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_file_is_named_on_its_own_step_and_costs_no_other(graded, name):
    result = graded(name)
    step_name = MANIFEST[name]["step"]
    by_name = {step.name: step for step in result.steps}
    step = by_name[step_name]
    assert step.status != "passed" and step.score < step.max_score
    expected = NAMED.get(name) or NOT_NAMED[name]
    assert step.mistakes[:1] == [expected], (step.mistakes, MANIFEST[name]["mistake"])
    also = ALSO.get(name)
    for other, other_step in by_name.items():
        if other == step_name:
            continue
        if also and other == also[0]:  # right with the student's own helper: told, never charged
            assert other_step.mistakes == [also[1]] or (
                other_step.status == "passed" and other_step.follows_own_helpers.code == also[1])
            continue
        assert other_step.status == "passed", (other, other_step.mistakes)


@pytest.mark.parametrize("name", CORRECT)
def test_a_correct_file_in_an_unusual_style_gets_full_marks_and_no_code(graded, name):
    result = graded(name)
    assert result.score == result.max_score, [(s.name, s.status, s.mistakes) for s in result.steps]
    assert all(step.mistakes == [] for step in result.steps)


def test_most_of_the_field_corpus_is_named():
    assert len(NAMED) / len(WRONG) >= 0.95


@pytest.mark.parametrize("name", ["self_attention__dk_and_after_softmax.py", "softmax__scales_inside.py",
                                  "make_qkv__random_w_no_seed.py"])
def test_the_feedback_on_a_field_file_reads_without_codes_in_both_languages(graded, name):
    result = graded(name)
    for lang in ("ko", "en"):
        text = as_text(result, LAB, lang)
        for step in result.steps:
            for code in step.mistakes:
                assert code not in text, (lang, code)
