"""The TA's files beside an LMS export's units (a grade sheet in any language, notes) are the TA's,
never a student: listed with the reason, never a row of grades.csv. Generated exports of every LMS with
such files mixed in keep every student of the LMS's units, and no such file becomes a student; a .py,
.ipynb or .zip beside the units is still graded as the student its name says (never lost); a TA's own
layouts (a folder per student, a flat folder of student files) stay as they were, and one student's
file name never makes a class an export."""
import csv
import pathlib
import subprocess
import sys
import tempfile
import zipfile

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from autograder.batch.collect import NOT_LMS_NAMED, group_students
from autograder.batch.source import Source
from autograder.batch.naming import is_system_path, safe_id
from autograder.lms.blackboard import FILE_NAME as BLACKBOARD
from autograder.lms.canvas import FILE_NAME as CANVAS
from autograder.lms.moodle import FILE_PREFIX as MOODLE_PREFIX, FOLDER as MOODLE_FOLDER
from autograder.lms.recognise import SHEET_KINDS
from test_batch_units_property import (CORRECT, LOOKALIKE_FILE, PLAIN, STUB, changed_unit, classes, entries,
                                       fits_on_disk, row_facts, write_folder, write_zip)
from conftest import ROOT

LMS_LAYOUTS = ("gradescope", "moodle", "canvas", "canvas_sections", "blackboard")
# Where a layout's units sit (the folder a TA's file is put beside them in).
BESIDE = {"gradescope": "export/", "moodle": "Lab 1/", "canvas": "submissions/", "canvas_sections": "",
          "blackboard": ""}

KOREAN_WORKSHEET = ('식별자,성명,"이메일 주소",상태,성적,"최대 성적","성적 변경 가능","최종 수정 일시 (제출)",'
                    '"최종 수정 일시 (성적)","피드백 코멘트"\n"참가자 123456","Kim Minsu",minsu@example.ac.kr,'
                    '"채점을 위해 제출됨",,10.00,예,"2026년 3월 1일 (일요일) 오전 10:00",-,\n').encode()
# A worksheet in a language no recogniser knows (Moodle in Japanese), a TA's notes, code, nothing.
JAPANESE_WORKSHEET = '識別子,氏名,メールアドレス,ステータス,評点,最高評点\n"参加者 123456",Kim,k@x,提出済み,,10.00\n'.encode()
STRAY_CONTENTS = (KOREAN_WORKSHEET, JAPANESE_WORKSHEET, "박서연: 다시 받기로 함\n".encode(), CORRECT, STUB, b"",
                  b"PK\x03\x04 not really a zip", "Identifier,Full name,Grade,Maximum grade\n".encode())
CODE_EXTENSIONS = (".py", ".ipynb", ".zip")
STRAY_EXTENSIONS = st.sampled_from([".csv", ".txt", ".xlsx", ".md", ".docx", ".pdf", ""])


def lms_named(name):
    return any(rule.match(name) for rule in (CANVAS, MOODLE_PREFIX, BLACKBOARD))


def unnamed(extensions):
    """File names the LMS did not write, ending in one of `extensions`."""
    return st.builds(lambda stem, ext: stem + ext, PLAIN, extensions).filter(
        lambda n: not lms_named(n) and not is_system_path(n) and not MOODLE_FOLDER.match(n)
        and n != "submission_metadata.yml" and n.strip(". ") == n and "/" not in n)


STRAY_NAME = unnamed(STRAY_EXTENSIONS)
CODE_NAME = unnamed(st.sampled_from(CODE_EXTENSIONS))


@st.composite
def with_strays(draw, layouts=LMS_LAYOUTS):
    """An LMS export and files the LMS did not name, put beside its units (in a section folder too,
    for sections): [(path, bytes, date_time)]."""
    school = draw(classes(layouts=layouts))
    # Beside the LMS's own folders any number; beside LMS-named files fewer than the students.
    most = 4 if school.layout in ("gradescope", "moodle") else len(school.students) - 1
    count = draw(st.integers(1, most))
    names = draw(st.lists(STRAY_NAME, min_size=count, max_size=count, unique_by=lambda n: n.casefold()))
    strays = []
    for name in names:
        folder = BESIDE[school.layout]
        if school.layout == "canvas_sections" and draw(st.booleans()):
            folder = "sec0/"
        strays.append((folder + name, draw(st.sampled_from(STRAY_CONTENTS)), (2024, 3, 9, 9, 0, 0)))
    return school, strays


