"""`pytest --submission PATH`: one test per step, failures carry the step's feedback."""
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from labs.self_attention.steps import FUNCTION_NAMES, STEPS

from conftest import ROOT

REFERENCE = ROOT / "solutions" / "self_attention.py"
STUBS = ROOT / "assignments" / "self_attention" / "self_attention_lab.py"


def run_pytest(folder, submission, *extra, report_name="report.xml"):
    report = folder / report_name
    process = subprocess.run(
        # Without the test suite's own hypothesis plugin, as in a course's environment (it costs
        # each run about a second).
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
         "--submission", str(submission), f"--junitxml={report}", "-o", "junit_family=xunit1", *extra],
        capture_output=True, text=True, timeout=180, cwd=folder)
    return process, report.read_text(encoding="utf-8") if report.exists() else ""


def scores_in(report):
    """{step: (score, max_score)} from the JUnit properties."""
    found = {}
    for case in re.finditer(r'<testcase [^>]*name="(\w+)"[^>]*>(.*?)</testcase>', report, re.S):
        values = dict(re.findall(r'<property name="(\w+)" value="([^"]*)"', case.group(2)))
        if "score" in values:
            found[case.group(1)] = (float(values["score"]), float(values["max_score"]))
    return found


def test_reference_passes_six_tests(tmp_path):
    process, report = run_pytest(tmp_path, REFERENCE)
    assert process.returncode == 0, process.stdout
    assert "6 passed" in process.stdout
    assert scores_in(report) == {step.name: (step.points, step.points) for step in STEPS}
    assert "10 / 10" in process.stdout


def test_a_wrong_step_fails_alone_with_the_feedback(tmp_path):
    wrong = tmp_path / "wrong_axis.py"
    wrong.write_text(REFERENCE.read_text(encoding="utf-8").replace(
        "x.max(axis=-1, keepdims=True)", "x.max(axis=0, keepdims=True)").replace(
        "shifted.sum(axis=-1, keepdims=True)", "shifted.sum(axis=0, keepdims=True)"), encoding="utf-8")
    process, report = run_pytest(tmp_path, wrong, "--submission-lang", "en")
    assert process.returncode == 1
    assert "1 failed, 5 passed" in process.stdout
    assert "normalised over columns instead of rows" in process.stdout
    # the smallest repair of the student's own code names the lines (autograder.repair)
    assert "check the axis (`axis`) of `x.max(axis=0, keepdims=True)`" in process.stdout
    assert 'name="softmax"' in report and "failure" in report
    score, max_score = scores_in(report)["softmax"]
    assert score < max_score == 2.0


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_submission_that_cannot_be_read_is_a_usage_error(tmp_path, kind):
    path = tmp_path / "nothing.py"
    if kind == "folder":
        path.mkdir()
    process, report = run_pytest(tmp_path, path)
    assert process.returncode == 4, process.stdout + process.stderr
    assert ("no such file" if kind == "missing" else "a folder") in process.stderr
    assert "failed" not in process.stdout and report == ""


def test_collect_only_lists_the_steps(tmp_path):
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
         "--submission", str(REFERENCE)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert process.returncode == 0, process.stdout
    for name in FUNCTION_NAMES:
        assert f"attention.py::{name}\n" in process.stdout
    assert "6 tests collected" in process.stdout


def test_other_tests_are_collected_only_when_named_on_the_command_line(tmp_path):
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert True\n\n"
                                          "def test_own_failing():\n    assert False\n")
    alone, report = run_pytest(tmp_path, REFERENCE)
    assert alone.returncode == 0 and "6 passed" in alone.stdout and "test_own" not in report, alone.stdout
    named, report = run_pytest(tmp_path, REFERENCE, "test_own.py", report_name="named.xml")
    assert "1 failed, 7 passed" in named.stdout, named.stdout
    assert 'name="test_own"' in report and 'name="most_attended"' in report


def test_one_step_can_be_selected(tmp_path):
    process, report = run_pytest(tmp_path, STUBS, "--submission-step", "softmax",
                                 "--submission-step", "mix")
    assert process.returncode == 1
    assert "2 failed" in process.stdout
    assert scores_in(report) == {"softmax": (0.0, 2.0), "mix": (0.0, 1.0)}


