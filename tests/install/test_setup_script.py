"""scripts/setup.sh on a copy of this tree, as a TA meets it: a .venv left by another Python is
made again, a broken one too, a second run does nothing, and it prints only its own lines (no
pip notices, no setuptools banner)."""
import os
import shutil
import subprocess

import pytest

import interpreters
from conftest import ROOT

SETUP_SECONDS = 900
# Only what a TA's shell has: no CI variables, no PYTHONPATH of the test run.
BASE_ENVIRONMENT = {key: value for key, value in os.environ.items()
                    if key in ("PATH", "HOME", "LANG", "TMPDIR") or key.startswith("PIP_")}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of the project as a fresh clone has it (no .venv, no build output)."""
    copy = tmp_path_factory.mktemp("setup-tree") / "project"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis",
        "out", "sample-run"))
    return copy


def setup(tree, python, **environment):
    return subprocess.run(["bash", str(tree / "scripts" / "setup.sh")], capture_output=True, text=True,
                          timeout=SETUP_SECONDS, cwd="/",
                          env={**BASE_ENVIRONMENT, "PYTHON": str(python), **environment})


def venv_version(tree):
    done = subprocess.run([str(tree / ".venv" / "bin" / "python"), "-c",
                           "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True)
    return done.stdout.strip()


@pytest.fixture(scope="module")
def rebuilt(tree):
    """The copy with a .venv made by Python 3.10, then scripts/setup.sh run with Python 3.11 chosen."""
    old, new = interpreters.require("3.10"), interpreters.require("3.11")
    subprocess.run([old, "-m", "venv", str(tree / ".venv")], check=True, timeout=300)
    return setup(tree, new)


def test_a_venv_of_another_python_is_made_again_with_the_chosen_one(tree, rebuilt):
    assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
    assert ".venv was made by Python 3.10." in rebuilt.stdout, rebuilt.stdout
    assert "making it again with Python 3.11." in rebuilt.stdout, rebuilt.stdout
    assert venv_version(tree) == "3.11"
    imports = subprocess.run([str(tree / ".venv" / "bin" / "python"), "-I", "-c",
                              "import autograder, numpy, pandas, otter, pytest, hypothesis; print(autograder.__file__)"],
                             capture_output=True, text=True, cwd="/")
    assert imports.returncode == 0 and imports.stdout.startswith(str(tree)), imports.stderr


def test_setup_prints_only_its_own_lines(rebuilt):
    """No setuptools banner ("Editable installation", "!!"), no pip notice, no warning."""
    lines = [line for line in (rebuilt.stdout + rebuilt.stderr).splitlines() if line.strip()]
    assert lines and all(line.startswith("scripts/setup.sh: ") for line in lines), lines


def test_a_second_run_does_nothing_and_says_nothing(tree, rebuilt):
    again = setup(tree, interpreters.require("3.11"))
    assert again.returncode == 0 and (again.stdout + again.stderr).strip() == "", again.stdout + again.stderr


def test_a_broken_venv_is_made_again(tree, rebuilt, tmp_path):
    """Its python gone (the interpreter it was made from removed): made again. Offline here, so
    the install then stops with a sentence that says what to run, after the venv is remade."""
    python = tree / ".venv" / "bin" / "python"
    python.unlink()
    python.symlink_to(tmp_path / "removed-python")
    empty = tmp_path / "no-wheels"
    empty.mkdir()
    done = setup(tree, interpreters.require("3.11"), PIP_NO_INDEX="1", PIP_FIND_LINKS=str(empty))
    assert ".venv is broken" in done.stdout and "making it again with Python 3.11." in done.stdout, done.stdout
    assert venv_version(tree) == "3.11"
    assert done.returncode == 1 and "the install did not finish" in done.stderr, done.stderr


def test_without_python_3_10_or_newer_setup_stops_with_a_sentence(tmp_path):
    old = interpreters.find("3.9")
    if old is None:
        pytest.skip("no Python 3.9 here to stand for a machine whose python3 is too old")
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "python3").symlink_to(old)
    (bin_folder / "dirname").symlink_to(shutil.which("dirname"))
    done = subprocess.run([shutil.which("bash"), str(ROOT / "scripts" / "setup.sh")], capture_output=True,
                          text=True, timeout=60, env={"PATH": str(bin_folder), "HOME": str(tmp_path)})
    assert done.returncode == 1
    assert "needs Python 3.10 or newer; found Python 3.9." in done.stderr, done.stderr
    assert "PYTHON=/path/to/python3.12 bash" in done.stderr
