"""The TA's runs, the course history and the LMS round trip: history writes only into a folder of its
own and never passes over a run; a total emptied by hand is withheld; a CSV re-saved by Korean Excel
is read, and said so; a run folder in a class is a valid identity with a run's outputs; --due never
grades unknown times as on time; a file's time never counts late days; Blackboard's usernames are the
receipts'; Moodle's feedback folders are the download's; labs numbered apart are never joined by id.
Each reported case through the command line in a subprocess, the rules over generated inputs."""
import csv
import io
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.batch import history, run_folder
from autograder.batch.class_rule import mostly_not_submissions
from autograder.batch.late import lateness, lateness_known
from autograder.batch.naming import Naming
from autograder.core.render.messages import Messages
from autograder.lms.graded import RunError, read_run
from autograder.lms.sheet import read_csv_text
from autograder.lms.moodle import feedback_folder
from test_history_grades import record, write_run
from conftest import ROOT

CORRECT = (ROOT / "samples" / "correct.py").read_bytes()
STUB = (ROOT / "samples" / "parkseoyeon_10233_55003_attention.py").read_bytes()
DAY = 24 * 3600


def cli(*argv, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "autograder", *map(str, argv)], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def course_of_two(root):
    """A course folder of two labs' runs (written as `grade` writes them, without grading)."""
    write_run(root / "lab1", [("s01", "10.0", "graded"), ("s02", "7.0", "graded")],
              {"s01": record("s01", 10.0), "s02": record("s02", 7.0)})
    write_run(root / "lab2", [("s01", "5.0", "graded"), ("s02", "6.0", "graded")],
              {"s01": record("s01", 5.0, lab="masked_attention"), "s02": record("s02", 6.0, lab="masked_attention")},
              lab="masked_attention")
    return root


