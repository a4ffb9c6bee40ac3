"""Whose file is whose: only the part an LMS writes names the student, never the student's own file name."""
import re

import pytest

from autograder.batch.naming import Naming, student_id


def ids(paths, pattern=None):
    naming = Naming(paths, pattern)
    return {path: naming.identify(path)[0] for path in paths}


@pytest.mark.parametrize("path, expected", [
    # A Canvas student's own file named like a Moodle upload of student 10001.
    ("mallory_10004_50005_x_10001_assignsubmission_file_.py", "10004"),
    ("mallory_LATE_10004_50005_x_10001_assignsubmission_file_.py", "10004"),
    # ... like a Blackboard upload of alice.
    ("mallory_10004_50005_Lab 1_alice_attempt_2024-03-01-12-30-45_a.py", "10004"),
    # A Moodle prefix followed by a Canvas- or Blackboard-looking original name.
    ("Mallory Kim_10004_assignsubmission_file_x_10001_50000_y.py", "10004"),
    ("Mallory Kim_10004_assignsubmission_file_Lab 1_alice_attempt_2024-03-01-12-30-45_a.py", "10004"),
    # A Blackboard student's original name carrying another attempt prefix or a Moodle prefix.
    ("Lab 1_mallory_attempt_2024-03-01-12-30-45_Lab 1_alice_attempt_2024-03-01-12-30-46_a.py", "mallory"),
    ("Lab 1_mallory_attempt_2024-03-01-12-30-45_x_10001_assignsubmission_file_.py", "mallory"),
])
def test_the_students_own_file_name_never_names_another_student(path, expected):
    assert student_id(path, 0) == expected


def test_a_folder_inside_a_moodle_folder_is_the_students_own():
    paths = ["Lab 1/Mallory_10004_assignsubmission_file_/Alice_10001_assignsubmission_file_/attention.py",
             "Lab 1/Alice_10001_assignsubmission_file_/attention.py",
             "Lab 1/Mallory_10004_assignsubmission_file_/kimminsu_10231_55001_attention.py"]
    assert list(ids(paths).values()) == ["10004", "10001", "10004"]


def test_a_moodle_class_of_one_student_with_a_lookalike_folder():
    # One student: the wrapper and the student's folders are all shared; the outermost LMS folder wins.
    paths = ["Kim_2001_assignsubmission_file_/Lee_2002_assignsubmission_file_/a.py",
             "Kim_2001_assignsubmission_file_/Lee_2002_assignsubmission_file_/b.py"]
    assert set(ids(paths).values()) == {"2001"}


def test_a_moodle_full_name_that_contains_a_moodle_folder_name():
    assert student_id("Eve_10001_assignsubmission_file__10004_assignsubmission_file_/a.py", 0) == "10004"


def test_canvas_names_in_section_folders_are_students_not_the_folders():
    paths = ["section_A/kim_10231_55001_attention.py", "section_A/lee_10232_55002_attention.ipynb",
             "section_B/park_10233_55003_attention.py", "section_B/choi_10234_55009_attention-1.py",
             "section_C/han_10235_55010_attention.py"]
    assert list(ids(paths).values()) == ["10231", "10232", "10233", "10234", "10235"]


def test_one_folder_of_several_lms_names_is_one_students_folder():
    # Two section folders of which one holds a single student look exactly like one student's folder
    # of planted names beside a classmate's: one folder never decides the class's layout.
    paths = ["class/section_A/kim_10231_55001_attention.py", "class/section_A/lee_10232_55002_attention.py",
             "class/section_B/park_10233_55003_attention.py"]
    naming = Naming(paths)
    assert [naming.identify(p)[0] for p in paths] == ["section_A", "section_A", "section_B"]
    assert naming.several == {"section_A": 2} and not naming.sections
    assert [naming.lookalike(p) for p in paths] == ["canvas kim_10231", "canvas lee_10232", "canvas park_10233"]


