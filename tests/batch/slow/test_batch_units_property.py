"""Generated classes in every LMS layout: only the LMS's marks name a student, and nothing inside one
student's unit (its names, its nesting, metadata-looking or LMS-looking files, names of any length and
script) changes another student's row, the set of students, or the class's grades.csv."""
import csv
import html
import os
import pathlib
import subprocess
import sys
import tempfile
import unicodedata
import zipfile
from collections import Counter
from dataclasses import dataclass, replace

from hypothesis import assume, HealthCheck, given, settings, strategies as st

from autograder.core.render.text import one_line
from autograder.batch.collect import group_students
from autograder.batch.source import Source
from autograder.batch.naming import NAME_MAX, Naming, safe_id
from autograder.batch.run_files import ID_MAX_BYTES
from autograder.lms.blackboard import FILE_NAME as BLACKBOARD
from autograder.lms.canvas import FILE_NAME as CANVAS
from autograder.lms.moodle import FILE_PREFIX as MOODLE_PREFIX, FOLDER as MOODLE_FOLDER
from autograder.batch.spreadsheet import spreadsheet_text
from conftest import ROOT

SAMPLES = ROOT / "samples"
CORRECT = (SAMPLES / "correct.py").read_bytes()
STUB = (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_bytes()
MASKED = (ROOT / "solutions" / "masked_attention.py").read_bytes()
CONTENTS = (CORRECT, STUB, MASKED, b"{ not json", b"")

LAYOUTS = ("gradescope", "moodle", "canvas", "canvas_sections", "blackboard", "folders")
FOLDER_UNITS = ("gradescope", "moodle", "folders")  # layouts where a student names the files inside their unit


# Names ----------------------------------------------------------------------------------------------

CHARACTERS = st.one_of(
    st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.,'()[]#!@+=~"),
    st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),  # Hangul syllables
    st.sampled_from(["😀", "🎉", "👩‍💻", "🇰🇷", "é", "ß", "ø", "\u0301", "\u200b", "\u202e", "ㄱ", "한"]),
)


def normalized(text, form):
    return unicodedata.normalize(form, text)


def usable_part(text):
    return text not in ("", ".", "..") and not any(c in text for c in "/\\\0")


PLAIN = st.builds(normalized, st.lists(CHARACTERS, min_size=1, max_size=30).map("".join),
                  st.sampled_from(["NFC", "NFD"])).filter(usable_part)
# Long names: 120 to 330 bytes (a zip holds any; a disk at most 255 bytes per name).
LONG = st.builds(lambda unit, count: unit * count, st.sampled_from(["a", "가", "😀", "한글", "e\u0301"]),
                 st.integers(40, 110)).filter(usable_part)
EXTENSION = st.sampled_from([".py", ".ipynb", ".txt", ".yml", "", ".PY", ".docx"])
FAKE_ID = st.integers(1, 99999).map(str)
LETTERS = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), min_size=1, max_size=8)
DATE = st.builds(lambda d, h: f"2024-03-{d:02d}-{h:02d}-00-00", st.integers(1, 28), st.integers(0, 23))
ORIGINAL = st.one_of(PLAIN, LONG).flatmap(lambda stem: EXTENSION.map(lambda ext: stem + ext)).filter(usable_part)

# Names that look like the LMS's own marks, as a student may name their files and folders.
LOOKALIKE_FILE = st.one_of(
    st.builds(lambda n, i, f, o: f"{n}_{i}_{f}_{o}", LETTERS, FAKE_ID, FAKE_ID, ORIGINAL),
    st.builds(lambda n, i, f, o: f"{n}_LATE_{i}_{f}_{o}", LETTERS, FAKE_ID, FAKE_ID, ORIGINAL),
    st.builds(lambda n, i, o: f"{n}_{i}_assignsubmission_file_{o}", PLAIN, FAKE_ID, ORIGINAL),
    st.builds(lambda n, i: f"{n}_{i}_assignsubmission_onlinetext_onlinetext.html", LETTERS, FAKE_ID),
    st.builds(lambda u, d, o: f"Lab 1_{u}_attempt_{d}_{o}", LETTERS, DATE, ORIGINAL),
    st.builds(lambda u, d: f"Lab 1_{u}_attempt_{d}.txt", LETTERS, DATE),
    st.just("submission_metadata.yml"),
    st.sampled_from([".DS_Store", "._attention.py", "Thumbs.db"]),
).filter(usable_part)
LOOKALIKE_FOLDER = st.one_of(
    st.builds(lambda n, i: f"{n}_{i}_assignsubmission_file_", PLAIN, FAKE_ID),
    st.builds(lambda n, i: f"{n}_{i}_assignsubmission_onlinetext_", LETTERS, FAKE_ID),
    st.builds(lambda i: f"submission_{i}", FAKE_ID),
    st.sampled_from(["__MACOSX", ".ipynb_checkpoints", "section_A"]),
).filter(usable_part)

