"""`autograder export`: a run's totals into the grade sheets Canvas, Moodle and Blackboard import."""
import csv
import io
import json
import os
import pathlib
import re
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.cli import main
from autograder.lms.fill import UsageError, choose
from autograder.lms.moodle import feedback_folder
from autograder.lms.sheet import read_sheet, sheet_bytes
from conftest import ROOT

BOM8, BOM16 = "\ufeff".encode("utf-8"), b"\xff\xfe"


# A finished run, as `autograder grade` leaves it ------------------------------------------------

def make_run(folder, students, extra_columns=()):
    """grades.csv (UTF-8 with BOM), results/<id>.json and feedback/<id>.html for (id, total, status)."""
    (folder / "feedback").mkdir(parents=True)
    (folder / "results").mkdir()
    columns = ["id", *extra_columns, "file", "total", "make_qkv", "status"]
    rows = []
    for student, total, status, *extra in students:
        rows.append({"id": student, "file": f"{student}_attention.py", "total": f"{total:.2f}",
                     "make_qkv": "1.0", "status": status, **dict(zip(extra_columns, extra))})
        step = "missing" if status != "graded" else ("passed" if total else "failed")
        record = {"id": student, "total": total, "max_total": 10.0, "status": status, "lab": "self_attention",
                  "steps": {"make_qkv": {"score": 1.0, "max_score": 2.0, "status": step, "mistakes": []}}}
        (folder / "results" / f"{student}.json").write_text(
            json.dumps({"score": total, "extra_data": {"autograder": record}}), "utf-8")
        (folder / "feedback" / f"{student}.html").write_text(
            f"<!doctype html><html lang=\"ko\"><body>{student}: {total}/10 피드백</body></html>", "utf-8")
    # a superseded file: a row without a total, never a grade of its own
    rows.append({"id": students[0][0], "file": "older.py", "status": f"superseded by {students[0][0]}_attention.py"})
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    (folder / "grades.csv").write_text("\ufeff" + buffer.getvalue(), "utf-8")
    return folder


def export(capsys, *argv):
    """`autograder export ARGV`, with --lab self_attention (the lab of these runs) and --lang en unless ARGV
    names them (the TA's messages are checked in English; test_export_speaks_the_tas_language checks Korean)."""
    lab = [] if "--lab" in argv else ["--lab", "self_attention"]
    lang = [] if "--lang" in argv else ["--lang", "en"]
    code = main(["export", *map(str, argv), *lab, *lang])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def read_back(path, encoding, delimiter=","):
    """The written file read with the csv module in the sheet's own dialect."""
    return list(csv.reader(io.StringIO(path.read_bytes().decode(encoding), newline=""), delimiter=delimiter))


# Canvas -----------------------------------------------------------------------------------------

CANVAS_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 1: 셀프 어텐션 (5501)",
                 "Quiz 1 (5502)", "Current Score", "Unposted Current Score", "Final Score", "Unposted Final Score"]
CANVAS_ROWS = [
    ["    Points Possible", "", "", "", "", "100.00", "5.00", "(read only)", "(read only)", "(read only)", "(read only)"],
    ["김, 민수", "10231", "2024001", "minsu.kim", "분반 A", "", "4.00", "80", "80", "80", "80"],
    ["이, 지원", "10232", "2024002", "jiwon.lee", "분반 A", "55", "5.00", "90", "90", "90", "90"],
    ["박, 서연", "10233", "2024003", "seoyeon.park", "분반 B", "", "", "", "", "", ""],
    ["Student, Test", "10299", "", "", "분반 A", "", "", "", "", "", ""],
]


def canvas_sheet(path, header=CANVAS_HEADER, rows=CANVAS_ROWS, encoding="utf-8", bom=BOM8, line_end="\r\n"):
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator=line_end).writerows([header, *rows])
    path.write_bytes(bom + buffer.getvalue().encode(encoding))
    return path


@pytest.fixture
def run(tmp_path):
    return make_run(tmp_path / "run", [("10231", 7.5, "graded"), ("10232", 10.0, "graded"),
                                       ("10235", 5.67, "graded"), ("10240", 0.0, "broken: unreadable")])


def test_canvas_fills_the_assignment_column_scaled_to_points_possible(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "2026-11-30T1200_Grades-TP101.csv")
    out = tmp_path / "import.csv"
    code, stdout, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", out,
                                  "--column", "Lab 1: 셀프 어텐션", "--allow-unmatched")
    assert code == 0, stderr
    assert out.read_bytes().startswith(BOM8) and b"\r\n" in out.read_bytes()
    rows = read_back(out, "utf-8-sig")
    assert rows[0] == CANVAS_HEADER
    assert rows[1] == CANVAS_ROWS[0]  # Points Possible untouched
    grades = {row[1]: row[5] for row in rows[2:]}
    assert grades == {"10231": "75", "10232": "100", "10233": "", "10299": ""}
    # only the grade cells changed
    for written, original in zip(rows[1:], CANVAS_ROWS):
        assert written[:5] + written[6:] == original[:5] + original[6:]
    assert "2 of 3 students" in stdout


def test_canvas_reports_who_is_on_one_side_only(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "grades.csv")
    out = tmp_path / "import.csv"
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", out, "--column", "5501")
    assert code == 3  # grades that are not in the file are not silently dropped
    assert re.search(r"2 graded student\(s\) are not in the sheet", stderr)
    assert "10235  5.67/10" in stderr and "10240  0/10" in stderr
    assert "1 student(s) in the sheet have no graded submission" in stderr and "10233  박, 서연" in stderr
    assert "10299" not in stderr  # Canvas's test student is nobody's grade
    assert "55 → 100" in stderr  # a grade already in the sheet is named when replaced
    report = (tmp_path / "import-report.txt").read_text("utf-8")
    assert "graded but not in the sheet: 2" in report and "박, 서연" in report and "10235" in report
    assert out.is_file()


