"""The course history is the runs' grades: `autograder history` takes each run's students and totals
from its grades.csv, with the rules `export` uses for a grade that must not be used (lms.graded.read_run,
one function both call), validates every results record, and never crashes on one."""
import csv
import io
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.cli import main
from autograder.lms.graded import read_run

STEPS = ("make_qkv", "scores")


def record(student, total, lab="self_attention", overrides=(), status="graded"):
    steps = {name: {"score": total / 2, "max_score": 5.0, "status": "passed" if total else "failed", "mistakes": []}
             for name in STEPS}
    return {"score": total, "extra_data": {"autograder": {
        "id": student, "file": f"{student}.py", "lab": lab, "status": status, "total": total, "raw_total": total,
        "max_total": 10.0, "steps": steps, "overrides": list(overrides)}}}


def review(line=2):
    return {"step": "scores", "points": 1.0, "automatic": 5.0, "written_against": 3.0, "comment": "감점", "by": "김조교",
            "line": line, "state": "review"}


def write_run(folder, rows, records, lab="self_attention"):
    """A run folder: grades.csv rows (id, total text, status) and results/<id>.json (a dict, or raw text)."""
    (folder / "results").mkdir(parents=True)
    (folder / "feedback").mkdir()
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["id", "name", "file", "total", "status", "lab"])
    for student, total, status in rows:
        writer.writerow([student, f"학생 {student}", f"{student}.py", total, status, lab])
    (folder / "grades.csv").write_text("\ufeff" + buffer.getvalue(), "utf-8")
    for student, data in records.items():
        text = data if isinstance(data, str) else json.dumps(data)
        (folder / "results" / f"{student}.json").write_text(text, "utf-8")
    return folder


def course_csv(course):
    with open(course / "history" / "course.csv", encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


def history(capsys, course, lang="en"):
    code = main(["history", str(course), "--lang", lang])
    return code, *capsys.readouterr()


def test_a_removed_submissions_old_record_is_no_course_member(tmp_path, capsys):
    write_run(tmp_path / "c" / "lab1", [("s01", "7.0", "graded")],
              {"s01": record("s01", 7.0), "s99": record("s99", 10.0)})
    code, out, err = history(capsys, tmp_path / "c")
    assert code == 0, err
    assert set(course_csv(tmp_path / "c")) == {"s01"} and not (tmp_path / "c" / "history" / "students" / "s99.html").exists()
    assert "of nobody in its grades.csv" in err and "s99" in err


def test_a_total_a_ta_edited_by_hand_is_reported_never_a_crash(tmp_path, capsys):
    edited = record("s02", 8.0)
    edited["extra_data"]["autograder"]["total"] = "9,5"  # a record edited by hand
    write_run(tmp_path / "c" / "lab1", [("s01", "9,5", "graded"), ("s02", "8.0", "graded"), ("s03", "6.0", "graded")],
              {"s01": record("s01", 7.0), "s02": edited, "s03": "{not json"})
    code, out, err = history(capsys, tmp_path / "c")
    assert code == 3, err
    rows = course_csv(tmp_path / "c")
    assert rows["s01"]["self_attention_total"] == "" and float(rows["s01"]["course_total"]) == 0
    assert "is not a number" in rows["s01"]["self_attention_status"]
    assert rows["s02"]["self_attention_total"] == "8.0" and float(rows["s03"]["course_total"]) == 6
    assert "total is not a number: '9,5'" in err and "s03" in err and "cannot read" in err
    page = (tmp_path / "c" / "history" / "students" / "s02.html").read_text("utf-8")
    assert "the steps cannot be shown" in page


def test_an_override_awaiting_review_is_withheld_as_export_withholds_it(tmp_path, capsys):
    """The TA penalised s01 (an override); s01 resubmitted, so the automatic result changed and the
    override awaits review: export withholds the grade, and so does the course history."""
    run = write_run(tmp_path / "c" / "lab1", [("s01", "10.0", "graded"), ("s02", "7.0", "graded")],
                    {"s01": record("s01", 10.0, overrides=[review()]), "s02": record("s02", 7.0)})
    code, out, err = history(capsys, tmp_path / "c")
    assert code == 3
    rows = course_csv(tmp_path / "c")
    assert rows["s01"]["self_attention_total"] == "" and float(rows["s01"]["course_total"]) == 0
    assert rows["s01"]["withheld"] == "1" and "override awaits review" in rows["s01"]["self_attention_status"]
    assert float(rows["s02"]["course_total"]) == 7 and rows["s02"]["withheld"] == "0"
    assert "s01 (self_attention): an override awaits review (overrides.csv line 2)" in err
    # The same rule as export's, by the same function.
    graded = read_run(str(run))
    assert graded["s01"].withheld is not None and graded["s02"].withheld is None
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)\n    Points Possible,,,,,10\n"
                     "가,90001,,s01,,3\n나,90002,,s02,,\n", "utf-8")
    assert main(["export", "canvas", str(run), "--lab", "self_attention", "--sheet", str(sheet), "--out",
                 str(tmp_path / "up.csv"), "--lang", "en"]) == 3
    assert "override awaits review" in capsys.readouterr().err


