"""`autograder grade` speaks the TA's language (--lang) on every face after grading: the summary
line, the progress lines, every note and warning it prints, report.html and the statuses it shows.

Each message is made in Korean and in English from the same generated inputs (ids, paths, counts):
no English sentence of the English message is left in the Korean one, and the Korean one is
Korean. The CLI runs are in tests/batch/test_batch.py, tests/batch/slow/test_after_grading.py and
tests/lms/test_lms_timezone.py (their assertions read the Korean a default run prints).
"""
import re
from datetime import datetime, timedelta, timezone

from hypothesis import given, settings, strategies as st

from autograder.batch import Reused, _summary
from autograder.batch.run_notes import (lookalike_note, merged_warning, pattern_warning, stale_warning, stray_note,
                                        zone_message)
from autograder.batch.collect import NOT_LMS_NAMED, Student
from autograder.batch.source import Entry
from autograder.batch.late import StatedZone, lms_zone
from autograder.batch.overrides import review_warning
from autograder.batch.progress import PlainProgress
from autograder.core.render.messages import Messages
from autograder.said import said as sentence

KO, EN = Messages("ko"), Messages("en")
HANGUL = re.compile("[가-힣]")
# What the messages carry from outside: ids and paths made of these, never English words.
names = st.text(alphabet="abcxyz0123456789_./가나다", min_size=1, max_size=12)
counts = st.integers(0, 30)


def english_sentences(text):
    """Every run of four English words in `text` (an untranslated sentence shows as one); the
    command's name and its options are names, not words."""
    words = re.findall(r"[A-Za-z']+", re.sub(r"autograder:|--[\w-]+", " ", text))
    return {" ".join(words[i:i + 4]) for i in range(len(words) - 3)}


def assert_said_in_korean(korean, english, *inserted):
    """No English sentence of `english` in `korean`, once the inserted values are taken out of both."""
    for value in sorted(inserted, key=len, reverse=True):  # where it stands alone, never inside a word
        alone = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(value)}(?![A-Za-z0-9_])")
        korean, english = alone.sub(" ", korean), alone.sub(" ", english)
    left = english_sentences(korean) & english_sentences(english)
    assert not left, left
    assert all(HANGUL.search(line) for line in korean.splitlines() if line.startswith("autograder:")), korean


def student(identifier, merged=(), lookalikes=()):
    entry = Entry(f"{identifier}.py", identifier, 0.0, 10)
    return Student(identifier, entry, merged=list(merged), lookalikes=list(lookalikes))


@settings(max_examples=60, deadline=None)
@given(ids=st.lists(names, min_size=1, max_size=25, unique=True), paths=st.lists(names, min_size=1, max_size=25),
       allowed=st.booleans(), moved=st.booleans())
def test_every_warning_after_grading_is_said_in_the_tas_language(ids, paths, allowed, moved):
    merged = [student(i, merged=["canvas kim", "canvas lee"]) for i in ids]
    stale = [f"results/{p}.json" for p in paths]
    lookalikes = [student(i, lookalikes=[(p, "canvas bob_10001") for p in paths[:4]]) for i in ids]
    for make in (lambda say: merged_warning(merged, [ids[:2]], allowed, say),
                 lambda say: lookalike_note(lookalikes, say),
                 lambda say: pattern_warning(r"(\d+)", paths, len(paths) + 3, allowed, say=say),
                 lambda say: pattern_warning(r"(\d+)", paths, len(paths), False, stopped=True, say=say),
                 lambda say: stale_warning("out", stale, paths if moved else None, say)):
        assert_said_in_korean(make(KO), make(EN), *stale, *ids, *paths, "canvas kim", "canvas lee",
                              "canvas bob_10001", r"(\d+)")


@settings(max_examples=40, deadline=None)
@given(strays=st.lists(names, min_size=1, max_size=25), hours=st.integers(-12, 14))
def test_notes_about_the_lms_files_and_zones_are_said_in_the_tas_language(strays, hours):
    note = sentence("stray_file", "report", units=sentence("unit_and", "report",
                                                          first=sentence("unit_moodle_folders", "report"),
                                                          rest=sentence("unit_canvas_file_names", "report")))
    unit = Student("", None, ignored=[(Entry(p, "", 0.0, 1, metadata=NOT_LMS_NAMED, note=note), "why")
                                      for p in strays])
    assert_said_in_korean(stray_note([unit], KO), stray_note([unit], EN), *strays)
    assert "Moodle 폴더, Canvas 파일 이름" in stray_note([unit], KO)
    said = StatedZone(abbreviation="KST", offset=timedelta(hours=9), where="Lab 1_kim_attempt.txt")
    kim = Student("kim", Entry("a.py", "kim", 0.0, 1), lms_time="2026-03-01T10:00:00+00:00", stated_zone=said)
    due = datetime(2026, 3, 1, 9, tzinfo=timezone(timedelta(hours=hours)))
    zone = lms_zone(None, due.isoformat())
    for refused in (False, True):
        korean = zone_message([(kim, said, timedelta(hours=hours))], zone, due, refused, KO)
        english = zone_message([(kim, said, timedelta(hours=hours))], zone, due, refused, EN)
        assert_said_in_korean(korean, english, "Lab 1_kim_attempt.txt", "kim")


@settings(max_examples=40, deadline=None)
@given(numbers=st.lists(counts, min_size=12, max_size=12), seconds=st.floats(0.01, 1e4),
       reused=st.tuples(st.lists(names, max_size=3), st.lists(names, max_size=3)))
def test_the_summary_line_is_said_in_the_tas_language(numbers, seconds, reused):
    keys = ("students", "files", "graded", "broken", "errors", "superseded", "merged", "ignored", "lms_files",
            "no_file", "full", "mean")
    count = dict(zip(keys, numbers))
    count["mean"] = "7.50"
    records = [{"max_total": 10.0}] * (len(reused[0]) + len(reused[1]) + count["students"])
    korean = _summary(records, count, Reused(*map(list, reused)), seconds, "out/report.html", KO)
    english = _summary(records, count, Reused(*map(list, reused)), seconds, "out/report.html", EN)
    assert_said_in_korean("autograder: " + korean, english, "out/report.html")
    assert f"이번에 채점한 학생 {len(records) - len(reused[0]) - len(reused[1])}명" in korean


def test_the_review_warning_and_progress_lines_are_said_in_the_tas_language(capsys):
    records = [{"id": "s01", "overrides": [{"step": "softmax", "state": "review", "line": 2, "written_against": 1.0,
                                             "automatic": 2.0, "points": 1.5, "by": "김조교"}]}]
    korean, english = review_warning(records, "lab1/overrides.csv", KO), review_warning(records, "lab1/overrides.csv", EN)
    assert_said_in_korean(korean, english, "lab1/overrides.csv", "s01", "softmax", "김조교")
    assert "2번째 줄" in korean and "검토해야 합니다" in korean
    import sys
    progress = PlainProgress(2, sys.stderr, KO)
    progress.advance("s01 10/10")
    progress.advance("s02 5/10")
    assert capsys.readouterr().err.splitlines() == ["채점 1/2 (50%) 마지막: s01 10/10", "채점 2/2 (100%) 마지막: s02 5/10"]
