"""The notebook's set-up cell in a kernel older than Python 3.10 (3.6 to 3.9): it parses, runs, and
says what to change, in the notebook's language; the `grader` it leaves repeats that sentence at
every check instead of raising.

The cell is run as a kernel runs it, in a bare interpreter of each old Python (pyenv's), in the
folder the student was given (the check package beside the notebook): nothing installed, nothing
of this repository on its path. The check package's modules it imports must parse and run there.
"""
import os
import subprocess

import pytest

import interpreters
from autograder.authoring.build_notebook import grader_setup_source
from autograder.otter import build as otter_build
from labs.self_attention import LAB

OLD = ("3.6", "3.7", "3.8", "3.9")
TOLD = {"ko": "이 노트북은 Python 3.10~3.13에서 검사합니다. 지금 커널은 Python {running}이라 검사할 수 없습니다.",
        "en": "This notebook is checked on Python 3.10 to 3.13; this kernel runs Python {running}, so it cannot "
              "check your work."}
# What the student runs next in the notebook: a check, all checks, the export.
AFTER = '\nprint("grader:", repr(grader)[:20])\ngrader.check("softmax")\ngrader.check_all()\ngrader.export(pdf=False)\n'


def bare_environment():
    return {**{key: value for key, value in os.environ.items()
               if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "LAB_CHECK_LANG")},
            "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1"}


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    return otter_build.build(tmp_path_factory.mktemp("dist") / "out", LAB, self_check=False)["student"]


def listing(folder):
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


@pytest.mark.parametrize("version", OLD)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_an_old_kernel_is_told_what_to_change_at_every_check(version, lang, student):
    python = interpreters.require(version)
    cell = grader_setup_source(lang, LAB.name)
    before = listing(student)
    done = subprocess.run([python, "-c", cell + AFTER], cwd=student, capture_output=True, timeout=120,
                          env=bare_environment())
    said = done.stderr.decode("utf-8")
    assert done.returncode == 0 and "Traceback" not in said and "Error" not in said, said
    running = subprocess.run([python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
                             capture_output=True, text=True, timeout=60).stdout.strip()
    sentence = TOLD[lang].format(running=running)
    assert said.count(sentence) == 4  # when the cell runs, then at each of the three calls
    assert done.stdout.decode("utf-8") == f"grader: {sentence[:20]}\n"
    assert listing(student) == before  # nothing installed, nothing written
