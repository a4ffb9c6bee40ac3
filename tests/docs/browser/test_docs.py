"""The documentation site: built with --strict (a warning, a broken link or a missing anchor is an
error), every link and picture of every built page resolves, Korean pages say so to the browser,
the references follow the code, the pictures are real photographs of the product made by this
build, every quote of the product's output is what it printed in this build, and the built pages open in headless chromium without overflowing a 1280 px window.

Needs Debian's chromium (the pictures are photographed with it); without it these tests are
skipped, except under CI=true, where they fail (.ci/run installs chromium and fonts-noto-cjk).
"""
import argparse
import html
import html.parser
import json
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import urllib.parse

import pytest
from hypothesis import given, settings, strategies as st
from conftest import ROOT

DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "hooks"))
import cli_reference  # noqa: E402  (the hook, tested as a module)
import outputs  # noqa: E402  (the hook, tested as a module)

PAGES = sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.parts)
# A path of the repository named in a page: checked to exist (placeholders such as <lab> are not).
REPO_PATH = re.compile(r"`((?:autograder|labs|solutions|assignments|samples|scripts|tests|benchmarks|docs)/"
                       r"[\w./-]*)`")
# The lab that "Adding a lab" walks through writing: its files are the reader's to make.
WALKTHROUGH_LAB = "positional"


def missing(reason):
    """Skip on a developer's machine; under CI=true, fail: CI must run these tests."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason + "; CI must run these tests (.ci/run installs chromium and fonts-noto-cjk)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium():
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        missing("chromium is not installed, so the docs' pictures cannot be made "
                "(apt-get install chromium fonts-noto-cjk)")
    return found


@pytest.fixture(scope="module")
def site(chromium, tmp_path_factory):
    """The site as `scripts/docs.sh --build-only` builds it, pictures made afresh (no cache)."""
    out = tmp_path_factory.mktemp("docs") / "site"
    env = dict(os.environ, DOCS_PICTURES_CACHE="off", NO_MKDOCS_2_WARNING="1")
    env.pop("DOCS_PICTURES", None)
    finished = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert finished.returncode == 0, finished.stderr[-5000:]
    return out


def built(site, page):
    return site / pathlib.Path(page.relative_to(DOCS)).with_suffix(".html")


class Parsed(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids, self.lang = [], set(), None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in ("img", "script") and attrs.get("src"):
            self.links.append(attrs["src"])
        if tag == "link" and attrs.get("href"):
            self.links.append(attrs["href"])


def parsed(path):
    parser = Parsed()
    parser.feed(path.read_text("utf-8"))
    return parser


def front_matter_lang(page):
    match = re.match(r"---\n(.*?)\n---\n", page.read_text("utf-8"), re.S)
    found = re.search(r"^lang:\s*(\w+)", match.group(1), re.M) if match else None
    return found.group(1) if found else None


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_every_page_is_built_and_in_the_navigation(site):
    for page in PAGES:
        assert built(site, page).is_file(), page
    # mkdocs.yml's validation makes a page left out of the navigation a warning; --strict, an error.
    assert "omitted_files: warn" in (ROOT / "mkdocs.yml").read_text("utf-8")


def test_every_link_and_picture_of_every_built_page_resolves(site):
    checked = 0
    # 404.html is served by a web server at any depth, so its links are absolute on purpose.
    pages = {path.resolve(): parsed(path) for path in site.rglob("*.html") if path.name != "404.html"}
    for path, page in pages.items():
        for link in page.links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue  # outside the site
            target = (path.parent / urllib.parse.unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            assert target.is_file(), f"{path.relative_to(site)}: {link} is not in the site"
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parsed(target).ids
                assert urllib.parse.unquote(parts.fragment) in ids, f"{path.relative_to(site)}: no anchor {link}"
            checked += 1
    assert checked > 500


def test_korean_pages_say_lang_ko_and_are_written_in_korean(site):
    korean = [page for page in PAGES if front_matter_lang(page) == "ko"]
    assert {p.relative_to(DOCS).as_posix() for p in korean} >= {
        "students/index.md", "students/feedback.md", "students/colab.md", "students/submit.md",
        "students/help.md", "ta/quickstart-ko.md"}
    for page in PAGES:
        lang = parsed(built(site, page)).lang
        assert lang == (front_matter_lang(page) or "en"), page
    for page in korean:
        text = page.read_text("utf-8")
        assert len(re.findall(r"[가-힣]", text)) > 300, page
        # House style: 합니다체, never 해요체, and "테스트", not "사례".
        assert not re.search(r"(하세요|해요|했어요|세요\.)", text), page
        assert "사례" not in text, page


def test_the_pictures_are_photographs_of_the_product_made_by_this_build(site):
    pictures = sorted((site / "pictures").glob("*.png"))
    assert [p.name for p in pictures] == sorted(["check-cell-ko.png", "feedback-ko.png", "feedback-en.png",
                                                 "report-ko.png", "report-en.png"])
    for picture in pictures:
        width, height = png_size(picture)
        assert width == 1280 and height >= 600, picture  # a browser window, not a placeholder
        assert picture.stat().st_size > 20_000, picture  # a page with text and colours, not a blank
    shown = "".join(built(site, page).read_text("utf-8") for page in PAGES)
    for picture in pictures:
        assert f"pictures/{picture.name}" in shown, f"{picture.name} is made but no page shows it"
    assert not list((ROOT / "docs").rglob("*.png")), "pictures are made at build time, never committed"


def text_of(path):
    """A built page's text as a reader sees it: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text("utf-8")))