FILE_NAME = st.one_of(ORIGINAL, LOOKALIKE_FILE, LONG.map(lambda stem: stem + ".py"))
FOLDER_NAME = st.one_of(PLAIN, LONG, LOOKALIKE_FOLDER)


@st.composite
def unit_paths(draw, lms_names_on_top=True):
    """Paths inside one student's unit folder: 1 to 5 files, nested 0 to 2 folders deep."""
    paths = []
    for _ in range(draw(st.integers(1, 5))):
        folders = draw(st.lists(FOLDER_NAME, max_size=2))
        if folders or lms_names_on_top:
            name = draw(FILE_NAME)
        else:
            name = draw(st.one_of(ORIGINAL, LONG.map(lambda s: s + ".py")).filter(lambda n: not lms_named(n)))
        if folders and not lms_names_on_top:  # no LMS-looking folder directly in it either
            folders[0] = draw(st.one_of(PLAIN, LONG).filter(lambda n: not MOODLE_FOLDER.match(n)))
        paths.append("/".join([*folders, name]))
    return list(dict.fromkeys(paths))


def lms_named(name):
    return any(rule.match(name) for rule in (CANVAS, MOODLE_PREFIX, BLACKBOARD))


FLAT_ORIGINALS = st.lists(st.one_of(ORIGINAL, LOOKALIKE_FILE), min_size=1, max_size=4, unique=True)


# A class -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Student:
    key: str  # the LMS's id
    name: str  # the LMS's name ("" where it writes none)
    time: str  # the LMS's time ("" where it writes none; Blackboard's is per attempt)
    unit: tuple  # paths inside the unit folder, or originals after the LMS's prefix
    files: tuple  # (bytes, zip date_time) per unit path
    section: int = 0
    extra: tuple = ()  # per file: Canvas's LATE flag, Blackboard's attempt date


@dataclass(frozen=True)
class Class:
    layout: str
    students: tuple

    def members(self):
        """[(path, bytes, date_time)] as the LMS writes the class, and {path: the student's key}."""
        members, owner = [], {}

        def add(path, data, when, key):
            members.append((path, data, when))
            owner[path] = key

        if self.layout == "gradescope":
            lines = ["---"]
            for number, student in enumerate(self.students, 1):
                quoted = student.name.replace("'", "''")
                lines += [f":submission_{number}:", "  :submitters:", f"  - :name: '{quoted}'",
                          f"    :sid: '{student.key}'", f"  :created_at: {student.time}"]
                for path, (data, when) in zip(student.unit, student.files):
                    add(f"export/submission_{number}/{path}", data, when, student.key)
            add("export/submission_metadata.yml", "\n".join(lines).encode() + b"\n", (2024, 3, 9, 0, 0, 0), "")
        elif self.layout == "moodle":
            for student in self.students:
                folder = f"Lab 1/{student.name}_{student.key}_assignsubmission_file_"
                for path, (data, when) in zip(student.unit, student.files):
                    add(f"{folder}/{path}", data, when, student.key)
        elif self.layout == "folders":
            for student in self.students:
                for path, (data, when) in zip(student.unit, student.files):
                    add(f"class/{student.name}/{path}", data, when, student.key)
        elif self.layout in ("canvas", "canvas_sections"):
            for student in self.students:
                folder = f"sec{student.section}/" if self.layout == "canvas_sections" else "submissions/"
                for number, (original, (data, when), late) in enumerate(zip(student.unit, student.files,
                                                                            student.extra)):
                    lms = f"{student.name}{'_LATE' if late else ''}_{student.key}_{5000 + number}_"
                    add(f"{folder}{lms}{original}", data, when, student.key)
        elif self.layout == "blackboard":
            for student in self.students:
                for original, (data, when), date in zip(student.unit, student.files, student.extra):
                    add(f"Lab 1_{student.key}_attempt_{date}_{original}", data, when, student.key)
                for date in sorted(set(student.extra)):
                    receipt = f"Name: {student.name} ({student.key})\nAssignment: Lab 1\n".encode()
                    add(f"Lab 1_{student.key}_attempt_{date}.txt", receipt, (2024, 3, 1, 0, 0, 0), student.key)
        return members, owner


