"""Every file of the corpora (tests/corpora/corpus*, tests/corpora/hostile): the outputs `autograder grade` writes
from the judged result saved in results/<id>.json are byte for byte those a fresh grading writes,
in both languages (the feedback's text and Markdown, the page with its heat-maps, the
Gradescope-style JSON with the record and the saved result itself).

Each corpus is checked where it is graded anyway, on that grading (one grading per file): the
tests of CHECKED_WHERE_GRADED call `test_saved_results.check_rewritten_equal_fresh` with their own
result. Here: that those tests cover every file.
"""
from conftest import CORPORA, ROOT
from test_saved_results import corpus_files


def _listed(module, *names):
    """The files a test module lists by path, in its lists `names`."""
    return lambda: [path for name in names for path in getattr(__import__(module), name)]


def _named(corpus, module, table):
    """The files of `corpus` a test module names in its table (file name -> expectation)."""
    return lambda: [CORPORA / corpus / name for name in sorted(getattr(__import__(module), table))]


BLIND = "tests/judging/slow/test_corpus_blind.py"
REPAIRED = "tests/judging/slow/test_repair_corpora.py"  # its check is also the later sets' (…_later.py)
# corpus folder -> (the test module that grades its files and checks them, the files it checks;
# a blind corpus's test checks every row of its manifest, each a file)
CHECKED_WHERE_GRADED = {
    "corpus": ("tests/judging/test_mistakes.py", _listed("test_mistakes", "PLANTED", "CORRECT")),
    "corpus_masked": ("tests/labs/test_masked_attention.py", _listed("test_masked_attention", "PLANTED", "CORRECT")),
    "corpus_wild": ("tests/judging/test_wild_corpus.py", _listed("test_wild_corpus", "FILES")),
    "corpus_field": ("tests/judging/slow/test_field_corpus.py", _named("corpus_field", "test_field_corpus", "MANIFEST")),
    "corpus_field2": ("tests/judging/slow/test_field_corpus_2.py",
                      _named("corpus_field2", "test_field_corpus_2", "MANIFEST")),
    "hostile": ("tests/sandbox/slow/test_hostile.py", _named("hostile", "test_hostile", "EXPECTED")),
    **{name: (BLIND, list) for name in ("corpus_blind", "corpus_blind2", "corpus_blind3", "corpus_blind4")},
    **{f"corpus_blind{n}": (REPAIRED, list) for n in range(5, 23)},
}


def corpus_of(path):
    return path.relative_to(CORPORA).parts[0]


def covered():
    return {path for _, files in CHECKED_WHERE_GRADED.values() for path in files()}


def test_every_corpus_is_checked_where_it_is_graded_and_those_tests_check_it():
    corpora = {corpus_of(path) for path in corpus_files()}
    assert corpora <= set(CHECKED_WHERE_GRADED), corpora - set(CHECKED_WHERE_GRADED)
    for module, _ in CHECKED_WHERE_GRADED.values():
        assert "check_rewritten_equal_fresh(" in (ROOT / module).read_text("utf-8"), module
    # The blind corpora's tests check every row of their manifests (each file); the others, every
    # file their listing names, and the listings name every file.
    unchecked = [path for path in corpus_files() if not corpus_of(path).startswith("corpus_blind")
                 and path not in covered()]
    assert unchecked == [], unchecked