def test_history_speaks_the_tas_language(tmp_path, capsys):
    write_run(tmp_path / "c" / "lab1", [("s01", "10.0", "graded")], {"s01": record("s01", 10.0, overrides=[review()])})
    code, out, err = history(capsys, tmp_path / "c", "ko")
    assert code == 3 and "학생 1명" in out and "경고: 실습 성적 1개를 보류해" in err and "WARNING" not in err
    code, out, err = history(capsys, tmp_path / "nowhere", "ko")
    assert code == 2 and "폴더가 없습니다" in err and "아무 파일도 쓰지 않았습니다." in err


TOTALS = st.one_of(st.floats(0, 10).map(lambda x: f"{x:.2f}"), st.sampled_from(["9,5", "abc", "-1", "11", "nan", ""]))
RECORDS = st.sampled_from(["valid", "review", "missing", "not json", "wrong id", "string total", "list steps",
                           "no max", "bad override"])


def spec_record(student, total, kind):
    try:
        value = float(total)
    except ValueError:
        value = 5.0
    value = value if 0 <= value <= 10 else 5.0
    data = record(student, value, overrides=[review()] if kind == "review" else ())
    inner = data["extra_data"]["autograder"]
    if kind == "not json":
        return "{"
    if kind == "wrong id":
        inner["id"] = "someone"
    if kind == "string total":
        inner["total"] = str(value)
    if kind == "list steps":
        inner["steps"] = []
    if kind == "no max":
        del inner["max_total"]
    if kind == "bad override":
        inner["overrides"] = [{"line": "two"}]
    return data


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(students=st.lists(st.tuples(TOTALS, RECORDS, st.sampled_from(["graded", "error: the grader failed (x)"])),
                         min_size=1, max_size=6),
       stale=st.integers(0, 2))
def test_history_is_the_runs_grades_whatever_the_records_hold(tmp_path_factory, capsys, students, stale):
    course = tmp_path_factory.mktemp("course")
    rows, records = [], {}
    for n, (total, kind, status) in enumerate(students):
        student = f"s{n:02d}"
        rows.append((student, total, status))
        if kind != "missing":
            records[student] = spec_record(student, total, kind)
    for n in range(stale):
        records[f"gone{n}"] = record(f"gone{n}", 10.0)
    write_run(course / "lab1", rows, records)
    # Every graded row is a member: a total emptied by hand is withheld, never dropped.
    members = {student for student, _, _ in rows}
    code = main(["history", str(course), "--lang", "en"])
    capsys.readouterr()
    assert code in (0, 3)
    written = course_csv(course)
    assert set(written) == members  # the run's grades, never a stale record
    for student, total, status in rows:
        if student not in members:
            continue
        kind = students[int(student[1:])][1]
        try:
            number = float(total)
        except ValueError:
            number = None
        usable = (number is not None and number == number and 0 <= number <= 10 and not status.startswith("error")
                  and kind != "review")
        row = written[student]
        assert (row["withheld"] == "0") == usable, (row, kind)
        assert float(row["course_total"]) == (round(number, 2) if usable else 0.0)
    assert (code == 3) == any(row["withheld"] != "0" for row in written.values())
