"""The student half speaks the build's language, and its notebook checks and exports its own lab.

- `autograder build --lang en`: everything the checks print is English (the set-up cell, every
  `grader.check`, `check_all`, `python -m lab_check`, the student README); what has no
  English version stays Korean (the notebook's explanations, comments, docstrings, the .py twin's
  header) and a note under the title says so. A student's LAB_CHECK_LANG wins over the
  build's, in the kernel and in the terminal, without editing the set-up cell.
- The set-up cell takes only a notebook of its own lab (`autograder_lab` in its metadata): with
  both labs' notebooks in one folder and a kernel that does not name its notebook, lab 1's
  notebook checks and exports lab 1; with two copies of its own lab it checks, says it cannot
  tell which file to submit, and `grader.export()` makes no zip until told the name.
All in a real kernel, the engine blocked, as on a student's machine.
"""
import os
import shutil
import subprocess
import sys
import zipfile

import nbformat
import pytest

from autograder.otter import build as otter_build
from labs.masked_attention import LAB as LAB2
from labs.self_attention import LAB
from test_otter_student import WRONG_AXIS, fill, planted, run_in_kernel


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    return otter_build.build(tmp_path_factory.mktemp("english"), LAB, lang="en", self_check=False)["student"]


@pytest.fixture(scope="module")
def halves(tmp_path_factory):
    out = tmp_path_factory.mktemp("halves")
    return {lab.name: otter_build.build(out / lab.name, lab, self_check=False)["student"] for lab in (LAB, LAB2)}


def fresh_copy(student, folder):
    shutil.copytree(student, folder, ignore=shutil.ignore_patterns("*.zip", "__pycache__"))
    return folder


@pytest.fixture
def no_session(monkeypatch):
    """A kernel its front end did not name (nbclient, classic Notebook, PyCharm, papermill)."""
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.delenv("LAB_CHECK_LANG", raising=False)


def test_an_english_half_says_what_stays_korean_and_ships_its_language(english, halves):
    notebook = nbformat.read(english / LAB.notebook, as_version=4)
    setup = next(c for c in notebook.cells if "grader-init" in c.metadata.get("tags", []))
    assert setup.source.startswith("#@title Set-up for the checks") and "lang='en'" in setup.source
    assert "return Notebook('self_attention', lang='en')" in setup.source
    assert "explanations, comments and docstrings are in Korean" in notebook.cells[1].source
    assert (english / "README.md").read_text("utf-8").startswith(f"# {LAB.title('en')}")
    korean = nbformat.read(halves[LAB.name] / LAB.notebook, as_version=4)
    explanations = [c.source for c in notebook.cells if c.cell_type == "markdown"]
    assert explanations[:1] + explanations[2:] == \
        [c.source for c in korean.cells if c.cell_type == "markdown"]  # the explanations: the Korean ones
    assert (english / LAB.script).read_bytes() == (halves[LAB.name] / LAB.script).read_bytes()


def test_an_english_half_checks_in_english_unless_the_student_asks_for_korean(english, tmp_path, no_session,
                                                                               monkeypatch):
    notebook = planted(fill.fill_notebook(nbformat.read(english / LAB.notebook, as_version=4)), "softmax", WRONG_AXIS)
    folder = fresh_copy(english, tmp_path / "en")
    outputs = run_in_kernel(notebook, folder)
    assert outputs["grader-init"].startswith("The checks are ready.")
    assert outputs["check:softmax"].startswith("■ softmax — 0.6/2 points · failed")
    assert "points" in outputs["check-all"] and "점" not in outputs["check-all"]
    monkeypatch.setenv("LAB_CHECK_LANG", "ko")
    outputs = run_in_kernel(notebook, fresh_copy(english, tmp_path / "ko"))
    assert outputs["grader-init"].startswith("검사 준비가 끝났습니다.")
    assert outputs["check:softmax"].startswith("■ softmax — 0.6/2점 · 틀림")


def terminal_check(student, *args, **environment):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LAB_CHECK_LANG")}
    return subprocess.run([sys.executable, "-m", "lab_check", *args], cwd=student, capture_output=True,
                          text=True, timeout=300, env={**env, **environment})


def test_the_terminal_check_of_an_english_half_speaks_english_by_default(english):
    stubs = terminal_check(english, LAB.script)
    assert stubs.returncode == 1 and "points" in stubs.stdout and "점" not in stubs.stdout
    assert "점" in terminal_check(english, LAB.script, "--lang", "ko").stdout
    assert "점" in terminal_check(english, LAB.script, LAB_CHECK_LANG="ko").stdout
    assert "feedback language" in terminal_check(english, "--help").stdout


def test_with_both_labs_in_one_folder_the_notebook_checks_and_exports_its_own(halves, tmp_path, no_session):
    folder = fresh_copy(halves[LAB.name], tmp_path / "both")
    shutil.copy(halves[LAB2.name] / LAB2.notebook, folder / LAB2.notebook)
    nbformat.write(nbformat.v4.new_notebook(), folder / "scratch.ipynb")
    os.utime(folder / LAB2.notebook)  # lab 2's, the newest notebook of the folder
    notebook = planted(fill.fill_notebook(nbformat.read(halves[LAB.name] / LAB.notebook, as_version=4)),
                       "softmax", WRONG_AXIS)
    nbformat.write(notebook, folder / LAB.notebook)
    os.utime(folder / LAB2.notebook, (os.path.getmtime(folder / LAB.notebook) + 60,) * 2)
    outputs = run_in_kernel(notebook, folder, save_as=None)
    assert outputs["grader-init"].startswith(f"검사 준비가 끝났습니다. 제출할 노트북: {LAB.notebook}")
    assert outputs["check:make_qkv"].startswith("■ make_qkv — 2/2점 · 통과")
    assert "Error" not in outputs["export"] and "Traceback" not in outputs["export"]
    [exported] = folder.glob("self_attention_lab_*.zip")
    with zipfile.ZipFile(exported) as archive:
        assert LAB.notebook in archive.namelist() and LAB2.notebook not in archive.namelist()


def test_two_copies_of_its_own_lab_check_but_export_only_by_name(halves, tmp_path, no_session):
    folder = fresh_copy(halves[LAB.name], tmp_path / "copies")
    notebook = fill.fill_notebook(nbformat.read(halves[LAB.name] / LAB.notebook, as_version=4))
    nbformat.write(notebook, folder / "self_attention_lab (1).ipynb")
    outputs = run_in_kernel(notebook, folder)
    assert "어느 파일인지 알 수 없습니다" in outputs["grader-init"]
    assert outputs["check:make_qkv"].startswith("■ make_qkv — 2/2점 · 통과")
    assert "zip 파일을 만들지 않았습니다" in outputs["export"] or "grader.export(" in outputs["export"]
    assert list(folder.glob("*.zip")) == []
