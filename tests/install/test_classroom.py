"""The GitHub Classroom template: a student repository made from it grades each step as declared."""
import os
import pathlib
import shutil
import subprocess
import sys

import nbformat
import pytest
import yaml

from autograder.otter import build as otter_build
from labs.self_attention.steps import STEPS, TOTAL_POINTS

from conftest import ROOT

from autograder.authoring import fill
from labs.self_attention import LAB


COMMAND_GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
UNSTABLE = "    return np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)\n"


@pytest.fixture(scope="module")
def workflow(template):
    """The workflow the build writes into the lab's template repository."""
    return yaml.safe_load((template / ".github" / "workflows" / "classroom.yml").read_text("utf-8"))


@pytest.fixture(scope="module")
def steps_of(workflow):
    (job,) = workflow["jobs"].values()
    return job["steps"]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    return otter_build.build(out, LAB, self_check=False)["classroom"]


def graders(steps):
    return [step for step in steps if step.get("uses") == COMMAND_GRADER]


def test_one_command_per_step_with_its_points(steps_of):
    found = [(step["with"]["test-name"], step["with"]["max-score"]) for step in graders(steps_of)]
    assert found == [(step.name, step.points) for step in STEPS]
    assert sum(points for _, points in found) == TOTAL_POINTS
    for step in graders(steps_of):
        assert f"--step {step['with']['test-name']}" in step["with"]["command"]
        assert "autograder" not in step["with"]["command"]  # the instructors' package is not there


def test_reporter_reads_every_grader(workflow, steps_of):
    ids = [step["id"] for step in graders(steps_of)]
    (reporter,) = [step for step in steps_of if step.get("uses") == REPORTER]
    assert reporter["with"]["runners"].split(",") == ids
    assert reporter["env"] == {f"{i.upper()}_RESULTS": f"${{{{steps.{i}.outputs.result}}}}" for i in ids}
    assert workflow["permissions"]["checks"] == "write"


def student_repository(template, folder, notebook):
    """A repository made from the template (no git needed), with the student's notebook in it."""
    repo = folder / "student-repo"
    shutil.copytree(template, repo)
    nbformat.write(notebook, repo / "self_attention_lab.ipynb")
    return repo


def run_workflow(steps, repo):
    """The workflow's own commands, in order: plain shell steps, then each grader; its points."""
    env = {"PATH": f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for step in steps:
        if "run" in step:
            done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr
    points = {}
    for step in graders(steps):
        done = subprocess.run(["bash", "-c", step["with"]["command"]], cwd=repo, env=env,
                              capture_output=True, text=True, timeout=60 * step["with"]["timeout"])
        points[step["with"]["test-name"]] = step["with"]["max-score"] if done.returncode == 0 else 0
    return points


@pytest.fixture(scope="module")
def lab(template):
    return nbformat.read(template / "self_attention_lab.ipynb", as_version=4)


def test_the_finished_lab_gets_every_point(template, steps_of, lab, tmp_path):
    repo = student_repository(template, tmp_path, fill.fill_notebook(lab))
    assert run_workflow(steps_of, repo) == {step.name: step.points for step in STEPS}


def test_an_unstable_softmax_loses_that_step_only(template, steps_of, lab, tmp_path):
    notebook = fill.fill_notebook(lab)
    for cell in notebook.cells:
        if "step:softmax" in cell.metadata.get("tags", []):
            end = cell.source.index('"""', cell.source.index('"""') + 3) + 3
            cell.source = cell.source[:end] + "\n" + UNSTABLE
    repo = student_repository(template, tmp_path, notebook)
    expected = {step.name: step.points for step in STEPS}
    expected["softmax"] = 0
    assert run_workflow(steps_of, repo) == expected


def test_the_untouched_lab_gets_nothing(template, steps_of, lab, tmp_path):
    repo = student_repository(template, tmp_path, lab)
    assert run_workflow(steps_of, repo) == dict.fromkeys((step.name for step in STEPS), 0)