def test_option_absent_leaves_ordinary_runs_alone(tmp_path):
    (tmp_path / "test_plain.py").write_text("def test_ok():\n    assert True\n")
    process = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                             capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert process.returncode == 0 and "1 passed" in process.stdout


# A student's repository that tries to grade its own stubs as correct -------------------------

FULL_MARKS_JSON = ('{"submission": "x", "score": 10.0, "max_score": 10.0, "steps": ['
                   + ", ".join(f'{{"name": "{s.name}", "score": {float(s.points)}, "max_score": '
                               f'{float(s.points)}, "status": "passed", "mistakes": [], "feedback": ""}}'
                               for s in STEPS) + "]}")

PATCH_GRADING = textwrap.dedent('''
    import os, sys
    here = os.path.dirname(os.path.abspath(__file__))
    # Anything started from this run would see this folder first, if it honoured PYTHONPATH.
    os.environ["PYTHONPATH"] = here
    os.environ["PYTHONSTARTUP"] = os.path.join(here, "sitecustomize.py")

    import autograder.grading, autograder.grading.plan, autograder.core.judge
    from autograder.core.verdict import StepResult

    def passed_step(step, probes, outcomes, defined, is_stub, syntax_suspect=False):
        return StepResult(name=step.name, score=float(step.points), max_score=step.points, status="passed", mistakes=[],
                          cases=[], page_step=step.page_step)

    autograder.core.judge.judge_step = passed_step
    autograder.grading.plan.judge_step = passed_step
    original = autograder.grading.grade_file

    def graded_as_correct(path, *args, **kwargs):
        return original(os.path.join(here, "reference_copy.py"), *args, **kwargs)

    autograder.grading.grade_file = graded_as_correct
    ''')

SHADOW_MODULE = f'''
import sys
print({FULL_MARKS_JSON!r})
sys.exit(0)
'''

SITECUSTOMIZE = f'''
import sys
if "autograder" in " ".join(sys.argv) or sys.argv[-1:] == ["-"]:
    print({FULL_MARKS_JSON!r})
    raise SystemExit(0)
'''


@pytest.fixture
def hostile_repository(tmp_path):
    """A student repository: stubs, and every file pytest or Python would pick up from it."""
    repo = tmp_path / "student-repo"
    repo.mkdir()
    (repo / "self_attention_lab.py").write_text(STUBS.read_text("utf-8"), "utf-8")
    (repo / "reference_copy.py").write_text(REFERENCE.read_text("utf-8"), "utf-8")
    (repo / "conftest.py").write_text(PATCH_GRADING, "utf-8")
    (repo / "pytest.ini").write_text("[pytest]\naddopts = --submission-timeout 30\n", "utf-8")
    (repo / "autograder.py").write_text(SHADOW_MODULE, "utf-8")
    (repo / "sitecustomize.py").write_text(SITECUSTOMIZE, "utf-8")
    (repo / "usercustomize.py").write_text(SITECUSTOMIZE, "utf-8")
    return repo


def test_the_repositorys_shadow_module_is_live(hostile_repository):
    """Without -I and a folder of its own, a grading subprocess would print the forged result."""
    done = subprocess.run([sys.executable, "-m", "autograder", "check", "self_attention_lab.py", "--json"],
                          cwd=hostile_repository, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == FULL_MARKS_JSON


def test_the_students_own_repository_cannot_change_the_grade(hostile_repository):
    # The `pytest` script: the pytest process itself does not import from the repository's top
    # folder (`python -m pytest` would); the conftest, the ini file and PYTHONPATH still apply.
    process = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "pytest"), "-p", "no:cacheprovider", "--submission",
         "self_attention_lab.py", "--junitxml=report.xml", "-o", "junit_family=xunit1"],
        capture_output=True, text=True, timeout=180, cwd=hostile_repository)
    report = (hostile_repository / "report.xml").read_text("utf-8")
    assert process.returncode == 1, process.stdout + process.stderr
    assert "6 failed" in process.stdout, process.stdout
    assert scores_in(report) == {step.name: (0.0, step.points) for step in STEPS}
    assert "0 / 10" in process.stdout


