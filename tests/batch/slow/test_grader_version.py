"""A grade is a function of its inputs: the grader version hashes every file of the packages grading
imports, the lab's plan as data and the versions it runs on, none of it listed by hand, so a rerun
after any edit equals a clean run."""
import csv
import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder.batch import version
from autograder.batch.version import grader_version, package_files, top_level_packages
from autograder.registry import lab_names, load
from conftest import ROOT


def _on_disk(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc"))


@pytest.mark.parametrize("package", ["autograder", "labs", "solutions"])
def test_every_file_of_a_package_grading_imports_is_hashed(package):
    assert [relative for relative, _ in package_files(package)] == sorted(_on_disk(ROOT / package), key=_walk_order)


def _walk_order(relative):
    # package_files walks a folder's entries by name, descending into folders where they sort.
    return relative.split("/")


@pytest.mark.parametrize("name", lab_names())
def test_a_lab_hashes_the_engine_its_own_package_and_its_solution(name):
    lab = load(name)
    assert {"autograder", lab.catalog_package.split(".")[0], lab.solution.split(".")[0]} <= set(top_level_packages(lab))
    assert grader_version(lab).startswith("0.")
    assert len({grader_version(load(n)) for n in lab_names()}) == len(lab_names())


def test_the_version_is_the_same_in_every_process():
    script = ("from autograder.registry import lab_names, load\n"
              "from autograder.batch.version import grader_version\n"
              "print([grader_version(load(n)) for n in lab_names()])")
    seen = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(seen) == 1


_names = st.text(alphabet="abcdefghij_.0123456789", min_size=1, max_size=8).filter(lambda n: n not in {".", ".."})
_trees = st.dictionaries(st.lists(_names, min_size=1, max_size=3).map("/".join), st.binary(max_size=40),
                         min_size=1, max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=_trees, data=st.data())
def test_any_edit_to_any_file_changes_the_hash(tmp_path_factory, monkeypatch, tree, data):
    root = tmp_path_factory.mktemp("pkg")
    package = root / "gradedpkg"
    written = {}
    for relative, content in tree.items():
        path = package / relative
        if any(p.exists() and p.is_file() for p in path.parents) or path.is_dir():
            continue  # a name used both as a file and as a folder
        if path.name.endswith(version.SKIPPED_SUFFIXES) or set(path.relative_to(package).parts) & version.SKIPPED_DIRECTORIES:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        written[relative] = path
    if not written:
        return
    (package / "__init__.py").touch()
    monkeypatch.syspath_prepend(str(root))
    sys.modules.pop("gradedpkg", None)
    __import__("gradedpkg")
    try:
        before = list(package_files("gradedpkg"))
        edit = data.draw(st.sampled_from(["change", "add", "remove"]))
        target = written[data.draw(st.sampled_from(sorted(written)))]
        if edit == "change":
            target.write_bytes(target.read_bytes() + b"\n")
        elif edit == "add":
            (target.parent / "added_data.json").write_bytes(b"{}")
        else:
            target.unlink()
        assert list(package_files("gradedpkg")) != before
    finally:
        sys.modules.pop("gradedpkg", None)


# --- the TA's rerun, end to end: the grader is a copy of this tree, edited between two runs ------

SAMPLES = ["kimminsu_10231_55001_attention.py", "parkseoyeon_10233_55003_attention.py", "correct.py"]


@pytest.fixture
def grader_copy(tmp_path):
    source = tmp_path / "src"
    for package in ("autograder", "labs", "solutions"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    submissions = tmp_path / "class"
    submissions.mkdir()
    for name in SAMPLES:
        shutil.copy(ROOT / "samples" / name, submissions / name)
    return source, submissions


def _grade(source, submissions, out):
    env = {**os.environ, "PYTHONPATH": str(source)}
    where = subprocess.run([sys.executable, "-c", "import autograder; print(autograder.__file__)"],
                           capture_output=True, text=True, env=env, check=True, cwd=submissions.parent).stdout
    assert where.startswith(str(source)), "the copy must be the grader that runs"
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(submissions), "--lab", "self_attention",
                           "--out", str(out)], capture_output=True, text=True, env=env, cwd=submissions.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def _outputs(out):
    with open(out / "grades.csv", encoding="utf-8-sig") as file:
        rows = list(csv.DictReader(file))
    feedback = {p.name: p.read_text("utf-8") for p in sorted((out / "feedback").glob("*.md"))}
    return rows, feedback


def _edit(path, old, new):
    text = path.read_text("utf-8")
    assert old in text, f"{path.name} no longer holds {old!r}: choose another edit for this test"
    path.write_text(text.replace(old, new, 1), "utf-8")


@pytest.mark.parametrize("edit", ["rubric_share", "case_name", "data_file"])
def test_a_rerun_after_an_edit_equals_a_clean_run(grader_copy, tmp_path, edit):
    source, submissions = grader_copy
    out = tmp_path / "out"
    _grade(source, submissions, out)
    first = _outputs(out)
    if edit == "rubric_share":  # a wrong formula's share, in the engine
        _edit(source / "autograder" / "core" / "rubric.py", "FORMULA_SHARE = 0.25", "FORMULA_SHARE = 0.5")
    elif edit == "case_name":  # a sentence of the lab's catalog
        _edit(source / "labs" / "self_attention" / "locale" / "ko.toml", 'page = "페이지 예제"', 'page = "페이지의 예제"')
    else:  # a file no code names, which a lab might read
        (source / "labs" / "self_attention" / "notes.json").write_text("{}", "utf-8")
    said = _grade(source, submissions, out)
    assert f"이번에 채점한 학생 {len(SAMPLES)}명" in said and "그대로 둔 학생 0명" in said, said
    clean = tmp_path / "clean"
    _grade(source, submissions, clean)
    assert _outputs(out) == _outputs(clean)
    if edit != "data_file":
        assert _outputs(out) != first, "the edit must matter for this test to mean anything"
