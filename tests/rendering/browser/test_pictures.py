"""Heat-maps of failed tables: what the judge keeps, the SVG they become, the pages that show them."""
import html.parser
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

from autograder.core import pictures
from autograder.batch.outputs import feedback_html, record_of
from autograder.grading import grade_file
from autograder.grading.plan import Plan
from autograder.core.render.feedback import as_text
from labs.masked_attention import LAB as MASKED
from labs.self_attention import LAB
from conftest import CORPORA, ROOT

CORPUS = CORPORA / "corpus"
WORDS = ("나는", "사과를", "먹었다")


class Elements(html.parser.HTMLParser):
    """Every start tag as (tag, attributes, the text right after it)."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found.append([tag, dict(attrs), ""])

    def handle_data(self, data):
        if self.found:
            self.found[-1][2] += data


def elements(text):
    parser = Elements()
    parser.feed(text)
    return parser.found


def maps_of(text):
    """{map kind: (column labels, row labels, outlined cells)} of each <svg> in order."""
    found, current = [], None
    for tag, attrs, data in elements(text):
        if tag == "svg":
            current = {"kind": attrs["class"].split()[-1], "columns": [], "rows": [], "bad": set(), "cells": 0}
            found.append(current)
        elif current is not None and tag == "text" and attrs.get("class") == "ag-col":
            current["columns"].append(data)
        elif current is not None and tag == "text" and attrs.get("class") == "ag-rowlabel":
            current["rows"].append(data)
        elif current is not None and tag == "rect" and attrs.get("class") == "ag-bad":
            current["bad"].add((int(attrs["data-row"]), int(attrs["data-col"])))
        elif current is not None and tag == "rect" and attrs.get("class") == "ag-cell":
            current["cells"] += 1
    return found


def softmax_rows(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_the_difference_map_outlines_exactly_the_cells_outside_the_tolerance():
    expected = softmax_rows(np.array([[1.0, 2.0, 0.5], [0.3, 0.1, 2.0], [1.0, 1.0, 1.0]]))
    got = expected.copy()
    got[0, 1] += 1e-3  # outside the tolerance
    got[2, 2] += 1e-9  # inside it: not outlined
    text = pictures.maps_html(got.tolist(), expected.tolist(), WORDS, "words", True, "ko")
    maps = maps_of(text)
    assert [m["kind"] for m in maps] == ["ag-got", "ag-expected", "ag-difference"]
    for one in maps:
        assert one["bad"] == {(0, 1)}
        assert one["rows"] == [f"{i + 1} {w}" for i, w in enumerate(WORDS)]
        assert one["columns"] == [f"{i + 1} {w}" for i, w in enumerate(WORDS)]
        assert one["cells"] == 9
    assert "<script" not in text and "http" not in text  # self-contained: inline SVG needs no namespace


def test_row_sums_show_a_wrong_axis_and_features_are_numbered():
    expected = softmax_rows(np.arange(9.0).reshape(3, 3))
    got = expected / expected.sum(axis=0, keepdims=True) * expected.sum(axis=1, keepdims=True).T
    got = np.exp(np.arange(9.0).reshape(3, 3))
    got = got / got.sum(axis=0, keepdims=True)  # columns sum to one
    text = pictures.maps_html(got.tolist(), expected.tolist(), WORDS, "words", True, "en")
    sums = [(attrs["class"], data) for tag, attrs, data in elements(text) if tag == "rect"
            and attrs.get("class") in ("ag-rowsum", "ag-colsum")]
    assert len(sums) == 2 * (3 + 3)  # beside and below the student's map and the expected one
    wide = pictures.maps_html([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]],
                              WORDS, "features", False, "en")
    assert maps_of(wide)[2]["columns"] == ["1", "2"] and maps_of(wide)[2]["bad"] == {(2, 1)}
    assert "ag-rowsum" not in wide


def test_a_stack_of_tables_is_one_row_of_maps_per_table_and_infinities_do_not_break_it():
    expected = np.array([[[0.0, -np.inf], [0.0, 0.0]], [[1.0, -np.inf], [1.0, 1.0]]])
    got = expected.copy()
    got[1, 1, 0] = np.nan
    text = pictures.maps_html(pictures.as_floats(got.tolist()).tolist(), expected.tolist(), WORDS[:2], "words")
    maps = maps_of(text)
    assert len(maps) == 6 and text.count('class="ag-row"') == 2
    assert [m["bad"] for m in maps] == [set()] * 3 + [{(1, 0)}] * 3
    assert "−∞" in text and "nan" in text


@pytest.fixture(scope="module")
def graded(zygote):
    plans = {"self": Plan.build(LAB), "masked": Plan.build(MASKED)}

    def grade(name, lab="self"):
        folder = CORPUS if lab == "self" else CORPORA / "corpus_masked"
        return grade_file(folder / name, zygote, plans[lab])
    return grade


def page_of(result, lab, lang="ko"):
    record = record_of(result, "s1", "s1.py", "", [], "graded", lab)
    return feedback_html(record, as_text(result, lab, lang), lab, lang, result), record


@pytest.mark.parametrize("name, step, output, kinds, bad", [
    ("softmax__wrong_axis__loops.py", "softmax", "weights", 3, 9),
    ("scores__transposed__keys_first.py", "scores", "scores", 3, None),
    ("mix__transposed__einsum.py", "mix", "output", 2, None),  # other shape: no difference map
])
def test_one_map_set_per_failed_table_step_with_the_words_as_labels(graded, name, step, output, kinds, bad):
    result = graded(name)
    page, record = page_of(result, LAB)
    failed = [s.name for s in result.steps if s.status != "passed"]
    assert step in failed
    assert page.count('class="ag-maps"') == sum(bool(pictures.step_maps(s, "ko")) for s in result.steps) >= 1
    section = page[page.index(f'id="step-{step}"'):]
    section = section[:section.index("</section>")]
    maps = maps_of(section)
    assert len(maps) == kinds
    assert maps[1]["rows"] == [f"{i + 1} {w}" for i, w in enumerate(WORDS)]  # the expected table
    if kinds == 2:  # the student's table of another shape: numbered, not labelled with words
        assert not set(maps[0]["rows"]) & {f"{i + 1} {w}" for i, w in enumerate(WORDS)}
    values = next(c for c in next(s for s in result.steps if s.name == step).cases if c.case == "page").detail.tables
    got, expected = pictures.as_floats(values.got), pictures.as_floats(values.expected)
    if got.shape == expected.shape:
        wrong = {tuple(i) for i in np.argwhere(pictures.mismatched(got, expected)).tolist()}
        assert maps[2]["bad"] == wrong and (bad is None or len(wrong) == bad)
        assert sorted(record["steps"][step]["wrong_cells"]["cells"]) == sorted([list(w) for w in wrong])
        assert record["steps"][step]["wrong_cells"]["shape"] == list(got.shape)
    json.dumps(record)


def test_passing_steps_and_hidden_cases_keep_no_values(graded):
    result = graded("softmax__wrong_axis__loops.py")
    for step in result.steps:
        for case in step.cases:
            if case.passed or case.hidden:
                assert pictures.drawn_tables(case) is None
    softmax = next(s for s in result.steps if s.name == "softmax")
    assert all(pictures.drawn_tables(c) is not None for c in softmax.cases if not c.passed and not c.hidden)
    page, _ = page_of(graded("correct/" + os.listdir(CORPUS / "correct")[0]), LAB)
    assert 'class="ag-maps"' not in page and page.count('class="step pass"') == len(LAB.steps)


def test_lab_two_heads_are_one_row_each(graded):
    result = graded("split_heads__split_interleaved__reshape.py", "masked")
    page, _ = page_of(result, MASKED, "en")
    section = page[page.index('id="step-split_heads"'):]
    section = section[:section.index("</section>")]
    assert section.count('class="ag-row"') >= 2 and len(maps_of(section)) == 3 * section.count('class="ag-row"')


def test_check_html_writes_the_page_beside_the_text(tmp_path):
    out = tmp_path / "page.html"
    done = subprocess.run([sys.executable, "-m", "autograder", "check", str(CORPUS / "softmax__wrong_axis__loops.py"),
                           "--lang", "en", "--html", str(out)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 1 and "softmax" in done.stdout
    assert out.read_text("utf-8").count('class="ag-maps"') == 1
    bad = subprocess.run([sys.executable, "-m", "autograder", "check", str(CORPUS / "softmax__wrong_axis__loops.py"),
                          "--html", str(tmp_path / "no" / "such" / "page.html"), "--lang", "en"], capture_output=True,
                         text=True,
                         timeout=300, cwd=ROOT)
    assert bad.returncode not in (0, 1) and "cannot write" in bad.stderr


# Pages to look at: REPORT_SCREENSHOTS=<folder> keeps them.
SHOTS = [("softmax__wrong_axis__loops.py", "self"), ("scores__transposed__keys_first.py", "self"),
         ("mix__transposed__einsum.py", "self"), ("masked_softmax__wrong_axis__axis1.py", "masked")]


def test_pages_render_in_a_browser_with_and_without_hangul_fonts(graded, tmp_path):
    from test_report_browser import run_chromium

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed")
    keep = os.environ.get("REPORT_SCREENSHOTS")
    for name, which in SHOTS:
        lab = LAB if which == "self" else MASKED
        for lang in ("ko", "en"):
            page, _ = page_of(graded(name, which), lab, lang)
            path = tmp_path / f"{name}.{lang}.html"
            path.write_text(page, "utf-8")
            for latin_only in (False, True):
                shot = tmp_path / f"{name}.{lang}{'.latin' if latin_only else ''}.png"
                run_chromium(chromium, path, tmp_path / shot.stem, f"--screenshot={shot}",
                             latin_only=latin_only, height=1600)
                assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000
                if keep:
                    os.makedirs(keep, exist_ok=True)
                    shutil.copy(shot, os.path.join(keep, shot.name))


def test_the_class_report_counts_wrong_cells_and_links_one_example_per_mistake(graded):
    from autograder.batch.report import Labels, _cell_maps, _mistakes_table

    records = []
    for student, name in (("s1", "softmax__wrong_axis__loops.py"), ("s2", "softmax__wrong_axis__pandas.py"),
                          ("s0", "correct/dot.py")):
        record = record_of(graded(name), student, name, "", [], "graded", LAB)
        records.append(json.loads(json.dumps(record)))  # as read back from results/<id>.json
    maps = _cell_maps(records, Labels("en"), LAB, "en")
    softmax = maps[maps.index("<h3>softmax</h3>"):]
    cells = [data for tag, attrs, data in elements(softmax) if tag == "text"][6:6 + 9]
    assert cells == ["67%"] * 9  # two students of three had every cell wrong
    assert "<h3>make_qkv</h3>" not in maps
    table = _mistakes_table(records, Labels("ko"), LAB)
    assert 'href="feedback/s1.html#step-softmax"' in table and "s2.html" not in table
    old = [dict(r, steps={k: {key: v for key, v in step.items() if key != "wrong_cells"}
                          for k, step in r["steps"].items()}) for r in records]
    assert "<svg" not in _cell_maps(old, Labels("en"), LAB, "en")  # records written before: no maps, no crash