def test_canvas_without_column_takes_the_only_assignment_or_lists_them(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "grades.csv")
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path / "o.csv")
    assert code == 2 and not (tmp_path / "o.csv").exists()
    assert "name one with --column" in stderr
    assert "Lab 1: 셀프 어텐션 (5501)" in stderr and "Quiz 1 (5502)" in stderr and "Current Score" not in stderr
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path / "o.csv", "--column", "Lab 2")
    assert code == 2 and "'Lab 2' is not one of the sheet's assignment columns" in stderr

    only = [h for i, h in enumerate(CANVAS_HEADER) if i != 6]
    rows = [[c for i, c in enumerate(r) if i != 6] for r in CANVAS_ROWS]
    sheet = canvas_sheet(tmp_path / "one.csv", only, rows)
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path / "o.csv", "--allow-unmatched")
    assert code == 0, stderr
    assert {r[1]: r[5] for r in read_back(tmp_path / "o.csv", "utf-8-sig")[2:]}["10231"] == "75"


def test_canvas_sheet_saved_by_korean_excel_stays_cp949_without_bom(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "grades.csv", encoding="cp949", bom=b"", line_end="\n")
    out = tmp_path / "import.csv"
    assert export(capsys, "canvas", run, "--sheet", sheet, "--out", out, "--column", "5501", "--allow-unmatched")[0] == 0
    data = out.read_bytes()
    assert not data.startswith(BOM8) and b"\r\n" not in data
    rows = read_back(out, "cp949")
    assert rows[2][:2] == ["김, 민수", "10231"] and rows[2][5] == "75"


def test_canvas_without_points_possible_or_not_canvas_is_refused(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "grades.csv", rows=CANVAS_ROWS[1:])
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path / "o.csv", "--column", "5501")
    assert code == 2 and "Points Possible" in stderr and not (tmp_path / "o.csv").exists()
    code, _, stderr = export(capsys, "canvas", run, "--sheet", moodle_sheet(tmp_path / "m.csv"),
                             "--out", tmp_path / "o.csv")
    assert code == 2 and "not a Canvas gradebook: its header is Identifier, Full name" in stderr


def test_canvas_export_of_a_real_run_matches_canvas_user_ids(tmp_path, capsys):
    """Canvas-named downloads graded by `autograder grade`, then exported: ids are Canvas's ID column."""
    from autograder.cli import main as cli

    samples = ROOT / "samples"
    folder = tmp_path / "submissions"
    folder.mkdir()
    for sample in samples.glob("*_*_*_*"):
        (folder / sample.name).write_bytes(sample.read_bytes())
    assert cli(["grade", str(folder), "--out", str(tmp_path / "run"), "--jobs", "1", "--lang", "en"]) == 0
    capsys.readouterr()
    header = CANVAS_HEADER[:6]
    rows = [["    Points Possible", "", "", "", "", "10"]] + [
        [f"학생{n}", str(n), "", "", "", ""] for n in (10231, 10232, 10233, 10234, 10235, 10236)]
    sheet = canvas_sheet(tmp_path / "sheet.csv", header, rows)
    code, stdout, stderr = export(capsys, "canvas", tmp_path / "run", "--sheet", sheet, "--out", tmp_path / "o.csv")
    assert code == 0, stderr
    with open(tmp_path / "run" / "grades.csv", encoding="utf-8-sig") as handle:
        totals = {r["id"]: float(r["total"]) for r in csv.DictReader(handle) if r["total"]}
    written = {r[1]: r[5] for r in read_back(tmp_path / "o.csv", "utf-8-sig")[2:]}
    assert set(totals) == {"10231", "10232", "10233", "10234", "10235"}
    for student, total in totals.items():
        assert float(written[student]) == pytest.approx(total, abs=0.005)
    assert written["10236"] == "" and "10236" in stderr


# Moodle -----------------------------------------------------------------------------------------

MOODLE_HEADER = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade",
                 "Grade can be changed", "Last modified (submission)", "Online text", "Last modified (grade)",
                 "Feedback comments"]
MOODLE_ROWS = [
    ["Participant 123456", "김민수", "minsu@example.ac.kr", "Submitted for grading", "", "10.00", "Yes",
     "Monday, 30 November 2026, 9:00 AM", "", "-", ""],
    ["Participant 123457", "Lee_Ji won", "jiwon@example.ac.kr", "Submitted for grading", "", "100.00", "Yes",
     "Monday, 30 November 2026, 9:10 AM", "", "-", ""],
    ["Participant 123458", "박서연", "seoyeon@example.ac.kr", "No submission", "", "10.00", "Yes", "-", "", "-", ""],
]


def moodle_sheet(path, rows=MOODLE_ROWS):
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\n").writerows([MOODLE_HEADER, *rows])
    path.write_bytes(buffer.getvalue().encode("utf-8"))
    return path


@pytest.fixture
def moodle_run(tmp_path):
    return make_run(tmp_path / "run", [("123456", 7.5, "graded"), ("123457", 5.67, "graded")])


def test_moodle_worksheet_gets_grades_and_a_feedback_comment(tmp_path, moodle_run, capsys):
    sheet = moodle_sheet(tmp_path / "Grades-Lab 1.csv")
    out = tmp_path / "upload.csv"
    code, _, stderr = export(capsys, "moodle", moodle_run, "--sheet", sheet, "--out", out, "--lang", "ko")
    assert code == 0, stderr
    assert not out.read_bytes().startswith(BOM8)
    rows = read_back(out, "utf-8")
    assert rows[0] == MOODLE_HEADER
    by_id = {r[0]: r for r in rows[1:]}
    assert by_id["Participant 123456"][4] == "7.50"
    assert by_id["Participant 123457"][4] == "56.70"  # 5.67 of 10, on a worksheet out of 100
    assert by_id["Participant 123458"][4] == ""
    comment = by_id["Participant 123456"][10]
    assert "7.50/10" in comment and "feedback.html" in comment and "습니다" in comment
    for written, original in zip(rows[1:], MOODLE_ROWS):
        assert written[:4] + written[5:10] == original[:4] + original[5:10]
    assert "123458  박서연" in stderr


