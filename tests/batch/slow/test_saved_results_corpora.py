"""Every file of the corpora (tests/corpora/corpus*, tests/corpora/hostile): the outputs `autograder grade` writes
from the judged result saved in results/<id>.json are byte for byte those a fresh grading writes,
in both languages (the feedback's text and Markdown, the page with its heat-maps, the
Gradescope-style JSON with the record and the saved result itself).

The blind corpora (corpus_blind*) are checked where they are graded anyway, on that grading
(tests/judging/slow/test_corpus_blind.py, test_repair_corpora.py): one grading per file."""
import pytest

from test_saved_results import check_rewritten_equal_fresh, corpus_files, plans  # noqa: F401  (a fixture)


# The blind corpora's own tests check them (see above).
NOT_BLIND = [path for path in corpus_files() if not any(part.startswith("corpus_blind") for part in path.parts)]


@pytest.mark.parametrize("path", NOT_BLIND, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_outputs_written_from_the_saved_result_equal_a_fresh_gradings(path, zygote, plans, tmp_path):  # noqa: F811
    check_rewritten_equal_fresh(path, zygote, plans, tmp_path)