def test_an_ini_files_second_submission_is_refused_with_a_sentence(hostile_repository):
    """A second --submission (here the repository's own ini file's, a copy of the reference) is
    refused naming both files: neither is graded in silence in place of the other."""
    (hostile_repository / "pytest.ini").write_text("[pytest]\naddopts = --submission reference_copy.py\n", "utf-8")
    process = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "pytest"), "-p", "no:cacheprovider", "--submission",
         "self_attention_lab.py", "--submission-lang", "en"],
        capture_output=True, text=True, timeout=180, cwd=hostile_repository)
    assert process.returncode == 4, process.stdout + process.stderr
    assert "--submission is given more than once (reference_copy.py, self_attention_lab.py)" in process.stderr


PLUGIN_IN_THE_FOLDER = f'''
import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    report.outcome = "passed"
    return report
'''


def test_a_plugin_from_the_submissions_folder_is_refused(tmp_path):
    """An ini file's `-p` loading a module of the folder (on the path through `pythonpath`): any code
    in the pytest process could rewrite the reports, so the run is refused before any grading."""
    hostile_repository = tmp_path
    (hostile_repository / "self_attention_lab.py").write_text(STUBS.read_text("utf-8"), "utf-8")
    (hostile_repository / "all_pass.py").write_text(PLUGIN_IN_THE_FOLDER, "utf-8")
    (hostile_repository / "pytest.ini").write_text("[pytest]\npythonpath = .\naddopts = -p all_pass\n", "utf-8")
    process = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "pytest"), "-p", "no:cacheprovider", "--submission",
         "self_attention_lab.py", "--submission-lang", "en"],
        capture_output=True, text=True, timeout=180, cwd=hostile_repository)
    assert process.returncode == 4, process.stdout + process.stderr
    assert "was loaded as a pytest plugin (all_pass)" in process.stderr and "passed" not in process.stdout


# Any folder: a clone of this repository, a folder with its own conftest and ini file, an empty one --

def collected_count(stdout):
    found = re.search(r"collected (\d+) items?", stdout)
    return int(found.group(1)) if found else None


def test_in_a_clone_of_this_repository_only_the_steps_are_collected_and_pass():
    """The repository's root has testpaths, addopts and a conftest whose collection hook reads
    item.module: the run collects the six steps, not the repository's own tests."""
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--submission", "samples/correct.py"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert process.returncode == 0, process.stdout[-3000:] + process.stderr[-3000:]
    assert "INTERNALERROR" not in process.stdout + process.stderr
    assert collected_count(process.stdout) == len(STEPS)
    assert f"{len(STEPS)} passed" in process.stdout and "10 / 10" in process.stdout
    assert "samples/correct.py ......" in process.stdout


# A conftest.py that reads of each item what hooks of other projects read, and records it.
READING_CONFTEST = textwrap.dedent('''
    import json, os

    def pytest_collection_modifyitems(session, config, items):
        seen = []
        for item in items:
            module = item.module
            seen.append({
                "nodeid": item.nodeid, "name": item.name, "module": module.__name__,
                "module_file": module.__file__, "cls": repr(item.cls), "function": item.function.__name__,
                "obj": item.obj.__name__, "instance": repr(item.instance), "originalname": item.originalname,
                "fixturenames": list(item.fixturenames), "markers": [m.name for m in item.iter_markers()],
                "closest": repr(item.get_closest_marker("slow")), "location": list(item.location),
                "path": str(item.path), "keywords": sorted(k for k in item.keywords if not k.startswith("_")),
                "callspec": hasattr(item, "callspec"),
            })
            item.add_marker("seen_by_conftest")
        with open(os.path.join(os.path.dirname(__file__), "seen.json"), "w") as handle:
            json.dump(seen, handle)

    def pytest_runtest_setup(item):
        assert item.module is not None and item.function is not None

    def pytest_configure(config):
        config.addinivalue_line("markers", "seen_by_conftest: a hook saw the item")
    ''')


def folder_of_submissions(folder):
    """A folder of submissions with its own pytest.ini and a conftest that reads every item; its
    ini would collect every .py file (the submissions included) and a test file that fails."""
    folder.mkdir(exist_ok=True)
    (folder / "conftest.py").write_text(READING_CONFTEST, "utf-8")
    (folder / "pytest.ini").write_text("[pytest]\npython_files = *.py\ntestpaths = .\naddopts = -rA\n", "utf-8")
    (folder / "test_would_fail.py").write_text("def test_fails():\n    assert False\n", "utf-8")
    (folder / "student_one.py").write_text(REFERENCE.read_text("utf-8"), "utf-8")
    (folder / "student_two.py").write_text("raise SystemExit('imported by pytest')\n", "utf-8")
    return folder