def test_moodle_feedback_zip_uses_moodles_folder_naming(tmp_path, moodle_run, capsys):
    sheet = moodle_sheet(tmp_path / "worksheet.csv")
    out = tmp_path / "upload.csv"
    assert export(capsys, "moodle", moodle_run, "--sheet", sheet, "--out", out, "--lang", "en")[0] == 0
    archives = [p for p in tmp_path.iterdir() if "feedback" in p.name and p.name.endswith(".zip")]
    assert archives == [tmp_path / "upload-feedback.zip"]
    with zipfile.ZipFile(archives[0]) as archive:
        names = sorted(archive.namelist())
        assert names == ["Lee Ji won_123457_assignsubmission_file_/feedback.html",
                         "김민수_123456_assignsubmission_file_/feedback.html"]
        assert "123456: 7.5/10 피드백" in archive.read(names[1]).decode("utf-8")
        # Korean names flagged as UTF-8, so Moodle does not read them as cp437
        assert all(info.flag_bits & 0x800 for info in archive.infolist() if not info.filename.isascii())
    # What Moodle's zip importer reads: the second '_' part of the folder is the participant,
    # the third and fourth the plugin; each matches a row of the worksheet.
    participants = {r[0].removeprefix("Participant "): r[1] for r in MOODLE_ROWS}
    for name in names:
        folder = name.split("/")[0]
        parts = folder.split("_", 4)
        assert parts[1] in participants and parts[2:4] == ["assignsubmission", "file"]
        assert parts[0] == participants[parts[1]].replace("_", " ")
    assert "Autograder total: 7.50/10" in read_back(out, "utf-8")[1][10]


def test_moodle_folder_names_drop_what_moodle_cannot_name_files_with():
    assert feedback_folder("김 민수", "7") == "김 민수_7_assignsubmission_file_"
    assert feedback_folder('A/B: "C"_D', "8") == "AB C D_8_assignsubmission_file_"
    assert feedback_folder("", "9") == "Participant_9_assignsubmission_file_"


def test_moodle_scale_grade_without_maximum_writes_nothing(tmp_path, moodle_run, capsys):
    rows = [row[:5] + [""] + row[6:] for row in MOODLE_ROWS]
    out = tmp_path / "upload.csv"
    code, _, stderr = export(capsys, "moodle", moodle_run, "--sheet", moodle_sheet(tmp_path / "w.csv", rows),
                             "--out", out)
    assert code == 2 and "no maximum grade" in stderr and not out.exists()


# Blackboard -------------------------------------------------------------------------------------

BB_HEADER = ["Last Name", "First Name", "Username", "Student ID", "Last Access", "Availability",
             "Weighted Total [Total Pts: up to 0 Percentage] |1001", "Total [Total Pts: up to 30 Score] |1002",
             "Lab 1 셀프 어텐션 [Total Pts: 20 Score] |1003", "Quiz [Total Pts: 10 Score] |1004"]
BB_ROWS = [
    ["김", "민수", "kim_ms", "2024001", "2026-11-30 9:00:00 AM KST", "Available", "", "", "", "8"],
    ["이", "지원", "lee_jw", "2024002", "2026-11-30 9:05:00 AM KST", "Available", "", "", "", ""],
]


def blackboard_sheet(path, delimiter, encoding, bom):
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, quoting=csv.QUOTE_ALL, lineterminator="\r\n").writerows(
        [BB_HEADER, *BB_ROWS])
    path.write_bytes(bom + buffer.getvalue().encode(encoding))
    return path


@pytest.mark.parametrize("name, delimiter, encoding, bom", [
    ("gc_TP101_fullgc_2026-11-30-12-00-00.xls", "\t", "utf-16-le", BOM16),
    ("gc_TP101_fullgc_2026-11-30-12-00-00.csv", ",", "utf-8", b""),
])
def test_blackboard_keeps_its_encoding_delimiter_and_quotes(tmp_path, capsys, name, delimiter, encoding, bom):
    run = make_run(tmp_path / "run", [("kim_ms", 7.5, "graded"), ("LEE_JW", 10.0, "graded")])
    sheet = blackboard_sheet(tmp_path / name, delimiter, encoding, bom)
    out = tmp_path / ("upload" + pathlib.Path(name).suffix)
    code, _, stderr = export(capsys, "blackboard", run, "--sheet", sheet, "--out", out, "--column", "Lab 1 셀프 어텐션")
    assert code == 0, stderr
    data = out.read_bytes()
    assert data.startswith(bom) and (bom or not data.startswith(BOM16))
    text = data[len(bom):].decode(encoding)
    assert text.startswith('"Last Name"' + delimiter + '"First Name"') and text.endswith("\r\n")
    rows = read_back(out, encoding, delimiter) if not bom else list(
        csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    assert rows[0] == BB_HEADER
    assert [r[8] for r in rows[1:]] == ["15", "20"]  # out of 20; the username matched ignoring case
    assert [r[9] for r in rows[1:]] == ["8", ""]


def test_blackboard_lists_only_point_columns_that_can_be_uploaded(tmp_path, capsys):
    run = make_run(tmp_path / "run", [("kim_ms", 7.5, "graded")])
    sheet = blackboard_sheet(tmp_path / "gc.xls", "\t", "utf-16-le", BOM16)
    code, _, stderr = export(capsys, "blackboard", run, "--sheet", sheet, "--out", tmp_path / "o.xls")
    assert code == 2
    assert "Lab 1 셀프 어텐션 [Total Pts: 20 Score] |1003" in stderr and "Quiz [Total Pts: 10 Score] |1004" in stderr
    assert "Weighted Total" not in stderr and "Total [Total Pts: up to" not in stderr


# The sheet, in and out --------------------------------------------------------------------------

@pytest.mark.parametrize("bom, encoding, delimiter, quote_all, line_end", [
    (BOM8, "utf-8", ",", False, "\r\n"), (b"", "utf-8", ",", True, "\n"),
    (BOM16, "utf-16-le", "\t", True, "\r\n"), (b"", "cp949", ",", False, "\r\n"),
])
def test_a_sheet_is_written_back_byte_for_byte(bom, encoding, delimiter, quote_all, line_end):
    rows = [["이름", "ID", "점수, 쉼표"], ["홍, 길동", "1", 'say "hi"'], ["김철수", "2", ""]]
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, lineterminator=line_end,
               quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL).writerows(rows)
    data = bom + buffer.getvalue().encode(encoding)
    sheet = read_sheet(data)
    assert (sheet.rows, sheet.delimiter, sheet.quote_all, sheet.line_end) == (rows, delimiter, quote_all, line_end)
    assert sheet_bytes(sheet) == data


