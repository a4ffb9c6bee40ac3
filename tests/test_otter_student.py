"""The student half in a real Jupyter kernel: otter.Notebook checks, check_all and export."""
import json
import subprocess
import sys

import nbformat
import pytest
from nbclient import NotebookClient

from autograder.otter import build as otter_build
from autograder.steps import STEPS

from conftest import ROOT

ASSIGNMENTS = ROOT / "assignments"
sys.path.insert(0, str(ASSIGNMENTS))
import fill  # noqa: E402  (assignments/ is not a package)

sys.path.remove(str(ASSIGNMENTS))

# First cell of every run: the engine and the reference cannot be imported, as on a student's machine.
BLOCK_ENGINE = '''import importlib.abc, sys
class _Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("autograder", "solutions"):
            raise ImportError("not on a student's machine: " + name)
sys.meta_path.insert(0, _Block())
'''
WRONG_AXIS = ("    e = np.exp(x - x.max(axis=0, keepdims=True))\n"
              "    return e / e.sum(axis=0, keepdims=True)\n")


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("student-build")
    return otter_build.build(out, self_check=False)["student"]


def run_in_kernel(notebook, folder):
    """Save the notebook in `folder` (export zips the saved file), run it there; tag -> outputs."""
    nbformat.write(notebook, folder / "self_attention_lab.ipynb")
    running = nbformat.reads(nbformat.writes(notebook), as_version=4)
    running.cells.insert(0, nbformat.v4.new_code_cell(BLOCK_ENGINE))
    NotebookClient(running, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(folder)}}).execute()
    outputs = {}
    for cell in running.cells:
        for tag in cell.metadata.get("tags", []):
            outputs[tag] = "\n".join(
                str(o.get("data", {}).get("text/plain", "")) + o.get("text", "")
                + o.get("ename", "") + o.get("evalue", "") for o in cell.get("outputs", []))
    return outputs


def test_filled_notebook_passes_every_check_and_its_export_gets_full_marks(student, tmp_path):
    notebook = fill.fill_notebook(nbformat.read(student / "self_attention_lab.ipynb", as_version=4))
    outputs = run_in_kernel(notebook, student)
    for step in STEPS:
        assert outputs[f"check:{step.name}"] == f"{step.name} results: All test cases passed!"
    assert outputs["check-all"].count("All test cases passed!") == len(STEPS)
    exported = sorted(student.glob("self_attention_lab_*.zip"))
    assert len(exported) == 1
    zip_path = next((student.parent / "autograder").glob("*.zip"))
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run([sys.executable, "-m", "otter", "run", "-a", str(zip_path), "-o", str(out),
                           str(exported[0])], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    tests = json.loads((out / "results.json").read_text("utf-8"))["tests"]
    scores = {t["name"]: t["score"] for t in tests if "score" in t}
    assert scores == {step.name: step.points for step in STEPS}


def test_a_mistake_shows_the_same_diagnosis_as_autograder_check(student):
    filled = fill.fill_notebook(nbformat.read(student / "self_attention_lab.ipynb", as_version=4))
    for cell in filled.cells:
        if "step:softmax" in cell.metadata.get("tags", []):
            end = cell.source.index('"""', cell.source.index('"""') + 3) + 3
            cell.source = cell.source[:end] + "\n" + WRONG_AXIS
    outputs = run_in_kernel(filled, student)
    assert "행이 아니라 열 방향으로 계산했습니다" in outputs["check:softmax"]
    assert "공개 사례 'page'" in outputs["check:softmax"]
    assert "숨은 사례" not in outputs["check:softmax"]
    for step in STEPS:
        if step.name != "softmax":
            assert outputs[f"check:{step.name}"] == f"{step.name} results: All test cases passed!"


def test_filled_script_runs_its_checks_from_the_student_folder(student):
    script = student / "filled_lab.py"
    script.write_text(fill.fill_script((student / "self_attention_lab.py").read_text("utf-8")), "utf-8")
    done = subprocess.run([sys.executable, script.name], cwd=student, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    for step in STEPS:
        assert f"{step.name} results: All test cases passed!" in done.stdout