def test_every_quote_of_the_products_output_is_what_it_printed_in_this_build(site):
    """docs/hooks/outputs.py: each <!-- output: NAME --> became a block of exactly what run NAME printed."""
    printed = outputs.outputs()  # this build's runs (the sources are unchanged since)
    quoted = set()
    for page in PAGES:
        names = outputs.MARKER.findall(page.read_text("utf-8"))
        shown = text_of(built(site, page))
        assert "<!-- output:" not in built(site, page).read_text("utf-8"), page
        for name in names:
            assert printed[name].rstrip() in shown, (page, name)
            quoted.add(name)
    assert quoted == set(outputs.RUNS)
    kit, graded = printed["kit-softmax-ko"], printed["check-softmax-ko"]
    # The students' check of one step: its header (public tests only), its tests, its public total.
    assert kit.startswith("■ softmax — ") and "점 · 틀림" in kit.splitlines()[0]
    assert "공개 테스트 '페이지 예제'" in kit and "숨은 테스트" not in kit and "합계" in kit
    # The grader's softmax block: the same test lines, then the hidden tests' line; nothing of other steps.
    assert graded.startswith("■ softmax — ") and "숨은 테스트" in graded and "■ scores" not in graded
    for name, total in (("check-broken-ko", "합계 0 / 10점"), ("check-broken-en", "Total 0 / 10 points")):
        lines = printed[name].splitlines()
        assert "report.docx" in lines[1] and sum(line.startswith("■ ") for line in lines) == 6, printed[name]
        assert lines[-1].startswith(total)


def test_the_cli_reference_names_every_option_of_every_command(site):
    from autograder.cli import build_parser

    page = html.unescape(re.sub(r"<[^>]+>", "", built(site, DOCS / "reference" / "cli.md").read_text("utf-8")))
    parser = build_parser()
    for name, sub in cli_reference._subcommands(parser).items():
        assert f"autograder {name}" in page
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            for option in action.option_strings:
                assert option in page, (name, option)
            if action.help and action.help != argparse.SUPPRESS:
                assert sub._get_formatter()._expand_help(action).replace("`", "") in page, (name, action.dest)
    for option in ("--submission", "--submission-lab", "--submission-step", "--submission-lang", "--step", "--json"):
        assert option in page
    assert "<!-- cli:" not in page


def test_the_api_reference_documents_what_a_lab_author_writes(site):
    page = parsed(built(site, DOCS / "reference" / "api.md"))
    for name in ("autograder.core.lab.Lab", "autograder.core.declaration.Case", "autograder.core.declaration.Step",
                 "autograder.core.declaration.Output", "autograder.core.declaration.Mistake", "autograder.core.declaration.Link",
                 "autograder.core.rubric.Rubric", "autograder.core.stand_in.StandIn", "autograder.core.explain.records.Vocabulary",
                 "autograder.core.explain.records.Explanation", "autograder.core.explain.search.explain"):
        assert name in page.ids, name


def test_every_repository_path_a_page_names_exists():
    for page in [ROOT / "README.md", *PAGES]:
        for path in REPO_PATH.findall(page.read_text("utf-8")):
            if re.search(r"[<>*{}]|\.\.\.|…", path) or WALKTHROUGH_LAB in path:
                continue
            assert (ROOT / path.rstrip("/")).exists(), f"{page.relative_to(ROOT)} names {path}, which does not exist"


