"""An output folder belongs to one run (batch.run_folder), an output folder is never a submission
(collect.Source), and a folder that is mostly not submissions is no class (batch.class_rule).

The invariant, over generated sequences of `autograder grade` commands into one --out folder: no
command deletes or replaces another run's outputs; only a rerun of the same lab and class updates
them. Then the reported cases, each through the CLI in a subprocess.
"""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from autograder.batch import lab_votes
from autograder.batch.class_rule import mostly_not_submissions
from autograder.batch.collect import group_students
from autograder.batch.source import Source
from autograder.batch.run_folder import (IDENTITY_FILE, Damaged, Fresh, NotAFolder, Other, Run, RunIdentity, inspect,
                                         same_class, verdict)
from autograder.cli import main

from conftest import ROOT

SAMPLES = ROOT / "samples"
LAB1 = (ROOT / "solutions" / "self_attention.py").read_bytes()
LAB1_STUBS = (ROOT / "assignments" / "self_attention" / "self_attention_lab.py").read_bytes()
LAB1_HALF = (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_bytes()
LAB1_NOTEBOOK = (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes()
LAB2 = (ROOT / "solutions" / "masked_attention.py").read_bytes()
LAB2_STUBS = (ROOT / "assignments" / "masked_attention" / "masked_attention_lab.py").read_bytes()
DOCX = b"PK\x03\x04" + b"\x00" * 26 + b"word/document.xml"
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"


def run(*args, timeout=300, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "autograder", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)


def write(folder, files):
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def snapshot(folder):
    """Every file under `folder` with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in Path(folder).rglob("*") if p.is_file()}


def canvas_class(ids, data, stem="attention.py"):
    """Canvas's download names: <name>_<id>_<submission>_<file>."""
    return {f"s{student}_{student}_{7000 + n}_{stem}": data for n, student in enumerate(ids)}


# The rule of "the same class" ---------------------------------------------------------------------

@pytest.mark.parametrize("earlier, now, same", [
    (range(30), range(30), True),  # a rerun
    (range(30), [*range(3, 30), 40, 41], True),  # lost a few, gained a few
    (range(2), range(30), True),  # an early run of the first students, then the whole class
    (range(30), range(16), True),  # more than half stayed
    (range(30), range(15), False),  # half is not more than half
    (range(30), [*range(3), *range(100, 125)], False),  # another course sharing three students
    (range(30), range(100, 130), False),
    ([], range(5), True),  # an older run whose students are not known
])
def test_the_same_class_keeps_more_than_half_of_the_earlier_runs_students(earlier, now, same):
    assert same_class([str(i) for i in earlier], [str(i) for i in now]) is same


id_sets = st.sets(st.integers(0, 400).map(str), min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(id_sets, st.data())
def test_a_class_that_lost_less_than_half_and_gained_any_is_the_same(earlier, data):
    earlier = sorted(earlier)
    lost = data.draw(st.sets(st.sampled_from(earlier), max_size=(len(earlier) - 1) // 2))
    gained = data.draw(st.sets(st.integers(1000, 2000).map(str), max_size=100))
    assert same_class(earlier, (set(earlier) - lost) | gained)


@settings(max_examples=300, deadline=None)
@given(id_sets, st.sets(st.integers(1000, 2000).map(str), max_size=100), st.data())
def test_a_class_that_shares_half_or_fewer_is_another(earlier, theirs, data):
    earlier = sorted(earlier)
    shared = data.draw(st.sets(st.sampled_from(earlier), max_size=len(earlier) // 2))
    assert not same_class(earlier, shared | theirs)


def identity(lab, students):
    return RunIdentity(lab=lab, source="/x/submissions.zip", students=tuple(sorted(students)), created="t", graded="t")


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.builds(Fresh, exists=st.booleans()),
    st.builds(Run, identity=st.one_of(st.none(), st.builds(identity, st.sampled_from(["l1", "l2"]), id_sets)),
              inferred=st.booleans()),
    st.builds(Damaged, problem=st.sampled_from(["not_json", "not_ours", "newer", "unreadable"])),
    st.builds(Other, entries=st.lists(st.text(min_size=1, max_size=5), min_size=1).map(tuple)),
    st.just(NotAFolder())), st.sampled_from(["l1", "l2"]), id_sets)
def test_only_a_new_folder_or_a_run_of_the_same_lab_and_class_is_written_into(found, lab, students):
    allowed = verdict(found, lab=lab, students=students) in ("new", "same")
    if isinstance(found, Run) and found.identity is not None:
        assert allowed == (found.identity.lab == lab and same_class(found.identity.students, students))
    else:
        assert allowed == isinstance(found, Fresh) or (isinstance(found, Run) and found.identity is None)


# The invariant through `autograder grade`, over generated command sequences -----------------------

CLASS_A = ["10231", "10232", "10233"]
CLASSES = {
    # name: (lab, {id: bytes})
    "A lab 1": ("self_attention", dict.fromkeys(CLASS_A, LAB1)),
    "A lab 1 resubmitted": ("self_attention", {"10231": LAB1_HALF, "10232": LAB1, "10234": LAB1}),
    "A lab 1, early": ("self_attention", {"10231": LAB1}),
    "A lab 2": ("masked_attention", dict.fromkeys(CLASS_A, LAB2)),
    "B lab 1": ("self_attention", {"20001": LAB1, "20002": LAB1_STUBS, "10231": LAB1}),
}
STARTS = ("no folder", "no folder", "empty folder", "documents")  # a TA's documents refuse every command: rarer


def grade_quietly(*argv):
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        code = main(["grade", *map(str, argv), "--jobs", "1"])
    return code, stderr.getvalue()


@settings(max_examples=int(os.environ.get("RUN_FOLDER_EXAMPLES", "8")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(STARTS), st.lists(st.sampled_from(sorted(CLASSES)), min_size=2, max_size=3),
       st.booleans())
def test_no_command_replaces_another_runs_outputs(start, commands, zipped):
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        out = folder / "lab-run"
        if start != "no folder":
            out.mkdir()
        if start == "documents":
            (out / "강의 노트.md").write_text("조교 메모", "utf-8")
        owner = None  # (lab, ids) of the run the folder holds, as the model says
        for number, name in enumerate(commands):
            lab, files = CLASSES[name]
            named = canvas_class([], b"")
            for student, data in files.items():
                named[f"s{student}_{student}_{7000 + number}_attention.py"] = data
            if zipped:
                source = folder / f"submissions-{number}.zip"
                with zipfile.ZipFile(source, "w") as archive:
                    for member, data in named.items():
                        archive.writestr(member, data)
            else:
                source = write(folder / f"class-{number}", named)
            before = snapshot(out) if out.exists() else None
            code, said = grade_quietly(source, "--out", out, "--lab", lab, "--lang", "en")
            allowed = start != "documents" and (owner is None or (owner[0] == lab and same_class(owner[1], files)))
            event(f"command {number + 1}: {'graded' if allowed else 'refused'}")
            assert "internal error" not in said and "Traceback" not in said, said
            if not allowed:
                assert code == 2, (name, said)
                assert (snapshot(out) if out.exists() else None) == before  # nothing written, nothing removed
                assert "Nothing was graded" in said and "--out" in said
                continue
            assert code == 0, (name, said)
            after = snapshot(out)
            assert set(before or {}) <= set(after)  # no file of an earlier run of the class is deleted
            written = json.loads(after[IDENTITY_FILE])
            assert written["lab"] == lab and written["students"] == sorted(files)
            assert written["source"] == str(source)
            owner = (lab, sorted(files))


# The reported cases, through the CLI ---------------------------------------------------------------

@pytest.fixture(scope="module")
def lab1_run(tmp_path_factory):
    """A finished lab-1 run of a Canvas class, with an overrides.csv the TA wrote."""
    base = tmp_path_factory.mktemp("lab1")
    lab1 = base / "canvas-lab1.zip"
    with zipfile.ZipFile(lab1, "w") as archive:
        for member, data in canvas_class(["10231", "10232", "10233"], LAB1).items():
            archive.writestr(member, data)
    out = base / "lab1"
    done = run("grade", lab1, "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    (out / "overrides.csv").write_text("id,step,points,comment,by\n10231,softmax,1.5,부분 점수,김조교\n", "utf-8")
    done = run("grade", lab1, "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    lab2 = base / "canvas-lab2.zip"
    with zipfile.ZipFile(lab2, "w") as archive:
        for member, data in canvas_class(["10231", "10232", "10233"], LAB2, "heads.py").items():
            archive.writestr(member, data)
    return {"base": base, "lab1": lab1, "lab2": lab2, "out": out}


def test_the_run_folder_records_its_lab_class_and_time(lab1_run):
    written = json.loads((lab1_run["out"] / IDENTITY_FILE).read_text("utf-8"))
    assert written["kind"] == "autograder grade output folder" and written["version"] == 1
    assert written["lab"] == "self_attention" and written["students"] == ["10231", "10232", "10233"]
    assert written["source"] == str(lab1_run["lab1"]) and written["created"] <= written["graded"]


@pytest.mark.parametrize("lang, words", [
    ("en", ["holds a run of self_attention graded from", "canvas-lab1.zip", "(3 students, last graded",
            "this run grades masked_attention", "--out", "lab1-masked_attention", "Nothing was graded"]),
    ("ko", ["self_attention 실행 결과", "canvas-lab1.zip", "masked_attention 실습을 채점합니다", "lab1-masked_attention",
            "아무것도 채점하지 않았고"]),
])
def test_grading_another_lab_into_a_finished_run_is_refused_before_anything_is_written(lab1_run, lang, words):
    before = snapshot(lab1_run["out"])
    done = run("grade", lab1_run["lab2"], "--out", lab1_run["out"], "--jobs", "2", "--lang", lang)
    assert done.returncode == 2
    for word in words:
        assert word in done.stderr, (word, done.stderr)
    assert "Fix these lines" not in done.stderr  # the overrides are fine: the folder is the problem
    assert snapshot(lab1_run["out"]) == before


def test_another_class_of_the_same_lab_is_refused_and_a_resubmission_is_not(lab1_run, tmp_path):
    out = tmp_path / "lab1"
    shutil.copytree(lab1_run["out"], out)
    other = write(tmp_path / "other-course", canvas_class(["30001", "30002", "10231"], LAB1))
    before = snapshot(out)
    done = run("grade", other, "--out", out, "--jobs", "2", "--lang", "en")
    assert done.returncode == 2 and snapshot(out) == before
    assert "of another class: only 1 of its 3 students are among this class's 3" in done.stderr
    assert "lab1-other-course" in done.stderr
    again = write(tmp_path / "again", {**canvas_class(["10231", "10232"], LAB1), **canvas_class(["10299"], LAB1_HALF)})
    done = run("grade", again, "--out", out, "--jobs", "2", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert json.loads((out / IDENTITY_FILE).read_text("utf-8"))["students"] == ["10231", "10232", "10299"]
    assert "belong to no student of this run" in done.stderr  # 10233's files: kept, listed, never deleted
    assert (out / "results" / "10233.json").exists()


def test_a_folder_an_older_autograder_wrote_is_read_from_its_outputs(lab1_run, tmp_path):
    out = tmp_path / "lab1"
    shutil.copytree(lab1_run["out"], out)
    (out / IDENTITY_FILE).unlink()
    found = inspect(str(out))
    assert isinstance(found, Run) and found.inferred and found.identity.lab == "self_attention"
    assert found.identity.students == ("10231", "10232", "10233")
    before = snapshot(out)
    done = run("grade", lab1_run["lab2"], "--out", out, "--jobs", "2", "--lang", "en")
    assert done.returncode == 2 and "a run of self_attention that an older autograder wrote" in done.stderr
    assert snapshot(out) == before
    done = run("grade", lab1_run["lab1"], "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert json.loads((out / IDENTITY_FILE).read_text("utf-8"))["lab"] == "self_attention"


@pytest.mark.parametrize("content, words", [
    ({"강의 노트.md": b"x", "성적표.xlsx": b"PK"}, "is not empty and holds no autograder run"),
    ({IDENTITY_FILE: b"{not json"}, "cannot be used: it is not JSON"),
    ({IDENTITY_FILE: json.dumps({"kind": "autograder grade output folder", "version": 99}).encode()},
     "was filled by a newer autograder"),
])
def test_a_folder_that_is_no_run_of_this_class_is_refused_and_left_as_it_is(lab1_run, tmp_path, content, words):
    out = write(tmp_path / "mine", content)
    done = run("grade", lab1_run["lab1"], "--out", out, "--jobs", "2", "--lang", "en")
    assert done.returncode == 2 and words in done.stderr and "Nothing was graded" in done.stderr
    assert snapshot(out) == content


def test_what_a_folder_holds_tells_a_run_from_a_tas_documents(tmp_path):
    assert inspect(str(tmp_path / "none")) == Fresh(exists=False)
    assert inspect(str(write(tmp_path / "empty", {".DS_Store": b"\0"}))) == Fresh(exists=True)
    assert isinstance(inspect(str(write(tmp_path / "documents", {"results/a.json": b"{}", "notes.md": b"x"}))), Other)
    older = inspect(str(write(tmp_path / "stopped", {"results/x.json": b"{}", "feedback/x.md": b"x"})))
    assert older == Run(identity=None, inferred=True)  # an older run stopped before its first record
    assert isinstance(inspect(str(write(tmp_path / "file.txt", {}) / ".." / "empty" / ".DS_Store")), NotAFolder)


def test_out_that_is_a_file_or_the_class_folder_itself_is_refused(lab1_run, tmp_path):
    a_file = tmp_path / "grades.txt"
    a_file.write_text("x")
    done = run("grade", lab1_run["lab1"], "--out", a_file, "--lang", "en")
    assert done.returncode == 2 and "is a file, not a folder" in done.stderr
    klass = write(tmp_path / "class", canvas_class(["10231", "10232"], LAB1))
    before = snapshot(klass)
    done = run("grade", klass, "--out", klass, "--lang", "en")
    assert done.returncode == 2 and "is the class folder itself" in done.stderr and snapshot(klass) == before


# An output folder is never a submission --------------------------------------------------------------

def test_an_out_folder_inside_the_class_folder_is_left_out_of_the_class(tmp_path):
    klass = write(tmp_path / "lab1", canvas_class(["10231", "10232"], LAB1))
    first = run("grade", klass, "--out", klass / "graded", "--jobs", "2", "--lang", "en")
    assert first.returncode == 0, first.stderr
    again = run("grade", klass, "--out", klass / "graded", "--jobs", "2", "--lang", "en")
    assert again.returncode == 0, again.stderr
    assert "are left out of the class, never graded: graded" in again.stderr
    grades = (klass / "graded" / "grades.csv").read_text("utf-8-sig")
    assert "report.html" not in grades and "graded/" not in grades and "2 students" in again.stdout
    assert "unchanged since the last run" in again.stdout and "(0 graded now" in again.stdout


@st.composite
def classes_with_run_folders(draw):
    """A class folder (Canvas names, or a TA's folder per student) with run folders planted at any
    depth below it: an identity file, or an older run's grades.csv beside results/."""
    ids = draw(st.lists(st.integers(10000, 10099).map(str), min_size=1, max_size=4, unique=True))
    per_folder = draw(st.booleans())
    files = {}
    for student in ids:
        files[f"{student}/attention.py" if per_folder else f"s{student}_{student}_1_attention.py"] = LAB1
    runs = draw(st.lists(st.tuples(st.sampled_from(["graded", "run 2", "out/lab1", "아카이브/채점"]),
                                   st.sampled_from(["identity", "grades.csv", "feedback"])),
                         min_size=1, max_size=3, unique_by=lambda r: r[0]))
    planted = []
    for where, marks in runs:
        if marks == "identity":
            files[f"{where}/{IDENTITY_FILE}"] = identity("self_attention", ids).as_json().encode()
            files[f"{where}/report.html"] = b"<html>"
        elif marks == "grades.csv":  # an older autograder's run
            files[f"{where}/grades.csv"] = "\ufeffid,name,file,total\n10231,,a.py,3\n".encode()
        else:  # an older autograder's run stopped before grades.csv
            files[f"{where}/feedback/s9.md"] = b"# feedback"
        files[f"{where}/results/s9.json"] = b"{}"
        files[f"{where}/kim_10231_1_attention.py"] = LAB1  # what a run folder holds is never a student's
        planted.append(where)
    return ids, files, planted


def rows_of(root):
    source = Source(root)
    try:
        students = group_students(source)
    finally:
        source.close()
    rows = [(s.id, s.chosen.path if s.chosen else None, [e.path for e in s.superseded],
             [(e.path, str(why)) for e, why in s.ignored]) for s in students]
    return rows, source.run_folders


@settings(max_examples=60, deadline=None)
@given(classes_with_run_folders())
def test_a_class_with_run_folders_in_it_is_the_class_without_them(generated):
    ids, files, planted = generated
    with tempfile.TemporaryDirectory() as temporary:
        with_runs, found = rows_of(write(Path(temporary) / "class", files))
        alone = {path: data for path, data in files.items() if not any(path.startswith(w + "/") for w in planted)}
        without, none = rows_of(write(Path(temporary) / "alone", alone))
    assert with_runs == without and sorted(found) == sorted(planted) and none == []


# A folder that is mostly not submissions is no class -------------------------------------------------

HONEST = {"solution": LAB1, "stubs": LAB1_STUBS, "half": LAB1_HALF, "notebook": LAB1_NOTEBOOK, "lab2": LAB2,
          "lab2_stubs": LAB2_STUBS}
BROKEN = {"empty": b"", "docx": DOCX, "pdf": PDF, "not json": b"{ this is not a notebook",
          "binary": b"\x00\xff" * 40}
SUFFIX = {"notebook": ".ipynb", "not json": ".ipynb", "docx": ".docx", "pdf": ".pdf", "binary": ".py"}
TA_FILES = {"강의 노트.md": b"# notes", "todo.txt": b"grade lab 2", "syllabus.pdf": PDF, "photo.png": b"\x89PNG",
            "성적.xlsx": b"PK\x03\x04", "canvas-lab2.zip": None, "grades.csv": b"a,b\n1,2\n", "slides.pptx": b"PK"}


def lms_zip():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for member, data in canvas_class(["1", "2", "3"], LAB2, "heads.py").items():
            archive.writestr(member, data)
    return buffer.getvalue()


@st.composite
def folders(draw):
    """An honest class with broken files (each student Canvas-named or in their own folder), or a
    TA's working folder: their notes and documents, maybe a few code files among them."""
    honest = draw(st.lists(st.sampled_from(sorted(HONEST)), max_size=6))
    broken = draw(st.lists(st.sampled_from(sorted(BROKEN)), max_size=6))
    documents = draw(st.lists(st.sampled_from(sorted(TA_FILES)), unique=True, max_size=len(TA_FILES)))
    if not honest and not broken and not documents:
        honest = ["solution"]
    per_folder = draw(st.booleans())
    files = {}
    for number, kind in enumerate(honest + broken):  # noqa: B007
        data = HONEST.get(kind, BROKEN.get(kind))
        name = f"attention{SUFFIX.get(kind, '.py')}"
        files[f"student{number}/{name}" if per_folder else f"s{number}_{2000 + number}_{7000 + number}_{name}"] = data
    for name in documents:
        files[name] = TA_FILES[name] if TA_FILES[name] is not None else lms_zip()
    files[".DS_Store"] = b"\0\0\0\1Bud1"  # no student
    return honest, broken, documents, files, per_folder


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(folders())
def test_a_folder_is_refused_exactly_when_most_would_be_students_sent_no_code(generated):
    honest, broken, documents, files, per_folder = generated
    with tempfile.TemporaryDirectory() as temporary:
        root = write(Path(temporary) / "folder", files)
        source = Source(root)
        try:
            students = [s for s in group_students(source) if s.chosen is not None]
            said = lab_votes(source, students)
        finally:
            source.close()
    # Every honest file is its own student's and names its lab; a broken file, a TA's document or
    # an LMS's .zip names none (beside Canvas-named files a TA's documents are the class's, no one's).
    assert sum(lab is not None for lab in said.values()) == len(honest)
    refused = mostly_not_submissions(said)
    assert refused == (2 * (len(said) - len(honest)) > len(said))
    if not documents:
        assert refused == (len(broken) * 2 > len(honest) + len(broken))  # a few broken files: graded
    if not honest:
        assert refused  # only documents and broken files: never a class
    if per_folder and len(documents) + len(broken) > len(honest):
        assert refused  # a TA's working folder: its documents are would-be students, most of them no code


def test_a_tas_working_folder_is_refused_with_what_it_found_and_what_to_give(tmp_path):
    work = write(tmp_path / "work", {"강의 노트.md": b"# notes", "todo.txt": b"x", "syllabus.pdf": PDF,
                                     "canvas-lab2.zip": lms_zip(), "grades.csv": b"a,b\n1,2\n",
                                     "heads.py": LAB2, "photo.png": b"\x89PNG"})
    done = run("grade", ".", "--out", "out", "--lab", "masked_attention", "--lang", "en", cwd=work)
    assert done.returncode == 2 and not (work / "out").exists()
    assert ". does not look like a class's submissions: of its 7 would-be students, 6 have no file that is " \
           "code for a lab" in done.stderr
    assert "canvas-lab2.zip" in done.stderr and "autograder grade ./canvas-lab2.zip --out DIR" in done.stderr
    done = run("grade", ".", "--out", "out", "--lab", "masked_attention", cwd=work)
    assert done.returncode == 2 and "학생들의 제출물로 보이지 않습니다" in done.stderr


def test_an_honest_class_with_a_few_broken_files_is_graded_with_them_broken(tmp_path):
    klass = write(tmp_path / "class", {**canvas_class(["10231", "10232", "10233"], LAB1),
                                       "s_10234_1_report.docx": DOCX, "s_10235_1_attention.py": b""})
    done = run("grade", klass, "--out", tmp_path / "out", "--jobs", "2", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "5 students" in done.stdout and "2 unreadable" in done.stdout


# Numbers in overrides.csv, through grade --------------------------------------------------------------

def test_a_decimal_comma_in_overrides_is_refused_through_grade(lab1_run, tmp_path):
    out = tmp_path / "lab1"
    shutil.copytree(lab1_run["out"], out)
    (out / "overrides.csv").write_text("id,step,points,comment,by\n10231,softmax,1,5,박조교\n", "utf-8")
    before = snapshot(out)
    done = run("grade", lab1_run["lab1"], "--out", out, "--jobs", "2")
    assert done.returncode == 2 and snapshot(out) == before
    assert "2번째 줄: points, comment 칸의 값 1,5: 소수점을 쉼표로 적어" in done.stderr


# No other command writes over a run's outputs ------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["grades.csv", "report.html", "similar.csv", "overrides.csv", "overrides.state.json",
                        IDENTITY_FILE, "feedback/10231.html", "results/10231.json", "stale/results/x.json",
                        "import.csv", "canvas-import.csv", "notes/grades.csv", "feedback", "history/index.html"]),
       st.sampled_from(["identity", "older", "none"]))
def test_a_file_another_command_writes_is_refused_exactly_when_it_is_a_runs_output(relative, kind):
    from autograder.batch.run_folder import replaced_output

    with tempfile.TemporaryDirectory() as temporary:
        run_folder = Path(temporary) / "lab1"
        files = {"feedback/10231.html": b"x", "results/10231.json": b"{}"}
        if kind == "identity":
            files[IDENTITY_FILE] = identity("self_attention", ["10231"]).as_json().encode()
        elif kind == "older":
            files["grades.csv"] = b"\xef\xbb\xbfid,name,file,total\n"
        else:
            files = {"notes.md": b"x"}
        write(run_folder, files)
        said = replaced_output(str(run_folder / relative))
        top = relative.split("/")[0]
        outputs = relative in ("grades.csv", "report.html", "similar.csv", "overrides.csv", "overrides.state.json",
                               IDENTITY_FILE) or (top in ("feedback", "results") and "/" in relative)
        assert (said is not None) == (kind != "none" and outputs), said


def test_export_and_check_never_write_over_a_runs_outputs(lab1_run, tmp_path):
    out = tmp_path / "lab1"
    shutil.copytree(lab1_run["out"], out)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)\n    Points Possible,,,,,10\n"
                     "k,10231,,,,\n", "utf-8")
    before = snapshot(out)
    done = run("export", "canvas", out, "--sheet", sheet, "--out", out / "grades.csv", "--lab", "self_attention",
               "--lang", "en")
    assert done.returncode == 2 and snapshot(out) == before  # lms.export keeps out of every run's folder
    done = run("check", ROOT / "solutions" / "self_attention.py", "--html", out / "feedback" / "10231.html")
    assert done.returncode == 2 and "실행의 결과를 덮어쓰게 됩니다" in done.stderr and snapshot(out) == before
    other = tmp_path / "lab1-again"
    shutil.copytree(lab1_run["out"], other)  # another run's grades.csv as the sheet to write: refused
    done = run("export", "canvas", other, "--sheet", sheet, "--out", out / "grades.csv", "--lab", "self_attention",
               "--lang", "en")
    assert done.returncode == 2 and snapshot(out) == before
    done = run("export", "canvas", out, "--sheet", sheet, "--out", tmp_path / "canvas-import.csv", "--lab",
               "self_attention", "--allow-unmatched")
    assert done.returncode == 0, done.stderr  # a file that is no run's output is written
