"""No message a student reads shows a folder of the machine that ran the code: the interpreter,
site-packages, temporary folders, the grading root, a home folder. Text from outside the catalogs
(an exception's message, a file name, a value) shows each path by its last part ("…/data.csv"),
in every face: `autograder check` text and JSON, the feedback page, Gradescope's results.json, the
students' own check. A line of the student's own code is quoted as written."""
import json
import os
import subprocess
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.batch.outputs import feedback_html
from autograder.core.case_detail import Raised, RaisedError
from autograder.core.reading.problems import detail
from autograder.core.verdict import CaseResult, Note, StepResult, SubmissionResult
from autograder.otter.results import gradescope_results
from autograder.core.render.feedback import as_dict, as_text
from autograder.core.render.text import PATH_ELIDED, without_paths
from conftest import ROOT
from labs.self_attention import LAB

MARK = "zqfolderzq"  # in the name of every folder of a generated path; must never be shown
NAME_CHARACTERS = st.characters(categories=("Lu", "Ll", "Lo", "Nd"), include_characters="._-+@~%$#")
folder = st.text(NAME_CHARACTERS, max_size=6).map(lambda name: MARK + name)
leaf = st.text(NAME_CHARACTERS, max_size=8).filter(lambda name: MARK not in name)


@st.composite
def paths(draw):
    folders = draw(st.lists(folder, min_size=1, max_size=5))
    name = draw(leaf)
    style = draw(st.sampled_from(["posix", "home", "windows", "unc", "relative", "file-url", "trailing"]))
    if style == "posix":
        return "/" + "/".join(folders + [name])
    if style == "home":
        return "~/" + "/".join(folders + [name])
    if style == "windows":
        return "C:\\" + "\\".join(folders + [name])
    if style == "unc":
        return "\\\\" + "\\".join(folders + [name])
    if style == "file-url":
        return "file:///" + "/".join(folders + [name])
    if style == "trailing":
        return "/" + "/".join(folders) + "/"
    return "/".join(folders + [name])


# Text around a path: anything at all, escapes and line breaks too, but never the marker itself.
around = st.text(max_size=30).filter(lambda text: MARK not in text)


@st.composite
def outside_texts(draw):
    """A message with one or more paths in it, as an exception's str() might be."""
    parts = [draw(around)]
    for _ in range(draw(st.integers(1, 3))):
        quote = draw(st.sampled_from(["", "'", '"', "(", " ", ": "]))
        parts += [quote, draw(paths()), quote[::-1].replace("(", ")"), draw(around)]
    return "".join(parts)


def test_paths_are_shown_by_their_last_part():
    assert without_paths("[Errno 13] Permission denied: '/usr/bin/python3.11'") == \
        f"[Errno 13] Permission denied: '{PATH_ELIDED}/python3.11'"
    assert without_paths("No such file: /tmp/ipykernel_12/3456.py") == f"No such file: {PATH_ELIDED}/3456.py"
    assert without_paths(r"C:\Users\kim\AppData\x.py") == f"C:{PATH_ELIDED}/x.py"
    assert without_paths("~/.cache/check_kit/ab/tests") == f"{PATH_ELIDED}/tests"
    # Separators that are not paths stay: a division, " / " between titles, "for /:".
    for text in ("unsupported operand type(s) for /: 'int' and 'str'", "a / b", "/", "1/2 is not /x",
                 "축 / 합", "shape (3, 4)"):
        assert without_paths(text).replace(f"{PATH_ELIDED}/2", "1/2") in (text, text.replace("1/2", f"{PATH_ELIDED}/2"))


@settings(max_examples=400, deadline=None)
@given(outside_texts())
def test_no_folder_survives_without_paths(text):
    assert MARK not in without_paths(text)


def error(text, filename):
    return RaisedError(type=text, message=text, frames=((filename, 3, "softmax", "return x"),))


def result_with(text, filename):
    """A graded file whose load notes and step errors all carry `text` and `filename`."""
    notes = [Note(code="load_error", filename=filename, cell=0, line=2, type=text, message=text),
             Note(code="syntax_error", filename=filename, line=1, message=text),
             Note(code="load_timeout", filename=filename, line=4),
             Note(code="problem", problem="unreadable", detail=detail("filename", filename=text))]
    steps = [StepResult(name=step.name, score=0.0, max_score=step.points, status="error", mistakes=["exception"],
                        cases=[CaseResult(case=LAB.page_case, hidden=False, label="2-D", passed=False, code="exception",
                                          detail=Raised(error=error(text, filename))),
                               CaseResult(case="hidden-1", hidden=True, label="", passed=False, code="exception",
                                          detail=Raised(error=error(text, filename)))],
                        page_step=step.page_step)
             for step in LAB.steps]
    return SubmissionResult(submission="lab.ipynb", steps=steps, notes=notes)