@pytest.mark.parametrize("paths, expected", [
    (["Lab 1_kim_ms_attempt_2024-03-01-12-30-45_attention.py"], ["kim_ms"]),
    (["Lab 1_final_kim_ms_attempt_2024-03-01-12-30-45.txt"], ["final_kim_ms"]),  # a space decides alone
    (["Lab1_kim_ms_attempt_2024-03-01-12-30-45_a.py", "Lab1_lee_attempt_2024-03-01-12-30-45_a.py"],
     ["kim_ms", "lee"]),
    (["Lab_1_kim_ms_attempt_2024-03-01-12-30-45_a.py", "Lab_1_lee_j_attempt_2024-03-01-12-30-45_a.py",
      "Lab_1_park_attempt_2024-03-01-12-30-45_a.py"], ["kim_ms", "lee_j", "park"]),
])
def test_blackboard_usernames_keep_their_underscores(paths, expected):
    assert list(ids(paths).values()) == expected


def test_id_pattern_takes_the_leftmost_match_the_lms_part():
    pattern = re.compile(r"_(?P<id>\d{5})_")
    assert student_id("mallory_10004_50005_x_10001_assignsubmission_file_.py", 0, pattern) == "10004"


def test_owners_tell_different_names_apart_and_same_names_together():
    naming = Naming(["kimminsu_10231_55001_a.py", "kimminsu_LATE_10231_55002_a.py", "lee_10231_55003_a.py"])
    owners = [naming.identify(p)[1] for p in ("kimminsu_10231_55001_a.py", "kimminsu_LATE_10231_55002_a.py",
                                               "lee_10231_55003_a.py")]
    assert owners[0] == owners[1] != owners[2]
    stems = Naming(["kim.py", "kim.ipynb", "kim minsu.py", "kim_minsu.py"])
    assert stems.identify("kim.py") == stems.identify("kim.ipynb")
    assert stems.identify("kim minsu.py")[0] == stems.identify("kim_minsu.py")[0]
    assert stems.identify("kim minsu.py")[1] != stems.identify("kim_minsu.py")[1]


def test_students_own_folders_name_them_whatever_their_files_are_called():
    paths = ["class/10001/attention.py", "class/10004/bob_10001_50009_attention.py", "class/10004/notes.py",
             "class/student07/kimminsu_10231_55001_attention.py", "class/student08/kimminsu_10231_55001_attention.py"]
    assert list(ids(paths).values()) == ["10001", "10004", "10004", "student07", "student08"]


def test_a_students_folder_of_two_lms_named_students_stays_theirs():
    paths = ["class/10001/attention.py", "class/10004/bob_10001_50009_a.py", "class/10004/carol_10009_50010_b.py"]
    naming = Naming(paths)
    found = [naming.identify(p) for p in paths]
    assert [student for student, _ in found] == ["10001", "10004", "10004"]
    assert found[1][1] == found[2][1] == "folder:class/10004"  # one owner: not a merge either
    assert [naming.about(p) for p in paths[1:]] == [{"name": "", "time": "", "late": False}] * 2


def test_hangul_names_decomposed_by_macos_are_the_same_student():
    import unicodedata

    composed, decomposed = "김민수.py", unicodedata.normalize("NFD", "김민수.ipynb")
    naming = Naming([composed, decomposed])
    assert naming.identify(composed) == (naming.identify(decomposed)[0], naming.identify(composed)[1])
    assert naming.identify(composed)[1] == naming.identify(decomposed)[1]
    assert naming.identify(decomposed)[0] == "김민수"


# Units: only the LMS's marks name a student; nothing inside a unit changes the rules --------------

