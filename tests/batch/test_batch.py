"""`autograder grade`: a whole class graded like `autograder check`, nothing lost, resumable."""
import csv
import io
import json
import os
import pathlib
import signal
import subprocess
import sys
import time
import types

from hypothesis import given, strategies as st
import zipfile

import pytest

from autograder.batch.collect import group_students, newest_first
from autograder.batch.naming import safe_id, shared_depth, student_id
from autograder.batch.source import Entry, Source, _backslash_separators, _decoded_name
from autograder.whole_file import TEMP_SUFFIX, write_atomic
from autograder.batch.progress import PlainProgress, progress_for
from autograder.grading import grade_file
from autograder.sandbox.runner import Limits
from labs.self_attention.steps import STEPS
from labs.self_attention import LAB
from conftest import ROOT


SAMPLES = ROOT / "samples"
STEP_NAMES = [step.name for step in STEPS]
CORRECT = (SAMPLES / "correct.py").read_bytes()
DAY = 24 * 3600


def grade_command(submissions, out, *extra, env=None):
    command = [sys.executable, "-m", "autograder", "grade", str(submissions), "--out", str(out), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)


def read_grades(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def temporaries(out):
    return [os.path.join(folder, name) for folder, _, names in os.walk(out) for name in names
            if name.endswith(TEMP_SUFFIX)]


def write(path, data, age_days=0.0):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    stamp = time.time() - age_days * DAY
    os.utime(path, (stamp, stamp))


# A class in a folder: the bundled samples plus every kind of broken file -------------------------

@pytest.fixture(scope="module")
def folder_class(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    for sample in SAMPLES.iterdir():
        write(root / sample.name, sample.read_bytes(), age_days=1)
    # jungharin: the older stub first, the fixed file later; the name order agrees, the dates decide.
    write(root / "jungharin_10235_55005_attention.py", (SAMPLES / "jungharin_10235_55005_attention.py").read_bytes(),
          age_days=3)
    write(root / "empty_10301_1_attention.py", b"")
    write(root / "syntax_10302_2_attention.py", CORRECT.replace(b"def scores(Q, K):", b"def scores(Q, K:"))
    write(root / "latin_10303_3_attention.py", b"# caf\xe9\n" + CORRECT)
    # A student whose newest file is the broken one: the newest still counts.
    write(root / "han_10304_4_attention.py", CORRECT, age_days=2)
    write(root / "han_10304_9_attention.ipynb", b"{not json", age_days=1)
    out = tmp_path_factory.mktemp("out") / "run"
    finished = grade_command(root, out, "--lang", "en")
    assert finished.returncode == 0, finished.stderr
    return root, out, finished


def test_every_file_has_a_row_with_the_right_status(folder_class):
    root, out, _ = folder_class
    rows = read_grades(out)
    assert sorted(r["file"] for r in rows) == sorted(p.name for p in root.iterdir())
    status = {r["file"]: r["status"] for r in rows}
    assert status["empty_10301_1_attention.py"] == "broken: empty"
    assert status["latin_10303_3_attention.py"] == "broken: not_utf8"
    assert status["choijunho_10234_55004_attention.ipynb"] == "broken: notebook_not_json"
    assert status["syntax_10302_2_attention.py"] == "graded"
    assert status["jungharin_10235_55005_attention.py"] == "superseded by jungharin_10235_55017_attention-1.py"
    assert status["han_10304_4_attention.py"] == "superseded by han_10304_9_attention.ipynb"
    assert status["han_10304_9_attention.ipynb"] == "broken: notebook_not_json"
    assert list(rows[0]) == ["id", "name", "file", "submitted_at", "late", "total", "raw_total", "late_penalty",
                             *STEP_NAMES, "status", "lab"]
    assert {r["lab"] for r in rows} == {"self_attention"}
    superseded = [r for r in rows if r["status"].startswith("superseded")]
    assert all(r["total"] == "" for r in superseded)


def test_scores_equal_grading_each_file_alone(folder_class, zygote, plan):
    root, out, _ = folder_class
    graded = [r for r in read_grades(out) if not r["status"].startswith("superseded")]
    assert len(graded) == 10
    for row in graded:
        alone = grade_file(root / row["file"], zygote, plan, Limits())
        assert float(row["total"]) == pytest.approx(alone.score), row["file"]
        for step in alone.steps:
            assert float(row[step.name]) == round(step.score, 2), (row["file"], step.name)
        results = json.loads((out / "results" / f"{row['id']}.json").read_text("utf-8"))
        assert results["score"] == pytest.approx(alone.score)
        assert [(t["name"], t["score"], t["max_score"]) for t in results["tests"]] == \
            [(s.name, round(s.score, 2), s.max_score) for s in alone.steps]
        assert all(t["visibility"] == "visible" and t["output"] for t in results["tests"])


def test_scores_equal_check_json(folder_class):
    root, out, _ = folder_class
    row = next(r for r in read_grades(out) if r["file"] == "parkseoyeon_10233_55003_attention.py")
    checked = subprocess.run([sys.executable, "-m", "autograder", "check", "--json", "--lang", "en",
                              str(root / row["file"])], capture_output=True, text=True, cwd=ROOT)
    report = json.loads(checked.stdout)
    assert 0 < report["score"] < report["max_score"]
    assert {s["name"]: s["score"] for s in report["steps"]} == {n: float(row[n]) for n in STEP_NAMES}
    results = json.loads((out / "results" / f"{row['id']}.json").read_text("utf-8"))
    assert [t["output"] for t in results["tests"]] == [s["feedback"] for s in report["steps"]]


def test_feedback_is_what_the_student_sees(folder_class, zygote, plan):
    from autograder.core.render.feedback import as_text

    root, out, _ = folder_class
    markdown = (out / "feedback" / "10235.md").read_text("utf-8")
    assert "jungharin_10235_55017_attention-1.py" in markdown
    assert "jungharin_10235_55005_attention.py" in markdown  # named as superseded
    alone = grade_file(root / "jungharin_10235_55017_attention-1.py", zygote, plan, Limits())
    assert as_text(alone, LAB, "en") in markdown
    page = (out / "feedback" / "10234.html").read_text("utf-8")
    assert page.startswith("<!doctype html>") and "not valid JSON" in page
    assert sorted(p.name for p in (out / "feedback").iterdir()) == \
        sorted(f"{i}.{ext}" for i in ("10231", "10232", "10233", "10234", "10235", "10301", "10302", "10303",
                                      "10304", "correct") for ext in ("md", "html"))


def test_report_has_plots_mistakes_and_the_table(folder_class):
    _, out, finished = folder_class
    report = (out / "report.html").read_text("utf-8")
    assert report.count('src="data:image/png;base64,') == 2
    assert "http://" not in report and "https://" not in report
    assert "missing_scale" in report and "wrong_axis" in report  # frequent mistakes per step
    assert report.count("<tr>") >= len(read_grades(out)) + 1
    for name in ("han_10304_4_attention.py", "latin_10303_3_attention.py"):
        assert name in report
    assert f"Report: {out / 'report.html'}" in finished.stdout
    assert "10 students (12 files)" in finished.stdout
    assert "graded 10/10 (100%)" in finished.stderr  # plain progress lines: not a terminal
    assert temporaries(out) == []


def _report_inputs(out):
    from autograder.batch.outputs import load_record
    from autograder.batch.grades import grades_table

    records = [load_record(out, path.stem, LAB) for path in sorted((out / "results").glob("*.json"))]
    rows = [{"id": r["id"], "file": r["file"], "total": r["total"], "status": r["status"],
             **{name: r["steps"][name]["score"] for name in STEP_NAMES}} for r in records]
    return grades_table(rows, LAB), records


def test_the_report_writing_process_writes_what_the_batch_would(folder_class, tmp_path):
    from autograder.batch.report import write_report
    from autograder.batch.report_writer import ReportWriter

    _, out, _ = folder_class
    table, records = _report_inputs(out)
    write_report(tmp_path / "here.html", table, records, LAB, "en")
    ReportWriter("en").write(tmp_path / "there.html", table, records, LAB, "en")
    assert (tmp_path / "there.html").read_bytes() == (tmp_path / "here.html").read_bytes()


def test_a_report_writing_process_that_is_gone_leaves_the_report_to_the_batch(folder_class, tmp_path):
    from autograder.batch.report_writer import ReportWriter

    _, out, _ = folder_class
    table, records = _report_inputs(out)
    writer = ReportWriter("en")
    os.kill(writer._process.pid, signal.SIGKILL)
    writer._process.join()
    writer.write(tmp_path / "report.html", table, records, LAB, "en")
    assert "<img" in (tmp_path / "report.html").read_text("utf-8")
    writer.close()  # a second close is harmless


# A zip export with nested folders, Moodle style ---------------------------------------------------

def test_zip_export_with_nested_folders(tmp_path, zygote, plan):
    export = tmp_path / "export.zip"
    kim, lee, park = ("Lab 1/Kim Minsu_2001_assignsubmission_file_/", "Lab 1/Lee Jiwon_2002_assignsubmission_file_/",
                      "Lab 1/Park Seo_2003_assignsubmission_file_/")
    with zipfile.ZipFile(export, "w") as archive:
        def add(name, data, day):
            archive.writestr(zipfile.ZipInfo(name, date_time=(2024, 3, day, 12, 0, 0)), data)
        add(kim + "attention.py", CORRECT, 5)
        add(kim + "old/attention.ipynb", (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes(), 2)
        add(lee + "work/nested/attention.ipynb", (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes(), 4)
        add(lee + "README.txt", b"notes", 6)
        add("Lab 1/__MACOSX/" + kim + "._attention.py", b"\x00\x05\x16\x07", 7)
        add(park + "report.pdf", b"%PDF-1.4", 3)
    out = tmp_path / "out"
    finished = grade_command(export, out, "--lang", "en", "--jobs", "1")
    assert finished.returncode == 0, finished.stderr
    rows = {r["file"]: r for r in read_grades(out)}
    assert len(rows) == 6
    assert rows[kim + "attention.py"]["id"] == "2001" and rows[kim + "attention.py"]["total"] == "10.0"
    assert rows[kim + "old/attention.ipynb"]["status"] == f"superseded by {kim}attention.py"
    assert rows[lee + "work/nested/attention.ipynb"]["status"] == "graded"
    notebook = rows[lee + "work/nested/attention.ipynb"]
    alone = grade_file(SAMPLES / "leejiwon_10232_55002_attention.ipynb", zygote, plan, Limits())
    assert [float(notebook[s.name]) for s in alone.steps] == [round(s.score, 2) for s in alone.steps]
    assert rows[lee + "README.txt"]["status"] == "ignored: not a .py or .ipynb file"
    assert rows["Lab 1/__MACOSX/" + kim + "._attention.py"]["status"] == "ignored: system file"
    assert rows[park + "report.pdf"]["status"] == "broken: not_code"
    assert rows[park + "report.pdf"]["total"] == "0.0"
    assert sorted(p.name for p in (out / "results").iterdir()) == ["2001.json", "2002.json", "2003.json"]


# Student ids and the newest file ----------------------------------------------------------------

@pytest.mark.parametrize("path, depth, expected", [
    ("kimminsu_12345_67890_attention.ipynb", 0, "12345"),
    ("kimminsu_LATE_12345_67890_attention-1.py", 0, "12345"),
    ("export/Kim Minsu_777_assignsubmission_file_/lab/attention.py", 1, "777"),
    ("Kim Minsu_777_assignsubmission_file_attention.py", 0, "777"),
    ("Lab 1_jdoe_attempt_2024-03-01-12-30-45_attention.py", 0, "jdoe"),
    ("wrapper/submission_4411/attention.py", 1, "submission_4411"),
    ("wrapper/김민수/과제/attention.ipynb", 1, "김민수"),
    ("attention of kim.py", 0, "attention_of_kim"),
])
def test_student_ids_from_lms_names(path, depth, expected):
    assert student_id(path, depth) == expected


def test_id_pattern_wins_and_falls_back(tmp_path):
    import re
    pattern = re.compile(r"s(?P<id>\d{4})")
    assert student_id("lab/s1234_final.py", 0, pattern) == "1234"
    assert student_id("kimminsu_12345_67890_a.py", 0, pattern) == "12345"
    assert student_id("x/ab12.py", 0, re.compile(r"([a-z]+)\d")) == "ab"


def test_safe_ids_and_shared_depth():
    assert safe_id("../../etc/passwd") == "etc_passwd"
    assert safe_id("...") == "unnamed"
    assert shared_depth(["a/b/x.py", "a/b/c/y.py"]) == 2
    assert shared_depth(["a/x.py", "b/y.py"]) == 0
    assert shared_depth([]) == 0


def test_newest_by_date_then_by_name():
    old = Entry("a/attention.py", "a", 100.0, 1)
    new = Entry("a/attention.ipynb", "a", 200.0, 1)
    assert newest_first([old, new])[0] is new
    first, second, tenth = (Entry(f"a/attention-{n}.py", "a", 100.0, 1) for n in (1, 2, 10))
    assert newest_first([first, tenth, second]) == [tenth, second, first]


def test_zip_names_in_cp949_are_recovered():
    raw = "김민수_attention.py".encode("cp949")
    info = types.SimpleNamespace(filename=raw.decode("cp437"), flag_bits=0)
    assert _decoded_name(info) == "김민수_attention.py"
    flagged = types.SimpleNamespace(filename="이지원.py", flag_bits=0x800)
    assert _decoded_name(flagged) == "이지원.py"


def test_backslashes_are_separators_only_in_a_zip_all_of_whose_names_use_them():
    assert _backslash_separators(["lab\\kim\\attention.py", "lab\\lee\\attention.py"])
    assert not _backslash_separators(["kim_1_2_a\\..\\lee_3_4_x.py", "lee_3_5_attention.py"])
    assert not _backslash_separators(["lab/kim\\attention.py", "lab\\lee\\attention.py"])
    assert not _backslash_separators([])


def test_a_student_with_only_other_files_is_still_listed(tmp_path):
    write(tmp_path / "kim" / "attention.docx", b"PK")
    write(tmp_path / "lee" / "attention.py", CORRECT)
    source = Source(tmp_path)
    students = {s.id: s for s in group_students(source)}
    assert students["kim"].chosen.path == "kim/attention.docx" and not students["kim"].chosen.gradable
    assert students["lee"].chosen.path == "lee/attention.py"


# Resuming ---------------------------------------------------------------------------------------

@pytest.fixture()
def small_class(tmp_path):
    root = tmp_path / "class"
    for name in ("kimminsu_10231_55001_attention.py", "parkseoyeon_10233_55003_attention.py",
                 "leejiwon_10232_55002_attention.ipynb", "correct.py"):
        write(root / name, (SAMPLES / name).read_bytes())
    return root


def test_rerun_regrades_only_what_is_missing_or_changed(small_class, tmp_path):
    out = tmp_path / "out"
    assert grade_command(small_class, out).returncode == 0
    results = out / "results"
    before = {p.name: p.stat().st_mtime_ns for p in results.iterdir()}
    (results / "10233.json").unlink()
    again = grade_command(small_class, out)
    assert again.returncode == 0, again.stderr
    # The summary speaks the TA's language (--lang, Korean by default).
    assert "이번에 채점한 학생 1명" in again.stdout and "그대로 둔 학생 3명" in again.stdout
    after = {p.name: p.stat().st_mtime_ns for p in results.iterdir()}
    assert set(after) == set(before)
    assert all(after[name] == before[name] for name in before if name != "10233.json")
    assert len(read_grades(out)) == 4

    (small_class / "correct.py").write_bytes(CORRECT.replace(b"return weights @ V", b"return weights.T @ V"))
    changed = grade_command(small_class, out)
    assert "이번에 채점한 학생 1명" in changed.stdout
    assert float(next(r for r in read_grades(out) if r["id"] == "correct")["mix"]) < 1

    kept = json.loads((results / "10231.json").read_text("utf-8"))
    fingerprint = kept["extra_data"]["autograder"]["fingerprint"]
    (results / "10231.json").write_text(json.dumps({"extra_data": {"autograder": {"fingerprint": fingerprint}}}))
    edited = grade_command(small_class, out)
    assert "이번에 채점한 학생 1명" in edited.stdout  # a record with fields missing is not trusted
    assert json.loads((results / "10231.json").read_text("utf-8"))["score"] == 10.0

    in_english = grade_command(small_class, out, "--lang", "en")
    # The feedback's language is part of what the outputs depend on, not of what was judged:
    # every output is written again, from the judged results the last run saved.
    assert "0 graded now" in in_english.stdout and "4 rewritten from saved results" in in_english.stdout
    assert "Total" in (out / "feedback" / "10231.md").read_text("utf-8")


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda n: n.name)
def test_an_interrupted_run_says_so_leaves_no_folder_behind_and_resumes(tmp_path, number):
    """Ctrl-C, `kill`, `timeout` or a closed terminal: the run ends as interrupted (exit 130), its
    workers' and children's folders are removed, and the next run keeps what was graded."""
    root, out, temp = tmp_path / "class", tmp_path / "out", tmp_path / "tmp"
    samples = sorted(SAMPLES.iterdir())
    for n in range(16):
        sample = samples[n % len(samples)]
        write(root / f"student{n:02d}" / sample.name, sample.read_bytes())
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    command = [sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), "--jobs", "2"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if (out / "results").is_dir() and len(list((out / "results").glob("*.json"))) >= 3:
            break
        time.sleep(0.01)
    assert process.poll() is None, "the run ended before it could be interrupted"
    os.kill(process.pid, number)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, (stdout, stderr)
    assert "중단" in stdout + stderr, (stdout, stderr)
    assert not (out / "grades.csv").exists()
    assert sorted(os.listdir(temp)) == []  # no worker's, child's or shared repairs' folder left
    assert temporaries(out) == []
    done_before = len([n for n in os.listdir(out / "results") if n.endswith(".json")])
    again = grade_command(root, out, "--jobs", "2", env=env)
    assert again.returncode == 0, again.stderr
    assert f"그대로 둔 학생 {done_before}명" in again.stdout
    assert len(read_grades(out)) == 16


def test_killed_run_leaves_no_partial_file_and_resumes(tmp_path):
    root = tmp_path / "class"
    samples = sorted(SAMPLES.iterdir())
    for n in range(40):
        sample = samples[n % len(samples)]
        write(root / f"student{n:02d}" / sample.name, sample.read_bytes())
    out = tmp_path / "out"
    command = [sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), "--jobs", "2"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if (out / "results").is_dir() and len(list((out / "results").glob("*.json"))) >= 3:
            break
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)  # its workers die with it, mid-task
    process.wait()
    time.sleep(0.5)
    for name in os.listdir(out / "results"):
        if not name.endswith(TEMP_SUFFIX):
            json.loads((out / "results" / name).read_text("utf-8"))  # whole, never half-written
    done_before = len([n for n in os.listdir(out / "results") if n.endswith(".json")])
    assert 3 <= done_before < 40
    again = grade_command(root, out, "--jobs", "2")
    assert again.returncode == 0, again.stderr
    assert f"그대로 둔 학생 {done_before}명" in again.stdout
    rows = read_grades(out)
    assert len(rows) == 40 and len({r["id"] for r in rows}) == 40
    assert len(list((out / "results").iterdir())) == 40
    assert len(list((out / "feedback").iterdir())) == 80
    assert temporaries(out) == []


# Submissions that attack the grader ---------------------------------------------------------------

HOSTILE = {
    "kills_parent.py": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
    "kills_parent_in_a_call.py": CORRECT.decode().replace(
        "    return X @ W_Q, X @ W_K, X @ W_V", "    import os\n    os.kill(os.getppid(), 9)\n    return X @ W_Q"),
    # Unconfined (AUTOGRADER_SANDBOX=off): finds the process at the other end of its own pipes
    # (the worker grading it) and kills it.
    "kills_the_worker.py": ("import os, signal\n"
                            "def pipes(pid):\n"
                            "    found = set()\n"
                            "    try:\n"
                            "        for fd in os.listdir(f'/proc/{pid}/fd'):\n"
                            "            try:\n"
                            "                found.add(os.readlink(f'/proc/{pid}/fd/{fd}'))\n"
                            "            except OSError:\n"
                            "                pass\n"
                            "    except OSError:\n"
                            "        pass\n"
                            "    return {link for link in found if link.startswith('pipe:')}\n"
                            "mine = pipes(os.getpid())\n"
                            "for pid in [p for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()]:\n"
                            "    if mine & pipes(pid):\n"
                            "        os.kill(int(pid), signal.SIGKILL)\n"),
    "stops_parent.py": "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\n",
    "exits.py": "import os\nos._exit(3)\n",
    "sleeps.py": CORRECT.decode().replace("    return X @ W_Q, X @ W_K, X @ W_V",
                                          "    import time\n    while True:\n        time.sleep(1)"),
}


def test_hostile_submissions_do_not_touch_other_grades(tmp_path):
    root = tmp_path / "class"
    for name, source in HOSTILE.items():
        write(root / name, source.encode())
    for name in ("alice.py", "bob.py", "carol.py"):
        write(root / name, CORRECT)
    out = tmp_path / "out"
    # With the sandbox's separate user off, a child may signal its parents, as on a machine
    # where the grader cannot switch users.
    env = dict(os.environ, AUTOGRADER_SANDBOX="off")
    finished = grade_command(root, out, "--timeout", "1", "--jobs", "2", env=env)
    assert finished.returncode == 0, finished.stderr
    rows = {r["id"]: r for r in read_grades(out)}
    assert len(rows) == 9
    for name in ("alice", "bob", "carol"):
        assert rows[name]["total"] == "10.0" and rows[name]["status"] == "graded"
    assert rows["kills_parent"]["status"] == "error: ended the grading sandbox"
    assert rows["kills_parent_in_a_call"]["status"] == "error: ended the grading sandbox"
    assert rows["kills_the_worker"]["status"] == "error: ended the grading process"
    assert rows["stops_parent"]["status"] == "error: ended the grading sandbox"
    assert rows["exits"]["total"] == "0.0"
    assert rows["sleeps"]["make_qkv"] == "0.0" and rows["sleeps"]["scores"] == "1.0"
    assert rows["sleeps"]["total"] == "8.0"  # the composed step uses the reference's make_qkv
    assert "ended the process" in (out / "feedback" / "kills_parent.md").read_text("utf-8") \
        or "프로세스" in (out / "feedback" / "kills_parent.md").read_text("utf-8")


def test_work_queued_behind_a_killed_worker_is_graded(tmp_path):
    root = tmp_path / "class"
    write(root / "a_kills_the_worker.py", HOSTILE["kills_the_worker.py"].encode())
    write(root / "b_waits_in_the_queue.py", CORRECT)
    write(root / "c_other_worker.py", CORRECT)
    out = tmp_path / "out"
    env = dict(os.environ, AUTOGRADER_SANDBOX="off")
    # Two workers: the first holds a and b; c leaves the class drawn in full before a ends its worker.
    finished = grade_command(root, out, "--jobs", "2", env=env)
    assert finished.returncode == 0, finished.stderr
    rows = {r["id"]: r for r in read_grades(out)}
    assert rows["a_kills_the_worker"]["status"] == "error: ended the grading process"
    for name in ("b_waits_in_the_queue", "c_other_worker"):
        assert rows[name]["status"] == "graded" and rows[name]["total"] == "10.0"


def test_a_worker_that_stops_answering_is_replaced(tmp_path, monkeypatch):
    from autograder.batch.pool import Pool

    monkeypatch.setenv("AUTOGRADER_SANDBOX", "off")  # so the submission may signal the worker
    for folder in ("feedback", "results"):
        (tmp_path / folder).mkdir()
    stops_worker = HOSTILE["kills_the_worker.py"].replace("SIGKILL", "SIGSTOP").encode()
    base = {"problem": None, "superseded": [], "judged": "j", "key": "k"}
    tasks = iter([dict(base, student="stops", file="stops.py", data=stops_worker),
                  dict(base, student="after", file="after.py", data=CORRECT)])
    records = {}
    pool = Pool(1, Limits(step_seconds=2, load_seconds=2), LAB, "en", str(tmp_path), budget=3)
    pool.run(tasks, lambda record: records.setdefault(record["id"], record))
    pool.close()
    assert records["stops"]["status"] == "error: grading did not finish in time"
    assert records["after"]["status"] == "graded" and records["after"]["total"] == 10


def test_a_fault_of_the_grader_is_an_error_row_not_a_lost_batch(tmp_path):
    import multiprocessing
    from autograder.batch.grader import worker_main

    for folder in ("feedback", "results"):
        (tmp_path / folder).mkdir()
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    worker = context.Process(target=worker_main,
                             args=(theirs, Limits(step_seconds=2), LAB, "en", str(tmp_path), os.getpid()))
    worker.start()
    base = {"problem": None, "superseded": [], "judged": "j", "key": "k"}
    ours.send(dict(base, student="odd", file="odd.py", data=12345))  # not bytes: the engine raises
    ours.send(dict(base, student="fine", file="fine.py", data=CORRECT))
    assert ours.poll(120), "the worker answered nothing"
    odd = ours.recv()
    assert ours.poll(120)
    fine = ours.recv()
    ours.send(None)
    worker.join(30)
    assert odd["status"].startswith("error: the grader failed (TypeError") and odd["total"] == 0
    assert fine["status"] == "graded" and fine["total"] == 10
    assert (tmp_path / "results" / "odd.json").is_file()


# Small parts ------------------------------------------------------------------------------------

def test_atomic_write_replaces_whole_files(tmp_path):
    target = tmp_path / "a.json"
    write_atomic(target, "first")
    write_atomic(target, "second")
    assert target.read_text() == "second" and os.listdir(tmp_path) == ["a.json"]


def test_plain_progress_prints_a_few_lines():
    stream = io.StringIO()
    progress = PlainProgress(50, stream)
    for n in range(50):
        progress.advance(f"s{n}")
    lines = stream.getvalue().splitlines()
    assert 5 <= len(lines) <= 11 and lines[-1] == "graded 50/50 (100%) last: s49"


def test_terminal_gets_a_rich_bar():
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    stream = Terminal()
    progress = progress_for(3, stream)
    assert not isinstance(progress, PlainProgress)
    for n in range(3):
        progress.advance(f"s{n}")
    progress.close()
    assert "3/3" in stream.getvalue()


@pytest.mark.parametrize("arguments, message", [
    (["--jobs", "0"], "--jobs"),
    (["--id-pattern", "("], "--id-pattern"),
])
def test_bad_arguments_exit_2(tmp_path, arguments, message):
    finished = grade_command(SAMPLES, tmp_path / "out", *arguments)
    assert finished.returncode == 2 and message in finished.stderr


def test_missing_or_wrong_input_exits_2(tmp_path):
    assert grade_command(tmp_path / "nothing", tmp_path / "out").returncode == 2
    (tmp_path / "notes.txt").write_text("hi")
    finished = grade_command(tmp_path / "notes.txt", tmp_path / "out", "--lang", "en")
    assert finished.returncode == 2 and "neither a folder nor a .zip" in finished.stderr
    finished = grade_command(tmp_path / "notes.txt", tmp_path / "out")
    assert finished.returncode == 2 and "폴더도 .zip 파일도 아닙니다" in finished.stderr


def test_an_empty_class_is_refused_before_anything_is_written(tmp_path):
    (tmp_path / "empty").mkdir()
    for lab in ([], ["--lab", "self_attention"]):
        finished = grade_command(tmp_path / "empty", tmp_path / "out", *lab, "--lang", "en")
        assert finished.returncode == 2
        assert "no submissions in" in finished.stderr and "it holds no files" in finished.stderr
        assert "several labs" not in finished.stderr  # not a question of which lab
        assert not (tmp_path / "out").exists()


def test_blackboard_receipts_are_listed_in_the_report_not_rows_of_grades(tmp_path):
    """25 students, each attempt with its receipt, 3 of them twice: 28 rows (25 graded, 3 superseded),
    the 28 receipts in the report's list of LMS files."""
    receipt = "Name: Student {n} (user{n})\nAssignment: Lab 1\n\nFiles:\n\tFilename: Lab 1_user{n}_attempt_{date}_attention.py\n"
    archive = tmp_path / "gradebook.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        for n in range(25):
            for day in ((1, 2) if n < 3 else (1,)):
                date = f"2024-03-0{day}-12-00-00"
                stamp = (2024, 3, day, 12, 0, 0)
                bundle.writestr(zipfile.ZipInfo(f"Lab 1_user{n}_attempt_{date}.txt", stamp),
                                receipt.format(n=n, date=date))
                bundle.writestr(zipfile.ZipInfo(f"Lab 1_user{n}_attempt_{date}_attention.py", stamp), CORRECT)
    out = tmp_path / "out"
    finished = grade_command(archive, out, "--jobs", "2", "--lang", "en")
    assert finished.returncode == 0, finished.stderr
    rows = read_grades(out)
    assert len(rows) == 28 and not [r for r in rows if r["file"].endswith(".txt")]
    assert sum(r["status"] == "graded" for r in rows) == 25 and sum(r["status"].startswith("superseded") for r in rows) == 3
    assert {r["name"] for r in rows if r["status"] == "graded"} == {f"Student {n}" for n in range(25)}
    report = (out / "report.html").read_text("utf-8")
    listed = report[report.index("LMS and TA files that are not submissions</h2>"):report.index('<table class="grades')]
    assert listed.count("Blackboard receipt, read for the name") == 28
    assert "25 students (56 files)" in finished.stdout and "28 LMS or TA file(s) listed in the report" in finished.stdout


KIND_SUFFIXES = [".ipynb", ".py", ".zip"]


@given(kinds=st.lists(st.sampled_from(KIND_SUFFIXES), min_size=1, max_size=3, unique=True),
       stem=st.sampled_from(["attention", "self_attention_lab", "kim_20001_70001_self_attention_lab"]))
def test_one_attempts_files_are_chosen_as_the_lms_zip_chooses_them(kinds, stem):
    """Files of one attempt (the same time): grade's choice is the kind Gradescope's file_choice takes
    (reading.names.kind_rank: notebook, then .py, then zip), whatever their names' order."""
    from autograder.otter import gradescope

    entries = [Entry(f"a/{stem}-{n}{suffix}", "a", 100.0, 1) for n, suffix in enumerate(kinds)]
    chosen = newest_first(entries)[0]
    choice = gradescope.file_choice([e.path.split("/", 1)[1] for e in entries], ())
    assert choice.graded == chosen.path.split("/", 1)[1]
    assert chosen.path.endswith(min(kinds, key=KIND_SUFFIXES.index))


def test_a_notebook_and_its_py_twin_uploaded_together_the_notebook_counts():
    twin = Entry("kim_20001_70002_self_attention_lab.py", "20001", 100.0, 1)
    notebook = Entry("kim_20001_70001_self_attention_lab.ipynb", "20001", 100.0, 1)
    assert newest_first([twin, notebook])[0] is notebook and newest_first([notebook, twin])[0] is notebook
