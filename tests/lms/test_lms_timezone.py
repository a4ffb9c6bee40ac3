"""Times an LMS writes without a zone (Blackboard's attempt names) are read in the course's zone, never in
the grading machine's by accident: `--lms-timezone`, else the offset of `--due`, else this computer's
zone (late.lms_zone, the one rule). The same class and the same command give the same late verdicts
on a machine in Seoul and on one in UTC; a deadline whose offset contradicts the zone Blackboard's
receipts state is refused before anything is written."""
import contextlib
import csv
import os
import subprocess
import sys
import time
import zipfile
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from autograder.batch.late import (ABBREVIATIONS, COMPUTER_ZONE, lateness, lms_zone, offset_text, parse_due,
                                   parse_zone, stated_zone)
from test_lms_layouts import CORRECT, ROOT, STUB, blackboard_attempt, zip_of

MACHINE_ZONES = ("UTC", "Asia/Seoul", "America/New_York", "Pacific/Chatham", "Asia/Kathmandu")


@contextlib.contextmanager
def machine_zone(name):
    """This process's zone (TZ) set to `name` inside the block, as a grading machine's clock would be."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = before
        time.tzset()


OFFSETS = st.integers(-12 * 60, 14 * 60).map(lambda minutes: timedelta(minutes=minutes))
MOMENTS = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 12, 31)).map(
    lambda moment: moment.replace(microsecond=0))


def verdict(due_text, zone_text, attempt_name_time):
    """What the grader decides for one attempt whose name gives `attempt_name_time` (naive ISO)."""
    zone = lms_zone(zone_text, due_text)
    due = parse_due(due_text, zone)
    return lateness(zone.localise(attempt_name_time), False, due)


@settings(max_examples=150, deadline=None)
@given(offset=OFFSETS, due=MOMENTS, attempt=MOMENTS, machine=st.sampled_from(MACHINE_ZONES),
       by=st.sampled_from(("due", "flag")))
def test_the_course_zone_stated_by_the_ta_decides_on_every_machine(offset, due, attempt, machine, by):
    """A deadline written with the course's offset (or a naive one with --lms-timezone) and an attempt name's
    naive time compare as wall-clock times of that zone, whatever zone the grading machine is in."""
    course = timezone(offset)
    with machine_zone(machine):
        if by == "due":
            decided = verdict(due.replace(tzinfo=course).isoformat(), None, attempt.isoformat())
        else:
            decided = verdict(due.isoformat(), offset_text(offset), attempt.isoformat())
    seconds = (attempt - due).total_seconds()
    expected = (True, -(-int(seconds) // 86400)) if seconds > 0 else (False, 0)
    assert decided == expected


@settings(max_examples=100, deadline=None)
@given(offset=OFFSETS, moment=MOMENTS, machine=st.sampled_from(MACHINE_ZONES))
def test_every_lms_time_leaves_with_the_offset_it_was_read_in(offset, moment, machine):
    with machine_zone(machine):
        zone = lms_zone(offset_text(offset), None)
        shown = datetime.fromisoformat(zone.localise(moment.isoformat()))
        assert shown.utcoffset() == offset and shown.replace(tzinfo=None) == moment
        # A time the LMS wrote with its offset (Gradescope's created_at) is never moved.
        aware = moment.replace(tzinfo=timezone(offset)).isoformat()
        assert lms_zone("Asia/Seoul", None).localise(aware) == aware
        # Without any statement of the zone, this computer's zone, with its offset shown.
        assert datetime.fromisoformat(COMPUTER_ZONE.localise(moment.isoformat())).tzinfo is not None


def test_zones_by_name_follow_their_rules_for_each_date():
    zone = lms_zone("America/New_York", None)
    assert zone.localise("2026-01-15T12:00:00").endswith("-05:00")
    assert zone.localise("2026-07-15T12:00:00").endswith("-04:00")
    assert lms_zone("Asia/Seoul", "2026-03-01T18:00").localise("2026-03-01T12:30:45") == "2026-03-01T12:30:45+09:00"


@pytest.mark.parametrize("text, label", [("Asia/Seoul", "Asia/Seoul"), ("+09:00", "+09:00"), ("+0900", "+09:00"),
                                         ("UTC+9", "+09:00"), ("UTC", "UTC"), ("Z", "UTC"), ("-03:30", "-03:30")])
def test_lms_timezone_forms(text, label):
    assert parse_zone(text)[1] == label


@pytest.mark.parametrize("text", ["KST", "Seoul", "+25:00", "+09:75", "../etc/passwd", "", "Asia/Nowhere"])
def test_lms_timezone_refuses_what_is_no_zone(text):
    with pytest.raises(ValueError, match="--lms-timezone"):
        parse_zone(text)


# Blackboard's receipts: "Date Submitted: Sunday, March 1, 2026 12:30:45 PM KST" ---------------------------

def receipt_line(moment, abbreviation):
    hour = moment.hour % 12 or 12
    return (f"Date Submitted: {moment.strftime('%A, %B')} {moment.day}, {moment.year} "
            f"{hour}:{moment.minute:02d}:{moment.second:02d} {'PM' if moment.hour >= 12 else 'AM'} {abbreviation}")


@settings(max_examples=200, deadline=None)
@given(moment=MOMENTS, abbreviation=st.sampled_from(sorted(ABBREVIATIONS)), shift=st.integers(1, 3600 * 30))
def test_a_receipts_zone_is_read_only_for_the_attempt_it_describes(moment, abbreviation, shift):
    receipt = f"Name: Kim Minsu (kim_ms)\nAssignment: Lab 1\n{receipt_line(moment, abbreviation)}\nCurrent Grade: -\n"
    said = stated_zone(receipt, moment.isoformat(), "r.txt")
    assert said is not None and said.abbreviation == abbreviation
    assert said.offset == timedelta(minutes=ABBREVIATIONS[abbreviation])
    # Another attempt's time (the receipt is not this attempt's) says nothing.
    assert stated_zone(receipt, (moment + timedelta(seconds=shift)).isoformat(), "r.txt") is None
    # An abbreviation of several zones (CST, IST, BST) is never read.
    assert stated_zone(receipt.replace(f" {abbreviation}\n", " CST\n"), moment.isoformat()) is None


# Through `autograder grade`, on a machine whose clock is UTC and on one in Seoul ----------------------------

def blackboard_class(path):
    zip_of(path, [
        *blackboard_attempt("kim_ms", "Kim Minsu", "2026-03-01-12-30-45", CORRECT),
        *blackboard_attempt("lee_jw", "Lee Jiwon", "2026-03-01-10-00-00", CORRECT),
        *blackboard_attempt("choi_jh", "Choi Junho", "2026-03-02-01-00-00", CORRECT),
    ])
    # Each receipt states its attempt's time in KST, as Blackboard writes it.
    with zipfile.ZipFile(path) as archive:
        members = [(info, archive.read(info)) for info in archive.infolist()]
    with zipfile.ZipFile(path, "w") as archive:
        for info, data in members:
            if info.filename.endswith(".txt"):
                stamp = datetime(*info.date_time)
                data = data.replace(b"Date Submitted: Friday, March 1, 2024 12:30:45 PM KST",
                                    receipt_line(stamp, "KST").encode())
            archive.writestr(info, data)
    return path


def grade_in(zone, *arguments):
    environment = dict(os.environ, TZ=zone)
    return subprocess.run([sys.executable, "-m", "autograder", "grade", *map(str, arguments), "--jobs", "1"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=environment)


def facts(out):
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return sorted((r["id"], r["submitted_at"], r["late"], r["total"]) for r in csv.DictReader(handle)
                      if r["status"] == "graded")


EXPECTED = [("choi_jh", "2026-03-02T01:00:00+09:00", "yes", "9.0"),
            ("kim_ms", "2026-03-01T12:30:45+09:00", "no", "10.0"),
            ("lee_jw", "2026-03-01T10:00:00+09:00", "no", "10.0")]


def test_a_blackboard_class_gets_the_same_grades_in_seoul_and_in_utc(tmp_path):
    archive = blackboard_class(tmp_path / "gradebook.zip")
    runs = {}
    for machine in ("UTC", "Asia/Seoul", "America/Los_Angeles"):
        out = tmp_path / f"out-{machine.replace('/', '-')}"
        done = grade_in(machine, archive, "--out", out, "--due", "2026-03-01T18:00+09:00", "--late-penalty", "10%/day")
        assert done.returncode == 0, done.stderr
        runs[machine] = facts(out)
    assert runs == {machine: EXPECTED for machine in runs}
    feedback = (tmp_path / "out-UTC" / "feedback" / "choi_jh.md").read_text("utf-8")
    assert "2026-03-02 01:00:00 +09:00" in feedback
    # --lms-timezone with a deadline written in UTC: the same instant, the same grades.
    out = tmp_path / "out-named"
    done = grade_in("UTC", archive, "--out", out, "--due", "2026-03-01T09:00Z", "--lms-timezone", "Asia/Seoul",
                    "--late-penalty", "10%/day")
    assert done.returncode == 0, done.stderr
    assert facts(out) == EXPECTED
    # A naive deadline on a machine in Seoul: both read in Korean time.
    out = tmp_path / "out-naive"
    done = grade_in("Asia/Seoul", archive, "--out", out, "--due", "2026-03-01T18:00", "--late-penalty", "10%/day")
    assert done.returncode == 0, done.stderr
    assert facts(out) == EXPECTED


def test_a_deadline_in_another_zone_than_the_receipts_is_refused_before_anything_is_written(tmp_path):
    archive = blackboard_class(tmp_path / "gradebook.zip")
    out = tmp_path / "out"
    done = grade_in("UTC", archive, "--out", out, "--due", "2026-03-01T09:00Z", "--late-penalty", "10%/day",
                    "--lang", "en")
    assert done.returncode == 2 and not out.exists()
    assert "KST" in done.stderr and "--lms-timezone +09:00" in done.stderr and "Nothing was graded" in done.stderr
    assert "--due 2026-03-01T09:00+09:00" in done.stderr  # the other reading, written out
    # The same refusal in the TA's language (Korean by default).
    done = grade_in("UTC", archive, "--out", out, "--due", "2026-03-01T09:00Z", "--late-penalty", "10%/day")
    assert done.returncode == 2 and not out.exists()
    assert "--lms-timezone +09:00 옵션을 주거나" in done.stderr and "아무것도 채점하지 않았습니다" in done.stderr
    assert "--due 2026-03-01T09:00+09:00 옵션으로" in done.stderr and "Nothing was graded" not in done.stderr
    # Without --due nothing depends on the zone: the times are read in this computer's, with a note.
    done = grade_in("UTC", archive, "--out", out, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "KST" in done.stderr and "--lms-timezone +09:00" in done.stderr
    assert {row[1][-6:] for row in facts(out)} == {"+00:00"}
    assert "Times are shown in UTC+00:00 (this computer&#x27;s time zone)." in (out / "report.html").read_text("utf-8")


# Times shown in the course's zone ------------------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(offset=OFFSETS, moment=MOMENTS, given_offset=OFFSETS, machine=st.sampled_from(MACHINE_ZONES),
       by=st.sampled_from(("due", "lms")))
def test_every_time_is_shown_as_the_same_moment_in_the_courses_zone(offset, moment, given_offset, machine, by):
    """A time with any offset (a file's time in this computer's zone, Gradescope's UTC) is shown in
    the zone of --due or --lms-timezone: the same instant, at the course's offset."""
    with machine_zone(machine):
        course = lms_zone(None, moment.replace(tzinfo=timezone(offset)).isoformat()) if by == "due" else \
            lms_zone(offset_text(offset), None)
        written = moment.replace(tzinfo=timezone(given_offset))
        shown = datetime.fromisoformat(course.shown(written.isoformat()))
        assert shown.utcoffset() == offset and shown == written
        # Without --due and --lms-timezone, this computer's zone: the same instant, its offset.
        local = datetime.fromisoformat(COMPUTER_ZONE.shown(written.isoformat()))
        assert local == written and local.utcoffset() == written.astimezone().utcoffset()
    assert course.shown("") == "" and course.shown("not a time") == "not a time"


@pytest.mark.parametrize("machine", ["UTC", "America/Los_Angeles"])
def test_canvas_and_folder_times_are_shown_in_the_zone_of_due_on_any_machine(tmp_path, machine):
    """A plain folder's file times and a Canvas zip's entry times are this computer's; with --due
    at +09:00 grades.csv, the report and the feedback show them at +09:00, the same instants."""
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "kim.py").write_bytes(CORRECT)
    stamp = datetime(2026, 3, 1, 9, 30, tzinfo=timezone.utc).timestamp()
    os.utime(folder / "kim.py", (stamp, stamp))
    canvas = tmp_path / "canvas.zip"
    with machine_zone(machine):  # a zip entry's time is a wall-clock time of the machine that wrote it
        local = datetime.fromtimestamp(stamp).timetuple()[:6]
    zip_of(canvas, [("lee_LATE_10232_55002_attention.py", CORRECT, local)])
    for source in (folder, canvas):
        out = tmp_path / f"out-{source.stem}"
        unknown = ("--allow-unknown-times",) if source == folder else ()  # a plain folder states no time
        done = grade_in(machine, source, "--out", out, "--due", "2026-03-01T12:00+09:00", "--late-penalty", "10%/day",
                        *unknown)
        assert done.returncode == 0, done.stderr
        (shown,) = {row[1] for row in facts(out)}
        assert shown == "2026-03-01T18:30:00+09:00", (source.name, shown)
        report = (out / "report.html").read_text("utf-8")
        assert "시각은 모두 UTC+09:00 기준으로 적었습니다(--due의 오프셋)." in report
    feedback = (tmp_path / "out-canvas" / "feedback" / "10232.md").read_text("utf-8")
    assert "2026-03-01 18:30:00 +09:00" in feedback and "2026-03-01 12:00:00 +09:00" in feedback  # the late note


