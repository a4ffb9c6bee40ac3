"""Every refusal before anything is graded, and every reason report.html shows, in the TA's language.

The companion of tests/batch/test_ta_language.py (grade's messages after grading), with its rule: each
sentence made in Korean and in English from the same generated ids, paths and values, no English
sentence of the English one is left in the Korean one, and each line the command line prints is
Korean. Made by the code that refuses (batch, late, overrides, previous, registry, checking, build,
collect), never by filling the catalogs by hand.
"""
import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from autograder.batch.run_notes import no_submissions, pattern_refusal
from autograder.batch.collect import GRADESCOPE_LIST, NOT_LMS_NAMED, Student, ignored_reason
from autograder.batch.source import Entry
from autograder.batch.late import parse_due, parse_policy, parse_zone
from autograder.batch.overrides import OverridesRefused, parse_overrides
from autograder.batch.previous import PreviousRunError, read_previous_run
from autograder.batch.grades import ignored_status
from autograder.checking import read_for_check
from autograder.commands import CheckOptions, GradeOptions, LimitOptions, grade
from autograder.lms.recognise import SHEET_KINDS
from autograder.otter.out_folder import claim_out_folder
from autograder.otter.refusals import BuildError
from autograder.registry import LabMismatch, LabNotFound, Tally, Votes, choose, choose_lab, load
from autograder.core.render.messages import Messages
from autograder.said import Refusal, said
from autograder.core.reading.problems import detail

from test_ta_language import assert_said_in_korean

KO, EN = Messages("ko"), Messages("en")
names = st.text(alphabet="abcxyz0123456789_가나다", min_size=1, max_size=12)
LABS = ("self_attention", "masked_attention")


def said_both(refusal):
    """(Korean, English) of what the command line prints for a refusal."""
    return refusal.told(KO), refusal.told(EN)


def refused(make):
    with pytest.raises(Refusal) as caught:
        make()
    return caught.value


@settings(max_examples=30, deadline=None)
@given(name=names, text=st.text(alphabet="abc,/%:0123456789", min_size=1, max_size=12))
def test_a_slip_in_the_options_is_refused_in_the_tas_language(name, text):
    folder = tempfile.mkdtemp()
    missing = os.path.join(folder, name)
    slips = [lambda: grade(GradeOptions(submissions=missing, out=missing, jobs=0)),
             lambda: grade(GradeOptions(submissions=missing, out=missing, jobs=1, id_pattern="(" + name)),
             lambda: grade(GradeOptions(submissions=missing, out=missing, jobs=1)),
             lambda: grade(GradeOptions(submissions=missing, out=missing, jobs=1, late_penalty="10%/day")),
             lambda: LimitOptions(timeout=0).limits()]
    for bad in (text + "x", "10%/week" + text):
        slips.append(lambda bad=bad: parse_policy(bad))
    slips += [lambda: parse_policy("200%"), lambda: parse_due("2024-13-" + text), lambda: parse_zone("+25:00"),
              lambda: parse_zone("Seoul" + text)]
    try:
        re.compile("(" + name)
    except re.error as error:
        python_says = str(error)  # Python's own words about the pattern: a value, as a system error is
    for make in slips:
        korean, english = said_both(refused(make))
        assert_said_in_korean(korean, english, missing, name, text.strip(), repr(text), repr(text + "x"),
                              repr("10%/week" + text), repr("2024-13-" + text), repr("Seoul" + text), python_says)


@settings(max_examples=30, deadline=None)
@given(ids=st.lists(names, min_size=1, max_size=6, unique=True), steps=st.sampled_from(["softmax", "make_qkv"]))
def test_a_bad_overrides_csv_is_refused_row_by_row_in_the_tas_language(ids, steps):
    rows = ["id,step,points,comment,by"] + [f"{i},{steps},{n % 3 and 'two' or '9'},,{n}" for n, i in enumerate(ids)]
    rows.append(f"nobody,nostep,1,5,김조교")
    caught = refused(lambda: parse_overrides("\n".join(rows) + "\n", ids=ids[1:], steps={"softmax": 2.0}, lang="en"))
    assert isinstance(caught, OverridesRefused)
    korean, english = said_both(caught)
    assert_said_in_korean(korean, english, *ids, "nobody", "nostep", "softmax", "make_qkv", "김조교")
    header = refused(lambda: parse_overrides("id,points,what\n", ids=ids, steps={"softmax": 2.0}))
    assert_said_in_korean(*said_both(header), "id,step,points,comment,by", "automatic", "what")


