"""report.html as written: Korean-first fonts, labels in the run's language, links, the late column,
the batch's own counts, and plots that never draw Hangul as boxes."""
import glob
import re

import pandas as pd
import pytest

from autograder.batch import report_plots
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
    monkeypatch.setattr(report_plots, "_hangul_font", lambda: None)
    assert report_plots._pyplot("ko")[1] == "en"
    monkeypatch.setattr(report_plots, "_hangul_font", lambda: "DejaVu Sans")
    assert report_plots._pyplot("ko")[1] == "ko"
    assert report_plots._pyplot("en")[1] == "en"


@pytest.mark.skipif(not glob.glob("/usr/share/fonts/opentype/noto/NotoSansCJK-*.ttc"),
                    reason="fonts-noto-cjk is not installed")
def test_a_hangul_font_installed_after_matplotlibs_cache_is_found(monkeypatch):
    from matplotlib import font_manager

    known = [f for f in font_manager.fontManager.ttflist if "CJK" not in f.name]
    monkeypatch.setattr(font_manager.fontManager, "ttflist", known)  # as a cache built before the install
    report_plots._hangul_font.cache_clear()
    try:
        found = report_plots._hangul_font()
    finally:
        report_plots._hangul_font.cache_clear()
    assert found is not None and "CJK" in found


def test_lms_files_have_their_own_section_and_count_as_files_received():
    from autograder.batch.grades import class_counts

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


# The TA's language: statuses shown in it, grades.csv's codes kept -----------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from autograder.batch.grades import (ERRORS, SHOWN_STATUS, columns_for, grades_table, ignored_status,  # noqa: E402
                                     record_status, said, write_grades)
from autograder.core.render.messages import Messages, engine_catalog  # noqa: E402
from autograder.core.reading.problems import detail  # noqa: E402

STATUSES = ["graded", "broken: empty", "broken: not_code", "broken: crashed",
            "error: ended the grading sandbox", "error: grading did not finish in time",
            "error: the grader failed (KeyError: 'x')", "error: outputs not written (OSError: [Errno 28] full)"]


def rows_of(records):
    return [{"id": r["id"], "file": r["file"], "total": r["total"], **{n: r["steps"][n]["score"] for n in STEP_NAMES},
             "status": r["status"], SHOWN_STATUS: said(lambda say, status=r["status"]: record_status(status, say))}
            for r in records]


def test_statuses_are_shown_in_the_pages_language_and_grades_csv_keeps_the_codes(tmp_path):
    records = [record(f"s{n}", 0.0, status) for n, status in enumerate(STATUSES)]
    table = grades_table(rows_of(records) + [{"id": "s0", "file": "old.py", "status": "superseded by s0.py",
                                              SHOWN_STATUS: said(lambda say: say("report", "status_superseded",
                                                                                  file="s0.py"))}], LAB)
    korean = report_html(table, records, LAB, "ko")
    assert '<span data-en="not gradable: the submission is empty">채점할 수 없음: 제출 파일이 비어 있습니다</span>' in korean
    assert "채점 오류: 채점기 오류 (KeyError: &#x27;x&#x27;)" in korean
    assert "채점 오류: 제한 시간 안에 채점이 끝나지 않음" in korean and "s0.py 파일로 대체됨" in korean
    grades = korean[korean.index('<table class="grades'):]
    assert "broken: empty" not in grades and ">graded<" not in grades
    english = report_html(table, records, LAB, "en")
    assert "not gradable: the submission is empty" in english and "채점" not in english
    write_grades(str(tmp_path / "grades.csv"), table)
    with open(tmp_path / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        import csv
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == columns_for(LAB)  # no column added for people
    assert [r["status"] for r in rows] == STATUSES + ["superseded by s0.py"]


@settings(max_examples=200, deadline=None)
@given(status=st.text(max_size=40) | st.sampled_from(STATUSES)
       | st.sampled_from(sorted(engine_catalog("en")["problem"])).map(lambda p: f"broken: {p}"),
       lang=st.sampled_from(["ko", "en"]))
def test_every_status_is_said_or_shown_as_it_is_never_raised(status, lang):
    say = Messages(lang)
    shown = record_status(status, say)
    known = status == "graded" or status.startswith("broken: ") or any(
        status.startswith(f"error: {what}") for what in ERRORS)
    if not known:
        assert shown == status
    elif lang == "ko":
        assert shown != status and not shown.startswith(("graded", "broken", "error"))


def test_reasons_the_catalogs_know_are_said_in_the_pages_language():
    from autograder.batch.collect import kind_said
    from autograder.said import said

    korean = Messages("ko")
    assert ignored_status(said("reason_system_file", "report"), korean) == "제외: 시스템 파일"
    assert ignored_status(said("reason_metadata", "report", what=kind_said("Moodle online text")), korean) == \
        "제외: LMS 기록 파일: Moodle 온라인 텍스트, 채점하지 않음"
    assert ignored_status(detail("size", size=3), korean) == "제외: 3바이트"
    assert ignored_status("a reason collect words itself", korean) == "제외: a reason collect words itself"


def step_record(student, status, passed, mistakes):
    steps = {name: {"score": 1.0, "max_score": 1.0, "status": "passed" if ok else "failed",
                    "mistakes": [] if ok else list(mistakes)} for name, ok in zip(STEP_NAMES, passed)}
    return {"id": student, "file": f"{student}.py", "total": float(sum(passed)), "max_total": 10.0,
            "status": status, "superseded": [], "steps": steps}


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["graded", "graded", "broken: empty", "error: ended the grading sandbox"]),
                          st.lists(st.booleans(), min_size=len(STEP_NAMES), max_size=len(STEP_NAMES)),
                          st.sampled_from([["wrong_axis"], ["transposed"], ["wrong_axis", "transposed"]])),
                min_size=1, max_size=8))
def test_every_rate_per_step_counts_the_graded_students_and_the_report_says_how_many(students):
    records = [step_record(f"s{n}", status, passed, mistakes) for n, (status, passed, mistakes) in enumerate(students)]
    graded = [r for r in records if r["status"] == "graded"]
    page = report_html(table_of(records), records, LAB, "en")
    assert f"counted over the {len(graded)} students whose file was graded as code" in page
    assert f"share of the {len(graded)} graded students who passed every test" in page
    assert f"Share of the {len(graded)} graded students whose value" in page
    table = page[page.index('<table class="mistakes'):page.index("</table>", page.index('<table class="mistakes'))] \
        if '<table class="mistakes' in page else ""
    for step, code, count, share in re.findall(
            r"<tr><td>(\w+)</td><td><code>(\w+)</code></td><td>.*?</td><td[^>]*>(\d+)</td><td[^>]*>(\d+)%</td>", table):
        assert int(count) == sum(code in r["steps"][step]["mistakes"] for r in graded)
        assert int(share) == round(100 * int(count) / len(graded))
    korean = report_html(table_of(records), records, LAB, "ko")
    assert f"코드로 채점한 학생 {len(graded)}명을 기준으로 셉니다" in korean