def grouped(location):
    source = Source(location)
    try:
        return group_students(source)
    finally:
        source.close()


def check_strays_listed(school, strays, students):
    """Every student of the LMS's units keeps their row; every stray file is the class's, listed with
    a reason, never a student; nothing else changed from the class without them."""
    expected = {safe_id(s.key) for s in school.students}
    assert {s.id for s in students} - {""} == expected, "a student lost, or a stray file made a student"
    stray_paths = {path for path, _, _ in strays}
    by_path = {e.path: (s, e) for s in students for e in entries(s)}
    for path in stray_paths:
        owner, entry = by_path[path]
        assert owner.id == "", f"{path} became {owner.id!r}"
        assert entry.metadata == NOT_LMS_NAMED or entry.metadata in SHEET_KINDS, (path, entry.metadata)
        reason = dict((e.path, r) for e, r in owner.ignored)[path]
        assert str(reason).startswith(("not a submission: a file the LMS did not name", "LMS grade sheet")), reason
    for student in students:
        if student.id:
            assert not stray_paths & {e.path for e in entries(student)}


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(generated=with_strays())
def test_files_the_lms_did_not_name_beside_its_units_are_never_students_in_a_zip(generated):
    school, strays = generated
    members, _ = school.members()
    with tempfile.TemporaryDirectory() as work:
        with_them = grouped(write_zip(pathlib.Path(work) / "with.zip", members + strays))
        without = grouped(write_zip(pathlib.Path(work) / "without.zip", members))
    check_strays_listed(school, strays, with_them)
    assert sorted(row_facts(s) for s in with_them if s.id) == sorted(row_facts(s) for s in without if s.id)


@SETTINGS
@given(generated=with_strays().filter(lambda g: fits_on_disk(g[0])))
def test_files_the_lms_did_not_name_beside_its_units_are_never_students_in_a_folder(generated):
    school, strays = generated
    members, _ = school.members()
    assume(all(len(part.encode()) <= 255 for path, _, _ in strays for part in path.split("/")))
    with tempfile.TemporaryDirectory() as work:
        check_strays_listed(school, strays, grouped(write_folder(pathlib.Path(work), members + strays)))


@SETTINGS
@given(generated=with_strays(), code=st.lists(CODE_NAME, min_size=1, max_size=3, unique_by=lambda n: n.casefold()))
def test_code_beside_the_units_is_still_graded_as_a_student(generated, code):
    """A .py, .ipynb or .zip the LMS did not name may be a student's file the TA added by hand: it is
    never the TA's, and every student of the LMS's units keeps their row."""
    school, strays = generated
    members, _ = school.members()
    folder = BESIDE[school.layout]
    added = [(folder + name, CORRECT, (2024, 3, 9, 9, 0, 0)) for name in code]
    assume(not {p.casefold() for p, _, _ in added} & {p.casefold() for p, _, _ in members + strays})
    with tempfile.TemporaryDirectory() as work:
        students = grouped(write_zip(pathlib.Path(work) / "with.zip", members + strays + added))
    assert {safe_id(s.key) for s in school.students} <= {s.id for s in students}
    by_path = {e.path: s for s in students for e in entries(s)}
    for path, _, _ in added:
        assert by_path[path].id != "", f"{path} was taken for the TA's"
        assert next(e for e in entries(by_path[path]) if e.path == path).metadata != NOT_LMS_NAMED


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), generated=with_strays())
def test_one_students_unit_never_changes_what_the_tas_files_are(data, generated):
    """A student controls what is inside their unit (names like the LMS's marks included): never
    whether the files beside the units are the TA's."""
    school, strays = generated
    changed = data.draw(changed_unit(school))
    with tempfile.TemporaryDirectory() as work:
        before = grouped(write_zip(pathlib.Path(work) / "before.zip", school.members()[0] + strays))
        after = grouped(write_zip(pathlib.Path(work) / "after.zip", changed.members()[0] + strays))
    check_strays_listed(school, strays, before)
    check_strays_listed(changed, strays, after)
    listed = [(e.path, r) for s in before if not s.id for e, r in s.ignored]
    assert [(e.path, r) for s in after if not s.id for e, r in s.ignored] == listed


