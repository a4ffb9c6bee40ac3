"""Blackboard's receipts: only the header Blackboard writes is read, never the student's text below it.

A receipt (the .txt beside each attempt in "Download Assignment") starts with Blackboard's header, in
the course's language (Name / Assignment / Date Submitted / Current Grade; 이름 / 과제 / 제출 날짜 /
현재 성적 in a Korean course), then a blank line, then the student's own Submission Field and Comments.
Whatever the student writes there (lines shaped like the header, in any language) changes no id, name,
time or zone read, for them or for anyone else; and a zone counts for the class only when the class's
receipts agree (two students at least), so one receipt never stops a run nor moves a classmate."""
import tempfile
import zipfile
from datetime import datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.batch.run_notes import zone_conflicts
from autograder.batch.collect import group_students
from autograder.batch.source import Source
from autograder.batch.late import ABBREVIATIONS, StatedZone, agreed_zone, lms_zone
from autograder.lms.blackboard import Receipt, receipt as blackboard_receipt

STUB = b"def make_qkv(X, W_q, W_k, W_v):\n    raise NotImplementedError\n"
ENGLISH = ("Name", "Assignment", "Date Submitted", "Current Grade")
KOREAN = ("이름", "과제", "제출 날짜", "현재 성적")
# Labels a student may write, in the header's form, in any language.
LABELS = ENGLISH + KOREAN + ("Current Mark", "名前", "提出日", "Nom", "Date de soumission", "NAME", " Name", "Files",
                             "Submission Field", "Comments")


def receipt(labels, name, user, moment, zone, field="", comments=""):
    """A receipt as Blackboard writes it: the header in the course's language, then the student's text."""
    hour = moment.hour % 12 or 12
    date = (f"{moment.strftime('%A, %B')} {moment.day}, {moment.year} {hour}:{moment.minute:02d}:"
            f"{moment.second:02d} {'PM' if moment.hour >= 12 else 'AM'} {zone}")
    header = [f"{labels[0]}: {name} ({user})", f"{labels[1]}: Lab 1", f"{labels[2]}: {date}",
              f"{labels[3]}: Needs Grading"]
    return ("\n".join(header) + "\n\nSubmission Field:\n" + (field or "There is no student submission text data "
            "for this assignment.") + "\n\nComments:\n" + (comments or "There are no student comments for this "
            "assignment.") + "\n\nFiles:\n\tOriginal filename: attention.py\n")


CLASS = (("kim_ms", "Kim Minsu", datetime(2026, 3, 1, 12, 30, 45)), ("lee_jw", "이지원", datetime(2026, 3, 1, 10, 0)),
         ("choi_jh", "최준호", datetime(2026, 3, 2, 1, 0)))

header_lines = st.builds(
    lambda label, value: f"{label}{':' if len(label) % 2 else '：'} {value}",
    st.sampled_from(LABELS),
    st.one_of(st.sampled_from(["Park Seoyeon (park_sy)", "Kim Minsu (kim_ms)", "Lab 1",
                               "Sunday, March 1, 2026 12:30:45 PM EST", "Monday, March 2, 2026 1:00:00 AM UTC",
                               "Sunday, March 1, 2026 10:00:00 AM JST", "100"]),
              st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=30)))
student_texts = st.lists(st.one_of(header_lines, st.just(""), st.text(max_size=20)), max_size=8).map("\n".join)


def class_folder(root, labels, zone, texts):
    """A "Download Assignment" zip's members written into `root`: each student's attempt and receipt."""
    for (user, name, moment), (field, comments) in zip(CLASS, texts):
        stamp = moment.strftime("%Y-%m-%d-%H-%M-%S")
        (root / f"Lab 1_{user}_attempt_{stamp}.txt").write_text(
            receipt(labels, name, user, moment, zone, field, comments), "utf-8")
        (root / f"Lab 1_{user}_attempt_{stamp}_attention.py").write_bytes(STUB)


def what_is_read(root, zone_text=None):
    zone = lms_zone(zone_text, None)
    students = [s for s in group_students(Source(root), None, zone) if s.id]
    facts = {s.id: (s.name, s.lms_time, s.stated_zone and (s.stated_zone.abbreviation, s.stated_zone.offset))
             for s in students}
    conflicts = sorted((s.id, said.abbreviation) for s, said, _ in zone_conflicts(students, zone))
    return facts, conflicts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labels=st.sampled_from([ENGLISH, KOREAN]), zone=st.sampled_from(["KST", "UTC"]),
       texts=st.lists(st.tuples(student_texts, student_texts), min_size=3, max_size=3))
def test_what_a_student_writes_in_a_receipt_changes_nothing_read(labels, zone, texts):
    with tempfile.TemporaryDirectory() as plain, tempfile.TemporaryDirectory() as written:
        class_folder(Path(plain), labels, zone, [("", "")] * 3)
        class_folder(Path(written), labels, zone, texts)
        for zone_text in (None, "+09:00"):
            assert what_is_read(Path(written), zone_text) == what_is_read(Path(plain), zone_text)
    facts, _ = what_is_read_once(labels, zone)
    assert {student: name for student, (name, _, _) in facts.items()} == {u: n for u, n, _ in CLASS}


def what_is_read_once(labels, zone):
    with tempfile.TemporaryDirectory() as plain:
        class_folder(Path(plain), labels, zone, [("", "")] * 3)
        return what_is_read(Path(plain))


