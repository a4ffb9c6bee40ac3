"""`autograder build`: the student half (no reference, no hidden cases) and the autograder zip."""
import ast
import importlib
import io
import json
import sys
import zipfile

import nbformat
import pytest
from hypothesis import given, settings, strategies as st

from labs.self_attention.cases import public_cases
from autograder.grading import grade_file
from labs.self_attention.hidden import hidden_cases
from autograder.otter import build as otter_build
from autograder.otter.gradescope import PLUGIN
from autograder.otter.plugin import remove_untrusted
from autograder.otter.results import gradescope_results
from autograder.otter.student_half import TOML_REQUIREMENT
from autograder.core.render.step import step_feedback
from labs.self_attention.steps import STEPS, TOTAL_POINTS

from conftest import ROOT
from labs.self_attention import LAB

SOLUTION = ROOT / "solutions" / "self_attention.py"
HIDDEN = ROOT / "labs" / "self_attention" / "hidden.py"


@pytest.fixture(autouse=True)
def _engine_as_the_kit_speaks(monkeypatch):
    """The students' kit runs no repair search (it has no sandbox: autograder.repair); the engine's
    words compared with the kit's here are the ones it says without it."""
    monkeypatch.setenv("AUTOGRADER_REPAIR", "off")



@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    return otter_build.build(out, LAB, self_check=False)


def every_file(folder):
    """(name, bytes) of every file under folder, zip members included."""
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        yield str(path.relative_to(folder)), data
        if zipfile.is_zipfile(io.BytesIO(data)):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                for member in archive.namelist():
                    yield f"{path.name}!{member}", archive.read(member)


def reference_lines():
    """Statements of the reference's step functions that compute an answer."""
    source = SOLUTION.read_text("utf-8")
    lines = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef):
            for statement in node.body:
                text = ast.get_source_segment(source, statement)
                if any(mark in text for mark in ("@", "exp(", "idxmax", "sqrt", ".sum(")):
                    lines.append(text)
    return lines


def test_reference_lines_are_found_by_the_scan():
    lines = reference_lines()
    assert "return Q @ K.T" in lines and len(lines) >= 6


def test_student_half_holds_no_reference_and_no_hidden_case(built):
    student = built["student"]
    names = [name for name, _ in every_file(student)]
    assert not [n for n in names if n.rsplit("/", 1)[-1] in ("hidden.py", "reference.py", "attention.py",
                                                              "grading.py", "runner.py", "zygote.py")
                or "grading/" in n]
    assert not [n for n in names if "solutions" in n]
    hidden_text = HIDDEN.read_text("utf-8")
    forbidden = reference_lines() + [case.name for case in hidden_cases()] + [
        line.strip() for line in hidden_text.splitlines() if "random_case(" in line] + ["def hidden_cases"]
    for name, data in every_file(student):
        text = data.decode("utf-8", "replace")
        for needle in forbidden:
            assert needle not in text, f"{needle!r} found in student/{name}"


def test_student_half_has_the_notebook_twin_tests_and_public_checks(built):
    student = built["student"]
    assert (student / "self_attention_lab.ipynb").is_file() and (student / "self_attention_lab.py").is_file()
    assert sorted(p.stem for p in (student / "tests").glob("*.py")) == sorted(s.name for s in STEPS)
    notebook = nbformat.read(student / "self_attention_lab.ipynb", as_version=4)
    assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code")
    data = json.loads((student / "lab_check" / "kit" / "public_data.json").read_text("utf-8"))
    assert [c["name"] for c in data["cases"]] == [c.name for c in public_cases()]
    assert [s["name"] for s in data["steps"]] == [s.name for s in STEPS]


def test_test_files_are_otter_exception_tests_worth_the_step_points(built):
    from otter.test_files import create_test_file
    from otter.nbmeta_config import NBMetadataConfig

    sys.path.insert(0, str(built["student"]))  # as in the student's kernel: the check package beside tests/
    try:
        for step in STEPS:
            test_file = create_test_file(str(built["student"] / "tests" / f"{step.name}.py"), NBMetadataConfig())
            assert test_file.name == step.name
            assert test_file.possible == step.points
            assert all(not case.hidden for case in test_file.test_cases)
    finally:
        sys.path.remove(str(built["student"]))
        for name in [m for m in sys.modules if m.split(".")[0] == "lab_check"]:
            del sys.modules[name]