def test_choose_names_the_only_column_or_asks():
    assert choose({"Lab 1 (5)": {"Lab 1", "5"}}, None, "column") == "Lab 1 (5)"
    assert choose({"Lab 1 (5)": {"Lab 1", "5"}, "Lab 1 (6)": {"Lab 1", "6"}}, "6", "column") == "Lab 1 (6)"
    with pytest.raises(UsageError, match="names 2 columns"):
        choose({"Lab 1 (5)": {"Lab 1", "5"}, "Lab 1 (6)": {"Lab 1", "6"}}, "Lab 1", "column")
    with pytest.raises(UsageError, match="no column"):
        choose({}, None, "column")


def test_a_folder_that_is_not_a_run_is_refused(tmp_path, capsys):
    sheet = canvas_sheet(tmp_path / "sheet.csv")
    code, _, stderr = export(capsys, "canvas", tmp_path, "--sheet", sheet, "--out", tmp_path / "o.csv")
    assert code == 2 and "no grades.csv" in stderr


def test_the_runs_new_columns_are_read_when_present(tmp_path, capsys):
    run = make_run(tmp_path / "run", [("10231", 7.5, "graded", "김민수", "yes"), ("10235", 3.0, "graded", "최준호", "")],
                   extra_columns=("name", "late"))
    sheet = canvas_sheet(tmp_path / "grades.csv")
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path / "o.csv", "--column", "5501")
    assert code == 3 and "10235  3/10  최준호" in stderr


def test_a_run_named_by_student_numbers_is_matched_by_sis_user_id(tmp_path, capsys):
    run = make_run(tmp_path / "run", [("2024001", 7.5, "graded"), ("2024002", 10.0, "graded")])
    sheet = canvas_sheet(tmp_path / "sheet.csv")
    code, stdout, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path / "o.csv",
                                  "--column", "5501")
    assert code == 0, stderr
    assert "(matched by SIS User ID)" in stdout
    assert {r[1]: r[5] for r in read_back(tmp_path / "o.csv", "utf-8-sig")[2:]} == {
        "10231": "75", "10232": "100", "10233": "", "10299": ""}
    assert "2024003  박, 서연" in stderr


def test_blackboard_run_named_by_student_numbers_is_matched_by_student_id(tmp_path, capsys):
    run = make_run(tmp_path / "run", [("2024002", 4.0, "graded")])
    sheet = blackboard_sheet(tmp_path / "gc.csv", ",", "utf-8", b"")
    code, stdout, stderr = export(capsys, "blackboard", run, "--sheet", sheet, "--out", tmp_path / "o.csv",
                                  "--column", "1003")
    assert code == 0, stderr
    assert "(matched by Student ID)" in stdout
    assert [r[8] for r in read_back(tmp_path / "o.csv", "utf-8")[1:]] == ["", "8"]


def test_a_run_of_another_class_fills_nothing_and_writes_nothing(tmp_path, run, capsys):
    other = make_run(tmp_path / "other", [("99001", 7.5, "graded")])
    for allowed in ([], ["--allow-unmatched"]):
        code, stdout, stderr = export(capsys, "canvas", other, "--sheet", canvas_sheet(tmp_path / "s.csv"),
                                      "--out", tmp_path / "o.csv", "--column", "5501", *allowed)
        assert code == 2 and stdout == "" and "none of the run's 1 graded students is in" in stderr
        assert "matched by ID" in stderr and "Nothing was written." in stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["other", "run", "s.csv"]


def test_an_out_file_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path, run, capsys):
    code, _, stderr = export(capsys, "canvas", run, "--sheet", canvas_sheet(tmp_path / "s.csv"),
                             "--out", tmp_path / "no" / "such" / "o.csv", "--column", "5501")
    assert code == 2 and "cannot write" in stderr and "No such file or directory" in stderr


# Moodle of every version and language ----------------------------------------------------------
# Assumed header sets (Moodle's mod/assign language strings): Moodle 3.x writes "Maximum Grade",
# Moodle 4.x "Maximum grade"; the other headers are the same in both. A Korean interface writes
# every header (and the word before the participant number) in Korean; the Korean words below
# stand for whatever a language pack says: they are mapped by name, never recognised.

def php_fputcsv(rows, delimiter=","):
    """Rows as PHP's fputcsv writes them (Moodle's CSV downloads): a cell is quoted when it holds the
    delimiter, a quote, a backslash, a line break, a tab or a space; quotes inside are doubled."""
    def cell(value):
        if any(mark in value for mark in (delimiter, '"', "\\", "\n", "\r", "\t", " ")):
            return '"' + value.replace('"', '""') + '"'
        return value
    return "".join(delimiter.join(cell(value) for value in row) + "\n" for row in rows)


MOODLE3_HEADER = [("Maximum Grade" if title == "Maximum grade" else title) for title in MOODLE_HEADER]
KOREAN_HEADER = ["식별자", "성명", "이메일 주소", "상태", "성적", "최대 성적", "성적 변경 가능",
                 "최종 수정일(제출)", "온라인 텍스트", "최종 수정일(성적)", "피드백 코멘트"]
KOREAN_ROWS = [["참가자 " + row[0].split()[1], *row[1:]] for row in MOODLE_ROWS]


def filled_rows(header, rows, grades, comments):
    """The rows as the export should leave them: only the grade and feedback cells of graded rows changed."""
    expected = [list(header)]
    for row in rows:
        participant = row[0].split()[-1]
        row = list(row)
        if participant in grades:
            row[4], row[10] = grades[participant], comments[participant]
        expected.append(row)
    return expected


@pytest.mark.parametrize("header, bom", [(MOODLE_HEADER, b""), (MOODLE3_HEADER, BOM8),
                                         ([t.upper().replace(" ", "  ") for t in MOODLE_HEADER], b"")])
def test_moodle_worksheets_of_3x_and_4x_fill_byte_for_byte_but_the_changed_cells(tmp_path, moodle_run, capsys,
                                                                               header, bom):
    sheet = tmp_path / "worksheet.csv"
    sheet.write_bytes(bom + php_fputcsv([header, *MOODLE_ROWS]).encode("utf-8"))
    out = tmp_path / "upload.csv"
    code, _, stderr = export(capsys, "moodle", moodle_run, "--sheet", sheet, "--out", out, "--lang", "en")
    assert code == 0, stderr
    comment = "Autograder total: {}/{}. Step-by-step feedback is in the attached feedback file (feedback.html)."
    expected = filled_rows(header, MOODLE_ROWS, {"123456": "7.50", "123457": "56.70"},
                           {"123456": comment.format("7.50", 10), "123457": comment.format("56.70", 100)})
    assert out.read_bytes() == bom + php_fputcsv(expected).encode("utf-8")


