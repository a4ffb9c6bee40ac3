"""A TA's slips are stopped, never turned into grades: the wrong --lab, an empty folder, an LMS
sheet zipped with the submissions, a notebook zipped by hand, a .docx, through every face
(`autograder check`, `grade`, `export`, the LMS's entry point, the pytest plugin)."""
import csv
import io
import json
import os
import pathlib
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT

SAMPLES = ROOT / "samples"
LAB1 = (ROOT / "solutions" / "self_attention.py").read_bytes()
LAB1_STUBS = (ROOT / "assignments" / "self_attention" / "self_attention_lab.py").read_bytes()
LAB2 = (ROOT / "solutions" / "masked_attention.py").read_bytes()
LAB2_STUBS = (ROOT / "assignments" / "masked_attention" / "masked_attention_lab.py").read_bytes()
LAB1_NOTEBOOK = (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes()
DOCX = b"PK\x03\x04" + b"\x00" * 26 + b"word/document.xml"  # what a .docx starts with
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
CANVAS_GRADEBOOK = ("Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)\n"
                    "    Points Possible,,,,,10\n"
                    '"Kim, Minsu",10231,2024001,minsu,A,\n"Lee, Jiwon",10232,2024002,jiwon,A,\n').encode()


def run(*args, timeout=300):
    """A command as a TA types it; its messages in English unless the test names a language (the Korean of
    every refusal is checked in test_ta_language_refusals)."""
    args = (*args, "--lang", "en") if "--lang" not in args else args
    return subprocess.run([sys.executable, "-m", "autograder", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def write(folder, files):
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def zip_bytes(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def rows_of(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def canvas_sheet(path, ids):
    lines = ["Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)", "    Points Possible,,,,,10"]
    lines += [f"학생{n},{n},,,," for n in ids]
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode())
    return path


# The wrong --lab ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lab2_class(tmp_path_factory):
    """Three students of lab 2 (Canvas names) and one who sent lab 1's file by mistake."""
    return write(tmp_path_factory.mktemp("lab2"), {
        "kim_10231_1_heads.py": LAB2, "lee_10232_2_heads.py": LAB2_STUBS, "park_10233_3_heads.py": LAB2,
        "choi_10234_4_attention.py": LAB1})


def test_grade_with_the_wrong_lab_stops_before_anything_is_written(lab2_class, tmp_path):
    out = tmp_path / "out"
    done = run("grade", lab2_class, "--out", out, "--lab", "self_attention")
    assert done.returncode == 2
    assert "--lab self_attention, but the students' files are written for masked_attention" in done.stderr
    assert "of 4, 3 look written for masked_attention, 1 for self_attention" in done.stderr
    assert "Give --lab masked_attention" in done.stderr and "--allow-other-lab" in done.stderr
    assert not out.exists()
    right = run("grade", lab2_class, "--out", out, "--lab", "masked_attention", "--jobs", "1")
    assert right.returncode == 0, right.stderr
    assert "1 student(s)' files look written for another lab: 10234 (self_attention)" in right.stderr  # a minority
    assert {r["id"]: float(r["total"]) for r in rows_of(out)} == {"10231": 10, "10232": 0, "10233": 10, "10234": 0}


def test_a_forced_wrong_lab_is_graded_but_never_exported(lab2_class, tmp_path):
    out = tmp_path / "out"
    only_lab2 = write(tmp_path / "class", {name: (lab2_class / name).read_bytes()
                                            for name in ("kim_10231_1_heads.py", "lee_10232_2_heads.py")})
    forced = run("grade", only_lab2, "--out", out, "--lab", "self_attention", "--allow-other-lab", "--jobs", "1")
    assert forced.returncode == 0, forced.stderr
    assert "no student's file is written for self_attention" in forced.stderr
    assert all(r["total"] == "0.0" for r in rows_of(out))
    sheet = canvas_sheet(tmp_path / "sheet.csv", [10231, 10232])
    before = sheet.read_bytes()
    exported = run("export", "canvas", out, "--lab", "self_attention", "--sheet", sheet, "--out", tmp_path / "import.csv",
                   "--lang", "en")
    assert exported.returncode == 2 and "defines any of the lab's functions" in exported.stderr
    assert not (tmp_path / "import.csv").exists() and sheet.read_bytes() == before


def test_votes_come_from_students_not_from_their_files(tmp_path):
    """One student who sent three lab 2 files is one vote; two lab 1 students outvote them."""
    root = write(tmp_path / "class", {
        "kim_10231_1_heads.py": LAB2, "kim_10231_2_heads-1.py": LAB2, "kim_10231_3_heads-2.py": LAB2,
        "lee_10232_4_attention.py": LAB1, "park_10233_5_attention.py": LAB1})
    done = run("grade", root, "--out", tmp_path / "out", "--lab", "self_attention", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "1 student(s)' files look written for another lab: 10231 (masked_attention)" in done.stderr
    refused = run("grade", root, "--out", tmp_path / "out2", "--lab", "masked_attention")
    assert refused.returncode == 2 and "of 3, 2 look written for self_attention, 1 for masked_attention" in refused.stderr


def test_check_with_the_wrong_lab_says_which_lab_the_file_is_for(tmp_path):
    path = write(tmp_path, {"heads.py": LAB2}) / "heads.py"
    done = run("check", path, "--lab", "self_attention")
    assert done.returncode == 2 and not done.stdout
    assert "the file is written for masked_attention" in done.stderr and "Give --lab masked_attention" in done.stderr
    forced = run("check", path, "--lab", "self_attention", "--allow-other-lab", "--json")
    assert forced.returncode == 1 and json.loads(forced.stdout)["score"] == 0
    assert run("check", path).returncode == 0  # without --lab, the file says which


def test_the_pytest_plugin_refuses_the_wrong_lab_too(tmp_path):
    path = write(tmp_path, {"heads.py": LAB2}) / "heads.py"
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--submission", str(path),
                           "--submission-lab", "self_attention"], capture_output=True, text=True, timeout=180,
                          cwd=tmp_path)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "written for masked_attention" in done.stderr and "--submission-lab masked_attention" in done.stderr


# Nothing to grade ---------------------------------------------------------------------------------

@pytest.mark.parametrize("files, words", [
    ({}, "it holds no files"),
    ({".DS_Store": b"\0", "__MACOSX/._x.py": b"\0"}, "2 system file"),
    ({"2026-12-01T0900_Grades-TP101.csv": CANVAS_GRADEBOOK}, "1 Canvas gradebook (2026-12-01T0900_Grades-TP101.csv)"),
])
@pytest.mark.parametrize("container", ["folder", "zip"])
@pytest.mark.parametrize("lab", [[], ["--lab", "self_attention"]])
def test_a_class_without_submissions_is_refused_with_a_sentence(tmp_path, files, words, container, lab):
    source = write(tmp_path / "class", files)
    if container == "zip":
        source = tmp_path / "class.zip"
        source.write_bytes(zip_bytes(files))
    done = run("grade", source, "--out", tmp_path / "out", *lab)
    assert done.returncode == 2 and not (tmp_path / "out").exists()
    assert "no submissions in" in done.stderr and words in done.stderr and "Nothing was graded" in done.stderr
    assert "several labs" not in done.stderr and "Traceback" not in done.stderr


def test_check_of_a_folder_or_an_empty_file_says_what_to_do(tmp_path):
    folder = run("check", tmp_path)
    assert folder.returncode == 2 and "is a folder" in folder.stderr and "autograder grade" in folder.stderr
    empty = write(tmp_path, {"empty.py": b""}) / "empty.py"
    unnamed = run("check", empty)
    assert unnamed.returncode == 2 and "is empty: there is nothing to grade" in unnamed.stderr
    named = run("check", empty, "--lab", "self_attention", "--lang", "en")
    assert named.returncode == 1 and named.stdout.count("The submission is empty.") == 1


# LMS sheets and hand-made zips among the submissions --------------------------------------------

def test_a_canvas_gradebook_zipped_with_the_submissions_is_no_student(tmp_path):
    archive = tmp_path / "submissions.zip"
    archive.write_bytes(zip_bytes({"kimminsu_10231_55001_attention.py": LAB1,
                                   "leejiwon_10232_55002_attention.ipynb": LAB1_NOTEBOOK,
                                   "2026-12-01T0900_Grades-TP101.csv": CANVAS_GRADEBOOK}))
    out = tmp_path / "out"
    done = run("grade", archive, "--out", out, "--lang", "en", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    rows = rows_of(out)
    assert sorted(r["id"] for r in rows) == ["10231", "10232"]
    assert "1 LMS or TA file(s) listed in the report" in done.stdout and "2 students (3 files)" in done.stdout
    report = (out / "report.html").read_text("utf-8")
    assert "2026-12-01T0900_Grades-TP101.csv" in report and "LMS grade sheet: Canvas gradebook" in report
    assert sorted(p.name for p in (out / "results").iterdir()) == ["10231.json", "10232.json"]


@pytest.mark.parametrize("header, kind", [
    ("Identifier,\"Full name\",\"Email address\",Status,Grade,\"Maximum Grade\"", "Moodle grading worksheet"),
    ('"Last Name","First Name","Username","Student ID","Last Access","Availability"', "Blackboard Grade Center sheet"),
    ("First Name,Last Name,SID,Email,Sections,Total Score,Max Points,Status", "Gradescope grade sheet"),
    ("Student,ID,SIS User ID,SIS Login ID,Section", "Canvas gradebook"),
])
def test_lms_sheets_are_told_by_their_headers(header, kind):
    from autograder.lms.recognise import sheet_kind

    assert sheet_kind((header + "\r\nrow,1\r\n").encode()) == kind
    assert sheet_kind(b"\xff\xfe" + (header.replace(",", "\t") + "\r\n").encode("utf-16-le")) == kind  # tab, UTF-16
    assert sheet_kind((header + ",최대 성적").encode("cp949")) == kind  # Korean Excel
    assert sheet_kind((header + ",최대 성적").encode()[:-1]) == kind  # the head read ends inside a character
    assert sheet_kind(header.upper().replace(" ", "  ").encode()) == kind  # case and spacing do not count


HAND_ZIPS = {
    "top": {"attention.py": LAB1},
    "in a folder, with what macOS adds": {"lab/attention.py": LAB1, "__MACOSX/lab/._attention.py": b"\0\5",
                                          "lab/.DS_Store": b"\0", "lab/data.csv": b"1,2\n"},
    "a notebook with its checkpoint": {"attention.ipynb": LAB1_NOTEBOOK,
                                       ".ipynb_checkpoints/attention-checkpoint.ipynb": LAB1_NOTEBOOK},
}


@pytest.mark.parametrize("members", HAND_ZIPS.values(), ids=HAND_ZIPS.keys())
def test_a_file_zipped_by_hand_is_graded_as_that_file_in_every_face(tmp_path, members, monkeypatch):
    from autograder.otter import gradescope

    inner = next(name for name in members if name.endswith((".py", ".ipynb")) and "checkpoint" not in name)
    alone = write(tmp_path / "alone", {pathlib.Path(inner).name: members[inner]}) / pathlib.Path(inner).name
    expected = json.loads(run("check", alone, "--json").stdout)["score"]
    assert expected > 0
    archive = tmp_path / "mine.zip"
    archive.write_bytes(zip_bytes(members))
    checked = run("check", archive, "--json")
    assert checked.returncode in (0, 1) and json.loads(checked.stdout)["score"] == expected
    root = write(tmp_path / "class", {"kim_10231_1_mine.zip": archive.read_bytes()})
    graded = run("grade", root, "--out", tmp_path / "out", "--jobs", "1")
    assert graded.returncode == 0, graded.stderr
    [row] = rows_of(tmp_path / "out")
    assert row["status"] == "graded" and float(row["total"]) == expected
    lms = write(tmp_path / "gradescope", {"source/otter_config.json": b"{}", "submission/mine.zip": archive.read_bytes()})
    (lms / "results").mkdir()
    monkeypatch.setenv("AUTOGRADER_ROOT", str(lms))
    assert gradescope.main() == 0
    assert json.loads((lms / "results" / "results.json").read_text("utf-8"))["score"] == expected


def test_lms_sheet_helpers_do_not_match_code():
    from autograder.lms.recognise import sheet_kind

    assert sheet_kind(b"def softmax(x):\n    return x\n") == ""
    assert sheet_kind(b"name,score\nkim,3\n") == "" and sheet_kind(b"") == "" and sheet_kind(b"\x00\x01") == ""


def test_a_zip_with_no_single_file_to_grade_says_how_to_submit(tmp_path):
    two = tmp_path / "two.zip"
    two.write_bytes(zip_bytes({"a.ipynb": LAB1_NOTEBOOK, "b.py": LAB1}))
    done = run("check", two)
    assert done.returncode == 2 and "2 .ipynb or .py files in the zip" in done.stderr
    assert "give the .py or .ipynb file itself" in done.stderr


# A file that is not code: one sentence, in every face --------------------------------------------

SENTENCE = {"en": "is not a notebook (.ipynb) or a Python file (.py), so it cannot be graded",
            "ko": "파일은 노트북(.ipynb)이나 파이썬 파일(.py)이 아니어서 채점할 수 없습니다"}


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("name, data", [("report.docx", DOCX), ("report.pdf", PDF), ("notes.txt", LAB1)])
def test_a_file_that_is_not_code_gets_one_sentence_everywhere(tmp_path, lang, name, data, monkeypatch):
    from autograder.otter import gradescope

    path = write(tmp_path / "one", {name: data}) / name
    unnamed = run("check", path)  # several labs installed, and the file cannot say which
    assert unnamed.returncode == 2 and "give the .ipynb or .py file" in unnamed.stderr
    text = run("check", path, "--lab", "self_attention", "--lang", lang)
    assert text.returncode == 1 and text.stdout.count(SENTENCE[lang]) == 1
    assert "Hint" not in text.stdout and "힌트" not in text.stdout and "syntax" not in text.stdout
    report = json.loads(run("check", path, "--lab", "self_attention", "--lang", lang, "--json").stdout)
    assert json.dumps(report, ensure_ascii=False).count(SENTENCE[lang]) == 1
    assert [n["code"] for n in report["notes"]] == ["not_code"]
    root = write(tmp_path / "class", {f"kim_10231_1_{name}": data, "lee_10232_2_attention.py": LAB1})
    out = tmp_path / "out"
    done = run("grade", root, "--out", out, "--lang", lang, "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert {r["id"]: r["status"] for r in rows_of(out)}["10231"] == "broken: not_code"
    for part in ("feedback/10231.md", "feedback/10231.html", "results/10231.json"):
        shown = (out / part).read_text("utf-8")
        if part.endswith(".json"):
            results = json.loads(shown)
            shown = results["output"] + "".join(t["output"] for t in results["tests"])
        assert shown.count(SENTENCE[lang]) == 1, part
    lms = write(tmp_path / "gradescope", {"source/otter_config.json": json.dumps(
        {"plugins": [{"autograder.otter.plugin.EngineGrading": {"lang": lang, "lab": "self_attention"}}]}).encode(),
        f"submission/{name}": data})
    (lms / "results").mkdir()
    monkeypatch.setenv("AUTOGRADER_ROOT", str(lms))
    assert gradescope.main() == 0
    results = json.loads((lms / "results" / "results.json").read_text("utf-8"))
    # The LMS's entry point takes only .ipynb, .py or .zip files: it says none was found, once
    # in the output and once in the public tests, never per step.
    sentence = results["output"].strip().splitlines()[-1].strip()
    assert results["score"] == 0 and name in sentence
    assert results["tests"][0]["output"].count(sentence) == 1
    assert not any(sentence in t["output"] for t in results["tests"][1:])


# The rule, as data --------------------------------------------------------------------------------

from hypothesis import given, strategies as st  # noqa: E402


@given(st.lists(st.sampled_from(["self_attention", "masked_attention", None]), max_size=12))
def test_the_lab_the_files_lead_to_is_never_refused_and_a_lab_they_do_not_is(said):
    from autograder.registry import Tally

    tally = Tally.of(said)
    assert tally.total == len(said)
    leader = tally.leader()
    for name in ("self_attention", "masked_attention"):
        own, other = said.count(name), max((said.count(n) for n in ("self_attention", "masked_attention") if n != name))
        assert bool(tally.rivals(name)) == (other > own)  # refused: another lab has more votes
        # One more vote for the other lab (one student's file) never turns a tie or better into a refusal.
        if other <= own:
            assert not Tally.of([*said, None]).rivals(name)
        if name == leader:
            assert tally.rivals(name) == []  # what `grade` without --lab picks, it never refuses
    described = tally.describe("self_attention")
    assert f"{said.count('self_attention')} " in described and (f"{said.count(None)} for no lab" in described
                                                                  or None not in said)