def test_the_readme_is_short_and_links_into_the_site():
    text = (ROOT / "README.md").read_text("utf-8")
    assert len(text.splitlines()) <= 80
    assert "bash scripts/demo.sh" in text and "bash scripts/test.sh" in text and "bash scripts/docs.sh" in text
    for target in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / target).is_file(), target
    linked = set(re.findall(r"\]\(docs/([^)#]+)", text))
    for page in PAGES:
        relative = page.relative_to(DOCS).as_posix()
        if relative.startswith(("students/", "ta/", "instructors/", "authors/")):
            assert relative in linked, f"the README does not link {relative}"


# Appended to a copy of a built page (beside it, so its links resolve alike): what the test measures.
MEASURE = """<script>
window.addEventListener("load", function () {
  var root = document.documentElement;
  var images = Array.prototype.map.call(document.querySelectorAll("article img"), function (img) {
    return {src: img.getAttribute("src"), width: img.naturalWidth, shown: img.getBoundingClientRect().width};
  });
  var out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify({scrollWidth: root.scrollWidth, clientWidth: root.clientWidth,
    lang: root.lang, h1: (document.querySelector("article h1") || {}).textContent, images: images,
    nav: document.querySelectorAll(".md-nav__link").length});
  document.body.appendChild(out);
});
</script>"""


def measure(chromium, page, folder):
    copy = page.with_name("measured-" + page.name)
    copy.write_text(page.read_text("utf-8").replace("</body>", MEASURE + "</body>"), "utf-8")
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--hide-scrollbars",
               f"--user-data-dir={folder / 'profile'}", "--window-size=1280,900",
               "--run-all-compositor-stages-before-draw", "--virtual-time-budget=5000", "--dump-dom", copy.as_uri()]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
    copy.unlink()
    assert finished.returncode == 0, finished.stderr[-2000:]
    dom = finished.stdout
    start = dom.index('<pre id="measured">') + len('<pre id="measured">')
    return json.loads(html.unescape(dom[start:dom.index("</pre>", start)]))


@pytest.mark.parametrize("page, lang, pictures", [
    ("index.md", "en", 1), ("students/feedback.md", "ko", 2), ("ta/quickstart-ko.md", "ko", 1),
    ("ta/report.md", "en", 2), ("reference/cli.md", "en", 0), ("reference/api.md", "en", 0),
    ("SECURITY.md", "en", 0)])
def test_the_built_pages_open_in_a_browser(chromium, site, tmp_path, page, lang, pictures):
    seen = measure(chromium, built(site, DOCS / page), tmp_path)
    assert seen["lang"] == lang
    assert seen["h1"] and seen["nav"] > 20, seen
    assert seen["scrollWidth"] <= seen["clientWidth"], seen  # no sideways scrolling at 1280 px
    assert len(seen["images"]) == pictures, seen["images"]
    for image in seen["images"]:
        assert image["width"] == 1280 and 0 < image["shown"] <= seen["clientWidth"], image


# ----- the CLI reference hook, over generated parsers ----------------------------------------

OPTION = st.from_regex(r"--[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,5}){0,2}", fullmatch=True)
HELP = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="%\\"),
               max_size=40)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(OPTION, HELP, st.sampled_from(["flag", "value", "choice"])), min_size=1, max_size=8,
                unique_by=lambda option: option[0]))
def test_the_cli_table_has_one_row_per_argument_whatever_its_help_says(options):
    """Every argument of a parser gets exactly one row of the table, whose cells hold its option and
    its help: a help with `|`, a newline or Markdown in it never breaks the table."""
    parser = argparse.ArgumentParser(prog="x")
    parser.add_argument("submission", help="a path")
    for option, help, kind in options:
        if kind == "flag":
            parser.add_argument(option, action="store_true", help=help or None)
        elif kind == "value":
            parser.add_argument(option, default="d", metavar="V", help=help or None)
        else:
            parser.add_argument(option, choices=("a|b", "c"), help=help or None)
    table = cli_reference._table(parser).split("\n")
    assert table[:2] == ["| argument | what | default |", "| --- | --- | --- |"]
    rows = table[2:]
    assert len(rows) == len(options) + 1
    for row, (option, help, kind) in zip(rows[1:], options):
        cells = re.split(r"(?<!\\)\|", row)
        assert len(cells) == 5, row  # | argument | what | default |
        assert cells[1].strip().startswith(f"`{option}"), row
        assert cells[2].replace("\\|", "|").strip().startswith(help.replace("\n", " ").strip()), row
