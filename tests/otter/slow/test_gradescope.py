"""The autograder zip on an emulated Gradescope machine.

One fresh venv per session stands in for the platform's Python: the zip's own setup.sh installs
its requirements and its wheel there (non-editable), beside hundreds of unrelated top-level
packages. Each submission is laid out at the real /autograder (source/, submission/, results/) in
a private mount namespace, and the zip's run_autograder runs as root with the submission folder
as its working folder, as on the platform.
"""
import dataclasses
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import zipfile
from unittest.mock import ANY

import nbformat
import pytest
from hypothesis import given, strategies as st

from autograder.otter import build as otter_build
from autograder.otter import gradescope
from autograder.otter.emulation import GradingImage
from autograder import registry
from autograder.otter.results import gradescope_results
from autograder.core.render.messages import Messages
from autograder.core.reading.submission import read_submission
from labs.self_attention.steps import STEPS, STEPS_BY_NAME, TOTAL_POINTS

from conftest import CORPORA, GRADESCOPE_STEP_SECONDS as STEP_SECONDS, ROOT, UNRELATED_PACKAGES

AUTHORING = ROOT / "autograder" / "authoring"
LAB_FOLDER = ROOT / "assignments" / "self_attention"
from autograder.authoring import fill
from labs.self_attention import LAB


NOTEBOOK = LAB_FOLDER / "self_attention_lab.ipynb"
SCRIPT = LAB_FOLDER / "self_attention_lab.py"
HOSTILE = CORPORA / "hostile"
IS_ROOT = os.geteuid() == 0
# Modules that Otter's kernel, Otter itself, the check kit or Python's start-up would import if
# the submission folder were on a sys.path; each leaves a marker if it ever runs.
SHADOWING_MODULES = ("ipykernel_launcher", "otter", "lab_check", "numpy", "pandas", "nbformat",
                     "sitecustomize", "usercustomize", "autograder", "json", "encodings", "zipfile",
                     "pickle", "dill", "traceback", "tempfile")
SOFTMAX_OVER_COLUMNS = ("    e = np.exp(x - x.max(axis=0, keepdims=True))\n"
                        "    return e / e.sum(axis=0, keepdims=True)\n")


class Marker:
    """A pickle that, once loaded, creates a file: stands for code run by deserialising a log."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (shutil.copy, (__file__, self.path))


def with_body(notebook, step, body):
    changed = nbformat.reads(nbformat.writes(notebook), as_version=4)
    for cell in changed.cells:
        if f"step:{step}" in cell.metadata.get("tags", []):
            header, _, _ = cell.source.partition('"""')
            docstring_end = cell.source.index('"""', len(header) + 3) + 3
            cell.source = cell.source[:docstring_end] + "\n" + body
    return changed


