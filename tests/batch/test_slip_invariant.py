"""The invariant "a TA's slip never becomes grades", over generated classes.

A class is generated for one lab (most of its code files are that lab's; a few students may have
sent the other lab's file, an empty file, a .docx or a PDF, or zipped their file by hand), with
files that are no submissions mixed in (the Canvas gradebook, .DS_Store, __MACOSX copies), in a
folder or a zip. The TA then runs `autograder grade` with the right --lab, the wrong one or none,
and `autograder export` into a Canvas sheet. Either the run stops with exit status 2 and nothing
is written into the LMS sheet, or every grade in the sheet is the one the right command gives
(each file graded alone for the class's lab). The run is never refused when the TA named the
right lab (or none) and the class has files of its lab, unless it is no LMS's export and more than
half of its students sent no code for any lab (then it is no class: batch.class_rule), and always
refused then.
"""
import csv
import io
import os
import tempfile
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograder.cli import main
from autograder.grading import grade_bytes
from autograder.grading.plan import Plan
from autograder.lms.sheet import points_text
from autograder.registry import load

from conftest import ROOT

SAMPLES = ROOT / "samples"
LABS = ("self_attention", "masked_attention")


def _zipped(name, data):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(f"lab/{name}", data)
        archive.writestr("__MACOSX/lab/._" + name, b"\0\5\26\7")
    return buffer.getvalue()


LAB1 = (ROOT / "solutions" / "self_attention.py").read_bytes()
# kind -> (file name, bytes, the lab whose functions it defines or None)
KINDS = {
    "lab1_right": ("attention.py", LAB1, "self_attention"),
    "lab1_stubs": ("attention.py", (ROOT / "assignments/self_attention/self_attention_lab.py").read_bytes(), "self_attention"),
    "lab1_half": ("attention.py", (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_bytes(), "self_attention"),
    "lab1_notebook": ("attention.ipynb", (SAMPLES / "leejiwon_10232_55002_attention.ipynb").read_bytes(),
                      "self_attention"),
    "lab1_zipped": ("mine.zip", _zipped("attention.py", LAB1), "self_attention"),
    "lab2_right": ("heads.py", (ROOT / "solutions" / "masked_attention.py").read_bytes(), "masked_attention"),
    "lab2_stubs": ("heads.py", (ROOT / "assignments/masked_attention/masked_attention_lab.py").read_bytes(),
                   "masked_attention"),
    "empty": ("attention.py", b"", None),
    "docx": ("report.docx", b"PK\x03\x04" + b"\0" * 26 + b"word/document.xml", None),
    "pdf": ("report.pdf", b"%PDF-1.4\n", None),
}
NOT_CODE = [kind for kind, (_, _, lab) in KINDS.items() if lab is None]
EXTRAS = {
    "gradebook": ("2026-12-01T0900_Grades-TP101.csv",
                  b"Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)\n    Points Possible,,,,,10\n"),
    "ds_store": (".DS_Store", b"\0\0\0\1Bud1"),
    "macosx": ("__MACOSX/._kim_2000_7000_attention.py", b"\0\5\26\7"),
}
_expected = {}


def expected_total(kind, lab_name, zygote):
    """What the right command gives this file: graded alone for the class's lab."""
    if (kind, lab_name) not in _expected:
        name, data, _ = KINDS[kind]
        _expected[(kind, lab_name)] = grade_bytes(name, data, zygote, Plan.build(load(lab_name))).score
    return _expected[(kind, lab_name)]


@st.composite
def classes(draw):
    lab = draw(st.sampled_from(LABS))
    other = next(name for name in LABS if name != lab)
    own = [kind for kind, (_, _, said) in KINDS.items() if said == lab]
    others = [kind for kind, (_, _, said) in KINDS.items() if said == other]
    kinds = draw(st.lists(st.sampled_from(own + NOT_CODE + others), min_size=1, max_size=4))
    mine = sum(KINDS[k][2] == lab for k in kinds)
    theirs = sum(KINDS[k][2] == other for k in kinds)
    if theirs >= mine and theirs:  # then the class is the other lab's: keep a minority only
        kinds = [k for k in kinds if KINDS[k][2] != other] or [own[0]]
    extras = draw(st.lists(st.sampled_from(sorted(EXTRAS)), unique=True, max_size=3))
    command = draw(st.sampled_from([lab, other, None]))
    return {"lab": lab, "other": other, "kinds": kinds, "extras": extras, "command": command,
            "zip": draw(st.booleans())}


def write_class(folder, generated):
    files = {}
    for number, kind in enumerate(generated["kinds"]):
        name, data, _ = KINDS[kind]
        files[f"s{number}_{2000 + number}_{7000 + number}_{name}"] = data  # Canvas's download names
    for extra in generated["extras"]:
        name, data = EXTRAS[extra]
        files[name] = data
    if generated["zip"]:
        path = folder / "submissions.zip"
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in files.items():
                archive.writestr(name, data)
        return path
    root = folder / "submissions"
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def canvas_sheet(path, ids):
    lines = ["Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)", "    Points Possible,,,,,10"]
    lines += [f"학생{n},{n},,,,55" for n in ids]  # an old grade in every cell
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode())
    return path