def test_bad_lms_timezone_exits_2_before_anything_is_written(tmp_path):
    archive = zipfile.ZipFile(tmp_path / "c.zip", "w")
    archive.writestr("kim_10231_1_a.py", STUB)
    archive.close()
    done = grade_in("UTC", tmp_path / "c.zip", "--out", tmp_path / "out", "--lms-timezone", "Seoul")
    assert done.returncode == 2 and not (tmp_path / "out").exists()
    assert "--lms-timezone 'Seoul'" in done.stderr and "Asia/Seoul" in done.stderr


def test_a_students_own_date_line_in_a_korean_receipt_neither_stops_the_run_nor_moves_the_class(tmp_path):
    """Blackboard writes receipts in the course's language; a student who writes an English "Date Submitted:
    ... EST" line (and someone else's "Name:") in their comments is read for nothing."""
    from test_lms_receipts import CLASS, KOREAN, receipt

    archive = tmp_path / "gradebook.zip"
    with zipfile.ZipFile(archive, "w") as members:
        for user, name, moment in CLASS:
            stamp = moment.strftime("%Y-%m-%d-%H-%M-%S")
            comments = ("Date Submitted: Sunday, March 1, 2026 12:30:45 PM EST\nName: Park Seoyeon (park_sy)"
                        if user == "kim_ms" else "")
            members.writestr(f"Lab 1_{user}_attempt_{stamp}.txt", receipt(KOREAN, name, user, moment, "KST", "", comments))
            members.writestr(f"Lab 1_{user}_attempt_{stamp}_attention.py", CORRECT)
    out = tmp_path / "out"
    done = grade_in("UTC", archive, "--out", out, "--due", "2026-03-01T18:00+09:00", "--late-penalty", "10%/day")
    assert done.returncode == 0, done.stderr
    assert "EST" not in done.stderr
    assert facts(out) == EXPECTED
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        names = {row["id"]: row["name"] for row in csv.DictReader(handle)}
    assert names == {"kim_ms": "Kim Minsu", "lee_jw": "이지원", "choi_jh": "최준호"}