def test_a_worksheet_in_another_language_is_mapped_with_column_options(tmp_path, moodle_run, capsys):
    sheet = tmp_path / "성적표.csv"
    sheet.write_bytes(php_fputcsv([KOREAN_HEADER, *KOREAN_ROWS]).encode("utf-8"))
    out = tmp_path / "upload.csv"
    code, _, stderr = export(capsys, "moodle", moodle_run, "--sheet", sheet, "--out", out)
    assert code == 2 and not out.exists()
    assert "in English" in stderr and "--id-column '식별자'" in stderr and "--max-column" in stderr
    assert "--column" in stderr and "최대 성적" in stderr  # its columns are listed to choose from
    code, _, stderr = export(capsys, "moodle", moodle_run, "--sheet", sheet, "--out", out, "--id-column", "식별자",
                             "--column", "성적", "--max-column", "최대 성적", "--feedback-column", "피드백 코멘트",
                             "--lang", "ko")
    assert code == 0, stderr
    comment = ("자동 채점 총점은 {}/{}점입니다. 단계별 피드백은 함께 올린 피드백 파일(feedback.html)에 있습니다.")
    expected = filled_rows(KOREAN_HEADER, KOREAN_ROWS, {"123456": "7.50", "123457": "56.70"},
                           {"123456": comment.format("7.50", 10), "123457": comment.format("56.70", 100)})
    assert out.read_bytes() == php_fputcsv(expected).encode("utf-8")
    with zipfile.ZipFile(tmp_path / "upload-feedback.zip") as archive:  # named by participant number
        assert sorted(n.split("_")[1] for n in archive.namelist()) == ["123456", "123457"]


def test_column_options_name_columns_the_sheet_has_and_only_for_moodle(tmp_path, moodle_run, capsys):
    sheet = tmp_path / "w.csv"
    sheet.write_bytes(php_fputcsv([KOREAN_HEADER, *KOREAN_ROWS]).encode("utf-8"))
    code, _, stderr = export(capsys, "moodle", moodle_run, "--sheet", sheet, "--out", tmp_path / "o.csv",
                             "--id-column", "식별자", "--column", "성적", "--max-column", "최대점수")
    assert code == 2 and "--max-column '최대점수' is not a column of the sheet" in stderr
    code, _, stderr = export(capsys, "canvas", moodle_run, "--sheet", canvas_sheet(tmp_path / "c.csv"),
                             "--out", tmp_path / "o.csv", "--id-column", "ID")
    assert code == 2 and "--id-column names a column of Moodle's worksheet" in stderr
    assert not (tmp_path / "o.csv").exists()


# A run whose grades cannot be right is never exported ----------------------------------------------

def test_a_run_in_which_no_file_defines_the_labs_functions_is_refused(tmp_path, capsys):
    run = make_run(tmp_path / "run", [("10231", 0.0, "graded"), ("10232", 0.0, "broken: not_code")])
    for record in (run / "results").iterdir():
        data = json.loads(record.read_text("utf-8"))
        data["extra_data"]["autograder"]["steps"] = {name: {"score": 0.0, "max_score": 2.0, "status": "missing",
                                                                    "mistakes": ["missing"]}
                                                     for name in ("make_qkv", "scores")}
        record.write_text(json.dumps(data), "utf-8")
    out = tmp_path / "o.csv"
    code, _, stderr = export(capsys, "canvas", run, "--sheet", canvas_sheet(tmp_path / "s.csv"), "--out", out,
                             "--column", "5501")
    assert code == 2 and not out.exists() and not (tmp_path / "o-report.txt").exists()
    assert "cannot be right" in stderr and "defines any of the lab's functions (make_qkv, scores)" in stderr


def test_a_run_of_another_lab_or_of_several_labs_is_refused(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "s.csv")
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path / "o.csv", "--column", "5501",
                             "--lab", "masked_attention")
    assert code == 2 and "the run graded self_attention, not --lab masked_attention" in stderr
    mixed = make_run(tmp_path / "mixed", [("10231", 7.5, "graded", "masked_attention"),
                                          ("10232", 10.0, "graded", "self_attention")], extra_columns=("lab",))
    code, _, stderr = export(capsys, "canvas", mixed, "--sheet", sheet, "--out", tmp_path / "o.csv", "--column", "5501")
    assert code == 2 and "several labs (masked_attention, self_attention)" in stderr
    assert not (tmp_path / "o.csv").exists()


def test_a_grade_the_grader_failed_to_give_is_not_written(tmp_path, capsys):
    run = make_run(tmp_path / "run", [("10231", 7.5, "graded"),
                                      ("10232", 0.0, "error: the grader failed (RuntimeError: boom)")])
    out = tmp_path / "o.csv"
    code, _, stderr = export(capsys, "canvas", run, "--sheet", canvas_sheet(tmp_path / "s.csv"), "--out", out,
                             "--column", "5501")
    assert code == 3 and "1 grade(s) not written" in stderr and "10232" in stderr and "grader failed" in stderr
    assert {r[1]: r[5] for r in read_back(out, "utf-8-sig")[2:]}["10232"] == "55"  # left as it was


# Any sheet, written back: byte for byte but the cells changed ----------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

cells = st.lists(st.sampled_from(list("ab 7.,\"\t\n김") + ["\r\n"]), max_size=6).map("".join)