def test_names_inside_a_gradescope_submission_are_the_submitters():
    from autograder.lms.gradescope import Submitter

    paths = ["export/submission_metadata.yml", "export/submission_1/attention.py",
             "export/submission_2/kim_10231_55001_attention.py", "export/submission_2/lee_10232_55002_a.py",
             "export/submission_2/Lab 1_zed_attempt_2024-03-01-09-00-00_a.py",
             "export/submission_2/Park_10233_assignsubmission_file_/a.py",
             "export/submission_2/submission_metadata.yml", "export/submission_2/submission_9/a.py"]
    people = {"submission_1": Submitter("10231", "Kim", "", "2024-03-01T12:00:00+09:00"),
              "submission_2": Submitter("10235", "Mallory", "", "2024-03-04T12:00:00+09:00")}
    naming = Naming(paths, submitters=people)
    assert [naming.identify(p)[0] for p in paths[1:]] == ["10231"] + ["10235"] * 6
    assert {naming.identify(p)[1] for p in paths[2:]} == {"gradescope:export/submission_2"}
    assert {naming.about(p)["time"] for p in paths[2:]} == {"2024-03-04T12:00:00+09:00"}
    assert [naming.metadata_kind(p) for p in paths] == ["Gradescope submission list"] + [""] * 7
    assert [bool(naming.lookalike(p)) for p in paths[1:]] == [False, True, True, True, True, False, False]


def test_blackboard_names_inside_a_unit_never_change_the_assignment_name():
    flat = ["Lab_1_kim_ms_attempt_2024-03-01-12-30-45_a.py", "Lab_1_lee_j_attempt_2024-03-01-12-30-45_a.py"]
    planted = flat + ["mallory/X_y_attempt_2024-03-01-12-30-45_a.py", "mallory/Z_attempt_2024-03-01-12-30-45.txt"]
    assert ids(flat) == {p: i for p, i in ids(planted).items() if p in flat}
    assert list(ids(flat).values()) == ["kim_ms", "lee_j"]
    assert Naming(planted).metadata_kind(planted[3]) == ""  # a receipt's name, but inside a unit


@pytest.mark.parametrize("planters, sections", [(1, False), (2, False), (3, True)])
def test_section_folders_need_two_folders_and_more_than_half(planters, sections):
    paths = []
    for n in range(4):
        folder = f"class/f{n}"
        paths.append(f"{folder}/attention.py")
        if n < planters:
            paths += [f"{folder}/kim_1000{n}_1_a.py", f"{folder}/lee_2000{n}_2_a.py"]
    naming = Naming(paths)
    assert bool(naming.sections) == sections
    planted = [p for p in paths if "kim_" in p]
    assert {naming.identify(p)[0] for p in planted} == ({f"1000{n}" for n in range(planters)} if sections
                                                         else {f"f{n}" for n in range(planters)})


def test_moodle_folders_sorted_into_sections_are_their_students():
    paths = ["A/Kim_1_assignsubmission_file_/a.py", "A/Lee_2_assignsubmission_file_/a.py",
             "B/Park_3_assignsubmission_file_/a.py", "B/Choi_4_assignsubmission_onlinetext_/onlinetext.html",
             "B/Choi_4_assignsubmission_file_/x/Han_5_assignsubmission_file_/a.py"]
    naming = Naming(paths)
    assert [naming.identify(p)[0] for p in paths] == ["1", "2", "3", "4", "4"]
    assert naming.metadata_kind(paths[3]) == "Moodle online text"


def test_a_unit_of_system_files_alone_keeps_the_wrapper_out_of_a_classmates_folder():
    from autograder.batch.naming import wrapper_depth

    assert wrapper_depth(["Lab 1/A/x.py", "Lab 1/S/.DS_Store"]) == 1
    assert wrapper_depth(["A/x.py", "S/.DS_Store"]) == 0
    assert wrapper_depth([".DS_Store", "Lab 1/A/x.py", "Lab 1/B/y.py"]) == 1  # a TA's, beside the wrapper
    assert wrapper_depth(["__MACOSX/Lab 1/A/._x.py", "Lab 1/A/x.py", "Lab 1/B/y.py"]) == 1
    assert wrapper_depth(["Lab 1/A/.DS_Store", "Lab 1/A/x.py"]) == 2  # a class of one student
    assert wrapper_depth(["submission_1/a.py", "submission_1/b.py"]) == 0  # Gradescope's folder is a unit
    assert Naming(["Lab 1/A/x.py", "Lab 1/S/.DS_Store"]).identify("Lab 1/A/x.py")[0] == "A"