def snapshot(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def course_rows(path):
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


# history's --out and COURSE_DIR (04, 41, 42, 43) -----------------------------------------------------

def test_history_out_in_a_run_is_refused_and_no_lab_is_dropped(tmp_path):
    course = course_of_two(tmp_path / "course")
    before = snapshot(course / "lab1")
    for out in (course / "lab1", course / "lab1" / "feedback", course / "lab1" / "new"):
        done = cli("history", course, "--out", out, "--lang", "en")
        assert done.returncode == 2, done.stderr
        assert "output folder of a grading run" in done.stderr and "Nothing was written." in done.stderr
    assert snapshot(course / "lab1") == before and not (course / "lab1" / "new").exists()
    done = cli("history", course, "--lang", "en")  # the same course, into its own folder: both labs
    assert done.returncode == 0, done.stderr
    rows = course_rows(course / "history" / "course.csv")
    assert rows["s01"]["self_attention_total"] == "10.0" and rows["s01"]["masked_attention_total"] == "5.0"


def test_history_never_replaces_the_tas_own_files(tmp_path):
    course = course_of_two(tmp_path / "course")
    mine = tmp_path / "강의"
    (mine / "students").mkdir(parents=True)
    (mine / "index.html").write_text("<h1>트랜스포머 과정 안내</h1>", "utf-8")
    (mine / "course.csv").write_text("id,출석\n20001,O\n", "utf-8")
    (mine / "students" / "20001.html").write_text("상담 기록", "utf-8")
    before = snapshot(mine)
    done = cli("history", course, "--out", mine, "--lang", "en")
    assert done.returncode == 2 and "did not write" in done.stderr and "course.csv" in done.stderr, done.stderr
    assert snapshot(mine) == before


def test_history_twice_into_two_folders_of_the_course_reruns_and_replaces_its_own_output(tmp_path):
    course = course_of_two(tmp_path / "course")
    for _ in range(2):
        assert cli("history", course).returncode == 0
        done = cli("history", course, "--out", course / "history-en", "--lang", "en")
        assert done.returncode == 0, done.stderr
    assert set(course_rows(course / "history-en" / "course.csv")) == {"s01", "s02"}
    # A student gone from every run loses their earlier page; the pages of the others are rewritten.
    (course / "history" / "students" / "s99.html").write_text("old", "utf-8")
    assert cli("history", course).returncode == 0
    assert sorted(p.name for p in (course / "history" / "students").iterdir()) == ["s01.html", "s02.html"]


def test_history_given_a_run_says_to_give_its_parent(tmp_path):
    course = course_of_two(tmp_path / "out")
    done = cli("history", "out/lab1", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 2
    assert "out/lab1 is the output folder of one `autograder grade` run" in done.stderr
    assert "`autograder history out`" in done.stderr and not (course / "lab1" / "history").exists()
    done = cli("history", "out/lab1", "--lang", "ko", cwd=tmp_path)
    assert "`autograder history out`" in done.stderr and "채점 결과 폴더" in done.stderr


FOREIGN = st.lists(st.sampled_from(["index.html", "course.csv", "students", "notes.txt", "강의.md", "grades.csv",
                                    "overrides.csv", "results", "feedback", history.HISTORY_STAMP]),
                   min_size=1, max_size=5, unique=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=FOREIGN, depth=st.integers(0, 2), stamped=st.booleans())
def test_history_writes_only_where_it_wrote_before_or_nothing_is(tmp_path_factory, names, depth, stamped):
    """claim_out, the one admission of --out: a folder at or below a run's folder is refused; any
    other folder is admitted only when it is new, empty, or history's own (a valid stamp)."""
    root = tmp_path_factory.mktemp("claim")
    run = write_run(root / "run", [("s01", "1.0", "graded")], {"s01": record("s01", 1.0)})
    inside = run.joinpath(*["deeper"] * depth)
    try:
        history.claim_out(str(inside))
        assert False, "a folder in a run was admitted"
    except history.HistoryError:
        pass
    folder = root / "mine"
    folder.mkdir()
    for name in names:
        target = folder / name
        if name in ("students", "results", "feedback"):
            target.mkdir()
        elif name == history.HISTORY_STAMP:
            target.write_text(json.dumps({"kind": history.HISTORY_KIND if stamped else "notes"}), "utf-8")
        else:
            target.write_text("x", "utf-8")
    ours = history.HISTORY_STAMP in names and stamped
    looks_like_a_run = {"results", "feedback"} <= set(names)  # (this grades.csv is no run's: not its header)
    try:
        history.claim_out(str(folder))
        admitted = True
    except history.HistoryError:
        admitted = False
    assert admitted == (ours and not looks_like_a_run)
    # find_runs passes over history's own output folders, never over a run
    assert history.is_history_output(str(folder)) == ours


# An emptied total (05) ----------------------------------------------------------------------------

def test_an_emptied_total_is_withheld_by_history_and_export(tmp_path):
    course = tmp_path / "course"
    write_run(course / "lab1", [("10231", "10.0", "graded"), ("10232", "", "graded")],
              {"10231": record("10231", 10.0), "10232": record("10232", 10.0)})
    done = cli("history", course, "--lang", "en")
    assert done.returncode == 3 and "10232 (self_attention)" in done.stderr and "not a number" in done.stderr
    row = course_rows(course / "history" / "course.csv")["10232"]
    assert row["self_attention_total"] == "" and row["withheld"] == "1"
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)\n    Points Possible,,,,,10\n"
                     "가,10231,,s1,,\n나,10232,,s2,,3.00\n", "utf-8")
    done = cli("export", "canvas", course / "lab1", "--lab", "self_attention", "--sheet", sheet, "--out",
               tmp_path / "up.csv", "--lang", "en")
    assert done.returncode == 3 and "10232" in done.stderr and "not a number" in done.stderr, done.stderr


STATUSES = st.sampled_from(["graded", "broken: syntax", "error: the grader failed (x)", "superseded by a.py",
                            "merged: superseded by a.py, a file of another name (x)", "ignored: a .docx",
                            "no file: the LMS sent only receipts"])
CELLS = st.sampled_from(["", " ", "7.5", "abc", "10"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(STATUSES, CELLS), min_size=1, max_size=6))
def test_every_graded_row_is_a_member_whatever_its_total_cell(tmp_path_factory, rows):
    folder = tmp_path_factory.mktemp("run")
    written = [(f"s{n}", total, status) for n, (status, total) in enumerate(rows)]
    write_run(folder, written, {student: record(student, 5.0) for student, _, _ in written})
    run = read_run(str(folder), default_max=lambda: 10.0)
    for student, total, status in written:
        no_grade = status.startswith(("superseded", "merged:", "ignored:", "no file"))
        if no_grade and not total.strip():
            assert student not in run
            continue
        assert student in run  # never dropped
        try:
            number = float(total)
        except ValueError:
            assert run[student].withheld is not None  # an emptied or written-over total: withheld, with why
        else:
            if status == "graded":  # a total its results record does not hold (5.0 here): withheld, with why
                assert (run[student].withheld is not None) == (abs(number - 5.0) >= 0.006), (total, run[student])