@st.composite
def written_sheets(draw):
    """A sheet as an LMS writes it: Python's csv (quoted where needed, or every cell: Blackboard) or
    PHP's fputcsv (cells with spaces quoted: Moodle); comma or tab; its line ends; with or without a
    line end after the last row; in one of the encodings sheets come in."""
    delimiter = draw(st.sampled_from([",", "\t"]))
    width = draw(st.integers(2 if delimiter == "\t" else 1, 4))
    header = draw(st.lists(st.text(alphabet="abcXY 김", min_size=1, max_size=5).filter(str.strip),
                           min_size=width, max_size=width))
    rows = draw(st.lists(st.lists(cells, min_size=width, max_size=width), max_size=4))
    rows = [row if any(row) else ["x", *row[1:]] for row in rows]  # an all-empty row is a blank line to PHP
    style = draw(st.sampled_from(["minimal", "all", "php"]))
    if style == "php":
        text, line_end = php_fputcsv([header, *rows], delimiter), "\n"
    else:
        line_end = draw(st.sampled_from(["\r\n", "\n"]))
        buffer = io.StringIO(newline="")
        csv.writer(buffer, delimiter=delimiter, lineterminator=line_end,
                   quoting=csv.QUOTE_ALL if style == "all" else csv.QUOTE_MINIMAL).writerows([header, *rows])
        text = buffer.getvalue()
    if draw(st.booleans()):
        text = text[:-len(line_end)]  # no line end after the last row
    encoding, bom = draw(st.sampled_from([("utf-8", b""), ("utf-8", BOM8), ("utf-16-le", BOM16), ("cp949", b"")]))
    return bom + text.encode(encoding), [header, *rows]


def lines_of(sheet):
    """Each non-blank line of the file as written: (its cells' own text, its line end)."""
    return [(raws, end) for _, raws, end in sheet.records if raws != [""]]


@settings(max_examples=int(os.environ.get("SHEET_EXAMPLES", "300")), deadline=None)
@given(written_sheets(), st.data())
def test_a_sheet_is_written_back_byte_for_byte_and_a_changed_cell_alone_changes(written, data):
    raw, rows = written
    sheet = read_sheet(raw)
    assert sheet.rows == rows and sheet_bytes(sheet) == raw
    if len(sheet.rows) < 2:
        return
    row = data.draw(st.integers(1, len(sheet.rows) - 1))
    column = data.draw(st.integers(0, len(sheet.header) - 1))
    sheet.rows[row][column] = data.draw(st.sampled_from(
        ["7.50", "", "Autograder total: 7.5/10, see feedback.html", 'say "hi"', "줄\n바꿈"]))
    again = read_sheet(sheet_bytes(sheet))
    assert again.rows == sheet.rows and again.bom == sheet.bom  # (all-ASCII cp949 reads back as UTF-8: the same bytes)
    for index, ((before, end_before), (after, end_after)) in enumerate(zip(lines_of(read_sheet(raw)), lines_of(again))):
        assert end_before == end_after
        if index != row:
            assert before == after
        else:
            assert [c for i, c in enumerate(before) if i != column] == [c for i, c in enumerate(after) if i != column]


# Which lab's column: --lab, required while several labs are installed --------------------------------

def test_export_without_lab_is_refused_naming_the_runs_lab(tmp_path, capsys):
    """A run of lab 2 graded into the folder meant for lab 1: only --lab says which lab's column the TA fills."""
    run = make_run(tmp_path / "lab1", [("10231", 10.0, "graded", "masked_attention"),
                                       ("10232", 9.25, "graded", "masked_attention")], extra_columns=("lab",))
    sheet = canvas_sheet(tmp_path / "s.csv")
    before = sheet.read_bytes()
    out = tmp_path / "o.csv"
    code = main(["export", "canvas", str(run), "--sheet", str(sheet), "--out", str(out), "--column", "5501", "--lang", "en"])
    stderr = capsys.readouterr().err
    assert code == 2 and not out.exists() and not (tmp_path / "o-report.txt").exists()
    assert sheet.read_bytes() == before
    assert "several labs are installed (masked_attention, self_attention): give --lab NAME" in stderr
    assert "graded masked_attention (--lab masked_attention if the column is that lab's)" in stderr
    assert "Nothing was written." in stderr
    # With the lab the TA meant, the run of the other lab is refused; with the run's own lab it fills.
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", out, "--column", "5501",
                             "--lab", "self_attention")
    assert code == 2 and "the run graded masked_attention, not --lab self_attention" in stderr and not out.exists()
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", out, "--column", "5501",
                             "--lab", "masked_attention", "--allow-unmatched")
    assert code == 0, stderr


def test_a_lab_that_is_not_installed_is_refused(tmp_path, run, capsys):
    code, _, stderr = export(capsys, "canvas", run, "--sheet", canvas_sheet(tmp_path / "s.csv"),
                             "--out", tmp_path / "o.csv", "--lab", "self-attention")
    assert code == 2 and "self_attention" in stderr and not (tmp_path / "o.csv").exists()


# A sheet of another LMS: the sentence quotes the sheet's own header, never the expected one ---------------

SHEETS = {
    "canvas": lambda path: canvas_sheet(path),
    "moodle": lambda path: moodle_sheet(path),
    "moodle-ko": lambda path: path.write_bytes(php_fputcsv([KOREAN_HEADER, *KOREAN_ROWS]).encode("utf-8")) and path,
    "blackboard": lambda path: blackboard_sheet(path, "\t", "utf-16-le", BOM16),
}
OWN_HEADER = {"canvas": "Student, ID, SIS User ID", "moodle": "Identifier, Full name, Email address",
              "moodle-ko": "식별자, 성명, 이메일 주소", "blackboard": "Last Name, First Name, Username"}
FITS = {"canvas": "canvas", "moodle": "moodle", "moodle-ko": "moodle", "blackboard": "blackboard"}
# What each command's own sheet starts with: never said of another LMS's sheet.
EXPECTED_START = {"canvas": "Student, ID, SIS User ID", "moodle": "Identifier", "blackboard": "Last Name"}


@pytest.mark.parametrize("command", ["canvas", "moodle", "blackboard"])
@pytest.mark.parametrize("kind", sorted(SHEETS))
def test_a_sheet_of_another_lms_is_refused_quoting_its_own_header(tmp_path, capsys, command, kind):
    if FITS[kind] == command:
        pytest.skip("the command's own sheet")
    run = make_run(tmp_path / "run", [("10231", 7.5, "graded")])
    sheet = SHEETS[kind](tmp_path / "sheet.csv")
    before = sheet.read_bytes()
    code, _, stderr = export(capsys, command, run, "--sheet", sheet, "--out", tmp_path / "o.csv", "--column", "Lab 1")
    assert code == 2 and not (tmp_path / "o.csv").exists() and sheet.read_bytes() == before
    assert f"its header is {OWN_HEADER[kind]}" in stderr
    assert f"`autograder export {FITS[kind]}`" in stderr
    assert f"header starts with {EXPECTED_START[command]}" not in stderr
    assert f"its header is {EXPECTED_START[command]}" not in stderr