@settings(max_examples=30, deadline=None)
@given(votes=st.lists(st.sampled_from([*LABS, None]), min_size=1, max_size=12))
def test_the_lab_checks_are_said_in_the_tas_language(votes):
    tally = Tally.of(votes)
    assert_said_in_korean(tally.counted(LABS[0]).text(KO), tally.counted(LABS[0]).text(EN), *LABS)
    for name in LABS:
        if tally.rivals(name):
            for what in ("file", "student_file", "submission"):
                caught = refused(lambda: choose_lab(name, Votes(votes), fit=True, what=what))
                assert isinstance(caught, LabMismatch)
                assert_said_in_korean(*said_both(caught), *LABS)
    if tally.leader() is None:
        caught = refused(lambda: choose(None, Votes(votes), what="student_file"))
        assert isinstance(caught, LabNotFound)
        assert_said_in_korean(*said_both(caught), *LABS)
    assert_said_in_korean(*said_both(refused(lambda: load("no_such_lab"))), *LABS, "'no_such_lab'")


@settings(max_examples=20, deadline=None)
@given(name=names, labs=st.lists(st.sampled_from(LABS), min_size=1, max_size=2))
def test_previous_and_check_refusals_are_said_in_the_tas_language(name, labs):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / name).mkdir()
        (root / f"{name}.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)
        (root / f"{name}.py").write_bytes(b"")
        for make in (lambda: read_previous_run(str(root / name), labs[0], str(root / name)),
                     lambda: read_previous_run(str(root / name), labs[0], str(root / "out"))):
            caught = refused(make)
            assert isinstance(caught, PreviousRunError)
            assert_said_in_korean(*said_both(Refusal(said("previous_refused", "grade", problem=caught.said))),
                                  str(root / name), *labs)
        for path in (root / "missing.py", root / name, root / f"{name}.zip"):
            assert_said_in_korean(*said_both(refused(lambda: read_for_check(str(path)))), str(path))
        for key in ("empty", "not_code", "cannot_write", "sandbox"):
            sentence = said(key, "check", path=str(root / f"{name}.py"), why="EACCES", problem="EACCES")
            assert_said_in_korean(*said_both(Refusal(sentence)), str(root / f"{name}.py"), "EACCES")


@settings(max_examples=20, deadline=None)
@given(name=names)
def test_builds_refusals_are_said_in_the_build_language(name):
    lab = load(LABS[0])
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / name
        out.mkdir()
        (out / f"{name}.txt").write_text("x")
        caught = refused(lambda: claim_out_folder(out, lab))
        assert isinstance(caught, BuildError) and caught.status == 1
        assert_said_in_korean(caught.told(KO).replace("autograder build:", "autograder:"),
                              caught.told(EN).replace("autograder build:", "autograder:"), str(out), f"{name}.txt")
    for key in ("several_labs", "options", "visibility", "does_not_run", "self_check_reference", "summary_zip"):
        sentence = said(key, "build", labs=", ".join(LABS), first=LABS[0], out=name, visibilities="visible, hidden",
                        problem="EIO", points="10", seconds="1.0", path=name)
        assert_said_in_korean(sentence.text(KO), sentence.text(EN), *LABS, name, "visible", "hidden", "EIO")


@settings(max_examples=30, deadline=None)
@given(paths=st.lists(names, min_size=1, max_size=8, unique=True), tried=st.integers(1, 40))
def test_reasons_the_report_shows_and_empty_classes_are_said_in_the_tas_language(paths, tried):
    units = said("unit_and", "report", first=said("unit_moodle_folders", "report"),
                 rest=said("unit_gradescope_submission_folders", "report"))
    entries = [Entry(f"{paths[0]}.txt", "", 0.0, 1, metadata=NOT_LMS_NAMED, note=said("stray_file", "report", units=units)),
               Entry(f"{paths[-1]}.yml", "", 0.0, 1, metadata=GRADESCOPE_LIST),
               Entry(f"{paths[-1]}.yml", "", 0.0, 1, metadata=GRADESCOPE_LIST, refused=detail("metadata_unreadable", most=9)),
               Entry(f"{paths[0]}_onlinetext.html", "kim", 0.0, 1, metadata="Moodle online text"),
               Entry(f"{paths[0]}_attempt.txt", "kim", 0.0, 1, metadata="Blackboard receipt"),
               *[Entry(f"{p}.csv", "", 0.0, 1, metadata=kind) for p, kind in zip(paths, SHEET_KINDS)],
               Entry(f"__MACOSX/{paths[0]}.py", "kim", 0.0, 1),
               Entry(f"{paths[0]}.docx", "kim", 0.0, 1), Entry(f"{paths[0]}.zip", "kim", 0.0, 1, export="x")]
    shown = [p for entry in entries for p in (entry.path,)]
    for entry in entries:
        reason = ignored_reason(entry)
        assert_said_in_korean("autograder: " + ignored_status(reason, KO), ignored_status(reason, EN), *shown)
    everyone = [Student("kim", None, ignored=[(entry, ignored_reason(entry)) for entry in entries])]
    assert_said_in_korean(*said_both(Refusal(no_submissions("class", everyone))), *shown, "class")
    assert_said_in_korean(*said_both(Refusal(no_submissions("class", []))), "class")
    assert_said_in_korean(*said_both(Refusal(pattern_refusal(r"(\d+)", paths, tried))), *paths, r"(\d+)")
