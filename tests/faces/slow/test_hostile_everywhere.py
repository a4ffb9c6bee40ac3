"""The whole hostile corpus through the other faces: `autograder grade`, `otter run`, the zip's
Gradescope entry point and `pytest --submission`.

tests/sandbox/slow/test_hostile.py runs each file through the engine alone; here every file is graded the way
a TA (one class, honest students among the hostile ones) and the LMS (the built Otter zip) grade
it, against the same expectations (tests/corpora/hostile/EXPECTED.json).
"""
import csv
import json
import os
import pathlib
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from autograder.otter import build as otter_build
from labs.self_attention.steps import STEPS
from conftest import ROOT
from test_hostile import EXPECTED, HOSTILE, unavailable
from test_pytest_plugin import run_pytest, scores_in
from labs.self_attention import LAB

STEP_SECONDS = 2
HONEST = {"honest_reference.py": ROOT / "solutions" / "self_attention.py",
          "honest_sample.py": ROOT / "samples" / "kimminsu_10231_55001_attention.py",
          "honest_notebook.ipynb": ROOT / "samples" / "leejiwon_10232_55002_attention.ipynb"}
PROTECTED = sorted(name for name in EXPECTED if unavailable(name) is None)


def assert_scores_meet_expectations(name, scores):
    """`scores`: step name -> (score, max_score) as a grader reported them."""
    expected = EXPECTED[name]
    for step in STEPS:
        score, max_score = scores[step.name]
        assert max_score == step.points, (name, step.name)
        if step.name not in expected["may_lose"]:
            assert score == step.points, (name, step.name, score)
        if step.name in expected["must_lose"]:
            assert score == 0, (name, step.name, score)


def test_a_class_of_every_hostile_file_among_honest_students(tmp_path, plan):
    from autograder.grading import grade_file
    from autograder.sandbox.runner import Limits, Zygote

    root = tmp_path / "class"
    root.mkdir()
    for name in PROTECTED:
        shutil.copy(HOSTILE / name, root / name)
    for name, source in HONEST.items():
        shutil.copy(source, root / name)
    out = tmp_path / "out"
    finished = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(root), "--out", str(out), "--jobs", "2",
         "--timeout", str(STEP_SECONDS), "--lang", "en", "--id-pattern", r"(?P<id>[^/]+)\.(py|ipynb)$"],
        capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert finished.returncode == 0, finished.stderr[-3000:]
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert len(rows) == len(PROTECTED) + len(HONEST)  # nothing lost, nothing stopped the batch
    with Zygote() as clean:
        for name, source in HONEST.items():
            alone = grade_file(source, clean, plan, Limits(step_seconds=STEP_SECONDS,
                                                           load_seconds=STEP_SECONDS))
            row = rows[name.rsplit(".", 1)[0]]
            # Exactly the grade it gets when graded alone by a sandbox no hostile file touched.
            assert row["status"] == "graded"
            assert float(row["total"]) == alone.score, name
            assert {s.name: float(row[s.name]) for s in alone.steps} == {s.name: round(s.score, 2) for s in alone.steps}
    for name in PROTECTED:
        row = rows[name.rsplit(".", 1)[0]]
        assert_scores_meet_expectations(
            name, {step.name: (float(row[step.name]), step.points) for step in STEPS})


@pytest.fixture(scope="module")
def otter_zip(tmp_path_factory):
    built = otter_build.build(tmp_path_factory.mktemp("hostile-otter") / "build", LAB,
                              step_seconds=STEP_SECONDS, lang="en", self_check=False)
    return built["zip"]


def otter_run(zip_path, submission, work):
    """(returncode, results.json or None, output) of the real `otter run` on one file."""
    folder = work / submission.name.replace(".", "_")
    folder.mkdir()
    copy = folder / ("self_attention_lab" + submission.suffix)
    shutil.copy(submission, copy)
    out = folder / "out"
    out.mkdir()
    process = subprocess.run([sys.executable, "-m", "otter", "run", "-a", str(zip_path), "-o", str(out),
                              str(copy)], capture_output=True, text=True, timeout=600)
    results = out / "results.json"
    data = json.loads(results.read_text("utf-8")) if results.is_file() else None
    return process.returncode, data, process.stdout[-2000:] + process.stderr[-2000:]


def test_no_hostile_file_gains_a_point_through_otter_run(otter_zip, tmp_path):
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(zip(PROTECTED, pool.map(lambda name: otter_run(otter_zip, HOSTILE / name, tmp_path),
                                            PROTECTED)))
    for name, (returncode, results, output) in runs.items():
        if results is None:
            # Otter itself refused the file before any grading (a notebook it cannot read as
            # JSON text): no results, so no points.
            assert returncode != 0 and name.endswith(".ipynb"), (name, output)
            assert EXPECTED[name].get("problem") in ("notebook_not_json", "not_utf8"), (name, output)
            continue
        scores = {t["name"]: (t["score"], t["max_score"]) for t in results["tests"] if "max_score" in t}
        assert_scores_meet_expectations(name, scores)


def test_no_hostile_file_gains_a_point_through_the_gradescope_entry_point(gradescope_image):
    """Each file as the one submission of the zip's run_autograder, installed as on the platform."""
    image, zip_path = gradescope_image["image"], gradescope_image["zip"]
    is_root = os.geteuid() == 0

    def grade(name):
        files = {"self_attention_lab" + pathlib.Path(name).suffix: (HOSTILE / name).read_bytes()}
        return image.grade(zip_path, files, private_mount=is_root)

    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(zip(PROTECTED, pool.map(grade, PROTECTED)))
    for name, run in runs.items():
        assert run.returncode == 0, (name, run.output)  # exit 1 only for a failure of the grader
        scores = {t["name"]: (t["score"], t["max_score"]) for t in run.results["tests"] if "max_score" in t}
        assert_scores_meet_expectations(name, scores)
        assert run.results["score"] == pytest.approx(sum(score for score, _ in scores.values()), abs=0.01)


def pytest_scores(submission, work):
    """{step: (score, max_score)} from the JUnit properties of `pytest --submission FILE`."""
    folder = work / submission.name.replace(".", "_")
    folder.mkdir()
    process, report = run_pytest(folder, submission, "--submission-lab", "self_attention", "--submission-timeout", str(STEP_SECONDS))
    assert process.returncode in (0, 1), (submission.name, process.stdout[-2000:], process.stderr[-2000:])
    return scores_in(report)


def test_no_hostile_file_gains_a_point_through_pytest(tmp_path):
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(zip(PROTECTED, pool.map(lambda name: pytest_scores(HOSTILE / name, tmp_path), PROTECTED)))
    for name, scores in runs.items():
        assert set(scores) == {step.name for step in STEPS}, name
        assert_scores_meet_expectations(name, scores)
