"""A student's own file names never change the rules for the class: each attack on naming, through
`autograder grade` and `autograder export canvas`, and ids and writes that never stop the class."""
import csv
import io
import json
import os
import pathlib
import subprocess
import sys
import zipfile

import pytest

from autograder.batch.naming import NAME_MAX, safe_id
from autograder.batch.run_files import ID_MAX_BYTES, fit_id
from conftest import ROOT

SAMPLES = ROOT / "samples"
CORRECT = (SAMPLES / "correct.py").read_bytes()
STUB = (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_bytes()
MASKED = (ROOT / "solutions" / "masked_attention.py").read_bytes()  # full marks in lab 2, 0 in lab 1


def grade(submissions, out, *extra, env=None):
    command = [sys.executable, "-m", "autograder", "grade", str(submissions), "--out", str(out), "--jobs", "1",
               *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)


def read_grades(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def graded(rows):
    return {r["id"]: r for r in rows if r["status"].startswith(("graded", "broken", "error"))}


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def output_names(out):
    return [name for _, folders, names in os.walk(out) for name in folders + names]


# Gradescope's export: submission_metadata.yml beside one submission_<n>/ folder per submission -----

def gradescope(root, submissions):
    """submissions: [(folder number, sid, name, created_at, {path inside the folder: bytes})]."""
    lines = ["---"]
    for number, sid, name, created_at, files in submissions:
        lines += [f":submission_{number}:", "  :submitters:", f"  - :name: '{name}'", f"    :sid: '{sid}'",
                  f"    :email: {sid}@example.com", f"  :created_at: {created_at}", "  :score: 0.0"]
        for inside, data in files.items():
            write(root / f"submission_{number}" / inside, data)
    write(root / "submission_metadata.yml", "\n".join(lines).encode() + b"\n")
    return root


HONEST = [(101, "10231", "김민수", "2024-03-01 12:00:00.000000000 +09:00", {"attention.py": CORRECT}),
          (102, "10232", "Lee Jiwon", "2024-03-01 13:00:00.000000000 +09:00", {"attention.py": CORRECT}),
          (103, "10234", "Choi Junho", "2024-03-01 14:00:00.000000000 +09:00", {"lab/attention.py": CORRECT})]


def test_fake_students_inside_one_submission_cannot_vote_the_class_into_another_lab(tmp_path):
    planted = {f"fake{n}_{90000 + n}_{n}_attention.py": MASKED for n in range(6)}
    root = gradescope(tmp_path / "export", [*HONEST, (104, "10235", "Mallory", "2024-03-01 15:00:00 +09:00",
                                                      {"attention.py": STUB, **planted})])
    out = tmp_path / "out"
    done = grade(root, out)
    assert done.returncode == 0, done.stderr
    rows = read_grades(out)
    assert {r["id"] for r in rows} == {"10231", "10232", "10234", "10235"}  # the LMS's list is in the report
    assert {r["lab"] for r in rows} == {"self_attention"}
    marks = {i: r["total"] for i, r in graded(rows).items()}
    assert marks["10231"] == marks["10232"] == marks["10234"] == "10.0"
    assert len([r for r in rows if r["id"] == "10235"]) == 7  # all of Mallory's files are hers
    assert "참고: 학생 1명이 다른 학생의 LMS 업로드처럼" in done.stderr and "fake0_90000" in done.stderr


def test_stubs_named_like_classmates_uploads_stay_the_senders(tmp_path):
    planted = {"kimminsu_10231_1_attention.py": STUB, "leejiwon_10232_2_attention.py": STUB}
    root = gradescope(tmp_path / "export", [*HONEST, (104, "10235", "Mallory", "2024-03-01 15:00:00 +09:00",
                                                      planted)])
    out = tmp_path / "out"
    done = grade(root, out)
    assert done.returncode == 0, done.stderr  # nothing merged: there is nothing to check
    rows = read_grades(out)
    assert not [r for r in rows if r["status"].startswith("merged")]
    honest = graded(rows)
    assert honest["10231"]["file"] == "submission_101/attention.py" and honest["10231"]["total"] == "10.0"
    assert honest["10232"]["file"] == "submission_102/attention.py" and honest["10232"]["total"] == "10.0"
    assert honest["10235"]["name"] == "Mallory" and honest["10235"]["total"] != "10.0"
    assert {r["id"] for r in rows if "submission_104" in r["file"]} == {"10235"}


def test_an_lms_name_inside_a_submission_never_moves_its_time(tmp_path):
    # Gradescope says three days late; the student's own files are named like Blackboard attempts
    # made before the deadline (two of them, as a section folder would hold).
    planted = {"Lab 1_mallory_attempt_2024-03-01-09-00-00_attention.py": CORRECT,
               "Lab 1_zed_attempt_2024-03-01-09-00-00_notes.txt": b"notes"}
    root = gradescope(tmp_path / "export", [*HONEST, (104, "10235", "Mallory", "2024-03-04 12:00:00 +09:00",
                                                      planted)])
    out = tmp_path / "out"
    done = grade(root, out, "--due", "2024-03-01T23:59:59+09:00", "--late-penalty", "10%/day")
    assert done.returncode == 0, done.stderr
    rows = read_grades(out)
    assert {r["id"] for r in rows} == {"10231", "10232", "10234", "10235"}  # the LMS's list is in the report
    mallory = graded(rows)["10235"]
    assert mallory["submitted_at"] == "2024-03-04T12:00:00+09:00" and mallory["late"] == "yes"
    assert (float(mallory["raw_total"]), float(mallory["late_penalty"]), float(mallory["total"])) == (10, 30, 7)


# A friend who handed in nothing, given a row by a classmate, in every layout where a student names
# the files inside their own unit; then `autograder export canvas` into the LMS's sheet.

CANVAS_SHEET = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 1 (5501)"],
                ["    Points Possible", "", "", "", "", "10.00"],
                ["김, 민수", "10231", "2024001", "minsu.kim", "A", ""],
                ["이, 지원", "10232", "2024002", "jiwon.lee", "A", ""],
                ["박, 서연", "10233", "2024003", "seoyeon.park", "B", ""]]


def friend_class(layout, root):
    """10231 and 10232 hand in; 10232 plants a full-marks file for 10233 (and one for a stranger)."""
    planted = {"parkseoyeon_10233_55003_attention.py": CORRECT, "stranger_10299_55004_attention.py": CORRECT}
    if layout == "gradescope":
        return gradescope(root, [(1, "10231", "Kim", "2024-03-01 12:00:00 +09:00", {"attention.py": CORRECT}),
                                 (2, "10232", "Lee", "2024-03-01 12:00:00 +09:00", {"attention.py": STUB, **planted})])
    if layout == "moodle":
        write(root / "Kim Minsu_10231_assignsubmission_file_" / "attention.py", CORRECT)
        mine = root / "Lee Jiwon_10232_assignsubmission_file_"
    else:  # a TA's folder per student, named by the LMS's ids
        write(root / "10231" / "attention.py", CORRECT)
        mine = root / "10232"
    write(mine / "attention.py", STUB)
    for name, data in planted.items():
        write(mine / "sub" / name if layout == "moodle" else mine / name, data)
    write(mine / "parkseoyeon_10233_55003_attention.py", CORRECT)
    return root


@pytest.mark.parametrize("layout", ["gradescope", "moodle", "folders"])
def test_a_friend_who_handed_in_nothing_gets_no_row_and_no_grade_in_the_lms_sheet(tmp_path, layout, capsys):
    from autograder.cli import main

    root = friend_class(layout, tmp_path / "class")
    out = tmp_path / "out"
    done = grade(root, out)
    assert done.returncode == 0, done.stderr
    rows = read_grades(out)
    assert {r["id"] for r in rows} - {""} == {"10231", "10232"}
    assert "10233" not in output_names(out / "results") and not (out / "results" / "10233.json").exists()
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n").writerows(CANVAS_SHEET)
    (tmp_path / "sheet.csv").write_bytes(b"\xef\xbb\xbf" + buffer.getvalue().encode())
    code = main(["export", "canvas", str(out), "--lab", "self_attention", "--sheet", str(tmp_path / "sheet.csv"),
                 "--out", str(tmp_path / "import.csv"), "--lang", "en"])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    sheet = list(csv.reader(io.StringIO((tmp_path / "import.csv").read_bytes().decode("utf-8-sig"))))
    filled = {row[1]: row[5] for row in sheet[2:]}
    assert float(filled["10231"]) == 10 and filled["10233"] == ""
    assert "2 of 3 students" in printed.out and "1 without a submission" in printed.out


# Ids that fit any file system ---------------------------------------------------------------------

def test_a_245_character_file_name_is_graded_and_every_output_name_fits(tmp_path):
    root = tmp_path / "class"
    long_name = "a" * 245
    write(root / f"{long_name}.py", CORRECT)
    write(root / f"{'가' * 80}.py", CORRECT)  # 240 bytes of Hangul
    write(root / "alice.py", STUB)
    out = tmp_path / "out"
    done = grade(root, out)
    assert done.returncode == 0, done.stderr
    rows = read_grades(out)
    assert len(rows) == 3 and all(r["status"] == "graded" for r in rows)
    ids = {r["id"] for r in rows}
    assert fit_id(long_name) in ids and "alice" in ids
    assert all(len(i.encode()) <= ID_MAX_BYTES for i in ids)
    assert all(len(name.encode()) <= NAME_MAX for name in output_names(out))
    assert sorted(p.stem for p in (out / "results").iterdir()) == sorted(ids)
    again = grade(root, out)  # the shortened ids are stable: the run resumes, nothing is stale
    assert "그대로 둔 학생 3명" in again.stdout and "어느 학생 것도 아닌 파일" not in again.stderr


def test_long_zip_names_in_any_script_are_distinct_students_with_short_ids(tmp_path):
    archive = tmp_path / "class.zip"
    shared = "한" * 100  # 300 bytes: more than any file system takes in one name
    names = [f"{shared}1.py", f"{shared}2.py", "🎉" * 70 + ".py", "alice.py"]
    with zipfile.ZipFile(archive, "w") as zipped:
        for name in names:
            zipped.writestr(zipfile.ZipInfo(name, (2024, 3, 1, 12, 0, 0)), CORRECT)
    out = tmp_path / "out"
    done = grade(archive, out)
    assert done.returncode == 0, done.stderr
    rows = read_grades(out)
    assert len(rows) == 4 and len({r["id"] for r in rows}) == 4  # no two long ids collide
    assert {r["file"] for r in rows} == set(names)
    assert all(r["total"] == "10.0" for r in rows)
    assert all(len(name.encode()) <= NAME_MAX for name in output_names(out))


def test_fit_id_keeps_short_ids_and_shortens_long_ones_stably():
    assert fit_id("kim_ms") == "kim_ms" and safe_id("김민수") == "김민수"
    long_ids = ["x" * 300, "x" * 299 + "y", "가" * 90, "가" * 89 + "나"]
    fitted = [fit_id(i) for i in long_ids]
    assert len(set(fitted)) == 4 and all(len(f.encode()) <= ID_MAX_BYTES for f in fitted)
    assert [fit_id(f) for f in fitted] == fitted  # idempotent
    assert fitted[2].startswith("가" * 61) and fitted[2].encode().decode() == fitted[2]  # whole characters
    assert safe_id("x" * 300) == fitted[0]


def test_a_stale_file_with_a_long_name_is_moved_under_a_name_that_fits(tmp_path):
    from autograder.batch.stale import move_stale

    name = "b" * 250 + ".html"
    for folder in ("feedback", "stale/feedback"):
        write(tmp_path / folder / name, folder.encode())
    moved = move_stale(str(tmp_path), [f"feedback/{name}"])
    [target] = moved
    assert len(os.path.basename(target).encode()) <= NAME_MAX and target.endswith(".html.1")
    assert (tmp_path / target).read_bytes() == b"feedback"
    assert (tmp_path / "stale" / "feedback" / name).read_bytes() == b"stale/feedback"


# One student's outputs never stop the class ---------------------------------------------------------

def test_writing_atomically_leaves_no_temporary_file_when_the_write_fails(tmp_path):
    from autograder.whole_file import TEMP_SUFFIX, write_atomic

    write_atomic(tmp_path / ("c" * 250 + ".html"), "fits")  # the temporary name never grows with the name
    with pytest.raises(OSError):
        write_atomic(tmp_path / ("c" * 256), "too long")
    with pytest.raises(OSError):
        write_atomic(tmp_path / "folder-missing" / "x.md", "no folder")
    (tmp_path / "a-folder").mkdir()
    with pytest.raises(OSError):
        write_atomic(tmp_path / "a-folder", "a folder in the way")
    assert not [n for n in os.listdir(tmp_path) if n.endswith(TEMP_SUFFIX)]


def test_finish_turns_an_output_that_cannot_be_written_into_the_students_status(tmp_path):
    from autograder.batch.grader import finish
    from autograder.core.file_facts import broken
    from labs.self_attention import LAB

    (tmp_path / "feedback").write_text("a file where the folder should be")
    (tmp_path / "results").mkdir()
    task = {"student": "kim", "file": "kim.py", "judged": "j", "key": "k", "superseded": [], "late": None}
    record = finish(task, broken(LAB, "kim.py", "crashed"), "error: ended the grading process", str(tmp_path),
                    LAB, "ko")
    assert record["id"] == "kim" and record["status"].startswith("error: outputs not written (NotADirectoryError")
    assert list((tmp_path / "results").iterdir()) == []  # nothing half-written for a later run to resume from

    class Odd:  # a result no record can be made of
        score = "ten"

    (tmp_path / "feedback").unlink()
    (tmp_path / "feedback").mkdir()
    record = finish(task, Odd(), "graded", str(tmp_path), LAB, "ko")
    assert record["status"].startswith("error: the grader failed (") and record["total"] == 0
    assert (tmp_path / "results" / "kim.json").is_file()


FAILING_WRITES = """
import sys
from autograder.batch import grader
from autograder.cli import main

real = grader.write_outputs

def failing(out_dir, result, record, lab, lang, judgement=None):
    if record["id"] == "disk_full":
        raise OSError(28, "No space left on device")
    if record["id"] == "renderer":
        raise RuntimeError("cannot render")
    return real(out_dir, result, record, lab, lang, judgement)

grader.write_outputs = failing  # the forked workers inherit it
sys.exit(main(sys.argv[1:]))
"""


def test_a_student_whose_outputs_cannot_be_written_is_a_row_and_the_class_goes_on(tmp_path):
    root = tmp_path / "class"
    for name in ("alice", "disk_full", "renderer", "bob"):
        write(root / f"{name}.py", CORRECT)
    out = tmp_path / "out"
    command = [sys.executable, "-c", FAILING_WRITES, "grade", str(root), "--out", str(out), "--jobs", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    rows = {r["id"]: r for r in read_grades(out)}
    assert set(rows) == {"alice", "disk_full", "renderer", "bob"}
    assert rows["disk_full"]["status"] == "error: outputs not written (OSError: [Errno 28] No space left on device)"
    assert rows["renderer"]["status"] == "error: outputs not written (RuntimeError: cannot render)"
    assert rows["alice"]["status"] == rows["bob"]["status"] == "graded"
    assert rows["disk_full"]["total"] == "10.0"  # the grade stands; its feedback is what is missing
    assert sorted(p.name for p in (out / "results").iterdir()) == ["alice.json", "bob.json"]
    assert json.loads((out / "results" / "alice.json").read_text("utf-8"))["score"] == 10.0


def test_file_names_a_disk_holds_in_other_encodings_are_graded_under_readable_ids(tmp_path):
    root = tmp_path / "class"
    root.mkdir()
    raw = os.fsencode(root)
    for name in ("김민수.py".encode("cp949"), b"\xff\xfekim.py", "이지원.py".encode()):
        with open(raw + b"/" + name, "wb") as handle:
            handle.write(CORRECT)
    os.mkdir(raw + b"/\xc3(folder")
    with open(raw + b"/\xc3(folder/attention.py", "wb") as handle:
        handle.write(STUB)
    out = tmp_path / "out"
    done = grade(root, out)
    assert done.returncode == 0, done.stderr
    rows = {r["id"]: r for r in read_grades(out)}
    assert set(rows) == {"김민수", "xff_xfekim", "이지원", "xc3_folder"}
    assert rows["김민수"]["file"] == "김민수.py" and rows["김민수"]["total"] == "10.0"
    assert rows["xff_xfekim"]["file"] == "\\xff\\xfekim.py" and rows["xff_xfekim"]["total"] == "10.0"
    assert rows["xc3_folder"]["status"] == "graded" and rows["xc3_folder"]["total"] != "10.0"


def test_a_folder_nested_deeper_than_python_recurses_is_listed_and_graded(tmp_path):
    root = tmp_path / "class"
    write(root / "alice" / "attention.py", CORRECT)
    descriptor = os.open(root, os.O_RDONLY)
    os.mkdir("mallory", dir_fd=descriptor)
    for _ in range(1200):  # deeper than the interpreter's recursion limit
        inner = os.open("mallory" if _ == 0 else "d", os.O_RDONLY, dir_fd=descriptor)
        os.close(descriptor)
        descriptor = inner
        os.mkdir("d", dir_fd=descriptor)
    with os.fdopen(os.open("attention.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=descriptor), "wb") as handle:
        handle.write(CORRECT)
    os.close(descriptor)
    out = tmp_path / "out"
    try:
        done = grade(root, out)
        assert done.returncode == 0, done.stderr
        rows = {r["id"]: r for r in read_grades(out)}
        assert rows["alice"]["total"] == rows["mallory"]["total"] == "10.0"
        assert rows["mallory"]["file"].count("/") == 1200
    finally:
        remove_level_by_level(root / "mallory")


def remove_level_by_level(folder):
    """Remove a deep chain of folders one level at a time (shutil.rmtree recurses once per level)."""
    while folder.exists():
        below = [entry for entry in folder.iterdir() if entry.is_dir()]
        for entry in folder.iterdir():
            if not entry.is_dir():
                entry.unlink()
        if below:
            below[0].rename(folder.parent / "next-level")
        folder.rmdir()
        if below:
            (folder.parent / "next-level").rename(folder)


def _task_whose_reading_fails(folder, error):
    """Kim's task, made while reading her file raises `error` (not an OSError)."""
    from autograder.batch import _task_or_problem
    from autograder.batch.collect import group_students
    from autograder.batch.source import Source
    from labs.self_attention import LAB

    write(folder / "kim.py", CORRECT)
    source = Source(folder)
    try:
        [kim] = group_students(source)

        def read(entry, limit=0):
            raise error

        source.read = read
        late = {"late": False, "days": 0, "percent": 0.0, "submitted_at": "", "due": "", "policy": None}
        task = _task_or_problem(source, kim, {"lang": "ko", "late": {"kim": late}}, LAB)
    finally:
        source.close()
    task["late"] = late
    return task


def test_a_task_that_cannot_be_made_is_a_task_of_an_unreadable_file(tmp_path):
    from autograder.core.reading.problems import detail

    task = _task_whose_reading_fails(tmp_path, ValueError("a reader that fails\nin two lines"))
    # The reason is a Detail (the catalogs say it in the student's language), never the error's English text.
    assert task["problem"] == ("unreadable", detail("exception", type="ValueError"))
    assert task["data"] is None and task["student"] == "kim" and task["key"]


def test_a_task_that_cannot_be_made_is_graded_as_unreadable_not_as_a_grader_failure(tmp_path):
    """A worker grades such a task as the file's problem: "broken: unreadable", with feedback that
    names the error's type and never its message (which may quote a path or the file)."""
    from types import SimpleNamespace

    from autograder.batch.grader import finish, grade_task
    from labs.self_attention import LAB

    task = _task_whose_reading_fails(tmp_path, KeyError("/home/ta/secret-path"))
    result, status = grade_task(task, None, None, SimpleNamespace(lab=LAB))  # a problem never reaches the sandbox
    out = tmp_path / "out"
    for folder in ("feedback", "results"):
        (out / folder).mkdir(parents=True)
    record = finish(task, result, status, str(out), LAB, "ko")
    assert record["status"] == "broken: unreadable"
    assert record["total"] == 0
    written = "".join(path.read_text(encoding="utf-8") for path in out.rglob("kim.*"))
    assert "KeyError" in written and "secret-path" not in written


# Backslashes in zip names ------------------------------------------------------------------------

def test_a_backslash_in_a_students_own_canvas_name_makes_no_folder(tmp_path):
    """Kim uploads a file named `a\\..\\leejiwon_10232_9_attention.py`: Canvas keeps its prefix
    before it; the backslashes are characters of Kim's name, never folders naming Lee."""
    archive = tmp_path / "canvas.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("kimminsu_10231_55001_attention.py", CORRECT)
        handle.writestr("leejiwon_10232_55002_attention.py", CORRECT)
        handle.writestr("kimminsu_10231_55009_a\\..\\leejiwon_10232_9_attention.py", STUB)
    out = tmp_path / "out"
    done = grade(archive, out, "--lab", "self_attention")
    assert done.returncode == 0, done.stderr
    rows = read_grades(out)
    lee = [r for r in rows if r["id"] == "10232"]
    assert len(lee) == 1 and lee[0]["file"] == "leejiwon_10232_55002_attention.py" and lee[0]["total"] == "10.0"
    assert {r["id"] for r in rows} == {"10231", "10232"}


def test_a_windows_tools_zip_of_a_folder_keeps_its_folders(tmp_path):
    """A TA zips the class folder with a Windows tool that writes backslashes: every name holds one,
    none a "/", so they are the folders they were."""
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("class\\kim\\attention.py", CORRECT)
        handle.writestr("class\\lee\\attention.py", STUB)
    out = tmp_path / "out"
    done = grade(archive, out, "--lab", "self_attention")
    assert done.returncode == 0, done.stderr
    rows = {r["id"]: r for r in read_grades(out)}
    assert set(rows) == {"kim", "lee"} and rows["kim"]["total"] == "10.0"
    assert rows["kim"]["file"] == "class/kim/attention.py"