def test_a_folder_with_its_own_conftest_and_ini_collects_only_the_steps(tmp_path):
    folder = folder_of_submissions(tmp_path / "submissions")
    process, report = run_pytest(folder, folder / "student_one.py")
    assert process.returncode == 0, process.stdout[-3000:] + process.stderr[-3000:]
    assert collected_count(process.stdout) == len(STEPS) and "6 passed" in process.stdout
    # With --submission no conftest.py is imported (its hooks would run in the process that reports).
    assert not (folder / "seen.json").exists()
    assert scores_in(report) == {step.name: (step.points, step.points) for step in STEPS}


def test_a_named_folder_is_collected_but_never_the_submission_in_it(tmp_path):
    folder = folder_of_submissions(tmp_path / "submissions")
    process, _ = run_pytest(folder, folder / "student_two.py", ".", "--submission-lab", "self_attention")
    # test_would_fail.py and student_one.py (a module without tests) collected; student_two.py graded only
    # (pytest importing it would stop the collection with an error).
    assert "ERROR collecting" not in process.stdout and "error" not in process.stdout.splitlines()[-1]
    assert collected_count(process.stdout) == len(STEPS) + 1, process.stdout
    assert f"{len(STEPS) + 1} failed" in process.stdout


def test_the_submission_named_as_a_test_path_is_refused(tmp_path):
    folder = folder_of_submissions(tmp_path / "submissions")
    process, report = run_pytest(folder, folder / "student_two.py", "student_two.py")
    assert process.returncode == 4 and "it cannot also be a test path" in process.stderr
    assert "ERROR collecting" not in process.stdout and report == ""


def test_from_an_empty_folder(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    process = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--submission", str(REFERENCE)],
                             capture_output=True, text=True, timeout=180, cwd=empty)
    assert process.returncode == 0 and collected_count(process.stdout) == len(STEPS), process.stdout
    assert sorted(p.name for p in empty.iterdir()) == []


# Over generated file names and places: the collected items are the steps, as pytest's own items.

pytest_plugins = ["pytester"]

NAME_CHARACTERS = st.characters(codec="utf-8", categories=("L", "N"), include_characters=" -_.[]()'!#가나")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stem=st.text(NAME_CHARACTERS, min_size=1, max_size=24).filter(lambda s: s.strip(". ") == s),
       suffix=st.sampled_from([".py", ".ipynb"]), where=st.sampled_from(["here", "below", "outside"]),
       conftest=st.booleans(), test_file=st.booleans())
def test_collection_is_the_steps_as_pytests_own_items(pytester, tmp_path_factory, stem, suffix, where, conftest,
                                                      test_file):
    run = pytester.mkdir(f"run-{len(list(pytester.path.iterdir()))}")
    folder = {"here": run, "below": run / "sub", "outside": tmp_path_factory.mktemp("outside")}[where]
    folder.mkdir(exist_ok=True)
    submission = folder / (stem + suffix)
    source = STUBS.read_text("utf-8")
    if suffix == ".ipynb":
        source = (ROOT / "assignments" / "self_attention" / "self_attention_lab.ipynb").read_text("utf-8")
    submission.write_text(source, "utf-8")
    if conftest:
        (run / "conftest.py").write_text(READING_CONFTEST, "utf-8")
    if test_file:
        (run / "test_other.py").write_text("def test_other():\n    pass\n", "utf-8")
    seen = []

    class Recorder:
        def pytest_collection_finish(self, session):
            seen.extend(session.items)

    old = os.getcwd()
    os.chdir(run)
    try:
        result = pytester.inline_run("--collect-only", "-p", "no:cacheprovider", "--submission", str(submission),
                                     plugins=[Recorder()])
    finally:
        os.chdir(old)
    assert result.ret == 0
    assert [item.name for item in seen] == list(FUNCTION_NAMES)
    root = seen[0].config.rootpath
    expected_id = submission.relative_to(root).as_posix() if submission.is_relative_to(root) else submission.name
    for item in seen:
        assert isinstance(item, pytest.Function) and isinstance(item.parent, pytest.Module)
        assert item.nodeid == f"{expected_id}::{item.name}"
        assert item.module.__file__ == str(submission) and item.cls is None
        assert item.function.__name__ == item.name and item.fixturenames == []
        assert item.location[2] == f"step {item.name}"
    assert not (run / "seen.json").exists()  # the conftest is never imported with --submission