def test_autograder_half_is_one_zip_carrying_the_engine_and_a_lean_setup(built):
    zips = list((built["zip"].parent).iterdir())
    assert zips == [built["zip"]] and built["zip"].suffix == ".zip"
    with zipfile.ZipFile(built["zip"]) as archive:
        members = set(archive.namelist())
        wheels = [m for m in members if m.startswith("files/") and m.endswith(".whl")]
        assert len(wheels) == 1
        assert members == {"run_autograder", "setup.sh", "requirements.txt", "otter_config.json",
                           *wheels, *(f"tests/{s.name}.py" for s in STEPS)}
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        config = json.loads(archive.read("otter_config.json"))
        setup = archive.read("setup.sh").decode()
        commands = "\n".join(line for line in setup.splitlines() if not line.lstrip().startswith("#"))
        run = archive.read("run_autograder").decode()
        requirements = archive.read("requirements.txt").decode().splitlines()
        wheel_bytes = archive.read(wheels[0])
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert config["plugins"][0].keys() == {PLUGIN}
    assert config["plugins"][0][PLUGIN] == {"lab": "self_attention", "lang": "ko", "step_seconds": 10.0, "memory_mb": 1024,
                                                        "visibility": "after_published"}
    assert not config["grade_from_log"]
    assert requirements == ["numpy>=1.26", "pandas>=2.0", TOML_REQUIREMENT, f"./{wheels[0]}"]
    # pip into the image's own Python; nothing else is fetched or installed (apt-get only gives
    # a python3 without pip its pip).
    apt = [line.strip() for line in commands.splitlines()
           if "apt-get" in line and "command -v" not in line and "echo" not in line]
    assert apt == ["apt-get update -q", "apt-get install -y -q --no-install-recommends python3-pip"], apt
    assert commands.index("if ! python3 -m pip --version") < commands.index("apt-get update")
    for word in ("conda", "mamba", "miniforge", "playwright", "wget", "curl", "otter-grader"):
        assert word not in commands.lower(), word
    assert "python3 -m pip install -r requirements.txt" in setup
    assert "python3 -I -m autograder.otter.gradescope" in run and 'cd "$work"' in run
    with zipfile.ZipFile(io.BytesIO(wheel_bytes)) as wheel:
        inside = set(wheel.namelist())
        metadata = next(wheel.read(m).decode() for m in inside if m.endswith("METADATA"))
        generator = next(wheel.read(m).decode() for m in inside if m.endswith("/WHEEL"))
    assert {"labs/self_attention/hidden.py", "solutions/self_attention.py", "autograder/core/locale/ko.toml",
            "autograder/otter/gradescope.py", "autograder/sandbox/zygote.py"} <= inside
    assert not [m for m in inside if "__pycache__" in m or m.startswith(("tests/", "build/"))]
    assert "Requires-Dist: numpy" in metadata and "Requires-Dist: pandas" in metadata
    assert "Generator: setuptools" in generator  # made by the build backend, not by hand


def test_extra_requirements_and_setup_commands_go_into_the_zip(tmp_path):
    built = otter_build.build(tmp_path, LAB, self_check=False, lang="en", step_seconds=5, memory_mb=2048,
                              visibility="hidden", extra_requirements="scipy>=1.10\n",
                              setup_script="apt-get install -y graphviz")
    with zipfile.ZipFile(built["zip"]) as archive:
        requirements = archive.read("requirements.txt").decode().splitlines()
        setup = archive.read("setup.sh").decode()
        config = json.loads(archive.read("otter_config.json"))
    assert requirements[:4] == ["numpy>=1.26", "pandas>=2.0", TOML_REQUIREMENT, "scipy>=1.10"]
    assert setup.index("apt-get install -y graphviz") < setup.index("pip install -r")
    assert config["plugins"][0][PLUGIN] == {"lab": "self_attention", "lang": "en", "step_seconds": 5, "memory_mb": 2048,
                                                        "visibility": "hidden"}


def test_the_public_check_package_works_without_the_engine(built, tmp_path):
    """Imported with autograder and solutions blocked, as on a student's machine."""
    script = f"""
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("autograder", "solutions"):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
sys.path.insert(0, {str(built['student'])!r})
from lab_check.kit.check import check_step
import numpy as np

def softmax(x):
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
try:
    check_step("softmax", {{"softmax": softmax}}, "en")
except AssertionError as error:
    print(error)
"""
    import subprocess

    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "softmax — " in done.stdout and "/2 points · failed" in done.stdout
    assert "public case 'page'" in done.stdout


def load_kit(student):
    sys.path.insert(0, str(student))
    try:
        return importlib.import_module("lab_check.kit.check")
    finally:
        sys.path.remove(str(student))