FILE = st.tuples(st.sampled_from(CONTENTS), st.builds(lambda d, h: (2024, 3, d, h, 0, 0), st.integers(1, 9),
                                                        st.integers(0, 23)))


@st.composite
def students_of(draw, layout, count, planter_free=True):
    """`count` students of one layout; in a TA's folders, only the first (the one the tests change)
    may put LMS-looking names directly in their folder (see the section-folder rule)."""
    keys = draw(st.lists(st.integers(10000, 99999).map(str), min_size=count, max_size=count, unique=True))
    if layout == "blackboard":
        keys = [f"u{key}" if n % 2 else f"stu_{key}" for n, key in enumerate(keys)]
    students = []
    for index, key in enumerate(keys):
        if layout in FOLDER_UNITS:
            unit = draw(unit_paths(lms_names_on_top=planter_free or index == 0 or layout != "folders"))
        else:
            unit = draw(FLAT_ORIGINALS)
        files = tuple(draw(FILE) for _ in unit)
        name, time, extra, section = "", "", (), 0
        if layout == "gradescope":
            name = draw(PLAIN.filter(lambda n: "\n" not in n and n.strip() == n))
            time = f"2024-03-0{draw(st.integers(1, 9))} 12:00:00.000000000 +09:00"
        elif layout == "moodle":
            name = draw(st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz 김민수이지원"),
                                min_size=1, max_size=12).filter(lambda n: n.strip()))
        elif layout == "folders":
            name = draw(st.one_of(PLAIN, LONG).filter(
                lambda n: safe_id(n) not in {safe_id(s.name) for s in students} and "assign" not in n
                and not n.startswith("submission_")))
        elif layout in ("canvas", "canvas_sections"):
            name = draw(LETTERS.filter(lambda n: n != "late")) + draw(st.sampled_from(["", "김", "민수"]))
            extra = tuple(draw(st.booleans()) for _ in unit)
            section = index % 2 if layout == "canvas_sections" else 0  # two sections of two students at least
        elif layout == "blackboard":
            name = draw(st.sampled_from(["Kim Minsu", "이지원", "O'Neil, Sam", "Park"]))
            extra = tuple(draw(DATE) for _ in unit)
        students.append(Student(key, name, time, tuple(unit), files, section, extra))
    return students


@st.composite
def classes(draw, layouts=LAYOUTS, sizes=(2, 5), planter_free=False):
    layout = draw(st.sampled_from(layouts))
    count = draw(st.integers(*sizes))
    if layout == "canvas_sections":
        count = max(count, 4)
    return Class(layout, tuple(draw(students_of(layout, count, planter_free))))


@st.composite
def changed_unit(draw, school):
    """The class and the same class with the first student's unit redrawn (files added, removed,
    renamed, renested, renamed like LMS marks), everything else the same."""
    first = school.students[0]
    if school.layout in FOLDER_UNITS:
        unit = tuple(draw(unit_paths()))
    else:
        unit = tuple(draw(FLAT_ORIGINALS))
    files = tuple(draw(FILE) for _ in unit)
    extra = first.extra
    if school.layout in ("canvas", "canvas_sections"):
        extra = tuple(draw(st.booleans()) for _ in unit)
    elif school.layout == "blackboard":
        extra = tuple(draw(DATE) for _ in unit)
    return replace(school, students=(replace(first, unit=unit, files=files, extra=extra), *school.students[1:]))


# Reading a class -----------------------------------------------------------------------------------

def write_zip(path, members):
    with zipfile.ZipFile(path, "w") as archive:
        for name, data, when in members:
            archive.writestr(zipfile.ZipInfo(name, when), data)
    return path


def write_folder(root, members):
    for name, data, when in members:
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root


def grouped(location):
    source = Source(location)
    try:
        return group_students(source)
    finally:
        source.close()


def entries(student):
    return ([student.chosen] if student.chosen is not None else []) + student.superseded + \
        [entry for entry, _ in student.ignored]


def row_facts(student):
    """What a student's rows say, but their scores: who, when, which file counts and why the others do not."""
    return (student.id, student.name, student.lms_time, student.lms_late,
            student.chosen.path if student.chosen is not None else None,
            tuple(e.path for e in student.superseded), tuple((e.path, reason) for e, reason in student.ignored),
            tuple(student.merged))