def test_the_field_slip_export_canvas_of_a_moodle_worksheet_without_lab(tmp_path, moodle_run, capsys):
    """Every reason is told at once: no --lab, and the sheet is Moodle's (its own header quoted)."""
    sheet = moodle_sheet(tmp_path / "Grades-TP101-Lab 1-4x.csv")
    code = main(["export", "canvas", str(moodle_run), "--sheet", str(sheet), "--out", str(tmp_path / "c.csv"), "--lang", "en"])
    stderr = capsys.readouterr().err
    assert code == 2 and not (tmp_path / "c.csv").exists()
    assert "give --lab NAME" in stderr
    assert "not a Canvas gradebook: its header is Identifier, Full name, Email address" in stderr
    assert "the header of a Moodle grading worksheet" in stderr and "its header starts with Student" not in stderr


# Export never writes over its input nor into a run, and writes nothing when it refuses -------------------

def every_file(folder):
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def test_out_that_is_the_sheet_by_any_path_or_link_is_refused(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "s.csv")
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.csv").symlink_to(sheet)
    os.link(sheet, tmp_path / "hard.csv")
    before = every_file(tmp_path)
    for out in (sheet, tmp_path / "sub" / ".." / "s.csv", tmp_path / "link.csv", tmp_path / "hard.csv"):
        code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", out, "--column", "5501")
        assert code == 2 and "never writes over the sheet" in stderr and "Nothing was written." in stderr
        assert every_file(tmp_path) == before and (tmp_path / "link.csv").is_symlink()
    # The sheet named through the link, written to its real name: the same file.
    code, _, stderr = export(capsys, "canvas", run, "--sheet", tmp_path / "link.csv", "--out", sheet, "--column", "5501")
    assert code == 2 and "never writes over the sheet" in stderr and every_file(tmp_path) == before


def test_out_inside_a_run_or_a_folder_is_refused(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "s.csv")
    other = make_run(tmp_path / "course" / "lab2", [("10231", 5.0, "graded")])
    before = every_file(tmp_path)
    for out in (run / "upload.csv", run / "feedback" / "upload.csv", other / "upload.csv", run / "grades.csv"):
        code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", out, "--column", "5501")
        assert code == 2 and "is inside the grading run" in stderr and every_file(tmp_path) == before
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path, "--column", "5501")
    assert code == 2 and "is a folder" in stderr and every_file(tmp_path) == before


def test_a_zip_given_for_the_run_folder_is_told_what_to_give(tmp_path, capsys):
    archive = tmp_path / "gradebook.zip"
    with zipfile.ZipFile(archive, "w") as members:
        members.writestr("kimminsu_10231_55001_attention.py", "x = 1\n")
    code, _, stderr = export(capsys, "canvas", archive, "--sheet", canvas_sheet(tmp_path / "s.csv"),
                             "--out", tmp_path / "o.csv", "--column", "5501")
    assert code == 2 and "Errno" not in stderr and "is a file, not the folder of a grading run" in stderr
    assert not (tmp_path / "o.csv").exists()


def bb_sheet(path, header, rows, delimiter="\t", encoding="utf-16-le", bom=BOM16, quoting=csv.QUOTE_ALL):
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, quoting=quoting, lineterminator="\r\n").writerows([header, *rows])
    path.write_bytes(bom + buffer.getvalue().encode(encoding))
    return path


BB_USERS = ["Last Name", "First Name", "Username", "Student ID", "Last Access", "Availability"]
BB_PEOPLE = [["김", "민수", "kim_ms", "2024001", "", "Available"], ["이", "지원", "lee_jw", "2024002", "", "Available"]]


@pytest.mark.parametrize("title, written", [
    ("Lab 1 [Total Pts: 10 Score] |123456", ["7.5", "10"]),
    ("Lab 1 [Total Pts: 10] |123456", ["7.5", "10"]),
    ("Lab 1 [Total Pts: 20 Score] |123456", ["15", "20"]),
    ("Lab 1 [Total Pts: 10 Percentage] |123456", ["75%", "100%"]),
    ("Lab 1 [Total Pts: 12.5 Score] |123456", ["9.38", "12.5"]),
])
@pytest.mark.parametrize("form", ["xls", "xls without its mark", "xls unquoted", "csv"])
def test_blackboard_columns_as_blackboard_writes_them_are_filled(tmp_path, capsys, title, written, form):
    run = make_run(tmp_path / "run", [("kim_ms", 7.5, "graded"), ("lee_jw", 10.0, "graded")])
    header = BB_USERS + ["Quiz [Total Pts: 5 Letter] |1", title, "Total [Total Pts: up to 30 Score] |2"]
    rows = [person + ["B", "", ""] for person in BB_PEOPLE]
    kinds = {"xls": ("\t", "utf-16-le", BOM16, csv.QUOTE_ALL), "xls without its mark": ("\t", "utf-16-le", b"", csv.QUOTE_ALL),
             "xls unquoted": ("\t", "utf-16-le", BOM16, csv.QUOTE_MINIMAL), "csv": (",", "utf-8", b"", csv.QUOTE_ALL)}
    delimiter, encoding, bom, quoting = kinds[form]
    sheet = bb_sheet(tmp_path / f"gc.{form[:3]}", header, rows, delimiter, encoding, bom, quoting)
    out = tmp_path / f"upload.{form[:3]}"
    code, stdout, stderr = export(capsys, "blackboard", run, "--sheet", sheet, "--out", out, "--column", "Lab 1")
    assert code == 0, stderr
    data = out.read_bytes()
    assert data.startswith(bom) and (bom or not data.startswith(BOM16))
    back = list(csv.reader(io.StringIO(data[len(bom):].decode(encoding), newline=""), delimiter=delimiter))
    assert back[0] == header and [row[7] for row in back[1:]] == written
    assert [row[6] for row in back[1:]] == ["B", "B"]