@given(collected=st.lists(st.text(min_size=1, max_size=8), max_size=6),
       typed=st.lists(st.text(min_size=1, max_size=8), max_size=6))
def test_named_test_paths_are_those_typed_in_their_order(collected, typed):
    from autograder.pytest_plugin import named_test_paths

    named = named_test_paths(collected=collected, command_line=typed)
    assert named == [path for path in collected if path in typed]
    assert set(named) <= set(typed)


# Names from argv pass the guard before they become a node id, a location, __file__ or JUnit text.

def test_an_undecodable_file_name_is_reported_through_the_guard(tmp_path):
    raw = os.fsdecode(b"\xb1\xe8.py")  # "김.py" as Korean Windows writes it (cp949)
    (tmp_path / raw).write_text(REFERENCE.read_text("utf-8"), "utf-8")
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "pytest"), "-p", "no:cacheprovider",
                           "--submission", raw, "--junitxml=report.xml", "-o", "junit_family=xunit1"],
                          capture_output=True, cwd=tmp_path, timeout=180)
    out = (done.stdout + done.stderr).decode("utf-8", "replace")
    assert done.returncode == 0 and "INTERNALERROR" not in out and "Traceback" not in out, out[-3000:]
    report = (tmp_path / "report.xml").read_text("utf-8")
    assert scores_in(report) == {step.name: (step.points, step.points) for step in STEPS}
    assert 'file="김.py"' in report and "김.py ......" in out


@settings(max_examples=40)
@given(name=st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b and b"\0" not in b))
def test_every_shown_path_is_the_guards(name):
    """Whatever bytes name the file, what the reports show is the guard's name: valid Unicode."""
    from autograder.core.guard import safe_name
    from autograder.pytest_plugin import SubmissionGrading, step_module

    path = os.path.join("/tmp", os.fsdecode(name))
    grading = SubmissionGrading(path, "self_attention", FUNCTION_NAMES, "en", 1.0)
    assert grading.shown_path == safe_name(path)
    grading.shown_path.encode("utf-8")  # never raises
    module = step_module(grading, FUNCTION_NAMES)
    module.__file__.encode("utf-8")
    module.__name__.encode("utf-8")


def test_two_submissions_are_refused_naming_both(tmp_path):
    for name in ("kim.py", "lee.py"):
        (tmp_path / name).write_text(REFERENCE.read_text("utf-8"), "utf-8")
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "pytest"), "-p", "no:cacheprovider",
                           "--submission", "kim.py", "--submission", "lee.py"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=180)
    assert done.returncode == 4 and "passed" not in done.stdout, done.stdout + done.stderr
    assert "--submission이 여러 번 주어졌습니다(kim.py, lee.py)" in done.stderr


@given(inside=st.lists(st.booleans(), max_size=5), installed=st.lists(st.booleans(), max_size=5))
def test_foreign_plugins_are_those_of_the_folders_outside_the_installation(tmp_path_factory, inside, installed):
    import types as module_types

    from autograder.pytest_plugin import _installed_places, foreign_plugins

    folder = tmp_path_factory.mktemp("run")
    place = sorted(_installed_places())[0]
    plugins, expected = [], []
    for number, (here, from_installation) in enumerate(zip(inside, installed)):
        module = module_types.ModuleType(f"plugin{number}")
        base = place if from_installation else (str(folder) if here else "/nonexistent-elsewhere")
        module.__file__ = os.path.join(base, f"plugin{number}.py")
        plugins.append((module.__name__, module))
        if here and not from_installation:
            expected.append(module.__name__)
    own = module_types.ModuleType("own")
    own.__file__ = str(folder / "own.py")
    plugins.append(("own", own))
    plugins.append(("an object", object()))
    assert foreign_plugins(plugins=plugins, folders=[folder], own=own) == expected