def fits_on_disk(school):
    """Every name within NAME_MAX bytes, and no file where another path needs a folder."""
    members, _ = school.members()
    names = [name for name, _, _ in members]
    folders = {"/".join(name.split("/")[:end]) for name in names for end in range(1, name.count("/") + 1)}
    return not folders & set(names) and all(len(part.encode()) <= NAME_MAX for name in names
                                            for part in name.split("/"))


def check_named_by_the_lms(school, students):
    """Every file exactly once, each under the student whose unit holds it, named as the LMS names them."""
    members, owner = school.members()
    files = Counter(e.path for s in students for e in entries(s))
    assert files == Counter(name for name, _, _ in members), "a file without a row, or with two"
    by_id = {s.id: s for s in students}
    expected = {safe_id(s.name if school.layout == "folders" else s.key): s for s in school.students}
    assert set(by_id) - {""} == set(expected), "students made up, or lost"
    assert all(len(i.encode()) <= ID_MAX_BYTES for i in by_id)
    for student_id, student in by_id.items():
        keys = {owner[e.path] for e in entries(student)}
        if not student_id:
            assert keys == {""}  # Gradescope's list, read and listed under no one
            continue
        lms = expected[student_id]
        assert keys == {lms.key}, f"{student_id} holds files of {keys}"
        assert not student.merged
        if school.layout in ("gradescope", "moodle", "canvas", "canvas_sections", "blackboard"):
            assert unicodedata.normalize("NFC", student.name) == unicodedata.normalize("NFC", lms.name).strip()
        if school.layout == "gradescope":
            assert student.lms_time == f"{lms.time[:10]}T12:00:00+09:00"
        elif school.layout != "blackboard":
            assert student.lms_time == ""
        if school.layout in ("moodle", "folders", "gradescope"):
            assert not student.lms_late


# The properties ------------------------------------------------------------------------------------

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(school=classes())
def test_every_file_is_its_units_students_in_a_zip_of_any_layout(school):
    with tempfile.TemporaryDirectory() as work:
        members, _ = school.members()
        check_named_by_the_lms(school, grouped(write_zip(pathlib.Path(work) / "class.zip", members)))


@SETTINGS
@given(school=classes().filter(fits_on_disk))
def test_every_file_is_its_units_students_in_a_folder_of_any_layout(school):
    with tempfile.TemporaryDirectory() as work:
        members, _ = school.members()
        check_named_by_the_lms(school, grouped(write_folder(pathlib.Path(work), members)))


@SETTINGS
@given(data=st.data(), school=classes(planter_free=False))
def test_changing_one_students_unit_changes_no_other_row(data, school):
    changed = data.draw(changed_unit(school))
    with tempfile.TemporaryDirectory() as work:
        before = grouped(write_zip(pathlib.Path(work) / "before.zip", school.members()[0]))
        after = grouped(write_zip(pathlib.Path(work) / "after.zip", changed.members()[0]))
    first = school.students[0]
    mine = safe_id(first.name if school.layout == "folders" else first.key)
    assert {s.id for s in before} == {s.id for s in after}
    others = {s.id: row_facts(s) for s in before if s.id not in (mine, "")}
    assert {s.id: row_facts(s) for s in after if s.id not in (mine, "")} == others
    if school.layout in FOLDER_UNITS:  # the unit's own facts come from the LMS alone
        [was] = [s for s in before if s.id == mine]
        [now] = [s for s in after if s.id == mine]
        assert (was.name, was.lms_time, was.lms_late) == (now.name, now.lms_time, now.lms_late)


@settings(max_examples=60, deadline=None)
@given(school=classes(layouts=("folders",), sizes=(3, 9), planter_free=True))
def test_planted_names_in_half_the_folders_or_fewer_keep_them_students_folders(school):
    members, _ = school.members()
    planters = len(Naming([name for name, _, _ in members]).several)
    if planters >= 2 and 2 * planters > len(school.students):
        return  # most folders hold several students' LMS names: read as sections (documented)
    with tempfile.TemporaryDirectory() as work:
        check_named_by_the_lms(school, grouped(write_zip(pathlib.Path(work) / "class.zip", members)))


# Through `autograder grade`: grades.csv always written, one row per file, names that fit, and one
# student's unit changes no other row (scores included) --------------------------------------------------

