"""The student half on every supported Python (3.10 to 3.13), installed as its README says.

For each Python: a fresh venv, `pip install -r requirements.txt` in the folder `autograder build`
writes for students (nothing else, never this package), then `python -m lab_check` from
that folder, as a student runs it: on the filled-in notebook and its .py twin (every step passes
its public cases), on a .py with a planted mistake (named on its own step) and on the untouched
notebook (nothing passes). The venvs are built once per test run, all at once, from pip's cache
when it has the packages, and shared with test_student_venv.py (interpreters.shared_venvs).
"""
import json
import subprocess
import sys

import nbformat
import pytest

import interpreters
from autograder.otter.student_half import write_student_half
from conftest import CORPORA, ROOT
from labs.self_attention import LAB

from autograder.authoring import fill


INSTALL_SECONDS = 900
CLEAN_ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": "/tmp",
                     "HOME": "/tmp"}
SOFTMAX_OVER_COLUMNS = ("x.max(axis=-1, keepdims=True))\n    return shifted / shifted.sum(axis=-1, keepdims=True)",
                        "x.max(axis=0, keepdims=True))\n    return shifted / shifted.sum(axis=0, keepdims=True)")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the venvs are built for Linux")


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    """The student half, and beside it the files a student would check."""
    folder = tmp_path_factory.mktemp("student-half")
    write_student_half(folder, LAB)
    notebook = nbformat.read(LAB.assignment_file(LAB.notebook), as_version=4)
    nbformat.write(fill.fill_notebook(notebook, lab=LAB), folder / "filled.ipynb")
    script = fill.fill_script(LAB.assignment_file(LAB.script).read_text("utf-8"), lab=LAB)
    (folder / "filled.py").write_text(script, "utf-8")
    old, new = SOFTMAX_OVER_COLUMNS
    reference = (ROOT / "solutions" / "self_attention.py").read_text("utf-8")
    assert old in reference
    (folder / "planted.py").write_text(reference.replace(old, new), "utf-8")
    for name, written in STATE_AND_GLOBALS.items():
        (folder / name).write_bytes((CORPORA / "corpus_blind" / "lab1" / written).read_bytes())
    return folder


# Files whose causes are read from the code (autograder.core.code_evidence, with `dis`, whose
# instructions differ from one Python to the next): file -> (step, the cause named).
STATE_AND_GLOBALS = {"state.py": "lab1__most_attended__global_result_dict.py",
                     "globals.py": "lab1__mix__global_words_loop.py"}
CAUSES = {"state.py": ("most_attended", "global_state"), "globals.py": ("mix", "reads_global")}


@pytest.fixture(scope="module")
def venvs(student, tmp_path_factory):
    """A venv per Python with the student half's requirements.txt installed (shared with
    test_student_venv.py, which installs the same list)."""
    requirements = (student / "requirements.txt").read_text("utf-8")
    return interpreters.shared_venvs(tmp_path_factory, requirements, seconds=INSTALL_SECONDS)


def python_for(version, venvs):
    interpreters.require(version)  # fails under CI, skips elsewhere, when the interpreter is missing
    folder, error = venvs[version]
    assert folder is not None, f"pip install -r requirements.txt failed on Python {version}:\n{error}"
    return folder / "bin" / "python"


def lab_check(python, student, name):
    """`python -m lab_check NAME --json` from the student folder, as its README says."""
    done = subprocess.run([str(python), "-m", "lab_check", name, "--json", "--lang", "en"],
                          cwd=student, capture_output=True, text=True, timeout=300, env=dict(CLEAN_ENVIRONMENT))
    assert done.returncode in (0, 1), f"exit {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("version", interpreters.SUPPORTED)
