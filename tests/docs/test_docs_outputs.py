"""What the docs quote of the product's output is made at build time from real runs
(docs/hooks/outputs.py), never typed by hand.

INVARIANT: every quote of what `autograder check`, `grade`, the students' `python -m lab_check` or
the report prints is a `<!-- output: NAME -->` marker, which the site's build replaces with what run
NAME prints during that build. The build itself, and the quotes in the built pages, are tested in
tests/docs/browser/test_docs.py (it builds the site).
"""
import pathlib
import re
import sys

import pytest
from hypothesis import given, strategies as st
from conftest import ROOT

DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "hooks"))
import outputs  # noqa: E402  (the hook, tested as a module)

PAGES = sorted([ROOT / "README.md", *(p for p in DOCS.rglob("*.md") if "hooks" not in p.parts)])
# Shapes only the product's own output has: a step's score (`0.86/2점`, `0/2 points`), a test's
# line (`공개 테스트 '페이지 예제'`, `public case 'page example'`), the hidden tests' summary.
TYPED_OUTPUT = re.compile(r"\d+(?:\.\d+)?/\d+(?:\.\d+)? ?(?:점|points?)\b|(?:공개|숨은) 테스트 '|"
                          r"\b(?:public|hidden) (?:test|case) '|\d+개 중 \d+개를 통과|\d+ of \d+ hidden")


def test_no_page_quotes_the_products_output_by_hand():
    typed = [f"{page.relative_to(ROOT)}:{number}: {line.strip()}"
             for page in PAGES for number, line in enumerate(page.read_text("utf-8").splitlines(), 1)
             if TYPED_OUTPUT.search(line)]
    assert not typed, ("output typed by hand goes stale; quote a real run with <!-- output: NAME --> "
                       "(docs/hooks/outputs.py):\n" + "\n".join(typed))


def test_the_shapes_of_typed_output_are_recognised():
    """The pattern above finds what the docs used to type by hand, so the test above can fail."""
    for stale in ("1. **머리줄** `■ softmax — 0.5/2점 · 틀림`: 단계 이름",
                  "`공개 테스트 '페이지 예제'(2-D 입력): 행이 아니라 열 방향으로 계산했습니다`",
                  "- `숨은 테스트 6개 중 5개를 통과하지 못했습니다. 드러난 문제: ...`",
                  'then one line per step, "0/2 points · not graded (see above)"'):
        assert TYPED_OUTPUT.search(stale), stale


def test_every_marker_names_a_run_and_every_run_is_quoted():
    quoted = {name for page in PAGES for name in outputs.MARKER.findall(page.read_text("utf-8"))}
    assert quoted == set(outputs.RUNS)
    # The pages quote a student's output in their reader's language: Korean pages Korean runs.
    for page in PAGES:
        text = page.read_text("utf-8")
        korean = re.match(r"---\nlang: ko\n", text) is not None
        for name in outputs.MARKER.findall(text):
            assert outputs.RUNS[name].lang == ("ko" if korean else "en"), (page, name)


def test_an_unknown_run_fails_the_build():
    from mkdocs.exceptions import PluginError

    class Page:
        class file:
            src_uri = "x.md"

    with pytest.raises(PluginError, match="no run named nothing-here"):
        outputs.on_page_markdown("<!-- output: nothing-here -->\n", Page, {}, [])


@given(st.text(st.sampled_from("`a \n~")))
def test_no_printed_text_can_close_its_block(text):
    block = outputs.text_block(text).split("\n")
    fence = block[0][:-len("text")]
    assert block[-1] == fence and set(fence) == {"`"} and len(fence) >= 3
    assert "\n".join(block[1:-1]) == text.rstrip()
    # Markdown closes a fence with a line of at least as many backticks: none inside has that many.
    assert all(fence not in line for line in block[1:-1])