def grade(location, out):
    # --allow-other-lab: which lab the students' files look written for is the lab vote's rule
    # (tests/batch/test_slip_invariant.py); here every class is graded as the lab the TA names.
    command = [sys.executable, "-m", "autograder", "grade", str(location), "--out", str(out), "--jobs", "2",
               "--allow-merged-ids", "--lab", "self_attention", "--allow-other-lab", "--lang", "en"]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)


def read_grades(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


ROW = ("id", "name", "file", "submitted_at", "late", "total", "raw_total", "status")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                              HealthCheck.filter_too_much])
@given(data=st.data(), school=classes(sizes=(2, 3)))
def test_grade_writes_every_row_and_one_students_unit_changes_no_other_grade(data, school):
    changed = data.draw(changed_unit(school))
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        rows = {}
        for label, version in (("before", school), ("after", changed)):
            members, _ = version.members()
            done = grade(write_zip(work / f"{label}.zip", members), work / label)
            if done.returncode == 2 and "does not look like a class's submissions" in done.stderr:
                # A plain folder mostly of files that are no code is refused whole, nothing written
                # (batch.class_rule; its own invariant is tested in test_run_folder): not this test's case.
                assert not (work / label).exists()
                assume(False)
            assert done.returncode == 0, done.stderr
            table = read_grades(work / label)
            # Every file in exactly one place: a row of grades.csv, or the report's list of the
            # LMS's own files (the Gradescope list, receipts).
            received = Counter(spreadsheet_text(name) for name, _, _ in members)
            as_rows = Counter(r["file"] for r in table if not r["status"].startswith("no file"))
            assert as_rows <= received
            report = (work / label / "report.html").read_text("utf-8")
            assert all(html.escape(one_line(name)) in report for name in received - as_rows)
            names = [n for _, folders, files in os.walk(work / label) for n in folders + files]
            assert all(len(n.encode()) <= NAME_MAX for n in names)
            rows[label] = table
    first = school.students[0]
    mine = safe_id(first.name if school.layout == "folders" else first.key)
    others = [tuple(r[c] for c in ROW) for r in rows["before"] if r["id"] not in (mine, "")]
    assert sorted(tuple(r[c] for c in ROW) for r in rows["after"] if r["id"] not in (mine, "")) == sorted(others)
    assert {r["id"] for r in rows["before"]} == {r["id"] for r in rows["after"]}


# A task that cannot be made -------------------------------------------------------------------------

FAILURES = st.sampled_from([ValueError, KeyError, TypeError, RuntimeError, IndexError, AttributeError, MemoryError,
                            RecursionError, UnicodeError, ZeroDivisionError, LookupError, NotImplementedError])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(failure=FAILURES, message=st.text(max_size=40))
def test_a_task_that_cannot_be_made_is_graded_as_an_unreadable_file_whatever_the_error(failure, message):
    """Whatever goes wrong while a student's task is made, the task carries the problem's reason as
    a Detail (the error's type), a worker grades it as "broken: unreadable" (never as a grader
    failure), and the error's text reaches none of the student's files."""
    from types import SimpleNamespace

    from autograder.batch import _task_or_problem
    from autograder.batch.grader import finish, grade_task
    from autograder.core.reading.problems import detail
    from labs.self_attention import LAB

    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "class").mkdir()
        (root / "class" / "kim.py").write_bytes(CORRECT)
        source = Source(root / "class")
        try:
            [kim] = group_students(source)

            def read(entry, limit=0):
                raise failure("MARKER" + message)

            source.read = read
            late = {"late": False, "days": 0, "percent": 0.0, "submitted_at": "", "due": "", "policy": None}
            task = _task_or_problem(source, kim, {"lang": "ko", "late": {"kim": late}}, LAB)
        finally:
            source.close()
        assert task["problem"] == ("unreadable", detail("exception", type=failure.__name__))
        task["late"] = late
        result, status = grade_task(task, None, None, SimpleNamespace(lab=LAB))  # never reaches the sandbox
        out = root / "out"
        for sub in ("feedback", "results"):
            (out / sub).mkdir(parents=True)
        record = finish(task, result, status, str(out), LAB, "ko")
        assert record["status"] == "broken: unreadable" and record["total"] == 0
        written = "".join(path.read_text(encoding="utf-8") for path in out.rglob("kim.*"))
        assert failure.__name__ in written and "MARKER" not in written