def test_a_folder_whose_last_grading_did_not_finish_is_refused_by_history_and_export(tmp_path):
    from autograder.batch.run_files import UNFINISHED_FILE, mark_finished, mark_unfinished

    course = tmp_path / "course"
    folder = write_run(course / "lab1", [("10231", "10.0", "graded")], {"10231": record("10231", 10.0)})
    written = (folder / "grades.csv").read_bytes()
    mark_unfinished(str(folder), "2026-12-08T00:00:00+09:00")
    assert (folder / UNFINISHED_FILE).exists() and not (folder / "grades.csv").exists()  # the one before is gone
    (folder / "grades.csv").write_bytes(written)  # put back by hand: the folder is still unfinished
    with pytest.raises(RunError) as refused:
        read_run(str(folder), default_max=lambda: 10.0)
    assert UNFINISHED_FILE in refused.value.told(Messages("en"))
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)\n    Points Possible,,,,,10\n"
                     "가,10231,,s1,,\n", "utf-8")
    done = cli("export", "canvas", folder, "--lab", "self_attention", "--sheet", sheet, "--out", tmp_path / "up.csv",
               "--lang", "en")
    assert done.returncode == 2 and "did not finish" in done.stderr and not (tmp_path / "up.csv").exists()
    mark_finished(str(folder))
    assert set(read_run(str(folder), default_max=lambda: 10.0)) == {"10231"}


# grades.csv re-saved by Korean Excel (44) -------------------------------------------------------------

def test_grades_csv_saved_by_korean_excel_is_read_and_said_so(tmp_path):
    course = tmp_path / "course"
    run = write_run(course / "lab1", [("20001", "9.0", "graded")], {"20001": record("20001", 9.0)})
    grades = run / "grades.csv"
    grades.write_bytes(grades.read_text("utf-8-sig").encode("cp949"))  # 학생 20001: Korean in cp949
    done = cli("history", course, "--lang", "en")
    assert done.returncode == 0 and "read as cp949" in done.stderr, done.stderr
    assert course_rows(course / "history" / "course.csv")["20001"]["name"] == "학생 20001"
    grades.write_bytes(b"\xef\xbb\xbfid,name,total,status\n\x80\x80,x,1,graded\n")
    done = cli("history", course, "--lang", "en")
    assert done.returncode == 2 and "neither UTF-8 nor cp949" in done.stderr
    assert "Run the same `autograder grade` command again" in done.stderr


@settings(max_examples=80, deadline=None)
@given(text=st.text(st.characters(codec="cp949", exclude_categories=("Cs", "Cc")), max_size=40))
def test_one_reader_reads_what_a_spreadsheet_saves(text):
    csv_text = f"id,name\n1,{text}\n".replace("\r", "")
    assert read_csv_text(csv_text.encode("utf-8"))[0] == csv_text
    assert read_csv_text(b"\xef\xbb\xbf" + csv_text.encode("utf-8"))[0] == csv_text
    saved = csv_text.encode("cp949")
    decoded, encoding = read_csv_text(saved)
    if decoded != csv_text:
        # The one ambiguity (lms.sheet.decode): bytes that are also UTF-8 are read as UTF-8.
        assert encoding == "utf-8" and decoded == saved.decode("utf-8")
    assert encoding in ("utf-8", "cp949")


def test_a_korean_sheet_is_read_as_korean_and_utf8_stays_utf8():
    assert read_csv_text("id,name\n1,김민수\n".encode("cp949")) == ("id,name\n1,김민수\n", "cp949")
    assert read_csv_text("id,name\n1,José\n".encode("utf-8")) == ("id,name\n1,José\n", "utf-8")


# Labs numbered apart (33) --------------------------------------------------------------------------

