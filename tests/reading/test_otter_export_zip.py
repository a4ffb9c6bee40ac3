"""The zip `grader.export()` writes, as JupyterLab and VS Code make it: the notebook under the path
Otter was given (absolute there). The reader takes the one notebook nearest the top at any depth;
the kit hands Otter a path relative to the working folder (autograder/kit/ready.py, zip_member_path)."""
import io
import json
import os
import subprocess
import sys
import zipfile

import pytest
from hypothesis import given, settings, strategies as st

from autograder.kit.ready import zip_member_path
from autograder.core.reading.zips import NotAnOtterExport, otter_export_notebook

import installed
from conftest import ROOT

NOTEBOOK = ROOT / "assignments" / "self_attention" / "self_attention_lab.ipynb"
REFERENCE = ROOT / "solutions" / "self_attention.py"


def export_zip(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        archive.writestr("__zip_filename__", b"self_attention_lab_2026_03_01T12_00_00_000000.zip")
        archive.writestr(".OTTER_LOG", b"never read")
    return buffer.getvalue()


FOLDER = st.from_regex(r"[A-Za-z0-9_\-가-힣]{1,10}", fullmatch=True)


@given(folders=st.lists(FOLDER, max_size=5), stem=FOLDER)
def test_the_export_notebook_is_found_at_any_depth(folders, stem):
    name = "/".join([*folders, stem + ".ipynb"])
    found, data = otter_export_notebook(export_zip({name: b'{"cells": []}', "data/picture.png": b"png"}))
    assert found == name and data == b'{"cells": []}'


@given(folders=st.lists(FOLDER, min_size=1, max_size=3), deeper=st.lists(FOLDER, min_size=1, max_size=3))
def test_the_notebook_nearest_the_top_is_the_one_and_a_tie_is_named(folders, deeper):
    top = "/".join([*folders, "lab.ipynb"])
    below = "/".join([*folders, *deeper, "attached.ipynb"])
    assert otter_export_notebook(export_zip({top: b"{}", below: b"[]"}))[0] == top
    twin = "/".join([*folders[:-1], folders[-1] + "x", "other.ipynb"])  # another folder at the same depth
    with pytest.raises(NotAnOtterExport) as refused:
        otter_export_notebook(export_zip({top: b"{}", twin: b"[]"}))
    assert "2" in str(refused.value)


@given(parts=st.lists(FOLDER, min_size=1, max_size=4))
def test_the_kit_gives_otter_a_relative_name_inside_the_working_folder(tmp_path_factory, parts):
    here = tmp_path_factory.mktemp("work")
    old = os.getcwd()
    os.chdir(here)
    try:
        inside = os.path.join(str(here), *parts) + ".ipynb"
        assert zip_member_path(inside) == os.path.join(*parts) + ".ipynb"
        assert zip_member_path(os.path.join(*parts) + ".ipynb") == os.path.join(*parts) + ".ipynb"
        outside = os.path.join(os.path.dirname(str(here)), "elsewhere", "lab.ipynb")
        assert zip_member_path(outside) == outside
    finally:
        os.chdir(old)


def graded_notebook():
    notebook = json.loads(NOTEBOOK.read_text("utf-8"))
    reference = REFERENCE.read_text("utf-8")
    notebook["cells"].append({"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                              "source": reference})
    return json.dumps(notebook).encode("utf-8")


def test_a_jupyterlab_export_is_graded_by_check(tmp_path):
    """The member is the absolute path JupyterLab gave (`tmp/field-work/c61/lab/...`): graded 10/10."""
    path = tmp_path / "self_attention_lab_2026_03_01T12_00_00_000000.zip"
    path.write_bytes(export_zip({"tmp/field-work/c61/lab/self_attention_lab.ipynb": graded_notebook()}))
    done = subprocess.run([installed.script("autograder"), "check", str(path), "--json"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert json.loads(done.stdout)["score"] == 10
