"""`autograder build --out DIR` writes only into an empty folder or over this lab's earlier build."""
import hashlib
import json
import os
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from autograder import registry
from autograder.otter import build as otter_build
from autograder.otter.out_folder import BUILD_FOLDERS, STAMP, claim_out_folder
from autograder.otter.refusals import BuildError

import installed
from conftest import ROOT
from labs.self_attention import LAB


def tree(folder):
    """{relative path: bytes or None for a folder} of everything under folder."""
    return {p.relative_to(folder).as_posix(): (None if p.is_dir() else p.read_bytes())
            for p in sorted(folder.rglob("*"))}


ENTRY_NAMES = st.sampled_from(["student", "classroom", "autograder", "notes.txt", "dist-old", "grades.csv"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.sets(ENTRY_NAMES, max_size=4),
       stamp=st.sampled_from([None, "self_attention", "masked_attention", "broken", "running", "names_only"]),
       extra_in_student=st.booleans(), edited=st.booleans())
def test_a_build_claims_only_an_empty_folder_or_this_labs_earlier_build(tmp_path_factory, entries, stamp,
                                                                         extra_in_student, edited):
    out = tmp_path_factory.mktemp("out")
    written = []
    for name in entries:
        if name in BUILD_FOLDERS:
            (out / name).mkdir()
            (out / name / "built.txt").write_text("from the build")
            written.append(f"{name}/built.txt")
        else:
            (out / name).write_text("someone's")
    if extra_in_student and "student" in entries:
        (out / "student" / "ta_notes.md").write_text("mine")
    if stamp == "broken":
        (out / STAMP).write_text("{not json")
    elif stamp == "names_only":  # a stamp that lists names alone: compared by name
        (out / STAMP).write_text(json.dumps({"lab": "self_attention", "files": written}))
    elif stamp is not None:
        lab = "self_attention" if stamp == "running" else stamp
        digests = {name: hashlib.sha256(b"from the build").hexdigest() for name in written}
        (out / STAMP).write_text(json.dumps({"lab": lab, "files": None if stamp == "running" else digests}))
    if edited and written:  # a person changed a file the build wrote
        (out / written[0]).write_text("from the build, and a note of mine")
    before = tree(out)
    ours = stamp in ("self_attention", "running", "names_only")
    others = entries - set(BUILD_FOLDERS)
    foreign = extra_in_student and "student" in entries and stamp in ("self_attention", "names_only")
    foreign = foreign or (edited and bool(written) and stamp == "self_attention")
    allowed = not before or (ours and not others and not foreign)
    try:
        claim_out_folder(out, LAB)
    except BuildError as refusal:
        assert not allowed, refusal
        assert tree(out) == before  # nothing was written or removed
        assert "nothing was written" in str(refusal)
    else:
        assert allowed, before
        assert json.loads((out / STAMP).read_text())["lab"] == "self_attention"


def test_a_rebuild_replaces_the_labs_earlier_build_and_no_one_elses_files(tmp_path):
    out = tmp_path / "dist"
    first = otter_build.build(out, LAB, self_check=False)
    stamp = json.loads((out / STAMP).read_text())
    assert stamp["lab"] == "self_attention" and "student/self_attention_lab.ipynb" in stamp["files"]
    notebook = out / "student" / "self_attention_lab.ipynb"
    assert stamp["files"]["student/self_attention_lab.ipynb"] == hashlib.sha256(notebook.read_bytes()).hexdigest()
    # Running the check package in the student half writes byte-code caches: the build's own.
    cache = out / "student" / "lab_check" / "kit" / "__pycache__"
    cache.mkdir()
    (cache / "cli.cpython-311.pyc").write_bytes(b"\0")
    again = otter_build.build(out, LAB, self_check=False)
    assert again["zip"] == first["zip"] and again["zip"].is_file()
    (out / "student" / "my_run.ipynb").write_text("{}")
    with pytest.raises(BuildError, match=r"files that build did not write \(student/my_run.ipynb\)"):
        otter_build.build(out, LAB, self_check=False)
    assert (out / "student" / "my_run.ipynb").read_text() == "{}"
    with pytest.raises(BuildError, match=r"another lab \(self_attention\)"):
        otter_build.build(out, registry.load("masked_attention"), self_check=False)


def test_a_rebuild_refuses_a_file_a_person_changed_naming_it(tmp_path):
    """The notebook run and saved in place, a note added to the README: refused, both named, both kept."""
    out = tmp_path / "dist"
    otter_build.build(out, LAB, self_check=False)
    readme, notebook = out / "student" / "README.md", out / "student" / "self_attention_lab.ipynb"
    readme.write_text(readme.read_text("utf-8") + "\nCourse note: due Friday.\n", "utf-8")
    notebook.write_text(notebook.read_text("utf-8").replace('"outputs": []', '"outputs": [ ]', 1), "utf-8")
    before = tree(out)
    with pytest.raises(BuildError, match=r"changed or added since \(student/README.md, "
                                         r"student/self_attention_lab.ipynb\)"):
        otter_build.build(out, LAB, self_check=False)
    assert tree(out) == before


@pytest.mark.parametrize("kind", ["ta_files", "other_lab"])
def test_the_command_refuses_a_folder_holding_something_else(tmp_path, kind):
    out = tmp_path / "dist"
    out.mkdir()
    if kind == "ta_files":
        (out / "grades.csv").write_text("id,score\n")
        expected = "is not empty and holds no earlier build (grades.csv)"
    else:
        (out / "student").mkdir()
        (out / "student" / "masked_attention_lab.ipynb").write_text("{}")
        (out / STAMP).write_text(json.dumps({"lab": "masked_attention", "files": ["student/masked_attention_lab.ipynb"]}))
        expected = "holds the build of another lab (masked_attention)"
    before = tree(out)
    done = subprocess.run([installed.script("autograder"), "build", "--lab", "self_attention", "--out", str(out), "--lang", "en"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": ""})
    assert done.returncode == 1, done.stdout + done.stderr
    assert expected in done.stderr and "nothing was written" in done.stderr
    assert tree(out) == before