def kit_feedback(result, lab, lang):
    """A step's words as the kit says them: its result holds the kit's own records (its copy of
    the engine's modules), which only the kit's copy of the renderer reads."""
    return importlib.import_module("lab_check.core.render.step").step_feedback(result, lab, lang)


def solution_namespace(**replacements):
    namespace = {}
    exec(compile(SOLUTION.read_text("utf-8"), str(SOLUTION), "exec"), namespace)
    for name, source in replacements.items():
        exec(source, namespace)
    return namespace


PLANTED = {
    # A forgotten return: a step of several outputs given None, its failures explained by both.
    "make_qkv": "def make_qkv(X, W_Q, W_K, W_V):\n    Q, K, V = X @ W_Q, X @ W_K, X @ W_V\n",
    "softmax": "def softmax(x):\n    e = np.exp(x - x.max(axis=0, keepdims=True))\n"
               "    return e / e.sum(axis=0, keepdims=True)\n",
    "mix": "def mix(weights, V):\n    return weights.T @ V\n",
    "self_attention": "def self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
                      "    w = softmax(scores(Q, K))\n    return mix(w, V), w\n",
}


@pytest.mark.parametrize("planted", sorted(PLANTED))
def test_public_checks_say_what_the_engine_says_on_public_cases(built, zygote, plan, tmp_path, planted):
    kit = load_kit(built["student"])
    try:
        namespace = solution_namespace(**{planted: PLANTED[planted]})
        path = tmp_path / "planted.py"
        path.write_text(_with_one_definition(SOLUTION.read_text("utf-8"), planted, PLANTED[planted]), "utf-8")
        engine = grade_file(path, zygote, plan=plan)
        for step, engine_public in zip(engine.steps, engine.public_steps):
            public = kit.judge_public(step.name, namespace)
            assert (public.score, public.status) == (engine_public.score, engine_public.status)
            assert kit_feedback(public, LAB, "en") == step_feedback(engine_public, LAB, "en")
        assert [s.name for s in engine.steps if s.status != "passed"] == [planted]
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] == "lab_check"]:
            del sys.modules[name]


def _with_one_definition(source, name, new):
    """`source` with its top-level `def name` replaced by `new`: one definition, as the kit's
    namespace holds (a second one would be told as such by the engine, rightly)."""
    import ast
    lines = source.split("\n")
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name)
    start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
    return "\n".join(lines[:start] + new.rstrip("\n").split("\n") + lines[node.end_lineno:])


def _without_places(text):
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith(("내 코드", "Your code")))


COMPOSED_WITH_STAND_INS = {
    "named": "def self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
             "    w = softmax(scores(Q, K) / K.shape[1])\n    return mix(w, V), w\n",
    "refused": "def self_attention(X, W_Q, W_K, W_V):\n    Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n"
               "    w = softmax((scores(Q, K) / np.sqrt(K.shape[1])).T)\n    return mix(w, V), w\n",
}


@pytest.mark.parametrize("kind", sorted(COMPOSED_WITH_STAND_INS))
def test_the_kits_stand_ins_answer_and_refuse_as_the_engines_do(built, zygote, plan, tmp_path, kind):
    """softmax left a stub: both graders stand in for it in self_attention from the same table."""
    stub = "def softmax(x):\n    raise NotImplementedError\n"
    kit = load_kit(built["student"])
    try:
        namespace = solution_namespace(softmax=stub, self_attention=COMPOSED_WITH_STAND_INS[kind])
        path = tmp_path / "composed.py"
        source = _with_one_definition(SOLUTION.read_text("utf-8"), "softmax", stub)
        path.write_text(_with_one_definition(source, "self_attention", COMPOSED_WITH_STAND_INS[kind]), "utf-8")
        engine = {s.name: s for s in grade_file(path, zygote, plan=plan).public_steps}
        public = kit.judge_public("self_attention", namespace)
        assert public.mistakes == engine["self_attention"].mistakes
        assert public.mistakes[0] == ("scale_by_dk" if kind == "named" else "stand_in_refused")
        for lang in ("ko", "en"):  # the same words, but where the code stands (a string here, a file there)
            assert _without_places(kit_feedback(public, LAB, lang)) == \
                _without_places(step_feedback(engine["self_attention"], LAB, lang))
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] == "lab_check"]:
            del sys.modules[name]


