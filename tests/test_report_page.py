"""report.html as written: Korean-first fonts, labels in the run's language, links, the late column,
the batch's own counts, and plots that never draw Hangul as boxes."""
import glob
import re

import pandas as pd
import pytest

from autograder.batch import report
from autograder.batch.report import FONT_STACK, report_html
from labs.self_attention.steps import STEPS
from labs.self_attention import LAB

STEP_NAMES = [s.name for s in STEPS]


def record(student, total, status="graded"):
    steps = {name: {"score": 1.0, "max_score": 1.0, "status": "passed", "mistakes": []} for name in STEP_NAMES}
    return {"id": student, "file": f"{student}.py", "total": total, "max_total": 10.0, "status": status,
            "superseded": [], "steps": steps}


def table_of(records, **extra):
    rows = [{"id": r["id"], "file": r["file"], "total": r["total"],
             **{n: r["steps"][n]["score"] for n in STEP_NAMES}, "status": r["status"]} for r in records]
    frame = pd.DataFrame(rows)
    for column, values in extra.items():
        frame.insert(1, column, values)
    return frame


def test_the_font_stack_puts_korean_fonts_first_and_ends_in_a_generic_family():
    families = [f.strip().strip('"') for f in FONT_STACK.split(",")]
    assert families[0] == "Noto Sans CJK KR" and families[-1] == "sans-serif"
    assert {"Apple SD Gothic Neo", "Malgun Gothic"} <= set(families)
    page = report_html(table_of([record("김민수", 7.5)]), [record("김민수", 7.5)], LAB, "ko")
    assert FONT_STACK in page


def test_labels_follow_the_run_language_and_carry_english_twins_on_korean_pages():
    records = [record("김민수", 7.5)]
    korean = report_html(table_of(records), records, LAB, "ko")
    assert '<html lang="ko">' in korean and "전체 표" in korean
    assert '<span data-en="All files">전체 표</span>' in korean
    assert '<span data-en="Total">총점</span>' in korean
    english = report_html(table_of(records), records, LAB, "en")
    assert "전체 표" not in english and "data-en" not in english and "<th scope=\"col\">Total</th>" in english


def test_each_row_links_to_the_feedback_file_with_the_id_quoted():
    records = [record("a#b%c", 5.0), record("이지원", 6.0)]
    table = pd.concat([table_of(records), pd.DataFrame([{"id": "이지원", "file": "old.py", "status": "superseded by 이지원.py"}])])
    page = report_html(table, records, LAB, "en")
    assert '<a href="feedback/a%23b%25c.html">a#b%c</a>' in page
    assert page.count('href="feedback/%EC%9D%B4%EC%A7%80%EC%9B%90.html"') == 2  # the superseded row too


def test_the_late_column_is_shown_when_the_data_has_one():
    records = [record("a", 5.0), record("b", 6.0)]
    with_late = report_html(table_of(records, late=["True", "False"]), records, LAB, "ko")
    assert '<span data-en="Late">지각</span></th>' in with_late
    assert with_late.count('<span data-en="late">지각</span></td>') == 1
    without = report_html(table_of(records), records, LAB, "ko")
    assert "지각" not in without


def test_the_summary_shows_the_counts_the_batch_passes():
    records = [record("a", 5.0, "graded"), record("b", 0.0, "broken: empty")]
    counts = {"students": 2, "graded": 1, "broken": 1, "mean": "2.50"}
    page = report_html(table_of(records), records, LAB, "en", counts)
    summary = re.search(r'<table class="summary">(.*?)</table>', page).group(1)
    assert re.findall(r"<th>(.*?)</th><td[^>]*>(.*?)</td>", summary) == [
        ("Students", "2"), ("Graded", "1"), ("Unreadable files", "1"), ("Mean", "2.50")]


def test_tables_scroll_inside_themselves_and_sort_without_losing_rows_when_scripts_are_off():
    records = [record("a", 5.0)]
    page = report_html(table_of(records), records, LAB, "en")
    assert '<div class="scroll"><table class="grades sortable">' in page
    assert ".scroll{overflow-x:auto" in page
    assert re.search(r"<tbody>\s*<tr><td class=\"id\"><a href", page)  # the rows are in the page, not built by the script


def test_plot_labels_are_english_in_the_image_without_a_hangul_font(monkeypatch):
    monkeypatch.setattr(report, "_hangul_font", lambda: None)
    assert report._pyplot("ko")[1] == "en"
    monkeypatch.setattr(report, "_hangul_font", lambda: "DejaVu Sans")
    assert report._pyplot("ko")[1] == "ko"
    assert report._pyplot("en")[1] == "en"


@pytest.mark.skipif(not glob.glob("/usr/share/fonts/opentype/noto/NotoSansCJK-*.ttc"),
                    reason="fonts-noto-cjk is not installed")
def test_a_hangul_font_installed_after_matplotlibs_cache_is_found(monkeypatch):
    from matplotlib import font_manager

    known = [f for f in font_manager.fontManager.ttflist if "CJK" not in f.name]
    monkeypatch.setattr(font_manager.fontManager, "ttflist", known)  # as a cache built before the install
    report._hangul_font.cache_clear()
    try:
        found = report._hangul_font()
    finally:
        report._hangul_font.cache_clear()
    assert found is not None and "CJK" in found


def test_lms_files_have_their_own_section_and_count_as_files_received():
    from autograder.batch.report import class_counts

    records = [record("a", 5.0)]
    listed = [{"id": "kim_ms", "name": "Kim Minsu", "file": "Lab 1_kim_ms_attempt_2024-03-01-12-30-45.txt",
               "status": "ignored: LMS metadata: Blackboard receipt, read for the name, not graded"}]
    page = report_html(table_of(records), records, LAB, "en", listed=listed)
    section = page[page.index("LMS and TA files that are not submissions</h2>"):page.index('<table class="grades')]
    assert "Lab 1_kim_ms_attempt_2024-03-01-12-30-45.txt" in section and "Blackboard receipt" in section
    assert "attempt" not in page[page.index('<table class="grades'):]
    counts = class_counts(table_of(records), records, LAB, listed)
    assert (counts["files"], counts["lms_files"], counts["ignored"]) == (2, 1, 0)
    assert "<p>none</p>" in report_html(table_of(records), records, LAB, "en")  # no LMS files: says so
