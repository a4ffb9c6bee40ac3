"""The built autograder zip under the real `otter run`: scores, feedback, and what it refuses."""
import json
import os
import pickle
import subprocess
import sys
import zipfile

import nbformat
import pytest

from autograder import cli
from autograder.otter import build as otter_build
from autograder.said import said
from labs.self_attention.steps import STEPS

from conftest import ROOT
from test_gradescope import Marker, shadowing_files, with_body

AUTHORING = ROOT / "autograder" / "authoring"
LAB_FOLDER = ROOT / "assignments" / "self_attention"
from autograder.authoring import fill
from labs.self_attention import LAB


NOTEBOOK = LAB_FOLDER / "self_attention_lab.ipynb"
SCRIPT = LAB_FOLDER / "self_attention_lab.py"
STEP_SECONDS = 2.0

# Planted mistakes, each the whole new body of one step function.
MISTAKES = {
    "softmax": "    e = np.exp(x - x.max(axis=0, keepdims=True))\n    return e / e.sum(axis=0, keepdims=True)\n",
    "mix": "    return weights.T @ V\n",
    "most_attended": "    table = pd.DataFrame(weights, index=words, columns=words)\n"
                     "    return table.idxmin(axis=1).to_dict()\n",
}
PATCH_OTTER = '''import otter.test_files.abstract_test as _otter_tests
_original = _otter_tests.TestCaseResult.__init__
def _always_passed(self, test_case, message, passed):
    _original(self, test_case, message, True)
_otter_tests.TestCaseResult.__init__ = _always_passed
'''
# Looks for the wheel that the zip installs (it holds the reference) where `otter run` unpacks it.
STEAL_REFERENCE = '''import glob, sys
for wheel in glob.glob("/tmp/tmp*/autograder/*/*.whl") + glob.glob("/tmp/tmp*/autograder/*/*/*.whl"):
    sys.path.insert(0, wheel)
    try:
        from solutions.self_attention import make_qkv, scores, softmax, mix, self_attention, most_attended
        break
    except Exception:
        sys.path.remove(wheel)
'''


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Build once, then run `otter run` on every submission at the same time."""
    work = tmp_path_factory.mktemp("otter")
    built = otter_build.build(work / "build", LAB, step_seconds=STEP_SECONDS, self_check=False)
    stubs = nbformat.read(NOTEBOOK, as_version=4)
    reference = fill.fill_notebook(stubs)
    planted = reference
    for step, body in MISTAKES.items():
        planted = with_body(planted, step, body)
    attack = with_body(reference, "softmax", "    import time\n    time.sleep(10 ** 6)\n")
    attack.cells.append(nbformat.v4.new_code_cell(PATCH_OTTER))
    attack.cells.append(nbformat.v4.new_code_cell("import os\nos._exit(0)"))
    marker = work / "log-was-loaded"
    submissions = {}
    for name, notebook in (("reference", reference), ("stubs", stubs), ("planted", planted),
                           ("attack", attack)):
        folder = work / name
        folder.mkdir()
        submissions[name] = folder / "self_attention_lab.ipynb"
        nbformat.write(notebook, submissions[name])
    (work / "script").mkdir()
    submissions["script"] = work / "script" / "self_attention_lab.py"
    submissions["script"].write_text(fill.fill_script(SCRIPT.read_text("utf-8")), "utf-8")
    for name in ("steal", "steal_unconfined"):
        (work / name).mkdir()
        submissions[name] = work / name / "self_attention_lab.py"
        submissions[name].write_text(STEAL_REFERENCE, "utf-8")
    (work / "binary").mkdir()
    submissions["binary"] = work / "binary" / "self_attention_lab.py"
    submissions["binary"].write_bytes(b"def softmax(x):\n    return x\n\xff\xfe\n")
    exported = work / "attack" / "exported.zip"
    with zipfile.ZipFile(exported, "w") as archive:
        archive.write(submissions["attack"], "self_attention_lab.ipynb")
        archive.writestr(".OTTER_LOG", pickle.dumps(Marker(str(marker))))
    submissions["attack"] = exported
    # A zip (otter run unpacks it into the submission folder) with modules that Otter's kernel,
    # started there, would run first.
    markers = work / "markers"
    markers.mkdir()
    (work / "shadowing").mkdir()
    submissions["shadowing"] = work / "shadowing" / "shadowing.zip"
    with zipfile.ZipFile(submissions["shadowing"], "w") as archive:
        archive.writestr("self_attention_lab.ipynb", nbformat.writes(stubs))
        for name, data in shadowing_files(markers).items():
            archive.writestr(name, data)
    processes = {}
    for name, path in submissions.items():
        out = path.parent / "out"
        out.mkdir()
        # The sandbox's own debugging switch shows what confinement prevents.
        environment = dict(os.environ, AUTOGRADER_SANDBOX="off" if name.endswith("unconfined") else "on")
        processes[name] = (out, subprocess.Popen(
            [sys.executable, "-m", "otter", "run", "-a", str(built["zip"]), "-o", str(out), str(path)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment))
    results = {}
    for name, (out, process) in processes.items():
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output[-3000:]
        results[name] = json.loads((out / "results.json").read_text("utf-8"))
    results["marker"] = marker
    results["markers"] = markers
    return results


def per_step(results):
    return {t["name"]: t for t in results["tests"] if "max_score" in t}


def test_reference_notebook_and_script_get_full_marks(graded):
    for name in ("reference", "script"):
        steps = per_step(graded[name])
        assert list(steps) == [s.name for s in STEPS]
        for step in STEPS:
            assert (steps[step.name]["score"], steps[step.name]["max_score"]) == (step.points, step.points)


def test_untouched_stubs_get_zero_and_say_not_implemented(graded):
    steps = per_step(graded["stubs"])
    assert all(steps[s.name]["score"] == 0 and steps[s.name]["max_score"] == s.points for s in STEPS)
    public = next(t for t in graded["stubs"]["tests"] if t["name"] == "Public Tests")
    assert public["visibility"] == "visible"
    assert public["output"].count("아직 구현하지 않았습니다") >= len(STEPS)


def test_planted_mistakes_cost_their_steps_and_are_diagnosed(graded):
    steps = per_step(graded["planted"])
    for step in STEPS:
        expected_full = step.name not in MISTAKES
        assert (steps[step.name]["score"] == step.points) is expected_full, step.name
    public = next(t for t in graded["planted"]["tests"] if t["name"] == "Public Tests")["output"]
    assert "행이 아니라 열 방향으로 계산했습니다" in public  # softmax over columns
    # the smallest repair of the student's own code names the line (autograder.repair)
    assert "의 축(`axis`)을 확인해 보십시오" in public
    assert "`weights.T`의 전치는 없어야 합니다" in public  # the transposed mix, named on its line
    assert "idxmin" in steps["most_attended"]["output"] or "가장 작은" in steps["most_attended"]["output"]


def test_hidden_cases_are_shown_only_after_publication(graded):
    tests = graded["planted"]["tests"]
    public = next(t for t in tests if t["name"] == "Public Tests")
    assert "숨은 테스트" not in public["output"] and "hidden-" not in public["output"]
    softmax = per_step(graded["planted"])["softmax"]
    assert softmax["visibility"] == "after_published"
    assert "숨은 테스트" in softmax["output"]


def test_hang_patch_exit_and_pickled_log_change_nothing(graded):
    steps = per_step(graded["attack"])
    assert steps["softmax"]["score"] == 0
    assert "시간" in steps["softmax"]["output"]
    for step in STEPS:
        if step.name != "softmax":
            assert steps[step.name]["score"] == step.points, step.name
    assert not graded["marker"].exists()


def test_a_submission_cannot_load_the_reference_the_zip_installs(graded):
    assert all(t["score"] == 0 for t in per_step(graded["steal"]).values())
    # Without the sandbox's confinement the same file would take every point.
    assert all(t["score"] == t["max_score"] for t in per_step(graded["steal_unconfined"]).values())


def test_a_file_that_is_not_text_is_graded_zero_with_the_reason(graded):
    steps = per_step(graded["binary"])
    assert [t["score"] for t in steps.values()] == [0] * len(STEPS)
    # The reason is the whole file's: told once (the output and the public tests), not per step.
    assert "UTF-8" in graded["binary"]["output"] and "UTF-8" in graded["binary"]["tests"][0]["output"]
    assert not any("UTF-8" in t["output"] for t in steps.values())


def test_modules_beside_the_notebook_never_run_and_no_kernel_starts(graded):
    assert all(t["score"] == 0 for t in per_step(graded["shadowing"]).values())
    assert sorted(p.name for p in graded["markers"].iterdir()) == []


def test_build_failure_exits_1_with_the_message(monkeypatch, capsys, tmp_path):
    def failing(*args, **kwargs):
        raise otter_build.BuildError(said("does_not_grade", "build", lines="reference: step make_qkv scored 0/1"))

    monkeypatch.setattr(otter_build, "build", failing)
    assert cli.main(["build", "--lab", "self_attention", "--out", str(tmp_path), "--lang", "en"]) == 1
    assert "autograder build: the autograder zip does not grade as it must" in capsys.readouterr().err
    assert cli.main(["build", "--lab", "self_attention", "--out", str(tmp_path)]) == 1
    assert "autograder build: autograder zip이 제대로 채점하지 않습니다" in capsys.readouterr().err