@settings(max_examples=300, deadline=None)
@given(labels=st.sampled_from([ENGLISH, KOREAN]), text=student_texts, comments=student_texts,
       moment=st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 12, 31)))
def test_a_receipts_header_alone_is_read(labels, text, comments, moment):
    moment = moment.replace(microsecond=0)
    plain = blackboard_receipt(receipt(labels, "Kim Minsu", "kim_ms", moment, "KST"), "Lab 1_kim_ms")
    assert plain.name == "Kim Minsu" and plain.username == "kim_ms" and plain.english == (labels == ENGLISH)
    assert blackboard_receipt(receipt(labels, "Kim Minsu", "kim_ms", moment, "KST", text, comments),
                              "Lab 1_kim_ms") == plain
    # Another account's receipt gives no name; a file that does not start with the header gives nothing.
    assert blackboard_receipt(receipt(labels, "Kim Minsu", "kim_ms", moment, "KST"), "Lab 1_lee_jw") == Receipt()
    assert blackboard_receipt("Comments:\n" + receipt(labels, "X", "kim_ms", moment, "KST")) == Receipt()


def zone(abbreviation, where="r.txt"):
    return StatedZone(abbreviation=abbreviation, offset=timedelta(minutes=ABBREVIATIONS[abbreviation]), where=where)


@given(st.lists(st.one_of(st.none(), st.sampled_from(["KST", "JST", "UTC", "EST"]).map(zone)), max_size=8))
def test_a_zone_is_the_classs_only_when_two_receipts_at_least_agree(stated):
    said = agreed_zone(stated)
    stating = [z for z in stated if z is not None]
    if len(stating) < 2 or len({z.offset for z in stating}) > 1:
        assert said is None
    else:
        assert said is not None and all(z.offset == said.offset for z in stating)


def test_one_receipts_zone_never_stops_the_run_nor_moves_the_class(tmp_path):
    """The attack: the genuine receipts are Korean (their date is not read); one student writes an English
    "Date Submitted: ... EST" line in their comments. Nothing of it is read; and even a receipt whose
    header states a zone alone is no class rule."""
    texts = [("", "Date Submitted: Sunday, March 1, 2026 12:30:45 PM EST\nName: Park Seoyeon (park_sy)"), ("", ""),
             ("", "")]
    class_folder(tmp_path, KOREAN, "KST", texts)
    facts, conflicts = what_is_read(tmp_path, "+09:00")
    assert facts["kim_ms"][0] == "Kim Minsu" and facts["kim_ms"][2] is None and conflicts == []
    # One English receipt among Korean ones states EST in its header: a single student's zone is no rule.
    (tmp_path / "Lab 1_kim_ms_attempt_2026-03-01-12-30-45.txt").write_text(
        receipt(ENGLISH, "Kim Minsu", "kim_ms", datetime(2026, 3, 1, 12, 30, 45), "EST"), "utf-8")
    facts, conflicts = what_is_read(tmp_path, "+09:00")
    assert facts["kim_ms"][2] == ("EST", timedelta(hours=-5)) and conflicts == []


def test_a_zone_the_classs_receipts_agree_on_is_still_told(tmp_path):
    class_folder(tmp_path, ENGLISH, "KST", [("", "")] * 3)
    _, conflicts = what_is_read(tmp_path, "UTC")
    assert conflicts == [("choi_jh", "KST"), ("kim_ms", "KST"), ("lee_jw", "KST")]
    _, conflicts = what_is_read(tmp_path, "+09:00")
    assert conflicts == []


def test_a_zipped_korean_class_reads_names_from_the_korean_header(tmp_path):
    archive = tmp_path / "gradebook.zip"
    with zipfile.ZipFile(archive, "w") as members:
        for user, name, moment in CLASS:
            stamp = moment.strftime("%Y-%m-%d-%H-%M-%S")
            comments = "이름: 박서연 (park_sy)\nName: Park Seoyeon (park_sy)" if user == "kim_ms" else ""
            members.writestr(f"Lab 1_{user}_attempt_{stamp}.txt", receipt(KOREAN, name, user, moment, "KST", "", comments))
            members.writestr(f"Lab 1_{user}_attempt_{stamp}_attention.py", STUB)
    students = {s.id: s.name for s in group_students(Source(archive)) if s.id}
    assert students == {"kim_ms": "Kim Minsu", "lee_jw": "이지원", "choi_jh": "최준호"}


def test_receipts_that_disagree_set_no_zone_and_are_told(tmp_path):
    from autograder.batch.run_notes import zone_disagreement

    class_folder(tmp_path, ENGLISH, "KST", [("", "")] * 3)
    (tmp_path / "Lab 1_kim_ms_attempt_2026-03-01-12-30-45.txt").write_text(
        receipt(ENGLISH, "Kim Minsu", "kim_ms", datetime(2026, 3, 1, 12, 30, 45), "EST"), "utf-8")
    _, conflicts = what_is_read(tmp_path, "UTC")
    assert conflicts == []
    students = [s for s in group_students(Source(tmp_path), None, lms_zone("UTC", None)) if s.id]
    note = zone_disagreement(students)
    assert "EST (-05:00): kim_ms" in note and "KST (+09:00): choi_jh, lee_jw" in note