def test_moodle_labs_numbered_per_assignment_are_never_joined_by_id(tmp_path):
    course = tmp_path / "course"
    names = ["김민수", "이지원", "박서연"]
    for lab, offset, total in (("self_attention", 310001, 9.0), ("masked_attention", 311001, 8.0)):
        ids = [str(offset + n) for n in range(3)]
        run = write_run(course / lab, [(i, f"{total}", "graded") for i in ids],
                        {i: record(i, total, lab=lab) for i in ids}, lab=lab)
        text = (run / "grades.csv").read_text("utf-8-sig")
        for i, name in zip(ids, names):
            text = text.replace(f"학생 {i}", name)
        (run / "grades.csv").write_text("\ufeff" + text, "utf-8")
    done = cli("history", course, "--lang", "en")
    assert done.returncode == 2 and "share no student id" in done.stderr and "--join-by name" in done.stderr
    assert not (course / "history").exists()
    done = cli("history", course, "--join-by", "name", "--lang", "en")
    assert done.returncode == 0, done.stderr
    rows = course_rows(course / "history" / "course.csv")
    assert set(rows) == set(names) and all(row["course_total"] == "17.0" for row in rows.values())


@settings(max_examples=60, deadline=None)
@given(people=st.lists(st.text("가나다라마바abc", min_size=1, max_size=4), min_size=1, max_size=6, unique=True),
       shift=st.integers(0, 8), shared=st.integers(0, 6))
def test_runs_are_joined_by_id_only_when_their_ids_meet(people, shift, shared):
    from autograder.lms.graded import Graded

    def run(lab, start):
        return history.Run(folder=lab, lab=lab, students={
            str(start + n): Graded(str(start + n), 1.0, 10.0, "graded", "f.py", name=name)
            for n, name in enumerate(people)})

    first, second = run("lab1", 1000), run("lab2", 1000 + shift * len(people) if shared == 0 else 1000 + shift)
    meet = set(first.students) & set(second.students)
    names_match = any(first.students[i].name == second.students[j].name
                      for i in first.students for j in second.students)
    refused = history.join_refusal([first, second]) is not None
    assert refused == (not meet and names_match)
    if refused:
        keyed = history.joined_by_name([first, second])
        assert set(keyed[0].students) == set(keyed[1].students) == set(people)


# A run folder inside a class (11) ------------------------------------------------------------------

