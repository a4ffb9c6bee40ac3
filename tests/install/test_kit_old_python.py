"""`python -m lab_check FILE` on a Python older than 3.10 (3.6 to 3.9): one sentence in Korean
and English saying what to install, exit status 2 ("the check could not run"), never a traceback
or status 1 ("a step lost points"). The kit's `__main__` and what it imports before the version
check parse and run on Python 3.6 and newer (autograder/kit/supported.py); the kit itself needs
3.10 (dataclass keywords, tomllib) and is imported only after the check.

The student half's check package runs in a bare interpreter of each old Python (pyenv's), as a
student's would: nothing installed, nothing of this repository on its path.
"""
import os
import subprocess

import pytest

import interpreters
from labs.self_attention import LAB

OLD = ("3.6", "3.7", "3.8", "3.9")
# What `python -m lab_check` runs before the version check, shipped in the student half.
BEFORE_THE_CHECK = ("lab_check/__init__.py", "lab_check/__main__.py",
                    "lab_check/kit/__init__.py", "lab_check/kit/terminal.py",
                    "lab_check/kit/supported.py")


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    from autograder.otter import build as otter_build

    return otter_build.build(tmp_path_factory.mktemp("dist"), LAB, self_check=False)["student"]


def bare_environment(**extra):
    kept = {key: value for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONHOME", "VIRTUAL_ENV",
                           "LANG", "LC_ALL", "LC_CTYPE")}
    return {**kept, **extra}


def check(python, student, *args, **environment):
    return subprocess.run([python, "-m", "lab_check", *args], cwd=student, capture_output=True,
                          timeout=120, env=bare_environment(**environment))


@pytest.mark.parametrize("version", OLD)
def test_what_runs_before_the_version_check_parses_on_old_pythons(student, version, tmp_path):
    python = interpreters.require(version)
    for relative in BEFORE_THE_CHECK:
        done = subprocess.run([python, "-c", "import sys, py_compile; py_compile.compile(sys.argv[1], "
                               "cfile=sys.argv[2], doraise=True)", str(student / relative),
                               str(tmp_path / "out.pyc")], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (relative, done.stderr)


@pytest.mark.parametrize("version", OLD)
@pytest.mark.parametrize("encoding", ["utf-8", "cp949"])
def test_an_old_python_is_told_what_to_install_and_exits_2(student, version, encoding):
    python = interpreters.require(version)
    (student / "mine.py").write_text("def softmax(x):\n    return x\n", "utf-8")
    done = check(python, student, "mine.py", PYTHONIOENCODING=encoding)
    said = done.stderr.decode(encoding)
    assert done.returncode == 2, said
    assert done.stdout == b"" and "Traceback" not in said and "Error" not in said
    running = subprocess.run([python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
                             capture_output=True, text=True).stdout.strip()
    assert f"지금 실행한 Python의 버전은 {running}입니다" in said and "Python 3.10~3.13" in said
    assert f"this is Python {running}" in said and "Install Python 3.12" in said
    assert "pip install -r requirements.txt" in said and "python -m lab_check" in said
    assert said.index("이 검사는") < said.index("These checks")  # Korean first, then English


def test_an_old_python_without_hangul_in_its_locale_says_it_in_english(student):
    python = interpreters.require("3.6")  # no UTF-8 mode: its ASCII locale really writes ASCII
    done = check(python, student, "--help", LANG="C", LC_ALL="C")
    said = done.stderr.decode("ascii")
    assert done.returncode == 2 and said.startswith("These checks run on Python 3.10 to 3.13")
    assert "\\u" not in said and "?" not in said


@pytest.mark.parametrize("arguments", [(), ("--help",), ("nothing.py", "--lang", "en"), ("--json", "x.ipynb")])
def test_any_arguments_get_the_same_sentence_first(student, arguments):
    python = interpreters.require("3.9")
    done = check(python, student, *arguments, PYTHONIOENCODING="utf-8")
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode("utf-8").startswith("이 검사는 Python 3.10~3.13에서 실행합니다.")


def test_a_supported_python_is_not_stopped(student):
    """The version check lets 3.10 and newer through to the check itself (here: a missing file)."""
    import sys

    done = subprocess.run([sys.executable, "-m", "lab_check", "no-such-file.py"], cwd=student,
                          capture_output=True, timeout=120, env=bare_environment(PYTHONIOENCODING="utf-8"))
    assert done.returncode == 2 and "파일이 없습니다: no-such-file.py" in done.stderr.decode("utf-8")
    assert "이 검사는 Python" not in done.stderr.decode("utf-8")

