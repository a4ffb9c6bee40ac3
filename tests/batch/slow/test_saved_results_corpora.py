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
    def files():
        loaded = __import__(module)
        return [path for name in names for path in getattr(loaded, name)]
    return files


def _folder(corpus, listing):
    return lambda: [CORPORA / corpus / name for name in listing()]


# corpus folder -> (the test module that grades its files and checks them, the files it checks)
CHECKED_WHERE_GRADED = {
    "corpus": ("tests/judging/test_mistakes.py", _listed("test_mistakes", "PLANTED", "CORRECT")),
    "corpus_masked": ("tests/labs/test_masked_attention.py", _listed("test_masked_attention", "PLANTED", "CORRECT")),
    "corpus_wild": ("tests/judging/test_wild_corpus.py", _listed("test_wild_corpus", "FILES")),
    "corpus_field": ("tests/judging/slow/test_field_corpus.py",
                     _folder("corpus_field", lambda: sorted(__import__("test_field_corpus").MANIFEST))),
    "corpus_field2": ("tests/judging/slow/test_field_corpus_2.py",
                      _folder("corpus_field2", lambda: sorted(__import__("test_field_corpus_2").MANIFEST))),
    "hostile": ("tests/sandbox/slow/test_hostile.py", _folder("hostile", lambda: sorted(__import__("test_hostile").EXPECTED))),
    **{f"corpus_blind{n}": (module, lambda: []) for n, module in
       [("", "tests/judging/slow/test_corpus_blind.py"), *((str(n), "tests/judging/slow/test_corpus_blind.py") for n in (2, 3, 4)),
        *((str(n), "tests/judging/slow/test_repair_corpora.py") for n in (5, 6, 7, 8, 9))]},
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