@pytest.mark.parametrize("display", ["Letter", "Text", "Complete/Incomplete"])
def test_a_blackboard_column_shown_as_letters_or_text_is_refused_with_what_to_do(tmp_path, capsys, display):
    run = make_run(tmp_path / "run", [("kim_ms", 7.5, "graded")])
    header = BB_USERS + [f"Lab 1 [Total Pts: 10 {display}] |123456"]
    sheet = bb_sheet(tmp_path / "gc.xls", header, [p + [""] for p in BB_PEOPLE])
    code, _, stderr = export(capsys, "blackboard", run, "--sheet", sheet, "--out", tmp_path / "o.xls", "--column", "Lab 1")
    assert code == 2 and "not one of the sheet's" not in stderr
    assert f"'Lab 1' shows its grades as {display}" in stderr and "set its primary display to Score" in stderr
    assert not (tmp_path / "o.xls").exists()


def test_a_blackboard_column_without_points_or_calculated_is_refused_with_the_reason(tmp_path, capsys):
    run = make_run(tmp_path / "run", [("kim_ms", 7.5, "graded")])
    header = BB_USERS + ["Lab 1 [Total Pts: 0 Text] |123456", "Total [Total Pts: up to 10 Score] |9"]
    sheet = bb_sheet(tmp_path / "gc.xls", header, [p + ["", ""] for p in BB_PEOPLE])
    code, _, stderr = export(capsys, "blackboard", run, "--sheet", sheet, "--out", tmp_path / "o.xls", "--column", "Total")
    assert code == 2 and "'Total' is a calculated column" in stderr
    header = BB_USERS + ["Lab 1 [Total Pts: 0 Score] |123456"]
    sheet = bb_sheet(tmp_path / "gc.xls", header, [p + [""] for p in BB_PEOPLE])
    code, _, stderr = export(capsys, "blackboard", run, "--sheet", sheet, "--out", tmp_path / "o.xls")
    assert code == 2 and "'Lab 1' has no points possible" in stderr and not (tmp_path / "o.xls").exists()


def test_a_moodle_worksheet_with_a_decimal_comma_is_filled_with_one(tmp_path, moodle_run, capsys):
    rows = [row[:5] + [row[5].replace(".", ",")] + row[6:] for row in MOODLE_ROWS]
    rows[0][4] = "3,00"  # a grade already there, as Moodle wrote it
    sheet = tmp_path / "w.csv"
    sheet.write_bytes(php_fputcsv([MOODLE_HEADER, *rows]).encode("utf-8"))
    out = tmp_path / "upload.csv"
    code, _, stderr = export(capsys, "moodle", moodle_run, "--sheet", sheet, "--out", out)
    assert code == 0, stderr
    by_id = {r[0]: r for r in read_back(out, "utf-8")[1:]}
    assert by_id["Participant 123456"][4] == "7,50" and by_id["Participant 123457"][4] == "56,70"
    assert "Autograder total: 7,50/10" in by_id["Participant 123456"][10]
    assert "3,00 → 7,50" in stderr


def test_export_speaks_the_tas_language(tmp_path, run, capsys):
    sheet = canvas_sheet(tmp_path / "s.csv")
    code, stdout, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", tmp_path / "o.csv", "--column",
                                  "5501", "--lang", "ko")
    assert code == 3 and "시트의 학생 3명 가운데 2명의" in stdout and "경고: 채점한 학생 2명이 시트에 없습니다" in stderr
    assert "종료 코드 3" in stderr and "students" not in stdout + stderr
    code, _, stderr = export(capsys, "canvas", run, "--sheet", sheet, "--out", sheet, "--column", "Lab 9", "--lang", "ko")
    assert code == 2 and "고를 수 있는 열" in stderr and "덮어쓰지 않습니다" in stderr and "아무 파일도 쓰지 않았습니다." in stderr


OUTS = ("new.csv", "sheet", "sheet again", "link", "hard link", "in the run", "in its results", "in another run", "folder")


@settings(max_examples=int(os.environ.get("EXPORT_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(out=st.sampled_from(OUTS), sheet=st.sampled_from(["ours", "another class", "moodle", "not a sheet"]),
       column=st.sampled_from(["5501", "Lab 9", None]), lab=st.sampled_from(["self_attention", "masked_attention"]),
       allow=st.booleans())
def test_export_never_writes_over_its_input_or_a_run_and_nothing_when_it_refuses(tmp_path_factory, out, sheet,
                                                                                 column, lab, allow):
    root = tmp_path_factory.mktemp("export")
    run = make_run(root / "run", [("10231", 7.5, "graded"), ("10232", 10.0, "graded")])
    make_run(root / "lab2", [("10231", 5.0, "graded")])
    if sheet == "ours":
        path = canvas_sheet(root / "s.csv")
    elif sheet == "another class":
        path = canvas_sheet(root / "s.csv", rows=[CANVAS_ROWS[0], ["누구", "99999", "", "", "", "", "", "", "", "", ""]])
    elif sheet == "moodle":
        path = moodle_sheet(root / "s.csv")
    else:
        path = root / "s.csv"
        path.write_bytes(b"\x00\x01 not a sheet")
    (root / "link.csv").symlink_to(path)
    os.link(path, root / "hard.csv")
    target = {"new.csv": root / "new.csv", "sheet": path, "sheet again": root / "." / "s.csv", "link": root / "link.csv",
              "hard link": root / "hard.csv", "in the run": run / "o.csv", "in its results": run / "results" / "o.csv",
              "in another run": root / "lab2" / "o.csv", "folder": root / "run"}[out]
    before = every_file(root)
    argv = ["canvas", run, "--sheet", path, "--out", target, "--lab", lab] + (["--column", column] if column else [])
    code = main(["export", *map(str, argv), "--lang", "en"] + (["--allow-unmatched"] if allow else []))
    after = every_file(root)
    written = {root / "new.csv", root / "new-report.txt"}
    assert {p: d for p, d in after.items() if p not in written} == before  # nothing else is ever touched
    if code == 2:
        assert set(after) == set(before)  # a refusal writes nothing
    else:
        assert out == "new.csv" and sheet == "ours" and lab == "self_attention" and column == "5501"
        assert set(after) - set(before) == written