def export_zip(notebook_bytes, folder, log_marker):
    """A zip made by otter's own grader.export(), whose .OTTER_LOG is then a hostile pickle."""
    folder.mkdir()
    (folder / "self_attention_lab.ipynb").write_bytes(notebook_bytes)
    script = ("import otter\n"
              "grader = otter.Notebook('self_attention_lab.ipynb', tests_dir='tests')\n"
              "grader.export('self_attention_lab.ipynb', export_path='export.zip', force_save=False,"
              " run_tests=False, display_link=False, pdf=False)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=folder, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(folder / "export.zip") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    assert {"self_attention_lab.ipynb", ".OTTER_LOG"} <= set(members)
    members[".OTTER_LOG"] = pickle.dumps(Marker(str(log_marker)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def shadowing_files(marker_dir):
    """A submission folder's worth of modules that leave a marker when imported or run."""
    files = {}
    for module in SHADOWING_MODULES:
        code = (f"import pathlib\npathlib.Path({str(marker_dir)!r}, {module!r}).write_text('ran')\n")
        files[f"{module}/__init__.py" if module in ("otter", "lab_check", "nbformat", "autograder")
              else f"{module}.py"] = code.encode()
    files["autograder/otter/__init__.py"] = files["autograder/__init__.py"]
    files["autograder/otter/gradescope.py"] = files["autograder/__init__.py"]
    files["zz_startup.pth"] = f"import pathlib; pathlib.Path({str(marker_dir)!r}, 'pth').write_text('ran')\n".encode()
    files["__main__.py"] = files["json.py"]
    return files


@pytest.fixture(scope="session")
def emulation(tmp_path_factory, gradescope_image):
    """The built zip, installed once in a fresh venv; every submission graded through it."""
    work = tmp_path_factory.mktemp("gradescope")
    built, image, install_seconds = gradescope_image["zip"], gradescope_image["image"], gradescope_image["seconds"]
    built = {"zip": built}
    markers = work / "markers"
    markers.mkdir()
    markers.chmod(0o777)
    stubs = NOTEBOOK.read_bytes()
    stub_notebook = nbformat.read(NOTEBOOK, as_version=4)
    reference = fill.fill_notebook(stub_notebook)
    planted = with_body(reference, "softmax", SOFTMAX_OVER_COLUMNS)
    reference_bytes = nbformat.writes(reference).encode()
    solution = next(image.venv.glob("lib/python*/site-packages/solutions/self_attention.py"))
    submissions = {
        "reference": {"self_attention_lab.ipynb": reference_bytes},
        "script": {"self_attention_lab.py": fill.fill_script(SCRIPT.read_text("utf-8")).encode()},
        "stubs": {"self_attention_lab.ipynb": stubs},
        "planted": {"self_attention_lab.ipynb": nbformat.writes(planted).encode()},
        "not_json": {"self_attention_lab.ipynb": (HOSTILE / "attack__notebook_not_json.ipynb").read_bytes()},
        "not_utf8": {"self_attention_lab.ipynb": (HOSTILE / "attack__notebook_not_utf8.ipynb").read_bytes()},
        "export": {"self_attention_lab_2024.zip": export_zip(reference_bytes, work / "export",
                                                             markers / "log")},
        "shadowing": {"self_attention_lab.ipynb": stubs, **shadowing_files(markers)},
        "shadowing_reference": {"self_attention_lab.ipynb": reference_bytes, **shadowing_files(markers)},
        "nothing": {"notes.txt": b"I forgot"},
        "docx": {"report.docx": b"PK\x03\x04" + b"\0" * 26 + b"word/document.xml"},
        "zipped_by_hand": {"mine.zip": zip_of({"lab/self_attention_lab.ipynb": reference_bytes,
                                               "__MACOSX/lab/._self_attention_lab.ipynb": b"\0"})},
        "two_notebooks": {"a.ipynb": stubs, "b.ipynb": reference_bytes},
        # Both halves uploaded: the notebook is graded (the untouched one), the finished .py is not.
        "notebook_and_script": {"self_attention_lab.ipynb": stubs,
                                "self_attention_lab.py": fill.fill_script(SCRIPT.read_text("utf-8")).encode()},
        # A link to the installed reference, named as the script: never followed.
        "linked": {"self_attention_lab.py": solution},
    }
    runs, seconds = {}, {}
    for name, files in submissions.items():
        runs[name] = image.grade(built["zip"], files, private_mount=IS_ROOT, shown=[markers])
        seconds[name] = runs[name].seconds
    print(f"\nGradescope emulation: install {install_seconds:.1f} s; per submission "
          + ", ".join(f"{name} {s:.2f} s" for name, s in seconds.items())
          + f"; mean {sum(seconds.values()) / len(seconds):.2f} s")
    return {"runs": runs, "markers": markers, "zip": built["zip"], "image": image, "reference_bytes": reference_bytes}


def scores(run):
    return {t["name"]: t["score"] for t in run.results["tests"] if "max_score" in t}


def test_the_grader_is_the_installed_wheel_not_this_tree(emulation):
    image = emulation["image"]
    done = subprocess.run([str(image.bin / "python3"), "-I", "-c", "import autograder; print(autograder.__file__)"],
                          capture_output=True, text=True, cwd="/", env=image.environment())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(str(image.venv)) and str(ROOT) not in done.stdout
    site = next(image.venv.glob("lib/python*/site-packages"))
    assert len(list(site.glob("unrelated_package_*"))) == UNRELATED_PACKAGES
    assert not list(site.glob("__editable__*")) and not list(site.glob("*.egg-link"))


@pytest.mark.parametrize("name", ["reference", "script"])
def test_the_reference_gets_full_marks(emulation, name):
    run = emulation["runs"][name]
    assert run.returncode == 0, run.output
    assert scores(run) == {step.name: step.points for step in STEPS}
    assert run.results["score"] == TOTAL_POINTS


def test_the_untouched_notebook_gets_zero_with_feedback(emulation):
    run = emulation["runs"]["stubs"]
    assert run.returncode == 0, run.output
    assert scores(run) == {step.name: 0 for step in STEPS} and run.results["score"] == 0
    public = run.results["tests"][0]
    assert public["name"] == "Public Tests" and public["visibility"] == "visible"
    assert public["output"].count("아직 구현하지 않았습니다") >= len(STEPS)


def test_a_planted_mistake_costs_its_step_and_is_named(emulation):
    run = emulation["runs"]["planted"]
    lost = {name: score for name, score in scores(run).items() if score < STEPS_BY_NAME[name].points}
    assert list(lost) == ["softmax"] and lost["softmax"] < 1
    softmax = next(t for t in run.results["tests"] if t["name"] == "softmax")
    assert "행이 아니라 열 방향으로 계산했습니다" in softmax["output"]
    assert softmax["visibility"] == "after_published"
    assert "행이 아니라 열 방향으로 계산했습니다" in run.results["tests"][0]["output"]


@pytest.mark.parametrize("name, words", [("not_json", "JSON"), ("not_utf8", "UTF-8")])
def test_a_notebook_that_cannot_be_read_gets_results_that_say_why(emulation, name, words):
    run = emulation["runs"][name]
    assert run.returncode == 0, run.output
    assert scores(run) == {step.name: 0 for step in STEPS}
    assert words in run.results["output"] and words in run.results["tests"][0]["output"]


def test_the_zip_that_grader_export_makes_is_graded_and_its_log_never_read(emulation):
    run = emulation["runs"]["export"]
    assert run.returncode == 0, run.output
    assert scores(run) == {step.name: step.points for step in STEPS}
    assert not (emulation["markers"] / "log").exists()


@pytest.mark.parametrize("name, expected", [("shadowing", 0), ("shadowing_reference", TOTAL_POINTS)])
def test_modules_beside_the_notebook_never_run(emulation, name, expected):
    run = emulation["runs"][name]
    assert run.returncode == 0, run.output
    assert run.results["score"] == expected
    assert sorted(p.name for p in emulation["markers"].iterdir()) == []


@pytest.mark.parametrize("name, problem", [("nothing", "찾지 못했습니다"), ("two_notebooks", "여러 개")])
def test_a_submission_without_one_clear_file_is_told_so(emulation, name, problem):
    run = emulation["runs"][name]
    assert run.returncode == 0, run.output
    assert run.results["score"] == 0 and problem in run.results["output"]


def test_a_notebook_and_a_script_the_feedback_says_which_was_graded_and_why(emulation):
    run = emulation["runs"]["notebook_and_script"]
    assert run.returncode == 0, run.output
    assert run.results["score"] == 0  # the untouched notebook, not the finished .py
    lines = run.results["output"].splitlines()
    assert lines[:2] == ["채점한 파일: self_attention_lab.ipynb",
                         "노트북(.ipynb)이 있어 채점하지 않은 파일: self_attention_lab.py"]
    assert lines[2].startswith("채점 규칙: 제출한 파일 가운데 노트북(.ipynb), .py 파일, zip 파일 순으로")


def test_a_notebook_zipped_by_hand_is_graded_as_that_notebook(emulation):
    run = emulation["runs"]["zipped_by_hand"]
    assert run.returncode == 0, run.output
    assert scores(run) == {step.name: step.points for step in STEPS}


def test_a_docx_is_told_once_not_per_step(emulation):
    run = emulation["runs"]["docx"]
    assert run.returncode == 0, run.output
    sentence = run.results["output"].strip().splitlines()[-1].strip()
    assert run.results["score"] == 0 and "report.docx" in sentence and "찾지 못했습니다" in sentence
    assert run.results["tests"][0]["output"].count(sentence) == 1
    assert not any(sentence in t["output"] or "힌트" in t["output"] for t in run.results["tests"][1:])


def test_a_link_to_the_reference_is_not_followed(emulation):
    run = emulation["runs"]["linked"]
    assert run.returncode == 0, run.output
    assert run.results["score"] == 0 and "찾지 못했습니다" in run.results["output"]


def test_the_build_self_check_grades_through_the_installed_wheel(emulation, tmp_path, monkeypatch):
    """A wheel without the reference installs, but the self-check then fails: the wheel grades."""
    from autograder.otter import wheel

    monkeypatch.setattr(wheel, "SOURCES", tuple(s for s in wheel.SOURCES if s != "solutions"))
    image = GradingImage(emulation["image"].folder)  # the same venv; setup.sh installs the new wheel
    try:
        with pytest.raises(otter_build.BuildError, match="(?s)reference: run_autograder exited 1.*"
                                                         "No module named 'solutions'"):
            otter_build.build(tmp_path / "out", LAB, step_seconds=STEP_SECONDS, image=image)
    finally:
        image.install(emulation["zip"])


def test_build_fails_when_the_reference_does_not_get_full_marks(emulation, tmp_path, monkeypatch):
    from autograder.authoring import fill as fill_module

    monkeypatch.setattr(fill_module, "fill_notebook", lambda nb, lab=None: nb)  # leaves the stubs
    with pytest.raises(otter_build.BuildError, match="reference: step make_qkv scored 0"):
        otter_build.build(tmp_path / "out", LAB, step_seconds=STEP_SECONDS,
                          image=GradingImage(emulation["image"].folder))


def test_build_command_takes_its_flags_and_checks_itself(emulation, tmp_path, monkeypatch, capsys):
    from autograder.cli import main
    from autograder.otter import emulation as emulation_module

    folder = emulation["image"].folder
    monkeypatch.setattr(emulation_module, "GradingImage", lambda _, **options: GradingImage(folder, **options))
    try:
        status = main(["build", "--lab", "self_attention", "--out", str(tmp_path), "--lang", "en", "--timeout", "4",
                       "--memory-mb", "512", "--visibility", "visible"])
    finally:
        emulation["image"].install(emulation["zip"])
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "reference: 10 points" in printed.out and "stubs: 0 points" in printed.out
    zip_path, = (tmp_path / "autograder").glob("*.zip")
    with zipfile.ZipFile(zip_path) as archive:
        config = json.loads(archive.read("otter_config.json"))
    assert config["plugins"] == [{gradescope.PLUGIN: {"lab": "self_attention", "lang": "en", "step_seconds": 4.0, "memory_mb": 512,
                                                       "visibility": "visible"}}]


def test_the_second_labs_zip_checks_itself_where_the_first_ones_does(emulation, tmp_path, monkeypatch, capsys):
    """One zip per lab: the masked-attention lab's installs and grades in the same emulated image."""
    from autograder.cli import main
    from autograder.otter import emulation as emulation_module

    folder = emulation["image"].folder
    monkeypatch.setattr(emulation_module, "GradingImage", lambda _, **options: GradingImage(folder, **options))
    try:
        status = main(["build", "--lab", "masked_attention", "--out", str(tmp_path), "--timeout", "4"])
    finally:
        emulation["image"].install(emulation["zip"])
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "자체 검사:        모범 답안 10점" in printed.out and "빈 과제 파일 0점" in printed.out  # the build's --lang
    zip_path, = (tmp_path / "autograder").glob("*.zip")
    assert zip_path.name == "masked_attention_lab-autograder.zip"
    with zipfile.ZipFile(zip_path) as archive:
        config = json.loads(archive.read("otter_config.json"))
        tests = sorted(n for n in archive.namelist() if n.startswith("tests/"))
    assert config["plugins"][0][gradescope.PLUGIN]["lab"] == "masked_attention"
    assert tests == sorted(f"tests/{name}.py" for name in registry.load("masked_attention").function_names)
    assert (tmp_path / "student" / "masked_attention_lab.ipynb").is_file()


# Choosing and reading the file, without a grading machine -------------------------------------

@pytest.mark.parametrize("names, chosen, problem", [
    (["self_attention_lab.ipynb", "ipykernel_launcher.py", "otter/__init__.py"], "self_attention_lab.ipynb", None),
    (["mine.ipynb", "helper.py"], "mine.ipynb", None),
    (["a/self_attention_lab.ipynb", "self_attention_lab.ipynb", "b.ipynb"], "self_attention_lab.ipynb", None),
    (["attention.py"], "attention.py", None),
    (["export.zip", "notes.txt"], "export.zip", None),
    ([".ipynb_checkpoints/x-checkpoint.ipynb", "x.py"], "x.py", None),
    (["a.ipynb", "b.ipynb"], None, "several_submissions"),
    (["a.py", "b.py"], None, "several_submissions"),
    (["notes.txt"], None, "no_submission"),
    ([], None, "no_submission"),
])
def test_the_file_to_grade_is_chosen_or_the_reason_given(names, chosen, problem):
    picked, why = gradescope.pick(names, (LAB.notebook, LAB.script))
    assert picked == chosen and (why[0] if why else None) == problem


FILE_NAMES = st.builds(lambda folder, stem, suffix: folder + stem + suffix,
                       st.sampled_from(["", "sub/", "a/b/", ".ipynb_checkpoints/", "__MACOSX/"]),
                       st.sampled_from(["self_attention_lab", "mine", "x-1", "노트북"]),
                       st.sampled_from([".ipynb", ".py", ".zip", ".txt", ".IPYNB", ".docx", ""]))


@given(names=st.lists(FILE_NAMES, unique=True, max_size=14))
def test_every_file_is_either_graded_or_told_with_the_rule_that_left_it_out(names):
    wanted = (LAB.notebook, LAB.script)
    choice = gradescope.file_choice(names, wanted)
    assert gradescope.pick(names, wanted) == (choice.graded, choice.problem)
    if choice.graded is None:
        assert gradescope.choice_text(choice, LAB, "ko") == ""
        return
    kinds = [(".ipynb",), (".py",), (".zip",)]
    rank = next(i for i, kind in enumerate(kinds) if choice.graded.lower().endswith(kind))
    considered = [n for n in names if not {".ipynb_checkpoints", "__MACOSX"} & set(n.split("/"))]
    assert sorted(n for n, _ in choice.not_graded) == sorted(n for n in considered if n != choice.graded)
    for name, reason in choice.not_graded:
        kind = next((i for i, k in enumerate(kinds) if name.lower().endswith(k)), None)
        if kind is None:
            assert reason == "not_code"
        elif kind > rank:
            assert reason == ("notebook_first" if rank == 0 else "script_first")
        else:
            # Of the graded file's kind: graded wins by the assignment's name or by being shallower.
            assert kind == rank and choice.graded.rsplit("/", 1)[-1] in wanted
            assert reason in ("assignment_name", "outer_folder")
            if reason == "outer_folder":
                assert choice.graded.count("/") <= name.count("/")
    for lang in ("ko", "en"):
        text = gradescope.choice_text(choice, LAB, lang)
        assert text.splitlines()[0] == Messages(lang, LAB)("chosen", "graded", file=choice.graded)
        for reason in {reason for _, reason in choice.not_graded}:
            names = sorted(name for name, why in choice.not_graded if why == reason)
            line = next(line for line in text.splitlines()
                        if line.startswith(Messages(lang, LAB)("chosen", reason, submitted="").rstrip()))
            assert all(name in line for name in names[:gradescope.NOT_GRADED_SHOWN])
            hidden = len(names) - gradescope.NOT_GRADED_SHOWN
            if hidden > 0:
                assert line.endswith(Messages(lang, LAB)("chosen", "more", submitted="", count=hidden))
        assert (Messages(lang, LAB)("chosen", "rule", script=LAB.script) in text) == bool(choice.not_graded)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_graded_file_is_told_in_the_words_of_autograder_grades_feedback(lang):
    from autograder.batch.outputs import LABELS

    assert Messages(lang, LAB)("chosen", "graded", file="x.ipynb") == f"{LABELS[lang]['file']}: x.ipynb"


def test_the_entry_point_says_which_file_it_graded(tmp_path, monkeypatch):
    for folder in ("source", "submission", "results"):
        (tmp_path / folder).mkdir()
    (tmp_path / "source" / "otter_config.json").write_text(json.dumps(
        {"plugins": [{gradescope.PLUGIN: {"lab": "self_attention", "lang": "en", "step_seconds": 5}}]}))
    (tmp_path / "submission" / "self_attention_lab.ipynb").write_bytes(NOTEBOOK.read_bytes())
    (tmp_path / "submission" / "self_attention_lab.py").write_text(fill.fill_script(SCRIPT.read_text("utf-8")))
    (tmp_path / "submission" / "notes.txt").write_text("done")
    monkeypatch.setenv("AUTOGRADER_ROOT", str(tmp_path))
    assert gradescope.main() == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text("utf-8"))
    assert results["score"] == 0
    assert results["output"].splitlines()[:3] == [
        "Graded file: self_attention_lab.ipynb",
        "Not graded, because a notebook (.ipynb) was submitted: self_attention_lab.py",
        "Not graded, because they are neither notebooks, .py files nor zip files: notes.txt"]


def zip_of(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_an_export_zip_is_graded_from_its_notebook_without_its_log(tmp_path, monkeypatch):
    loaded = []
    monkeypatch.setattr(pickle, "loads", lambda *a, **k: loaded.append(a))
    data = zip_of({"self_attention_lab.ipynb": b"{}", ".OTTER_LOG": b"not read", "__zip_filename__": b"x"})
    (tmp_path / "s.zip").write_bytes(data)
    assert gradescope.choose_submission(tmp_path, (LAB.notebook, LAB.script)) == ("s.zip", data, None)
    submission = read_submission("s.zip", data)
    assert submission.name == "s.zip/self_attention_lab.ipynb" and loaded == []
    assert read_submission("s.zip", b"PK\x03\x04 broken").problem == "unreadable"
    assert read_submission("s.zip", zip_of({"a.ipynb": b"{}", "b.ipynb": b"{}"})).problem == "not_otter_export"
    # A zip a student made by hand around one notebook is graded as that notebook.
    assert read_submission("s.zip", zip_of({"lab/a.ipynb": b"{}"})).name == "s.zip/lab/a.ipynb"


def test_only_regular_files_are_read(tmp_path):
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "self_attention_lab.ipynb")  # would block a plain open()
    (tmp_path / "sub" / "real.py").write_text("x = 1\n")
    (tmp_path / "link.py").symlink_to(tmp_path / "sub" / "real.py")
    assert gradescope.list_files(tmp_path) == ["sub/real.py"]
    assert gradescope.choose_submission(tmp_path, (LAB.notebook, LAB.script)) == ("sub/real.py", b"x = 1\n", None)
    for special in ("self_attention_lab.ipynb", "link.py"):
        assert gradescope.read_regular(tmp_path / special) == (None, ("unreadable", ANY))


def test_entry_point_writes_results_even_when_the_config_is_broken(tmp_path, monkeypatch):
    for folder in ("source", "submission", "results"):
        (tmp_path / folder).mkdir()
    (tmp_path / "source" / "otter_config.json").write_text("{not json")
    (tmp_path / "submission" / "self_attention_lab.ipynb").write_bytes(b"\xff\xfe")
    monkeypatch.setenv("AUTOGRADER_ROOT", str(tmp_path))
    assert gradescope.main() == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text("utf-8"))
    assert results["score"] == 0 and "UTF-8" in results["output"]


# What students see, per visibility -------------------------------------------------------------

def points_in_header(text, name):
    header = next(line for line in text.split("\n") if line.startswith(f"■ {name} "))
    import re

    found = re.search(r"(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", header)
    return (float(found.group(1)), float(found.group(2))) if found else None


@pytest.fixture(scope="module")
def hidden_failure(zygote, plan, tmp_path_factory):
    """A graded submission whose softmax passes the public cases and fails a hidden one."""
    from autograder.grading import grade_file

    path = tmp_path_factory.mktemp("visibility") / "reference.py"
    path.write_text((ROOT / "solutions" / "self_attention.py").read_text("utf-8"), "utf-8")
    result = grade_file(path, zygote, plan=plan)
    steps = []
    for step in result.steps:
        if step.name == "softmax":
            cases = [dataclasses.replace(c, passed=False, code="wrong_values") if c.hidden else c
                     for c in step.cases]
            step = dataclasses.replace(step, cases=cases, score=step.max_score / 2, status="failed",
                                       mistakes=[])
        steps.append(step)
    return dataclasses.replace(result, steps=steps)


@pytest.mark.parametrize("visibility", ["visible", "after_published", "hidden"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_public_text_never_disagrees_with_the_scored_entries(hidden_failure, visibility, lang):
    results = gradescope_results(hidden_failure, LAB, lang, visibility)
    public, *entries = results["tests"]
    assert public["visibility"] == "visible"
    assert [e["name"] for e in entries] == [s.name for s in STEPS]
    assert all(e["visibility"] == visibility for e in entries)
    assert results["score"] == sum(e["score"] for e in entries) == TOTAL_POINTS - 1
    for entry in entries:
        shown = points_in_header(public["output"], entry["name"])
        if visibility == "visible":
            assert shown == (entry["score"], entry["max_score"]), entry["name"]
        else:
            assert shown is None, entry["name"]  # no number before the scores are shown
    softmax = next(e for e in entries if e["name"] == "softmax")
    assert softmax["score"] == 1 and softmax["status"] == "failed"


def test_an_unknown_visibility_is_refused(hidden_failure, tmp_path):
    with pytest.raises(ValueError):
        gradescope_results(hidden_failure, LAB, "ko", "after_due_date")
    with pytest.raises(otter_build.BuildError, match="visibility"):
        otter_build.build(tmp_path, LAB, visibility="soon", self_check=False)


def test_feedback_remembers_the_previous_submission_as_gradescope_lists_it(emulation):
    """submission_metadata.json's previous_submissions (Gradescope's shape: submission_time, score,
    results) makes the new results say what changed, step by step; the comparison on all tests keeps
    the scored entries' visibility, the one shown at once compares the public tests only."""
    planted = emulation["runs"]["planted"]
    assert "autograder_steps" in planted.results["extra_data"]
    metadata = {"id": 2, "created_at": "2024-03-02T10:00:00+09:00", "users": [{"name": "김민수", "id": 1}],
                "previous_submissions": [
                    {"submission_time": "2024-03-01T10:00:00+09:00", "score": 0.0,
                     "results": emulation["runs"]["stubs"].results},
                    {"submission_time": "2024-03-01T12:30:00+09:00", "score": planted.results["score"],
                     "results": planted.results}]}
    run = emulation["image"].grade(emulation["zip"], {"self_attention_lab.ipynb": emulation["reference_bytes"]},
                                   private_mount=IS_ROOT, metadata=metadata)
    assert run.returncode == 0, run.output
    assert run.results["score"] == TOTAL_POINTS
    named = {t["name"]: t for t in run.results["tests"]}
    full, public = named["지난 제출과 비교"], named["지난 제출과 비교 (공개 테스트)"]
    assert full["visibility"] == "after_published" and public["visibility"] == "visible"
    assert "2024-03-01 12:30:00 +09:00" in full["output"]  # the newest previous submission
    assert "softmax 단계는 이제 통과합니다." in full["output"]
    assert "나머지 5개 단계" in full["output"]
    assert "softmax 단계는 이제 통과합니다." in public["output"]
    # Unreadable metadata is no comparison and no failure.
    broken = emulation["image"].grade(emulation["zip"], {"self_attention_lab.ipynb": emulation["reference_bytes"]},
                                      private_mount=IS_ROOT, metadata={"previous_submissions": [{"results": "?"}]})
    assert broken.returncode == 0 and broken.results["score"] == TOTAL_POINTS
    assert not any(t["name"].startswith("지난 제출") for t in broken.results["tests"])


@given(folders=st.lists(st.sampled_from(["old", "new", "draft", "v2", "제출"]), min_size=2, max_size=4, unique=True),
       deeper=st.booleans())
def test_the_assignments_name_at_the_same_depth_twice_is_a_named_problem(folders, deeper):
    """Several files with the assignment's name nearest the top: told, never chosen by listing order."""
    names = [f"{folder}/{LAB.script}" for folder in folders]
    if deeper:
        names.append(f"{folders[0]}/inner/{LAB.script}")
    for order in (names, list(reversed(names))):
        choice = gradescope.file_choice(order, (LAB.notebook, LAB.script))
        assert choice.graded is None and choice.problem[0] == "several_submissions"
        assert all(f"{folder}/{LAB.script}" in str(choice.problem[1]) for folder in folders[:5])
    top = gradescope.file_choice([*names, LAB.script], (LAB.notebook, LAB.script))
    assert top.graded == LAB.script and {why for _, why in top.not_graded} == {"outer_folder"}


def test_an_undecodable_name_is_told_through_the_guard():
    raw = os.fsdecode(b"\xb1\xe8_notes.py")  # cp949 bytes, as Korean Windows names a file
    choice = gradescope.file_choice([LAB.script, raw], (LAB.notebook, LAB.script))
    text = gradescope.choice_text(choice, LAB, "ko")
    text.encode("utf-8")  # never raises
    assert "김_notes.py" in text
