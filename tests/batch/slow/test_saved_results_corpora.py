"""Every file of the corpora (tests/corpora/corpus*, tests/corpora/hostile): the outputs `autograder grade` writes
from the judged result saved in results/<id>.json are byte for byte those a fresh grading writes,
in both languages (the feedback's text and Markdown, the page with its heat-maps, the
Gradescope-style JSON with the record and the saved result itself)."""
import pytest

from test_saved_results import check_rewritten_equal_fresh, corpus_files, plans  # noqa: F401  (a fixture)


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_outputs_written_from_the_saved_result_equal_a_fresh_gradings(path, zygote, plans, tmp_path):  # noqa: F811
    check_rewritten_equal_fresh(path, zygote, plans, tmp_path)