def sheet_grades(path):
    text = path.read_bytes().decode("utf-8-sig")
    return {line.split(",")[1]: line.split(",")[5] for line in text.strip().split("\r\n")[2:]}


@settings(max_examples=int(os.environ.get("SLIP_EXAMPLES", "12")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(classes())
def test_a_tas_slip_never_becomes_grades(zygote, generated):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        source = write_class(folder, generated)
        out, sheet, written = folder / "run", folder / "sheet.csv", folder / "import.csv"
        ids = [str(2000 + n) for n in range(len(generated["kinds"]))]
        canvas_sheet(sheet, ids)
        before = sheet.read_bytes()
        lab_flag = ["--lab", generated["command"]] if generated["command"] else []
        graded = main(["grade", str(source), "--out", str(out), "--jobs", "1", *lab_flag])
        # The TA fills the column of the lab they mean: --lab is the class's lab, whatever grade was told.
        exported = main(["export", "canvas", str(out), "--lab", generated["lab"], "--sheet", str(sheet),
                         "--out", str(written), "--allow-unmatched"])
        assert sheet.read_bytes() == before  # the downloaded sheet itself is never touched
        mine = sum(KINDS[k][2] == generated["lab"] for k in generated["kinds"])
        theirs = sum(KINDS[k][2] == generated["other"] for k in generated["kinds"])
        # Every student's file has Canvas's download name: two of them or more are an LMS's export, whose
        # students the LMS names (a broken submission is graded as broken); the class rule is for the rest.
        lms_export = len(generated["kinds"]) >= 2
        no_class = not lms_export and 2 * sum(KINDS[k][2] is None for k in generated["kinds"]) > len(generated["kinds"])
        if no_class:
            assert graded == 2, generated  # mostly not submissions: refused, whatever --lab says
        elif generated["command"] in (generated["lab"], None) and mine:
            assert graded == 0, generated  # the right command (or none) is never refused
        if generated["command"] == generated["other"] and mine and not no_class:
            assert graded == 2, generated  # the wrong lab, where the class's files say otherwise
        if graded == 2:
            assert not out.exists() and exported == 2 and not written.exists()
            return
        assert graded == 0
        if exported == 2:
            assert not written.exists()
            assert not mine or generated["command"] == generated["other"], generated
            return
        assert exported == 0
        with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
            graded_ids = [row["id"] for row in csv.DictReader(handle) if row["total"]]
        assert sorted(graded_ids) == sorted(ids)  # no file that is not a submission got a grade
        for student, kind in zip(ids, generated["kinds"]):
            right = expected_total(kind, generated["lab"], zygote)
            assert sheet_grades(written)[student] == points_text(right), (student, kind, generated)