def test_a_students_file_named_like_the_identity_hides_nobody(tmp_path):
    downloads = tmp_path / "class" / "lab1-downloads"
    downloads.mkdir(parents=True)
    for n in range(1, 4):
        (downloads / f"s{n:02d}.py").write_bytes(CORRECT)
    (downloads / run_folder.IDENTITY_FILE).write_text('{"kind": "a student\'s notes"}\n', "utf-8")
    done = cli("grade", tmp_path / "class", "--out", tmp_path / "out", "--lab", "self_attention", "--jobs", "1",
               "--lang", "en")
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        graded = {row["id"] for row in csv.DictReader(handle) if row["status"] == "graded"}
    assert graded == {"s01", "s02", "s03"}
    # A real run's folder is left out, and said so before the refusal it leads to.
    only = tmp_path / "only"
    done = cli("grade", tmp_path / "class", "--out", only / "run", "--lab", "self_attention", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    done = cli("grade", only, "--out", tmp_path / "again", "--lab", "self_attention", "--lang", "en")
    assert done.returncode == 2, done.stderr
    assert done.stderr.index("left out of the class") < done.stderr.index("no submissions in"), done.stderr


ENTRY = st.sampled_from(["a.py", "b.py", "c.ipynb", "notes.txt", "results", "feedback", "grades.csv"])


@settings(max_examples=60, deadline=None)
@given(entries=st.lists(ENTRY, max_size=6, unique=True),
       identity=st.sampled_from(["none", "ours", "not json", "not ours", "newer"]))
def test_only_a_valid_identity_with_outputs_marks_a_run_and_never_several_students_files(entries, identity):
    with tempfile.TemporaryDirectory() as work:
        folder = pathlib.Path(work)
        for name in entries:
            (folder / name).mkdir() if name in ("results", "feedback") else (folder / name).write_text("x", "utf-8")
        text = {"ours": run_folder.RunIdentity(lab="self_attention", source="/c", students=("s1",), created="",
                                               graded="").as_json(),
                "not json": "{", "not ours": '{"kind": "notes"}',
                "newer": json.dumps({"kind": run_folder.KIND, "version": 99})}.get(identity)
        listing = set(entries)
        if text is not None:
            (folder / run_folder.IDENTITY_FILE).write_text(text, "utf-8")
            listing.add(run_folder.IDENTITY_FILE)
        marked = run_folder.marks_a_run(str(folder), listing)
        submissions = sum(1 for name in entries if name.endswith((".py", ".ipynb")))
        outputs = "results" in entries and bool({"feedback", "grades.csv"} & set(entries))
        if submissions > 1 or identity in ("not json", "not ours", "newer"):
            assert not marked
        elif identity == "ours":
            assert marked == bool({"results", "feedback"} & set(entries))
        elif "grades.csv" not in entries or "feedback" in entries:
            assert marked == outputs


def test_an_lms_export_is_never_refused_as_mostly_not_submissions():
    broken = {"1": None, "2": None, "3": "self_attention"}
    assert mostly_not_submissions(broken) and not mostly_not_submissions(broken, lms_export=True)


# Lateness (34, 48) ------------------------------------------------------------------------------

def moodle_zip(path, when):
    with zipfile.ZipFile(path, "w") as archive:
        for n, (name, data) in enumerate((("김민수", CORRECT), ("이지원", STUB))):
            info = zipfile.ZipInfo(f"{name}_31000{n}_assignsubmission_file_/attention.py", when)
            archive.writestr(info, data)
    return path


def test_due_with_no_lms_time_is_refused_unless_accepted(tmp_path):
    archive = moodle_zip(tmp_path / "moodle.zip", (2026, 3, 3, 11, 0, 0))  # the zip's times are after --due
    due = ("--due", "2026-03-01T18:00+09:00", "--late-penalty", "10%/day")
    done = cli("grade", archive, "--out", tmp_path / "out", *due, "--lang", "en")
    assert done.returncode == 2 and "--allow-unknown-times" in done.stderr and "2 student(s)" in done.stderr
    assert not (tmp_path / "out").exists()
    done = cli("grade", archive, "--out", tmp_path / "out", *due, "--lang", "ko")
    assert done.returncode == 2 and "--allow-unknown-times" in done.stderr and "제출 시각" in done.stderr
    done = cli("grade", archive, "--out", tmp_path / "out", *due, "--allow-unknown-times", "--lang", "en")
    assert done.returncode == 0 and "counted on time" in done.stderr, done.stderr


def test_a_late_flag_counts_one_day_whatever_the_files_time(tmp_path):
    """Canvas's LATE without a time: one started day, from the zip and from a copy made a week later."""
    archive = tmp_path / "canvas.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr(zipfile.ZipInfo("kim_LATE_20002_55002_attention.py", (2026, 3, 2, 9, 0, 0)), CORRECT)
        handle.writestr(zipfile.ZipInfo("lee_20003_55003_attention.py", (2026, 3, 1, 9, 0, 0)), CORRECT)
    copy = tmp_path / "copy"
    with zipfile.ZipFile(archive) as handle:
        handle.extractall(copy)
    week_later = time.time() + 7 * DAY
    for path in copy.iterdir():
        os.utime(path, (week_later, week_later))
    penalties = []
    for source in (archive, copy):
        out = tmp_path / f"out-{source.stem}"
        done = cli("grade", source, "--out", out, "--due", "2026-03-01T18:00+09:00", "--late-penalty",
                   "10%/day,max=50%", "--jobs", "1")
        assert done.returncode == 0, done.stderr
        with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
            penalties.append({row["id"]: (row["late"], row["late_penalty"]) for row in csv.DictReader(handle)})
    assert penalties[0] == penalties[1] == {"20002": ("yes", "10.0"), "20003": ("no", "0.0")}


@given(flag=st.booleans(), time_given=st.booleans(), hours=st.integers(-100, 400),
       rule=st.sampled_from(["canvas", "moodle", "moodle folder", "file name", "folder", "blackboard"]))
def test_lateness_is_the_lms_word_alone(flag, time_given, hours, rule):
    from datetime import datetime, timedelta, timezone

    due = datetime(2026, 3, 1, 18, tzinfo=timezone.utc)
    submitted = (due + timedelta(hours=hours)).isoformat() if time_given else ""
    late, days = lateness(submitted, flag, due)
    assert late == (flag or (time_given and hours > 0)) and (days >= 1) == late
    if late and not time_given:
        assert days == 1
    assert lateness_known(lms_time=submitted, lms_late=flag, rule=rule) == (time_given or flag or rule == "canvas")


# Blackboard's usernames (36) -----------------------------------------------------------------------

RECEIPT = ("Name: {name} ({user})\nAssignment: {assignment}\nDate Submitted: Tuesday, March 3, 2026 10:00:00 AM KST\n"
           "Current Grade: Needs Grading\n\nFiles:\n")


def test_blackboard_usernames_sharing_a_word_are_the_receipts(tmp_path):
    archive = tmp_path / "gradebook_TP101_Lab1.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        for user, name in (("kim_ms", "Kim Minsu"), ("kim_jh", "Kim Jihoon")):
            base = f"Lab1_{user}_attempt_2026-03-03-10-00-00"
            handle.writestr(base + ".txt", RECEIPT.format(name=name, user=user, assignment="Lab1"))
            handle.writestr(base + "_attention.py", CORRECT)
    done = cli("grade", archive, "--out", tmp_path / "out", "--lms-timezone", "Asia/Seoul", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        assert {row["id"]: row["name"] for row in csv.DictReader(handle)} == {"kim_ms": "Kim Minsu",
                                                                              "kim_jh": "Kim Jihoon"}


@settings(max_examples=60, deadline=None)
@given(assignment=st.sampled_from(["Lab1", "HW_2", "Lab 1", "kmu"]),
       users=st.lists(st.sampled_from(["kim_ms", "kim_jh", "kim", "lee_1", "kmu_park", "a_b_c"]), min_size=1,
                      max_size=4, unique=True))
def test_a_receipts_username_is_the_id_whatever_words_the_heads_share(assignment, users):
    heads = {f"{assignment}_{user}": user for user in users}
    paths = [f"{head}_attempt_2026-03-03-10-00-00_attention.py" for head in heads]
    naming = Naming(paths, usernames=heads, assignments=[assignment] * len(users))
    assert {naming.identify(path)[0] for path in paths} == set(users)


# Moodle's feedback folders (32) -------------------------------------------------------------------

def test_moodles_feedback_zip_uses_the_downloads_folder_names(tmp_path):
    run = tmp_path / "run"
    (run / "results").mkdir(parents=True)
    (run / "feedback").mkdir()
    rows = [("310001", "김민수_310001_assignsubmission_file_/attention.py"),
            ("310002", "Lee_Ji won_310002_assignsubmission_file_/lab/attention.py")]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["id", "name", "file", "total", "status", "lab"])
    for student, file in rows:
        writer.writerow([student, "", file, "7.00", "graded", "self_attention"])
        data = record(student, 7.0)
        (run / "results" / f"{student}.json").write_text(json.dumps(data), "utf-8")
        (run / "feedback" / f"{student}.html").write_text("<p>피드백</p>", "utf-8")
    (run / "grades.csv").write_text("\ufeff" + buffer.getvalue(), "utf-8")
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text("Identifier,Full name,Email address,Status,Grade,Maximum grade,Grade can be changed,"
                     "Last modified (submission),Online text,Last modified (grade),Feedback comments\n"
                     "Participant 310001,Minsu Kim,m@x,Submitted,,10.00,Yes,-,,-,\n"
                     "Participant 310002,Jiwon Lee,j@x,Submitted,,10.00,Yes,-,,-,\n", "utf-8")
    done = cli("export", "moodle", run, "--lab", "self_attention", "--sheet", sheet, "--out", tmp_path / "up.csv",
               "--lang", "en")
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "up-feedback.zip") as archive:
        assert sorted(name.split("/")[0] for name in archive.namelist()) == [
            "Lee_Ji won_310002_assignsubmission_file_", "김민수_310001_assignsubmission_file_"]


@given(name=st.text("김민수 Lee_Jiwon", min_size=1, max_size=8).filter(str.strip),
       participant=st.integers(1, 10 ** 7).map(str), other=st.integers(1, 10 ** 7).map(str))
def test_a_feedback_folder_is_the_download_folder_of_that_participant_only(name, participant, other):
    graded = f"{name}_{participant}_assignsubmission_file_/attention.py"
    assert feedback_folder("Worksheet Name", participant, graded) == f"{name.strip()}_{participant}_assignsubmission_file_"
    if other != participant:
        assert feedback_folder("Worksheet Name", other, graded) == f"Worksheet Name_{other}_assignsubmission_file_"
