"""Real LMS exports, built here as each LMS writes them: every student graded exactly once, under the
LMS's id and name, metadata files read or listed but never graded, late work marked and penalised."""
import csv
import json
import os
import pathlib
import re
import subprocess
import sys
import time
import zipfile
from datetime import datetime

import pytest
from labs.self_attention import LAB
from conftest import ROOT

SAMPLES = ROOT / "samples"
CORRECT = (SAMPLES / "correct.py").read_bytes()
STUB = (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_bytes()
NOTEBOOK = (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes()
DAY = 24 * 3600
CHOSEN = ("graded", "broken", "error")


def grade(submissions, out, *extra):
    command = [sys.executable, "-m", "autograder", "grade", str(submissions), "--out", str(out), "--jobs", "1",
               *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)


def read_grades(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def chosen_rows(rows):
    """{id: row} of the rows a grade was given for; fails when an id has two."""
    graded = [r for r in rows if r["status"].startswith(CHOSEN)]
    ids = [r["id"] for r in graded]
    assert len(ids) == len(set(ids)), f"graded twice: {ids}"
    return {r["id"]: r for r in graded}


def assert_class(out, expected, listed_only=()):
    """Exactly the expected students were graded, once each, under these ids and names; no other row
    names anyone else (LMS files that are not submissions are not rows: lms_listed reads them;
    `listed_only`: students who sent no file, one row each)."""
    rows = read_grades(out)
    graded = chosen_rows(rows)
    assert {i: r["name"] for i, r in graded.items()} == expected
    assert {r["id"] for r in rows} == set(expected) | set(listed_only)
    assert [r["status"].split(":")[0] for r in rows if r["id"] in listed_only] == ["no file"] * len(listed_only)
    assert sorted(p.stem for p in (out / "results").iterdir()) == sorted(expected)
    return rows, graded


def lms_listed(out):
    """{file: (id, what)} of report.html's list of LMS files that are not submissions."""
    import html

    report = (out / "report.html").read_text("utf-8")
    table = re.search(r'<table class="lms sortable">.*?<tbody>(.*?)</tbody>', report, re.S)
    rows = re.findall(r"<tr><td>(.*?)</td><td>.*?</td><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td></tr>",
                      table.group(1) if table else "")
    def english(cell):  # a Korean page's cell carries its English twin (data-en)
        twin = re.fullmatch(r'<span data-en="(.*?)">.*</span>', cell, re.S)
        return html.unescape(twin.group(1) if twin else cell)
    return {html.unescape(file): (html.unescape(who), english(what)) for who, file, what in rows}


def write(path, data, stamp=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    if stamp is not None:
        os.utime(path, (stamp, stamp))


def zip_with_raw_names(path, members):
    """A zip whose names are the given bytes, with no UTF-8 flag (Korean Windows writes cp949 this way).

    members: [(name bytes, data, date_time)]. Written with ASCII stand-ins of the same length,
    then the names are put in place (a zip's checksums do not cover names).
    """
    stand_ins = []
    with zipfile.ZipFile(path, "w") as archive:
        for number, (raw, data, date_time) in enumerate(members):
            stand_in = f"{number:04d}".encode() + b"x" * (len(raw) - 4)
            assert len(stand_in) == len(raw)
            archive.writestr(zipfile.ZipInfo(stand_in.decode(), date_time), data)
            stand_ins.append((stand_in, raw))
    content = path.read_bytes()
    for stand_in, raw in stand_ins:
        assert content.count(stand_in) == 2  # local header and central directory
        content = content.replace(stand_in, raw)
    path.write_bytes(content)


def zip_of(path, members):
    with zipfile.ZipFile(path, "w") as archive:
        for name, data, date_time in members:
            archive.writestr(zipfile.ZipInfo(name, date_time), data)


# Canvas -----------------------------------------------------------------------------------------

def test_canvas_flat_with_late_and_resubmissions(tmp_path):
    root = tmp_path / "canvas"
    now = time.time()
    write(root / "kimminsu_10231_55001_attention.py", STUB, now - 3 * DAY)
    write(root / "kimminsu_10231_55009_attention-1.py", CORRECT, now - 2 * DAY)  # the resubmission
    write(root / "leejiwon_LATE_10232_55002_attention.ipynb", NOTEBOOK, now - DAY)
    out = tmp_path / "out"
    done = grade(root, out)
    assert done.returncode == 0, done.stderr
    rows, graded = assert_class(out, {"10231": "kimminsu", "10232": "leejiwon"})
    assert graded["10231"]["file"] == "kimminsu_10231_55009_attention-1.py"
    assert graded["10231"]["late"] == "no" and graded["10232"]["late"] == "yes"
    assert [r["status"] for r in rows if r["file"] == "kimminsu_10231_55001_attention.py"] == \
        ["superseded by kimminsu_10231_55009_attention-1.py"]
    # No LMS time: the file's own time, as ISO 8601.
    assert graded["10232"]["submitted_at"].startswith(time.strftime("%Y-%m-%dT%H:%M", time.localtime(now - DAY)))
    assert float(graded["10232"]["total"]) == float(graded["10232"]["raw_total"])  # no policy, no deduction


def test_canvas_in_section_folders_zip(tmp_path):
    stamp = (2024, 3, 1, 12, 0, 0)
    later = (2024, 3, 2, 12, 0, 0)
    archive = tmp_path / "submissions.zip"
    zip_of(archive, [
        ("section_A/kimminsu_10231_55001_attention.py", CORRECT, stamp),
        ("section_A/leejiwon_LATE_10232_55002_attention.py", STUB, stamp),
        ("section_B/parkseoyeon_10233_55003_attention.py", STUB, stamp),
        ("section_B/parkseoyeon_10233_55013_attention-1.py", CORRECT, later),
        ("section_B/choijunho_10234_55004_attention.ipynb", NOTEBOOK, stamp),
    ])
    out = tmp_path / "out"
    done = grade(archive, out, "--due", "2024-03-01T23:59:59", "--late-penalty", "10%/day")
    assert done.returncode == 0, done.stderr
    _, graded = assert_class(out, {"10231": "kimminsu", "10232": "leejiwon", "10233": "parkseoyeon",
                                   "10234": "choijunho"})
    assert graded["10233"]["file"] == "section_B/parkseoyeon_10233_55013_attention-1.py"
    # Canvas's LATE counts; a file's time alone (10233's resubmission is after --due) never does.
    assert {i: r["late"] for i, r in graded.items()} == {"10231": "no", "10232": "yes", "10233": "no",
                                                          "10234": "no"}
    assert float(graded["10232"]["late_penalty"]) == 10
    assert float(graded["10232"]["total"]) == round(float(graded["10232"]["raw_total"]) * 0.9, 2)
    feedback = (out / "feedback" / "10232.md").read_text("utf-8")
    assert "LMS가 이 제출물을 마감(2024-03-01 23:59:59" in feedback and "1일 늦은 것으로" in feedback
    assert "지연" not in (out / "feedback" / "10231.md").read_text("utf-8")


# Moodle -----------------------------------------------------------------------------------------

def test_moodle_folders_with_cp949_names_and_online_text(tmp_path):
    when = (2024, 3, 1, 12, 0, 0)
    archive = tmp_path / "moodle.zip"
    zip_with_raw_names(archive, [
        ("김민수_123456_assignsubmission_file_/attention.py".encode("cp949"), CORRECT, when),
        ("이지원_123457_assignsubmission_file_/실습/attention.ipynb".encode("cp949"), NOTEBOOK, when),
        ("이지원_123457_assignsubmission_onlinetext_/onlinetext.html".encode("cp949"), b"<p>done</p>", when),
        ("박서연_123458_assignsubmission_onlinetext_/onlinetext.html".encode("cp949"), b"<p>no file</p>", when),
    ])
    with zipfile.ZipFile(archive) as check:  # really written as Korean Windows does
        assert all(not info.flag_bits & 0x800 for info in check.infolist())
    out = tmp_path / "out"
    done = grade(archive, out)
    # The same student's file and online-text folders are one student, not a merge (exit 0).
    assert done.returncode == 0, done.stderr
    rows, graded = assert_class(out, {"123456": "김민수", "123457": "이지원"}, listed_only=["123458"])
    assert not [r for r in rows if "onlinetext" in r["file"]]  # LMS files, not rows of grades.csv
    online = lms_listed(out)
    assert online == {
        "이지원_123457_assignsubmission_onlinetext_/onlinetext.html":
            ("123457", "ignored: LMS metadata: Moodle online text, not graded"),
        "박서연_123458_assignsubmission_onlinetext_/onlinetext.html":
            ("123458", "ignored: LMS metadata: Moodle online text, not graded")}
    [alone] = [r for r in rows if r["id"] == "123458"]
    assert alone["name"] == "박서연" and alone["file"] == "" and "Moodle online text" in alone["status"]
    assert "123458" in done.stderr and "LMS 기록은 있지만 제출 파일이 없는 학생" in done.stderr


# Blackboard -------------------------------------------------------------------------------------

RECEIPT = """Name: {name} ({user})
Assignment: Lab 1
Date Submitted: Friday, March 1, 2024 12:30:45 PM KST
Current Grade: Needs Grading

Submission Field:
There is no student submission text data for this assignment.

Files:
\tOriginal filename: attention.py
\tFilename: Lab 1_{user}_attempt_{date}_attention.py
"""


def blackboard_attempt(user, name, date, data, extension="py"):
    receipt = RECEIPT.format(name=name, user=user, date=date).encode()
    stamp = tuple(int(part) for part in date.split("-"))
    members = [(f"Lab 1_{user}_attempt_{date}.txt", receipt, stamp)]
    if data is not None:
        members.append((f"Lab 1_{user}_attempt_{date}_attention.{extension}", data, stamp))
    return members


def test_blackboard_receipts_and_attempts(tmp_path):
    archive = tmp_path / "gradebook.zip"
    zip_of(archive, [
        *blackboard_attempt("kim_ms", "Kim Minsu", "2024-03-01-12-30-45", STUB),
        *blackboard_attempt("kim_ms", "Kim Minsu", "2024-03-02-09-00-00", CORRECT),
        *blackboard_attempt("lee_jw", "Lee Jiwon", "2024-03-01-10-00-00", NOTEBOOK, "ipynb"),
        *blackboard_attempt("park_sy", "Park Seoyeon", "2024-03-01-11-00-00", None),  # text only
    ])
    out = tmp_path / "out"
    done = grade(archive, out, "--due", "2024-03-01T23:59:59", "--late-penalty", "10%/day,max=50%",
                 "--lang", "en")
    assert done.returncode == 0, done.stderr
    rows, graded = assert_class(out, {"kim_ms": "Kim Minsu", "lee_jw": "Lee Jiwon"}, listed_only=["park_sy"])
    kim = graded["kim_ms"]
    assert kim["file"] == "Lab 1_kim_ms_attempt_2024-03-02-09-00-00_attention.py"
    # The attempt name's time, read in this computer's zone (no --due offset, no --lms-timezone), shown with it.
    assert kim["submitted_at"][:19] == "2024-03-02T09:00:00" and kim["late"] == "yes"
    assert datetime.fromisoformat(kim["submitted_at"]).utcoffset() is not None
    assert (float(kim["raw_total"]), float(kim["late_penalty"]), float(kim["total"])) == (10.0, 10.0, 9.0)
    assert graded["lee_jw"]["late"] == "no" and graded["lee_jw"]["late_penalty"] in ("0", "0.0")
    # Receipts are not rows of grades.csv (one row per file sent, one for park_sy who sent none);
    # the report lists them.
    assert not [r for r in rows if r["file"].endswith(".txt")] and len(rows) == 4
    receipts = lms_listed(out)
    assert len(receipts) == 4
    assert {what for _, what in receipts.values()} == {
        "ignored: LMS metadata: Blackboard receipt, read for the name, not graded"}
    assert {who for who, _ in receipts.values()} == {"kim_ms", "lee_jw", "park_sy"}
    # The student reads the rule applied to them; Gradescope's score is the penalised one.
    feedback = (out / "feedback" / "kim_ms.md").read_text("utf-8")
    assert "10% for every day begun after the deadline, at most 50%" in feedback
    assert "1 day(s) late" in feedback and "10 → 9 points" in feedback
    assert "at most 50%" in (out / "feedback" / "kim_ms.html").read_text("utf-8")
    results = json.loads((out / "results" / "kim_ms.json").read_text("utf-8"))
    assert results["score"] == 9.0 and "10% deducted" in results["output"]
    assert "output" not in json.loads((out / "results" / "lee_jw.json").read_text("utf-8"))
    # The report's mean is the class's, not dragged down by receipts graded 0.
    mean = sum(float(r["total"]) for r in graded.values()) / 2
    assert f"2 students (7 files)" in done.stdout and f"mean {mean:.2f}/10" in done.stdout


# Gradescope -------------------------------------------------------------------------------------

GRADESCOPE_METADATA = """---
:submission_4411:
  :submitters:
  - :name: 김민수
    :sid: '10231'
    :email: kim@example.com
  :created_at: 2024-03-01 12:30:45.123456000 +09:00
  :score: 0.0
  :results:
    :tests:
    - :name: not a student
      :created_at: 2020-01-01 00:00:00.000000000 +00:00
:submission_4412:
  :submitters:
  - :name: Lee Jiwon
    :sid: '10232'
    :email: lee@example.com
  :created_at: 2024-03-03 08:00:00.000000000 +09:00
:submission_4413:
  :submitters:
  - :name: Park Seoyeon
    :sid: '10233'
    :email: park@example.com
  - :name: Choi Junho
    :sid: '10234'
    :email: choi@example.com
  :created_at: 2024-03-01 20:00:00.000000000 +09:00
"""


def test_gradescope_export_with_its_metadata(tmp_path):
    root = tmp_path / "assignment_export"
    write(root / "submission_4411" / "attention.py", CORRECT)
    write(root / "submission_4412" / "attention.ipynb", NOTEBOOK)
    write(root / "submission_4412" / "submission_metadata.yml", b"- :sid: '99999'\n")  # the student's own
    write(root / "submission_4413" / "lab" / "attention.py", STUB)
    write(root / "submission_metadata.yml", GRADESCOPE_METADATA.encode())
    out = tmp_path / "out"
    done = grade(tmp_path, out, "--due", "2024-03-01T23:59:59+09:00", "--late-penalty", "25%")
    assert done.returncode == 0, done.stderr
    rows, graded = assert_class(out, {"10231": "김민수", "10232": "Lee Jiwon",
                                      "submission_4413": "Park Seoyeon / Choi Junho"})
    assert graded["10231"]["submitted_at"] == "2024-03-01T12:30:45+09:00"
    assert {i: r["late"] for i, r in graded.items()} == {"10231": "no", "10232": "yes", "submission_4413": "no"}
    lee = graded["10232"]
    assert float(lee["late_penalty"]) == 25 and float(lee["total"]) == round(float(lee["raw_total"]) * 0.75, 2)
    [(listed, (who, what))] = lms_listed(out).items()
    assert listed == "assignment_export/submission_metadata.yml" and who == ""
    assert what.startswith("ignored: LMS metadata: Gradescope submission list")
    # The student's own file of that name is theirs, and not read as metadata.
    assert [r["status"] for r in rows if r["file"] == "assignment_export/submission_4412/submission_metadata.yml"] \
        == ["ignored: not a .py or .ipynb file"]
    feedback = (out / "feedback" / "10232.md").read_text("utf-8")
    assert "지연 제출 규정(늦게 제출하면 한 번 25%)" in feedback and "2일 늦은 것으로" in feedback


# The TA's mistakes: a pattern that misses, an old --out ------------------------------------------

@pytest.fixture()
def two_students(tmp_path):
    root = tmp_path / "class"
    write(root / "kimminsu_10231_55001_attention.py", CORRECT)
    write(root / "leejiwon_10232_55002_attention.py", STUB)
    return root


def test_an_id_pattern_that_matches_nothing_stops_before_grading(two_students, tmp_path):
    out = tmp_path / "out"
    done = grade(two_students, out, "--id-pattern", r"student-(\d+)")
    assert done.returncode == 2
    assert "제출 파일 2개 가운데 하나도 없어" in done.stderr and "kimminsu_10231" in done.stderr
    assert not (out / "grades.csv").exists()
    going_on = grade(two_students, out, "--id-pattern", r"student-(\d+)", "--allow-pattern-misses")
    assert going_on.returncode == 0, going_on.stderr
    assert set(chosen_rows(read_grades(out))) == {"10231", "10232"}


def test_an_id_pattern_that_misses_some_files_exits_4(two_students, tmp_path):
    out = tmp_path / "out"
    done = grade(two_students, out, "--id-pattern", r"kimminsu_(\d+)")
    assert done.returncode == 4
    assert "제출 파일 2개 가운데 1개에만 맞았습니다" in done.stderr and "leejiwon_10232_55002_attention.py" in done.stderr
    assert set(chosen_rows(read_grades(out))) == {"10231", "10232"}


def test_files_of_another_class_in_out_are_reported_and_moved_aside(two_students, tmp_path):
    out = tmp_path / "out"
    write(out / "feedback" / "99999.md", b"old")
    write(out / "feedback" / "99999.html", b"old")
    write(out / "results" / "99999.json", b"{}")
    write(out / "stale" / "results" / "99999.json", b"older")
    done = grade(two_students, out)
    assert done.returncode == 0, done.stderr
    assert "파일이 3개 있습니다" in done.stderr and "feedback/99999.md" in done.stderr and "--move-stale" in done.stderr
    assert (out / "results" / "99999.json").exists()
    # The rubric's shares, summed exactly: the same total everywhere it is shown (the exact sum
    # rounded once is tested on its own below, with thirds).
    stub = chosen_rows(read_grades(out))["10232"]
    # softmax over columns is right on every single row (1-D): named, it keeps the share of tests passed.
    assert (stub["total"], stub["softmax"], stub["mix"]) == ("5.62", "0.62", "0.25")
    assert json.loads((out / "results" / "10232.json").read_text("utf-8"))["score"] == 5.62
    assert "합계 5.62 / 10점" in (out / "feedback" / "10232.md").read_text("utf-8")
    moved = grade(two_students, out, "--move-stale")
    assert moved.returncode == 0
    assert sorted(p.name for p in (out / "results").iterdir()) == ["10231.json", "10232.json"]
    assert sorted(p.name for p in (out / "feedback").iterdir()) == ["10231.html", "10231.md",
                                                                     "10232.html", "10232.md"]
    assert (out / "stale" / "feedback" / "99999.md").read_bytes() == b"old"
    assert (out / "stale" / "results" / "99999.json").read_bytes() == b"older"  # never overwritten
    assert (out / "stale" / "results" / "99999.json.1").read_bytes() == b"{}"
    again = grade(two_students, out)
    assert "어느 학생 것도 아닌 파일" not in again.stderr


def test_summary_and_report_give_the_same_counts(tmp_path):
    root = tmp_path / "class"
    write(root / "kimminsu_10231_55001_attention.py", CORRECT)
    write(root / "leejiwon_10232_55002_attention.ipynb", b"{ not json")
    write(root / "parkseoyeon_10233_55003_attention.py", STUB, time.time() - DAY)
    write(root / "parkseoyeon_10233_55013_attention.py", STUB)
    out = tmp_path / "out"
    done = grade(root, out, "--lang", "en")
    assert done.returncode == 0, done.stderr
    report = (out / "report.html").read_text("utf-8")
    shown = dict(re.findall(r"<tr><th>([^<]+)</th><td[^>]*>([^<]+)</td></tr>", report))
    assert (shown["Graded"], shown["Unreadable files"], shown["Files superseded by newer ones"]) == ("2", "1", "1")
    assert "3 students (4 files)" in done.stdout
    assert "2 graded, 1 unreadable, 0 errors, 1 superseded" in done.stdout
    again = grade(root, out, "--lang", "en")  # resumed: the same counts, nothing graded now
    assert "2 graded, 1 unreadable, 0 errors, 1 superseded" in again.stdout
    assert "0 graded now" in again.stdout and "3 unchanged" in again.stdout


def test_resume_takes_the_late_policy_into_account(tmp_path):
    archive = tmp_path / "gradebook.zip"
    zip_of(archive, blackboard_attempt("kim_ms", "Kim Minsu", "2024-03-03-09-00-00", CORRECT))
    out = tmp_path / "out"
    first = grade(archive, out, "--due", "2024-03-01T23:59:59", "--late-penalty", "10%/day")
    assert first.returncode == 0, first.stderr
    [row] = chosen_rows(read_grades(out)).values()
    assert float(row["total"]) == 8.0  # two days begun: 20%
    capped = grade(archive, out, "--due", "2024-03-01T23:59:59", "--late-penalty", "10%/day,max=15%")
    # Another penalty changes only the outputs: they are rewritten from the saved judged result.
    assert "그대로 둔 학생 0명" in capped.stdout and "이번에 채점한 학생 0명" in capped.stdout
    [row] = chosen_rows(read_grades(out)).values()
    assert (float(row["total"]), float(row["late_penalty"])) == (8.5, 15.0)
    assert "최대 15%" in (out / "feedback" / "kim_ms.md").read_text("utf-8")
    plain = grade(archive, out)
    [row] = chosen_rows(read_grades(out)).values()
    assert float(row["total"]) == 10.0 and "지연" not in (out / "feedback" / "kim_ms.md").read_text("utf-8")
    assert plain.returncode == 0


@pytest.mark.parametrize("arguments, message", [
    (["--late-penalty", "10%/day"], ("needs --due", "--due와 함께")),
    (["--due", "2024-03-01T23:59", "--late-penalty", "ten percent"], ("10%/day", "10%/day")),
    (["--due", "tomorrow"], ("ISO 8601", "ISO 8601")),
    (["--due", "2024-03-01", "--late-penalty", "120%"], ("0% to 100%", "0%부터 100%까지")),
])
def test_malformed_late_policies_exit_2(two_students, tmp_path, arguments, message):
    english, korean = message
    done = grade(two_students, tmp_path / "out", *arguments, "--lang", "en")
    assert done.returncode == 2 and english in done.stderr
    done = grade(two_students, tmp_path / "ko", *arguments)
    assert done.returncode == 2 and korean in done.stderr


# The pieces, without grading ----------------------------------------------------------------------

def test_totals_sum_exact_step_scores_and_round_once():
    from autograder.batch.outputs import record_of
    from autograder.core.judge import step_score
    from autograder.core.verdict import StepResult, SubmissionResult
    from autograder.core.render.feedback import as_dict, as_text

    third = step_score(1, [types_case("a", True), types_case("b", False), types_case("c", False)])
    assert third == 1 / 3
    scores = [2, 1, third, third, 1, 1]
    from labs.self_attention.steps import STEPS

    result = SubmissionResult(submission="x.py", steps=[
        StepResult(name=step.name, score=score, max_score=step.points, status="passed", mistakes=[], cases=[],
                   page_step=step.page_step) for step, score in zip(STEPS, scores)])
    assert result.score == 5.67
    record = record_of(result, "kim", "x.py", "key", [], "graded", LAB)
    assert record["total"] == record["raw_total"] == 5.67
    assert [step["score"] for step in record["steps"].values()] == [2, 1, 0.33, 0.33, 1, 1]
    data = as_dict(result, LAB, "en")
    assert data["score"] == 5.67 and [s["score"] for s in data["steps"]][2] == 0.33
    assert "Total 5.67 / 10 points" in as_text(result, LAB, "en")


def types_case(name, passed):
    from autograder.core.verdict import CaseResult

    return CaseResult(case=name, hidden=False, label="", passed=passed, code="" if passed else "wrong_values")


def test_late_policies():
    from datetime import timedelta

    from autograder.batch.late import deduction, lateness, parse_due, parse_policy, penalised

    policy = parse_policy("10%/day, max=25%")
    assert (policy.percent, policy.per_day, policy.cap) == (10, True, 25)
    assert parse_policy("20%") .per_day is False
    due = parse_due("2024-03-01T23:59:59+09:00")
    assert parse_due("2024-03-01").hour == 23  # a date alone: the end of that day
    minute_late = (due + timedelta(minutes=1)).isoformat()
    assert lateness(minute_late, False, due) == (True, 1)  # a day begun counts whole
    assert lateness((due + timedelta(days=1, seconds=1)).isoformat(), False, due) == (True, 2)
    assert lateness(due.isoformat(), False, due) == (False, 0)  # on the dot is on time
    assert lateness("", False, due) == (False, 0)  # no LMS time: a file's time is never asked
    assert lateness("", True, due) == (True, 1)  # the LMS's flag alone: one started day, whatever the file's time
    assert lateness("", True, None) == (True, 1)
    assert [deduction(policy, True, days) for days in (0, 1, 2, 3, 9)] == [0, 10, 20, 25, 25]
    assert deduction(parse_policy("20%"), True, 5) == 20 and deduction(policy, False, 3) == 0
    assert deduction(None, True, 3) == 0
    assert penalised(9.33, 10) == 8.4 and penalised(5.67, 0) == 5.67
    for bad in ("10", "10%/week", "-5%", "10%/day,max=150%", "10%/day,max="):
        with pytest.raises(ValueError):
            parse_policy(bad)


def test_gradescope_metadata_subset_parser():
    from autograder.lms.blackboard import receipt_name as blackboard_receipt_name
    from autograder.lms.gradescope import submitters as gradescope_submitters
    from autograder.lms.metadata import decode, iso_time

    people = gradescope_submitters(GRADESCOPE_METADATA)
    assert set(people) == {"submission_4411", "submission_4412", "submission_4413"}
    kim = people["submission_4411"]
    assert (kim.sid, kim.name, kim.email, kim.created_at) == ("10231", "김민수", "kim@example.com",
                                                             "2024-03-01T12:30:45+09:00")
    group = people["submission_4413"]
    assert (group.sid, group.name) == ("", "Park Seoyeon / Choi Junho")
    other = gradescope_submitters('submission_7:\n  :submitters:\n    - :name: "O\'Neil, Sam"\n'
                                  "      :sid: 4\n  :created_at: 2024-01-02T03:04:05Z\nnot_a_submission:\n"
                                  "  :submitters:\n  - :name: x\n")
    assert other == {"submission_7": other["submission_7"]}
    assert (other["submission_7"].name, other["submission_7"].sid) == ("O'Neil, Sam", "4")
    assert other["submission_7"].created_at == "2024-01-02T03:04:05+00:00"
    assert gradescope_submitters("!!python/object:os.system\n") == {} and gradescope_submitters("") == {}
    assert iso_time("yesterday") == "" and iso_time("2024-03-01 12:30 +0900") == "2024-03-01T12:30:00+09:00"
    assert blackboard_receipt_name("Name: 김민수 (kim_ms)\nAssignment: Lab 1\nDate Submitted: -\n\n") == "김민수"
    assert blackboard_receipt_name("이름: 김민수 (kim_ms)\n과제: Lab 1\n제출 날짜: -\n현재 성적: -\n") == "김민수"
    assert blackboard_receipt_name("Name: 김민수 (kim_ms)\nAssignment: Lab 1") == "김민수"  # an older receipt's two lines
    assert blackboard_receipt_name("Name: 김민수 (kim_ms)\n\nAssignment: Lab 1") == ""  # one line: not its header
    assert blackboard_receipt_name("Assignment: Lab 1\nName: 김민수 (kim_ms)\n") == ""  # out of Blackboard's order
    assert blackboard_receipt_name("no name here") == ""
    assert decode("Name: 김민수".encode("cp949")) == "Name: 김민수"


def test_metadata_files_are_told_from_submissions():
    from autograder.batch.naming import Naming

    paths = ["export/submission_1/attention.py", "export/submission_metadata.yml",
             "export/submission_1/submission_metadata.yml",
             "Lab 1_kim_ms_attempt_2024-03-01-12-30-45.txt", "Lab 1_kim_ms_attempt_2024-03-01-12-30-45_notes.txt",
             "kim_10231_55001_Lab 1_x_attempt_2024-03-01-12-30-45.txt",
             "Kim_1_assignsubmission_onlinetext_/onlinetext.html", "Kim_1_assignsubmission_file_/a.py"]
    naming = Naming(paths[:3])
    assert [naming.metadata_kind(p) for p in paths[:3]] == ["", "Gradescope submission list", ""]
    naming = Naming(paths[3:])
    assert [naming.metadata_kind(p) for p in paths[3:]] == ["Blackboard receipt", "", "", "Moodle online text", ""]
    # One Moodle student's two folders are one owner: not reported as merged.
    assert naming.identify(paths[6]) == naming.identify(paths[7])
    flat = ["Kim_1_assignsubmission_onlinetext_onlinetext.html", "Kim_1_assignsubmission_file_attention.py",
            "kim_10231_55001_Kim_1_assignsubmission_onlinetext_x.py"]
    naming = Naming(flat)
    assert [naming.metadata_kind(p) for p in flat] == ["Moodle online text", "", ""]
    assert naming.identify(flat[0]) == naming.identify(flat[1]) == ("1", "moodle:/Kim_1")
    assert naming.about(flat[1])["name"] == "Kim"


def test_two_gradescope_submissions_given_one_sid_are_merged_ids(tmp_path):
    from autograder.batch.collect import group_students
    from autograder.batch.source import Source

    write(tmp_path / "e" / "submission_1" / "attention.py", CORRECT)
    write(tmp_path / "e" / "submission_2" / "attention.py", STUB)
    write(tmp_path / "e" / "submission_metadata.yml",
          b":submission_1:\n  :submitters:\n  - :name: Kim\n    :sid: '7'\n"
          b":submission_2:\n  :submitters:\n  - :name: Mallory\n    :sid: '7'\n")
    source = Source(tmp_path)
    try:
        students = {s.id: s for s in group_students(source)}
    finally:
        source.close()
    assert set(students) == {"", "7"}
    assert students["7"].merged == ["gradescope:e/submission_1", "gradescope:e/submission_2"]
    assert students[""].chosen is None


def test_the_newest_blackboard_attempt_by_its_name_not_its_zip_date(tmp_path):
    from autograder.batch.collect import group_students
    from autograder.batch.source import Source

    archive = tmp_path / "gradebook.zip"
    newer, older = "2024-03-02-09-00-00", "2024-03-01-12-30-45"
    zip_of(archive, [(f"Lab 1_kim_ms_attempt_{newer}_attention.py", CORRECT, (2024, 3, 5, 0, 0, 0)),
                     (f"Lab 1_kim_ms_attempt_{older}_attention-1.py", STUB, (2024, 3, 6, 0, 0, 0))])
    source = Source(archive)
    try:
        [kim] = group_students(source)
    finally:
        source.close()
    assert kim.chosen.path == f"Lab 1_kim_ms_attempt_{newer}_attention.py"
    assert kim.lms_time[:19] == "2024-03-02T09:00:00" and datetime.fromisoformat(kim.lms_time).tzinfo is not None


def test_a_gradescope_list_that_cannot_be_read_says_so(tmp_path, monkeypatch):
    from autograder.batch import collect, source as class_source

    write(tmp_path / "e" / "submission_1" / "attention.py", CORRECT)
    write(tmp_path / "e" / "submission_metadata.yml", b":submission_1:\n  :submitters:\n  - :name: K\n    :sid: '7'\n")
    monkeypatch.setattr(collect, "MAX_METADATA_BYTES", 10)
    source = class_source.Source(tmp_path)
    try:
        students = {s.id: s for s in collect.group_students(source)}
    finally:
        source.close()
    assert set(students) == {"", "submission_1"}  # named by its folder, as without metadata
    [(_, reason)] = students[""].ignored
    assert str(reason) == "LMS metadata: Gradescope submission list, not read (unreadable or larger than 10 bytes)"


def test_a_copied_class_with_new_file_times_is_not_graded_again(two_students, tmp_path):
    out = tmp_path / "out"
    assert grade(two_students, out).returncode == 0
    stamp = time.time() - 3 * DAY  # one moment for every file, and for what the rows must say
    for path in two_students.iterdir():
        os.utime(path, (stamp, stamp))
    again = grade(two_students, out)
    assert "그대로 둔 학생 2명" in again.stdout
    times = {r["id"]: r["submitted_at"] for r in chosen_rows(read_grades(out)).values()}
    expected = time.strftime("%Y-%m-%dT%H:%M", time.localtime(stamp))
    assert all(value.startswith(expected) for value in times.values()), times  # the new times, all the same