@st.composite
def flat_ta_folder(draw):
    """A TA's flat folder of students' files, each named by its student; one student named theirs
    like an LMS upload (a Canvas, Moodle or Blackboard name)."""
    names = draw(st.lists(CODE_NAME.filter(lambda n: n.endswith((".py", ".ipynb"))), min_size=1, max_size=5,
                          unique_by=lambda n: safe_id(n.rsplit(".", 1)[0]).casefold()))
    planted = draw(LOOKALIKE_FILE.filter(lambda n: lms_named(n) and n.endswith((".py", ".ipynb"))))
    return [f"class/{name}" for name in names], f"class/{planted}"


@settings(max_examples=100, deadline=None)
@given(generated=flat_ta_folder())
def test_one_students_lms_looking_name_never_makes_a_tas_flat_folder_an_export(generated):
    plain, planted = generated
    with tempfile.TemporaryDirectory() as work:
        with zipfile.ZipFile(pathlib.Path(work) / "class.zip", "w") as archive:
            for path in plain + [planted]:
                archive.writestr(path, CORRECT)
        students = grouped(pathlib.Path(work) / "class.zip")
    assert "" not in {s.id for s in students}, "a student's file was taken for the TA's"
    chosen = {s.chosen.path for s in students if s.chosen is not None}
    assert set(plain) <= chosen and planted in {e.path for s in students for e in entries(s)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(school=classes(layouts=("folders",), sizes=(2, 4)), name=STRAY_NAME, data=st.sampled_from(STRAY_CONTENTS))
def test_a_tas_folder_per_student_keeps_a_file_beside_the_folders_as_before(school, name, data):
    """Not an LMS's export: a file beside the TA's folders is read as it always was (a student named
    by the file, unless its header is an LMS's grade sheet)."""
    members, _ = school.members()
    with tempfile.TemporaryDirectory() as work:
        students = grouped(write_zip(pathlib.Path(work) / "class.zip", members + [(f"class/{name}", data,
                                                                                   (2024, 3, 9, 9, 0, 0))]))
    [(owner, entry)] = [(s, e) for s in students for e in entries(s) if e.path == f"class/{name}"]
    assert entry.metadata != NOT_LMS_NAMED
    assert owner.id != "" or entry.metadata in SHEET_KINDS


# Through `autograder grade`: the field's class (a Moodle download, the Korean worksheet and the TA's notes
# zipped in) ----------------------------------------------------------------------------------------------

def moodle_class(path, extra):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("Kim Minsu_123456_assignsubmission_file_/self_attention_lab.py", CORRECT)
        archive.writestr("Lee Jiwon_123457_assignsubmission_file_/attention.py", STUB)
        archive.writestr("박서연_123458_assignsubmission_file_/lab.py", CORRECT)
        for name, data in extra:
            archive.writestr(name, data)
    return path


def test_grade_lists_a_worksheet_in_any_language_and_the_tas_files_never_as_students(tmp_path):
    archive = moodle_class(tmp_path / "moodle.zip", [("성적-TP101-실습 1-123.csv", KOREAN_WORKSHEET),
                                                     ("評点.csv", JAPANESE_WORKSHEET),
                                                     ("채점 메모.txt", "메모".encode()),
                                                     ("late_student.py", CORRECT)])
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(archive), "--out", str(out),
                           "--jobs", "1", "--lang", "en"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    # The .py the TA added by hand is still a student (never lost); the rest are listed.
    assert sorted(r["id"] for r in rows) == ["123456", "123457", "123458", "late_student"]
    assert "4 students (7 files)" in done.stdout and "3 LMS or TA file(s) listed in the report" in done.stdout
    mean = sum(float(r["total"]) for r in rows) / len(rows)
    assert f"mean {mean:.2f}/10" in done.stdout  # the four students' mean: nobody else in it
    report = (out / "report.html").read_text("utf-8")
    assert "LMS grade sheet: Moodle grading worksheet, not a submission" in report  # the Korean one, by its header
    for name in ("評点.csv", "채점 메모.txt"):
        assert name in report
    assert report.count("not a submission: a file the LMS did not name, beside its Moodle folders") == 2
    assert "note: 2 file(s) beside the LMS's Moodle folders were not named by the LMS" in done.stderr
    assert "評点.csv" in done.stderr and "late_student.py" not in done.stderr


def test_an_id_pattern_names_a_file_beside_the_units_as_the_ta_says(tmp_path):
    archive = moodle_class(tmp_path / "moodle.zip", [("extra_123459.py", CORRECT)])
    source = Source(archive)
    try:
        students = {s.id: s for s in group_students(source, r"_(?P<id>\d+)[_.]")}
    finally:
        source.close()
    assert set(students) == {"123456", "123457", "123458", "123459"}


def test_a_moodle_class_of_one_keeps_a_file_beside_it_as_before(tmp_path):
    """One LMS unit is no evidence of an export (a TA's flat folder whose one student named a file
    like a Moodle upload would look the same)."""
    with zipfile.ZipFile(tmp_path / "one.zip", "w") as archive:
        archive.writestr("Kim Minsu_123456_assignsubmission_file_/lab.py", CORRECT)
        archive.writestr("kim.py", STUB)
    students = {s.id for s in grouped(tmp_path / "one.zip")}
    assert students == {"123456", "kim"}


def test_a_section_folders_file_the_lms_did_not_name_is_the_tas(tmp_path):
    with zipfile.ZipFile(tmp_path / "sections.zip", "w") as archive:
        for section, people in (("A", ((10231, "kim"), (10232, "lee"))), ("B", ((10233, "park"), (10234, "choi")))):
            for user, name in people:
                archive.writestr(f"section_{section}/{name}_{user}_{user + 500}_attention.py", CORRECT)
        archive.writestr("section_A/출석부.csv", "이름,학번\n김,1\n".encode())
    students = grouped(tmp_path / "sections.zip")
    assert {s.id for s in students} == {"", "10231", "10232", "10233", "10234"}
    [listed] = [s for s in students if not s.id]
    assert [e.path for e, _ in listed.ignored] == ["section_A/출석부.csv"]


def test_the_korean_moodle_worksheet_is_recognised_by_its_header_in_every_encoding():
    """The worksheet Moodle writes in Korean is Moodle's grading worksheet, whatever Excel saved it as."""
    from autograder.lms.recognise import sheet_kind

    text = KOREAN_WORKSHEET.decode("utf-8")
    for data in (text.encode("utf-8"), b"\xef\xbb\xbf" + text.encode("utf-8"), text.encode("cp949"),
                 b"\xff\xfe" + text.replace(",", "\t").encode("utf-16-le")):
        assert sheet_kind(data) == "Moodle grading worksheet"
    assert sheet_kind(JAPANESE_WORKSHEET) == ""  # no recogniser knows it: listed as the TA's file instead


def test_a_link_beside_the_units_stays_a_row_that_says_it_was_refused(tmp_path):
    """A refused file (a link, a device) is never quietly the TA's: it keeps its row and its reason."""
    root = tmp_path / "class"
    root.mkdir()
    for user, name in ((10231, "kim"), (10232, "lee"), (10233, "park")):
        (root / f"{name}_{user}_{user + 500}_attention.py").write_bytes(CORRECT)
    (root / "notes").symlink_to(tmp_path)
    (root / "채점 메모.txt").write_text("메모", "utf-8")
    students = {s.id: s for s in grouped(root)}
    assert set(students) == {"", "10231", "10232", "10233", "notes"}
    assert [e.path for e, _ in students[""].ignored] == ["채점 메모.txt"]
