"""The class folder, its names and its zips are written by students: `autograder grade` and
`autograder check` trust none of it, and what they print or write cannot be turned against the
TA's terminal, spreadsheet or browser."""
import csv
import io
import json
import os
import pathlib
import stat
import subprocess
import sys
import time
import zipfile

import pytest
from markdown_it import MarkdownIt

from autograder.batch.collect import group_students
from autograder.batch.source import Source
from autograder.batch.outputs import code_span, feedback_markdown
from autograder.batch.spreadsheet import spreadsheet_text
from autograder.core.render.text import one_line, printable
from autograder.core.reading.budget import MAX_BYTES
from autograder.core.reading.files import NotARegularFile, read_regular_file
from autograder.core.reading.submission import read_submission
from autograder.core.reading.zips import NotAnOtterExport, otter_export_notebook
from labs.self_attention import LAB
from conftest import CORPORA, ROOT

SAMPLES = ROOT / "samples"
REFERENCE = ROOT / "solutions" / "self_attention.py"
CORRECT = (SAMPLES / "correct.py").read_bytes()
NOTEBOOK = (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes()
STEP_NAMES = ["make_qkv", "scores", "softmax", "mix", "self_attention", "most_attended"]
STUB = b"def make_qkv(X, W_Q, W_K, W_V):\n    raise NotImplementedError\n"
# An exception message that would close a Markdown fence, inject HTML, forge a total and paint the terminal.
FENCE_BREAKER = CORRECT.replace(
    b"def softmax(x):\n", b"def softmax(x):\n    raise ValueError('```\\n</pre><img src=x onerror=alert(1)>\\n"
    b"# Total 10 / 10\\n\\x1b[2J\\x1b[31mALL PASSED\\x9b31m\\u202e')\n", 1)
ANSI_NAME = "\x1b[2J\x1b]0;owned\x07evil\u202e.py"


def grade(submissions, out, *extra, timeout=300):
    command = [sys.executable, "-m", "autograder", "grade", str(submissions), "--out", str(out), "--lang", "en",
               "--jobs", "2", *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def check(path, *extra, timeout=120):
    return subprocess.run([sys.executable, "-m", "autograder", "check", str(path), "--lang", "en", *extra],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def rows_of(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def write(path, data, age_days=0.0):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    stamp = time.time() - age_days * 24 * 3600
    os.utime(path, (stamp, stamp))


def otter_export(folder, notebook=NOTEBOOK, name="attention.ipynb"):
    """A zip written by otter's own `Notebook.export()`, as a student's notebook makes it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(notebook)
    script = ("import otter\n"
              f"otter.Notebook({name!r}, tests_dir='tests').export({name!r}, export_path='export.zip', "
              "pdf=False, display_link=False)\n")
    subprocess.run([sys.executable, "-c", script], cwd=folder, check=True, capture_output=True, timeout=180)
    return (folder / "export.zip").read_bytes()


@pytest.fixture(scope="module")
def export_zip(tmp_path_factory):
    return otter_export(tmp_path_factory.mktemp("otter-export"))


def zip_bytes(members):
    """members: [(name, data) or (ZipInfo, data)] in order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def symlink_member(name, target):
    info = zipfile.ZipInfo(name, date_time=(2024, 3, 5, 12, 0, 0))
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target


def bomb_member(name, size=MAX_BYTES + 1):
    info = zipfile.ZipInfo(name, date_time=(2024, 3, 5, 12, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info, b"\0" * size


# 1. Ids and merges -----------------------------------------------------------------------------------

def test_a_canvas_upload_named_like_moodle_does_not_replace_another_students_grade(tmp_path):
    root = tmp_path / "class"
    write(root / "alice_10001_50001_attention.py", CORRECT, age_days=2)
    write(root / "mallory_10004_50005_x_10001_assignsubmission_file_.py", STUB)
    out = tmp_path / "out"
    finished = grade(root, out)
    assert finished.returncode == 0, finished.stderr
    rows = {r["id"]: r for r in rows_of(out)}
    assert rows["10001"]["status"] == "graded" and rows["10001"]["total"] == "10.0"
    assert rows["10001"]["file"] == "alice_10001_50001_attention.py"
    assert rows["10004"]["file"].startswith("mallory_10004_")


def test_files_of_differently_named_students_under_one_id_stop_the_run_loudly(tmp_path):
    root = tmp_path / "class"
    write(root / "wrapper" / "alice_10001_50001_attention.py", CORRECT, age_days=2)
    # Two LMS names with one id: a look-alike name the LMS itself wrote, the loud case.
    write(root / "wrapper" / "bob_10001_50009_attention.py", STUB)
    write(root / "wrapper" / "carol_10009_50010_attention.py", STUB)
    write(root / "wrapper" / "10002" / "attention.py", CORRECT)
    out = tmp_path / "out"
    finished = grade(root, out)
    assert finished.returncode == 3, finished.stderr
    assert "WARNING" in finished.stderr and "10001" in finished.stderr and "--allow-merged-ids" in finished.stderr
    rows = rows_of(out)  # still written: nothing is lost
    merged = [r for r in rows if r["status"].startswith("merged:")]
    assert len(merged) == 1 and merged[0]["id"] == "10001"
    assert {r["id"] for r in rows} == {"10001", "10002", "10009"}
    assert merged[0]["file"] == "wrapper/alice_10001_50001_attention.py"  # the newer look-alike was graded
    allowed = grade(root, out, "--allow-merged-ids")
    assert allowed.returncode == 0 and "WARNING" in allowed.stderr


def test_lms_names_inside_a_students_own_folder_stay_theirs(tmp_path):
    root = tmp_path / "class"
    write(root / "wrapper" / "10001" / "attention.py", CORRECT, age_days=2)
    write(root / "wrapper" / "10004" / "bob_10001_50009_attention.py", STUB)
    write(root / "wrapper" / "10004" / "carol_10009_50010_attention.py", STUB, age_days=1)
    write(root / "wrapper" / "10002" / "attention.py", CORRECT)
    out = tmp_path / "out"
    finished = grade(root, out)
    assert finished.returncode == 0, finished.stderr
    rows = rows_of(out)
    assert {r["id"] for r in rows} == {"10001", "10002", "10004"}
    graded = {r["id"]: r for r in rows if r["status"] == "graded"}
    assert graded["10001"]["file"] == "wrapper/10001/attention.py" and graded["10001"]["total"] == "10.0"
    assert graded["10004"]["file"] == "wrapper/10004/bob_10001_50009_attention.py"
    assert [r["status"] for r in rows if r["file"].endswith("carol_10009_50010_attention.py")] == \
        ["superseded by wrapper/10004/bob_10001_50009_attention.py"]
    assert "note: 1 student(s)" in finished.stderr and "looks like canvas carol_10009" in finished.stderr


def test_names_that_differ_only_in_characters_an_id_cannot_hold_are_a_merge(tmp_path):
    root = tmp_path / "class"
    write(root / "kim minsu.py", CORRECT)
    write(root / "kim_minsu.py", STUB)
    write(root / "kim.py", CORRECT, age_days=1)
    write(root / "kim.ipynb", NOTEBOOK)  # the same name, two formats: one student, no warning about it
    finished = grade(root, tmp_path / "out")
    assert finished.returncode == 3
    assert "kim_minsu" in finished.stderr and "kim:" not in finished.stderr


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_two_zip_members_of_the_same_name_are_two_files_read_by_position(tmp_path):
    export = tmp_path / "export.zip"
    with zipfile.ZipFile(export, "w") as archive:
        # The newer member first, then an older broken one under the same name: the old grader
        # chose the newer by date but read the last by name.
        archive.writestr(zipfile.ZipInfo("alice_10001_1_attention.py", date_time=(2024, 3, 6, 12, 0, 0)), CORRECT)
        archive.writestr(zipfile.ZipInfo("alice_10001_1_attention.py", date_time=(2024, 3, 1, 12, 0, 0)), STUB)
        # A tie on the date: the later member wins, the other is listed.
        archive.writestr(zipfile.ZipInfo("bob_10002_1_attention.py", date_time=(2024, 3, 6, 12, 0, 0)), STUB)
        archive.writestr(zipfile.ZipInfo("bob_10002_1_attention.py", date_time=(2024, 3, 6, 12, 0, 0)), CORRECT)
    out = tmp_path / "out"
    finished = grade(export, out)
    assert finished.returncode == 0, finished.stderr
    rows = rows_of(out)
    graded = {r["id"]: r for r in rows if r["total"]}
    assert graded["10001"]["total"] == "10.0" and graded["10002"]["total"] == "10.0"
    others = [r for r in rows if not r["total"]]
    assert len(others) == 2
    assert {r["status"] for r in others} == {
        "superseded by alice_10001_1_attention.py (archive member 1, the same name)",
        "superseded by bob_10002_1_attention.py (archive member 4, the same name)"}


# 2. What reaches spreadsheets, Markdown, HTML and terminals -----------------------------------------

@pytest.mark.parametrize("text, shown", [
    ("=HYPERLINK(\"http://x\",\"y\").py", "'=HYPERLINK(\"http://x\",\"y\").py"),
    ("+1.py", "'+1.py"), ("-1.py", "'-1.py"), ("@SUM(A1).py", "'@SUM(A1).py"),
    ("\tx.py", "\\tx.py"), ("\rx.py", "\\rx.py"), ("plain.py", "plain.py"), (3.5, 3.5),
])
def test_spreadsheet_cells_never_start_a_formula(text, shown):
    assert spreadsheet_text(text) == shown


def test_a_fence_in_an_exception_message_stays_inside_the_feedbacks_code_block():
    record = {"id": "x", "file": "a``b.py", "superseded": ["`c.py"]}
    text = "■ softmax\n```\n</pre><img src=x onerror=alert(1)>\n# Total 10 / 10\n````\n"
    page = MarkdownIt("commonmark").render(feedback_markdown(record, text, LAB, "en"))
    assert "<img" not in page and "<h1>Total" not in page and "Total 10 / 10" in page
    assert page.count("<pre>") == 1 and page.count("<h1>") == 1
    assert code_span("a``b") == "```a``b```" and code_span("`c") == "`` `c ``"


def test_printable_shows_controls_and_keeps_lines_only_when_asked():
    assert printable("a\x1b[31mb\nc\x9b\u202e") == "a\\x1b[31mb\nc\\x9b\\u202e"
    assert one_line("a\nb\r\tc") == "a\\nb\\r\\tc"


def test_a_class_of_hostile_names_and_messages_reaches_no_output_raw(tmp_path):
    root = tmp_path / "class"
    for name in ("=cmd|' /C calc'!A0.py", "+SUM(1).py", "-2+3.py", "@x.py", "\tTAB.py", ANSI_NAME):
        write(root / name, CORRECT)
    write(root / "fence.py", FENCE_BREAKER)
    out = tmp_path / "out"
    finished = grade(root, out)
    assert finished.returncode == 0, finished.stderr
    raw = (out / "grades.csv").read_text("utf-8-sig")
    for line in list(csv.reader(io.StringIO(raw)))[1:]:
        for cell in (line[0], line[1], line[-1]):
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), line
    for text in [finished.stdout, finished.stderr, raw] + [p.read_text("utf-8") for p in out.rglob("*.*")]:
        assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text and "\x07" not in text
    fence = (out / "feedback" / "fence.md").read_text("utf-8")
    page = MarkdownIt("commonmark").render(fence)
    assert "<img" not in page and page.count("<h1>") == 1 and page.count("<pre>") == 1
    for page in (out / "feedback" / "fence.html", out / "report.html"):  # the report's own plots are <img>s
        assert "<img src=x" not in page.read_text("utf-8")
    assert json.loads((out / "results" / "fence.json").read_text("utf-8"))["score"] < 10


def test_check_prints_no_control_character_of_a_submission(tmp_path):
    path = tmp_path / ANSI_NAME
    path.write_bytes(FENCE_BREAKER)
    for extra in ((), ("--json",)):
        finished = check(path, *extra)
        assert finished.returncode == 1, finished.stderr
        for text in (finished.stdout, finished.stderr):
            assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text and "\x07" not in text
    report = json.loads(check(path, "--json").stdout)
    assert "\\x1b" in report["submission"]


# 3. The class folder is not trusted ------------------------------------------------------------------

def test_read_regular_file_refuses_what_is_not_a_file(tmp_path):
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    link = tmp_path / "link.py"
    link.symlink_to(REFERENCE)
    zero = tmp_path / "zero.py"
    zero.symlink_to("/dev/zero")
    with pytest.raises(NotARegularFile, match="FIFO"):
        read_regular_file(fifo)
    with pytest.raises(NotARegularFile, match="symbolic link"):
        read_regular_file(link, follow_links=False)
    assert read_regular_file(link) == REFERENCE.read_bytes()  # `check` follows a link to a file
    with pytest.raises(NotARegularFile, match="character device"):
        read_regular_file(zero)
    big = tmp_path / "big.py"
    big.write_bytes(b"x" * 100)
    assert len(read_regular_file(big, limit=10)) == 11


# Honest students beside the attacks: a folder mostly of files that are no code is no class (class_rule).
CLASSMATES = ("carol", "dave", "erin", "frank", "grace", "heidi")


def test_links_fifos_and_devices_in_the_class_are_listed_never_read(tmp_path):
    root = tmp_path / "class"
    write(root / "alice.py", CORRECT)
    (root / "mallory.py").symlink_to(REFERENCE)  # would be 10/10 if followed
    os.mkfifo(root / "fifo.py")  # would hang the batch
    (root / "zero.py").symlink_to("/dev/zero")  # would exhaust memory
    (root / "bob").mkdir()
    write(root / "bob" / "attention.py", CORRECT)
    (root / "bob" / "copy.py").symlink_to(REFERENCE)
    (root / "linked_folder").symlink_to(SAMPLES)  # would add the sample class
    (root / "dangling.py").symlink_to(tmp_path / "nothing")
    for name in CLASSMATES:  # the attacks are a few students of a class (a folder mostly of them is no class)
        write(root / f"{name}.py", CORRECT)
    out = tmp_path / "out"
    finished = grade(root, out, timeout=240)
    assert finished.returncode == 0, finished.stderr
    rows = {r["file"]: r for r in rows_of(out)}
    assert rows["alice.py"]["total"] == "10.0" and rows["bob/attention.py"]["total"] == "10.0"
    assert rows["mallory.py"]["status"] == "broken: not_regular_file" and rows["mallory.py"]["total"] == "0.0"
    assert rows["fifo.py"]["status"] == "broken: not_regular_file"
    assert rows["zero.py"]["status"] == "broken: not_regular_file"
    assert rows["dangling.py"]["status"] == "broken: not_regular_file"
    assert rows["bob/copy.py"]["status"] == "ignored: a symbolic link"
    assert rows["linked_folder"]["status"] == "broken: not_regular_file"
    assert len(rows) == 8 + len(CLASSMATES)
    assert "symbolic link" in (out / "feedback" / "mallory.md").read_text("utf-8")


def test_a_file_swapped_for_a_fifo_after_listing_is_not_read(tmp_path):
    root = tmp_path / "class"
    write(root / "alice.py", CORRECT)
    source = Source(root)
    [student] = group_students(source)
    (root / "alice.py").unlink()
    os.mkfifo(root / "alice.py")
    with pytest.raises(OSError, match="FIFO"):
        source.read(student.chosen)
    source.close()


def test_hostile_zip_members_are_listed_and_the_class_graded(tmp_path):
    export = tmp_path / "class.zip"
    nested_bomb = zip_bytes([bomb_member("attention.ipynb"), ("__zip_filename__", b"x.zip")])
    with zipfile.ZipFile(export, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in [("alice_10001_1_attention.py", CORRECT),
                           symlink_member("mallory_10004_1_attention.py", b"../../solutions/self_attention.py"),
                           ("../../evil_10005_1_attention.py", CORRECT),
                           ("/abs_10006_1_attention.py", CORRECT),
                           bomb_member("bomb_10007_1_attention.py"),
                           ("nested_10008_1_export.zip", nested_bomb),
                           ("plain_10009_1_archive.zip", zip_bytes([("attention.py", CORRECT), ("old.py", CORRECT)])),
                           ("hand_10010_1_archive.zip", zip_bytes([("lab/attention.py", CORRECT)])),
                           *((f"{name}_{10011 + n}_1_attention.py", CORRECT) for n, name in enumerate(CLASSMATES))]:
            archive.writestr(name, data)
    out = tmp_path / "out"
    finished = grade(export, out)
    assert finished.returncode == 0, finished.stderr
    rows = {r["id"]: r for r in rows_of(out)}
    assert rows["10001"]["total"] == "10.0"
    assert rows["10004"]["status"] == "broken: not_regular_file"
    assert rows["10005"]["status"] == "broken: not_regular_file"
    assert rows["10006"]["status"] == "broken: not_regular_file"
    assert rows["10007"]["status"] == "broken: too_large"
    assert rows["10008"]["status"] == "broken: not_otter_export"
    assert rows["10009"]["status"] == "broken: not_otter_export"  # two files to grade: none chosen
    assert rows["10010"]["status"] == "graded" and rows["10010"]["total"] == "10.0"  # zipped by hand: its one file
    honest = {"10001", "10010", *(str(10011 + n) for n in range(len(CLASSMATES)))}
    assert all(r["total"] == "0.0" for i, r in rows.items() if i not in honest)
    assert all(rows[i]["total"] == "10.0" for i in honest)


# 4. Otter's export zip -------------------------------------------------------------------------------

def test_the_zip_otters_export_writes_is_read_as_its_notebook(export_zip):
    name, notebook = otter_export_notebook(export_zip)
    assert name == "attention.ipynb" and notebook == NOTEBOOK
    with zipfile.ZipFile(io.BytesIO(export_zip)) as archive:
        assert {".OTTER_LOG", "__zip_filename__"} <= set(archive.namelist())
    assert read_submission("export.zip", export_zip).cells == read_submission("a.ipynb", NOTEBOOK).cells


@pytest.mark.parametrize("members, problem", [
    ([("attention.ipynb", NOTEBOOK), ("b.py", CORRECT)], "not_otter_export"),  # no marker, two files to grade
    ([("attention.ipynb", NOTEBOOK), ("b.ipynb", NOTEBOOK), ("__zip_filename__", b"e.zip")], "not_otter_export"),
    # the notebook at any depth (JupyterLab's absolute path), but two at the same depth are no export
    ([("lab/attention.ipynb", NOTEBOOK), ("old/attention.ipynb", NOTEBOOK), ("__zip_filename__", b"e.zip")],
     "not_otter_export"),
    ([symlink_member("attention.ipynb", b"/etc/passwd"), ("__zip_filename__", b"e.zip")], "not_otter_export"),
    ([bomb_member("attention.ipynb"), ("__zip_filename__", b"e.zip")], "too_large"),
])
def test_other_zips_are_refused_with_the_reason(members, problem):
    with pytest.raises(NotAnOtterExport) as refusal:
        otter_export_notebook(zip_bytes(members))
    assert refusal.value.problem == problem
    assert read_submission("x.zip", zip_bytes(members)).problem == problem
    assert read_submission("x.zip", b"PK\x03\x04 not a zip").problem == "unreadable"


def test_a_damaged_export_is_a_reason_never_an_exception(export_zip):
    import random

    rng = random.Random(7)
    problems = set()
    for _ in range(300):
        damaged = bytearray(export_zip)
        for _ in range(rng.randint(1, 8)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        damaged = damaged[:rng.randrange(len(damaged) // 2, len(damaged) + 1)]
        problems.add(read_submission("export.zip", bytes(damaged)).problem)
    assert "unreadable" in problems


def test_the_otter_log_is_never_read(export_zip, monkeypatch):
    opened = []
    real_open = zipfile.ZipFile.open

    def spy(self, member, *args, **kwargs):
        opened.append(getattr(member, "filename", member))
        return real_open(self, member, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    otter_export_notebook(export_zip)
    assert opened == ["attention.ipynb"]


def test_check_and_grade_accept_the_otter_export(export_zip, tmp_path):
    path = tmp_path / "export.zip"
    path.write_bytes(export_zip)
    notebook = tmp_path / "attention.ipynb"
    notebook.write_bytes(NOTEBOOK)
    via_zip = json.loads(check(path, "--json").stdout)
    alone = json.loads(check(notebook, "--json").stdout)
    assert via_zip["score"] == alone["score"] > 0
    assert [s["score"] for s in via_zip["steps"]] == [s["score"] for s in alone["steps"]]
    root = tmp_path / "class"
    write(root / "lee_10232_1_export.zip", export_zip)
    write(root / "kim_10231_1_attention.py", CORRECT)
    write(root / "kim_10231_2_data.zip", zip_bytes([("data.csv", b"1,2")]))  # not an export: listed
    out = tmp_path / "out"
    finished = grade(root, out)
    assert finished.returncode == 0, finished.stderr
    rows = {r["file"]: r for r in rows_of(out)}
    assert float(rows["lee_10232_1_export.zip"]["total"]) == alone["score"]
    assert rows["kim_10231_1_attention.py"]["total"] == "10.0"
    assert rows["kim_10231_2_data.zip"]["status"].startswith("ignored: a .zip that is not an Otter export")


def test_check_refuses_other_zips_and_what_is_not_a_file_without_hanging(tmp_path):
    plain = tmp_path / "plain.zip"
    plain.write_bytes(zip_bytes([("attention.py", CORRECT), ("copy/attention.py", CORRECT)]))
    finished = check(plain)
    assert finished.returncode == 2 and "export()" in finished.stderr and "not UTF-8" not in finished.stderr
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.py"
    zero.symlink_to("/dev/zero")
    # A link is never read as a submission, as `grade` reads none: what it points to is not opened.
    for path, word in ((fifo, "FIFO"), (zero, "symbolic link"), (pathlib.Path("/dev/zero"), "character device"),
                       (tmp_path, "folder")):
        finished = check(path, timeout=60)
        assert finished.returncode == 2 and word in finished.stderr, finished.stderr
        assert "Traceback" not in finished.stderr


# Every display attack of the hostile corpus, through both commands ----------------------------------

DISPLAY_ATTACKS = sorted(p for p in (CORPORA / "hostile").iterdir() if p.name.startswith("display__"))
RAW = ("\x1b", "\x9b", "\x07", "\u202e", "\u2066", "\u2028")


@pytest.mark.parametrize("path", DISPLAY_ATTACKS, ids=lambda p: p.name)
def test_check_shows_display_attacks_as_text(path):
    for extra in ((), ("--json",)):
        finished = check(path, *extra)
        assert finished.returncode == 1, finished.stderr
        assert not any(ch in finished.stdout + finished.stderr for ch in RAW)
        assert "\n# Total" not in finished.stdout and "<script>" not in finished.stdout.split("\n", 1)[0]


# 5. Whatever some submissions do, the class is graded as if they were not there ---------------------

HONEST = {"kimminsu_10231_55001_attention.py": (SAMPLES / "kimminsu_10231_55001_attention.py").read_bytes(),
          "leejiwon_10232_55002_attention.ipynb": NOTEBOOK,
          "parkseoyeon_10233_55003_attention.py": (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_bytes(),
          "choi_10240_55040_attention.py": CORRECT}


def test_the_nastiest_class_is_graded_and_honest_grades_equal_a_clean_run(tmp_path, export_zip):
    clean, nasty = tmp_path / "clean", tmp_path / "nasty"
    for folder in (clean, nasty):
        for name, data in HONEST.items():
            write(folder / name, data, age_days=1)
    write(clean / "han_10241_55041_export.zip", export_zip, age_days=1)
    write(nasty / "han_10241_55041_export.zip", export_zip, age_days=1)
    # 1: a newer upload named to be filed as kimminsu (10231)
    write(nasty / "mallory_10004_50005_x_10231_assignsubmission_file_.py", STUB)
    # 2: formulas, escape sequences and a fence-breaking exception
    for name in ("=cmd|' /C calc'!A0.py", "@SUM(1).py", ANSI_NAME):
        write(nasty / name, CORRECT)
    write(nasty / "fence_10005_1_attention.py", FENCE_BREAKER)
    for attack in DISPLAY_ATTACKS:
        write(nasty / attack.name, attack.read_bytes())
    # 3: links, a FIFO, a device, a folder link; zips with links, traversal, bombs
    (nasty / "link_10006_1_attention.py").symlink_to(REFERENCE)
    os.mkfifo(nasty / "fifo_10007_1_attention.py")
    (nasty / "zero_10008_1_attention.py").symlink_to("/dev/zero")
    (nasty / "samples_link").symlink_to(SAMPLES)
    write(nasty / "bomb_10009_1_export.zip", zip_bytes([bomb_member("a.ipynb"), ("__zip_filename__", b"e")]))
    write(nasty / "plain_10010_1_sub.zip", zip_bytes([symlink_member("attention.py", b"/etc/passwd"),
                                                     ("../../x.py", CORRECT)]))
    # 4: an export whose log is a pickle that would run code when loaded
    evil_log = b"cos\nsystem\n(S'touch " + str(tmp_path / "pwned").encode() + b"'\ntR."
    write(nasty / "log_10011_1_export.zip", zip_bytes([("attention.ipynb", NOTEBOOK), (".OTTER_LOG", evil_log),
                                                       ("__zip_filename__", b"e.zip")]))
    results = {}
    for name, folder in (("clean", clean), ("nasty", nasty)):
        out = tmp_path / f"out-{name}"
        finished = grade(folder, out, "--timeout", "3", timeout=400)
        assert finished.returncode == 0, finished.stderr[-3000:]
        results[name] = {r["file"]: r for r in rows_of(out)}
    assert not (tmp_path / "pwned").exists()
    honest_files = [*HONEST, "han_10241_55041_export.zip"]
    for file in honest_files:
        assert results["nasty"][file] == results["clean"][file], file
        assert results["clean"][file]["status"] == "graded"
    assert results["nasty"]["log_10011_1_export.zip"]["total"] == results["clean"]["leejiwon_10232_55002_attention.ipynb"]["total"]
    expected_rows = len(honest_files) + 3 + 1 + len(DISPLAY_ATTACKS) + 1 + 3 + 1 + 2 + 1
    assert len(results["nasty"]) == expected_rows


def test_grade_refuses_a_fifo_or_device_as_the_class_without_hanging(tmp_path):
    fifo = tmp_path / "class.zip"
    os.mkfifo(fifo)
    for path in (fifo, pathlib.Path("/dev/zero")):
        finished = grade(path, tmp_path / "out", timeout=60)
        assert finished.returncode == 2 and "neither a folder nor a .zip" in finished.stderr


def test_ids_that_differ_only_in_case_are_reported(tmp_path):
    root = tmp_path / "class"
    write(root / "Kim.py", CORRECT)
    write(root / "kim.py", CORRECT)
    finished = grade(root, tmp_path / "out")
    assert finished.returncode == 3 and "differ only in case" in finished.stderr and "Kim, kim" in finished.stderr
    assert len(rows_of(tmp_path / "out")) == 2