def test_public_check_of_the_composed_step_uses_expected_values_for_the_other_steps(built):
    """A wrong softmax costs the softmax step only, on the student side as in the engine."""
    kit = load_kit(built["student"])
    try:
        namespace = solution_namespace(softmax=PLANTED["softmax"])
        own_softmax = namespace["softmax"]
        assert kit.judge_public("self_attention", namespace).status == "passed"
        assert kit.judge_public("softmax", namespace).status == "failed"
        assert namespace["softmax"] is own_softmax  # the student's function is put back
        with pytest.raises(AssertionError, match="softmax"):
            kit.check_step("softmax", namespace)
        assert kit.judge_public("mix", {}).status == "missing"
    finally:
        for name in [m for m in sys.modules if m.split(".")[0] == "lab_check"]:
            del sys.modules[name]


def test_results_keep_the_engine_scores_and_split_public_from_hidden(zygote, plan, tmp_path):
    path = tmp_path / "planted.py"
    path.write_text(SOLUTION.read_text("utf-8") + "\n" + PLANTED["softmax"], "utf-8")
    result = grade_file(path, zygote, plan=plan)
    public, *entries = gradescope_results(result, LAB, "en")["tests"]
    assert [e["name"] for e in entries] == [s.name for s in STEPS]
    assert sum(e["max_score"] for e in entries) == pytest.approx(TOTAL_POINTS)
    for step, entry in zip(result.steps, entries):
        # results.json holds points as every face shows them (verdict.rounded_points: hundredths)
        assert (entry["score"], entry["max_score"]) == (round(step.score, 2), step.max_score)
        assert entry["output"] == step_feedback(step, LAB, "en")
    assert "hidden case" not in public["output"] and "column" in public["output"].lower()
    assert "hidden" in entries[2]["output"]
    assert gradescope_results(result, LAB, "en")["score"] == result.score  # the total check prints


def test_remove_untrusted_deletes_logs_and_pickles_anywhere(tmp_path):
    (tmp_path / "deep").mkdir()
    for name in (".OTTER_LOG", "deep/x.pkl", "deep/y.PICKLE", "z.dill", "keep.ipynb", "keep.py"):
        (tmp_path / name).write_bytes(b"data")
    assert remove_untrusted(tmp_path) == [".OTTER_LOG", "deep/x.pkl", "deep/y.PICKLE", "z.dill"]
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["keep.ipynb", "keep.py"]


def test_build_refuses_a_lab_without_its_notebook(tmp_path):
    import dataclasses

    with pytest.raises(otter_build.BuildError, match="missing_lab.ipynb"):
        otter_build.build(tmp_path / "out", dataclasses.replace(LAB, notebook="missing_lab.ipynb"),
                          self_check=False)


def test_the_plugin_stands_in_for_otters_kernel_once_and_refuses_other_otter_versions(tmp_path, monkeypatch):
    import otter
    from otter.run.run_autograder.runners import python_runner
    from otter.run.run_autograder.utils import OtterRuntimeError

    from autograder.otter.plugin import EngineGrading, EngineResults

    submission = tmp_path / "self_attention_lab.py"
    submission.write_text(SOLUTION.read_text("utf-8"), "utf-8")
    (tmp_path / ".OTTER_LOG").write_bytes(b"never loaded")
    original = python_runner.grade_notebook
    plugin = EngineGrading(str(submission), {}, {"lang": "en", "step_seconds": 5})
    plugin.before_grading(None)
    try:
        assert python_runner.grade_notebook is not original
        results = python_runner.grade_notebook(str(submission), script=True)
    finally:
        python_runner.grade_notebook = original
    assert isinstance(results, EngineResults) and not (tmp_path / ".OTTER_LOG").exists()
    assert results.to_gradescope_dict(None)["score"] == TOTAL_POINTS
    monkeypatch.setattr(otter, "__version__", "7.1.0")
    with pytest.raises(OtterRuntimeError, match="7.0.0"):
        EngineGrading(str(submission), {}, {}).before_grading(None)
    assert python_runner.grade_notebook is original


@settings(max_examples=60)
@given(scores=st.lists(st.floats(min_value=0, max_value=3, allow_nan=False), min_size=1, max_size=6))
def test_results_json_totals_round_as_every_face(scores):
    """One rounding rule: results.json's steps and total are verdict.rounded_points, as check's."""
    from autograder.core.verdict import StepResult, SubmissionResult, rounded_points
    from autograder.core.guard import safe_name

    steps = [StepResult(name=s.name, score=score, max_score=s.points, status="failed", mistakes=[], cases=[])
             for s, score in zip(STEPS, scores)]
    result = SubmissionResult(submission=safe_name("x.py"), steps=steps)
    data = gradescope_results(result, LAB, "en")
    assert data["score"] == result.score == rounded_points(sum(scores))
    assert [t["score"] for t in data["tests"][1:]] == [rounded_points(score) for score in scores]