def every_face(result, lang):
    """Everything a student may read of one result, as one string."""
    record = {"id": "kim", "file": "lab.ipynb", "superseded": []}
    text = as_text(result, LAB, lang)
    return "\n".join([text, json.dumps(as_dict(result, LAB, lang), ensure_ascii=False),
                      feedback_html(record, text, LAB, lang, result),
                      json.dumps(gradescope_results(result, LAB, lang, "visible"), ensure_ascii=False)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=outside_texts(), filename=st.one_of(paths(), st.just("<cell 3>"), st.just("<kernel cell 7>")),
       lang=st.sampled_from(["ko", "en"]))
def test_no_face_shows_a_folder_of_the_machine(text, filename, lang):
    shown = every_face(result_with(text, filename), lang)
    assert MARK not in shown


# Real runs: errors whose messages carry the grading machine's paths --------------------------------

LEAKY = '''import os, sys, tempfile
import numpy as np
open(os.path.join(os.path.dirname(sys.executable), "no-such-file.csv"))


def make_qkv(X, W_Q, W_K, W_V):
    raise PermissionError(13, "Permission denied", sys.executable)


def scores(Q, K):
    raise FileNotFoundError(2, "No such file or directory", os.path.join(tempfile.gettempdir(), "x", "y.npy"))


def softmax(x):
    raise RuntimeError("numpy lives in " + np.__file__ + " and I run in " + os.getcwd())
'''


def folders_of_this_machine():
    """Folders whose names would betray where the grader runs, as this machine has them."""
    import numpy

    return {os.path.dirname(sys.executable), os.path.dirname(os.path.dirname(numpy.__file__)),
            tempfile.gettempdir() + "/", str(ROOT)}


def assert_no_machine_folder(text):
    for found in folders_of_this_machine():
        assert found not in text, found
    assert "site-packages/" not in text and "/bin/" not in text


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_autograder_check_shows_no_folder_of_the_machine(tmp_path, lang):
    path = tmp_path / "leaky.py"
    path.write_text(LEAKY, "utf-8")
    for extra in ([], ["--json"]):
        done = subprocess.run([sys.executable, "-m", "autograder", "check", path.name, "--lab", "self_attention",
                               "--lang", lang, *extra], cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert done.returncode == 1, done.stderr
        assert "PermissionError" in done.stdout and "FileNotFoundError" in done.stdout
        assert f"{PATH_ELIDED}/y.npy" in done.stdout and f"{PATH_ELIDED}/no-such-file.csv" in done.stdout
        assert_no_machine_folder(done.stdout)


def test_the_students_own_check_shows_no_folder_of_the_machine(tmp_path):
    from autograder.otter import build as otter_build

    student = otter_build.build(tmp_path / "dist", LAB, self_check=False)["student"]
    path = tmp_path / "leaky.py"
    path.write_text(LEAKY, "utf-8")
    done = subprocess.run([sys.executable, "-m", "lab_check", str(path)], cwd=student, capture_output=True,
                          text=True, timeout=300, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert done.returncode == 1, done.stderr
    assert "PermissionError" in done.stdout
    assert_no_machine_folder(done.stdout)
    assert str(student) not in done.stdout and str(tmp_path) not in done.stdout


def test_the_gradescope_image_shows_no_folder_of_the_machine(gradescope_image):
    run = gradescope_image["image"].grade(gradescope_image["zip"], {"leaky.py": LEAKY.encode()},
                                          private_mount=os.geteuid() == 0)
    assert run.returncode == 0, run.output
    shown = json.dumps([run.results.get("output", "")] + [t.get("output", "") for t in run.results["tests"]],
                       ensure_ascii=False)
    assert "PermissionError" in shown
    assert_no_machine_folder(shown)
    assert str(gradescope_image["image"].venv) not in shown and "/autograder/" not in shown


@pytest.mark.parametrize("slash", ["/", "\\", "\u2215", "\u2044", "\uff0f", "\u29f8", "\uff3c", "\u2216"])
def test_a_path_in_look_alike_slashes_is_a_path_too(slash):
    from autograder.core.render.text import without_paths

    shown = without_paths(f"where: {slash}usr{slash}lib{slash}python3.11{slash}site-packages{slash}numpy here")
    assert "site-packages" not in shown and "usr" not in shown and shown.endswith("…/numpy here")