def test_the_student_half_installs_and_checks_on_every_python(version, venvs, student):
    python = python_for(version, venvs)
    running = subprocess.run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True, check=True)
    assert running.stdout.strip() == version
    for name in ("filled.ipynb", "filled.py"):
        code, result = lab_check(python, student, name)
        assert code == 0 and result["score"] == result["max_score"] > 0, (name, result)
        assert all(step["status"] == "passed" for step in result["steps"]), (name, result["steps"])

    code, result = lab_check(python, student, "planted.py")
    steps = {step["name"]: step for step in result["steps"]}
    assert code == 1
    assert steps["softmax"]["status"] != "passed" and "wrong_axis" in steps["softmax"]["mistakes"], steps["softmax"]
    assert all(step["status"] == "passed" for name, step in steps.items() if name != "softmax")

    code, result = lab_check(python, student, LAB.notebook)
    assert code == 1 and result["score"] == 0, result


@pytest.mark.parametrize("version", interpreters.SUPPORTED)
def test_causes_read_from_the_code_are_named_alike_on_every_python(version, venvs, student):
    python = python_for(version, venvs)
    for name, (step, cause) in CAUSES.items():
        code, result = lab_check(python, student, name)
        steps = {s["name"]: s for s in result["steps"]}
        assert code == 1 and steps[step]["mistakes"][:1] == [cause], (version, name, steps[step])


@pytest.mark.parametrize("version", interpreters.SUPPORTED)
def test_the_student_half_never_installs_the_grader(version, venvs):
    python = python_for(version, venvs)
    for name in ("autograder", "solutions", "labs"):
        done = subprocess.run([str(python), "-I", "-c", f"import {name}"], capture_output=True, text=True,
                              cwd="/", env=dict(CLEAN_ENVIRONMENT))
        assert done.returncode != 0 and "ModuleNotFoundError" in done.stderr, (name, done.stderr)


def test_every_requirement_list_that_ships_declares_the_toml_reader_for_python_3_10(tmp_path):
    """tomllib is 3.11's; 3.10 reads the catalogs with tomli, so every list that installs the
    catalogs' reader names it, for 3.10 only."""
    try:
        import tomllib
    except ModuleNotFoundError:
        import tomli as tomllib
    marker = "python_version < '3.11'"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert [d for d in project["project"]["dependencies"] if d.startswith("tomli")] == [f"tomli>=1.1; {marker}"]
    assert project["project"]["requires-python"] == ">=3.10"
    write_student_half(tmp_path, LAB)
    assert f"tomli>=1.1; {marker}" in (tmp_path / "requirements.txt").read_text("utf-8").splitlines()
    assert "Python 3.10~3.13" in (tmp_path / "README.md").read_text("utf-8")


@pytest.mark.parametrize("ci, outcome", [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_a_missing_python_fails_under_ci_and_is_skipped_elsewhere(monkeypatch, ci, outcome):
    monkeypatch.setattr(interpreters, "find", lambda version: None)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="Python 3.10 is not installed"):
        interpreters.require("3.10")
    if ci:
        with pytest.raises(outcome, match="CI must test every supported Python"):
            interpreters.require_or_this("3.10")
    else:
        assert interpreters.require_or_this("3.10") == sys.executable


@pytest.mark.parametrize("version", interpreters.SUPPORTED)
def test_the_py_twin_runs_to_the_end_and_speaks_as_the_kit_on_every_python(version, venvs, student):
    """`python self_attention_lab.py` as its header says: the kit's feedback per step, never Otter's
    summary or a traceback, and the untouched twin still runs to its last line."""
    python = python_for(version, venvs)
    for name, status in ((LAB.script, "· not implemented yet"), ("filled.py", "· passed")):
        done = subprocess.run([str(python), name], cwd=student, capture_output=True, text=True, timeout=300,
                              env={**CLEAN_ENVIRONMENT, "LAB_CHECK_LANG": "en"})
        assert done.returncode == 0, (name, done.stderr[-3000:])
        assert done.stdout.count(status) == len(LAB.steps), (name, done.stdout[-3000:])
        for word in ("Test case failed", "results:", "Traceback"):
            assert word not in done.stdout + done.stderr, (name, word)
