"""The student half in a real Jupyter kernel and a terminal: otter.Notebook checks, check_all,
export, the notebook alone (Colab, a fresh Jupyter) and `python -m lab_check`."""
import ast
import html
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import zipfile

import nbformat
import pytest
from nbclient import NotebookClient

from labs.self_attention.cases import public_cases
from autograder.grading import grade_file
from autograder.grading.plan import Plan
from autograder.sandbox.runner import Limits
from autograder.otter import build as otter_build
from autograder.core.render.feedback import as_dict
from labs.self_attention.steps import STEPS, STEPS_BY_NAME

from conftest import CORPORA, ROOT
from test_report_browser import chromium  # noqa: F401  (the fixture)

AUTHORING = ROOT / "autograder" / "authoring"
LAB_FOLDER = ROOT / "assignments" / "self_attention"
from autograder.authoring import build_notebook
from autograder.authoring import fill
from labs.self_attention import LAB


@pytest.fixture(autouse=True)
def _engine_as_the_kit_speaks(monkeypatch):
    """The students' kit runs no repair search (it has no sandbox: autograder.repair); the engine's
    words compared with the kit's here are the ones it says without it."""
    monkeypatch.setenv("AUTOGRADER_REPAIR", "off")


CORPUS = sorted(p for p in (CORPORA / "corpus").rglob("*") if p.suffix in (".py", ".ipynb"))
# Files whose values the explainer reads: the kit must say what the engine says of them too.
EXPLAINED = sorted((CORPORA / "corpus_blind" / "lab1").glob("*.py"))

# First cell of every run: the engine and the reference cannot be imported, and nothing of this
# repository is on sys.path, as on a student's machine.
BLOCK_ENGINE = f'''import importlib.abc, sys
class _Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("autograder", "solutions"):
            raise ImportError("not on a student's machine: " + name)
sys.meta_path.insert(0, _Block())
assert not [p for p in sys.path if p and p.startswith({str(ROOT)!r})], sys.path
'''
# Last cell: where the checks came from.
WHERE_CHECKS_CAME_FROM = 'import sys\nprint("CHECKS FROM", sys.modules["lab_check"].__file__)'
WRONG_AXIS = ("    e = np.exp(x - x.max(axis=0, keepdims=True))\n"
              "    return e / e.sum(axis=0, keepdims=True)\n")
UNSTABLE = "    return np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)\n"


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("student-build")
    student = otter_build.build(out, LAB, self_check=False)["student"]
    shutil.copy(student / "self_attention_lab.ipynb", out / "as-built.ipynb")  # runs save over the original
    return student


def as_built(student):
    """The notebook as the build wrote it (kernel runs save their own version in the student folder)."""
    return nbformat.read(student.parent / "as-built.ipynb", as_version=4)


def planted(notebook, step, body):
    """The notebook with `step`'s body (after its docstring) replaced."""
    for cell in notebook.cells:
        if f"step:{step}" in cell.metadata.get("tags", []):
            end = cell.source.index('"""', cell.source.index('"""') + 3) + 3
            cell.source = cell.source[:end] + "\n" + body
    return notebook


def run_in_kernel(notebook, folder, save_as="self_attention_lab.ipynb", first_cells=()):
    """Save the notebook in `folder` (export zips the saved file), run it there; tag -> outputs."""
    if save_as:
        nbformat.write(notebook, folder / save_as)
    running = nbformat.reads(nbformat.writes(notebook), as_version=4)
    for index, source in enumerate((BLOCK_ENGINE, *first_cells)):
        running.cells.insert(index, nbformat.v4.new_code_cell(source))
    running.cells.append(nbformat.v4.new_code_cell(WHERE_CHECKS_CAME_FROM))
    NotebookClient(running, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(folder)}}).execute()
    return outputs_by_tag(running)


def outputs_by_tag(running):
    """tag -> the cell's text outputs; tag:html -> its HTML; tag:count -> the number Jupyter shows."""
    outputs = {}
    for index, cell in enumerate(running.cells):
        text = "\n".join(
            str(o.get("data", {}).get("text/plain", "")) + o.get("text", "")
            + o.get("ename", "") + o.get("evalue", "") for o in cell.get("outputs", []))
        rich = "".join(str(o.get("data", {}).get("text/html", "")) for o in cell.get("outputs", []))
        for tag in cell.metadata.get("tags", []) or [f"cell-{index}"]:
            outputs[tag] = text
            outputs[tag + ":html"] = rich
            outputs[tag + ":count"] = cell.get("execution_count")
    outputs["checks-from"] = outputs[f"cell-{len(running.cells) - 1}"]
    return outputs


def points(value):
    return f"{round(value, 2):g}"


def passed(step, lang="ko"):
    """The first line of a passed step's check, as the kit writes it."""
    if lang == "en":
        return f"■ {step.name} — {points(step.points)}/{points(step.points)} points · passed"
    return f"■ {step.name} — {points(step.points)}/{points(step.points)}점 · 통과"


# What Otter writes around a failing exception-format test, and paths of the machine: never shown.
NOT_OURS = ("Test case failed", "Test case passed", "Error at line", "AssertionError", "StepNotPassed",
            "check_step(", "results:", "/tmp/", "ipykernel_", "site-packages", "Traceback")


def assert_ours(text, html_text=""):
    for word in NOT_OURS:
        assert word not in text, (word, text)
        assert word not in html_text, (word, html_text[:2000])


def test_filled_notebook_passes_every_check_and_its_export_gets_full_marks(student, tmp_path):
    # Another notebook in the folder, saved later: export must still zip the lab.
    nbformat.write(nbformat.v4.new_notebook(), student / "scratch.ipynb")
    notebook = fill.fill_notebook(as_built(student))
    outputs = run_in_kernel(notebook, student)
    (student / "scratch.ipynb").unlink()
    for step in STEPS:
        assert outputs[f"check:{step.name}"].startswith(passed(step))
        assert_ours(outputs[f"check:{step.name}"], outputs[f"check:{step.name}:html"])
    assert outputs["check-all"].count("· 통과") == len(STEPS)
    assert "공개 테스트 합계 10 / 10점" in outputs["check-all"]
    assert "Error" not in outputs["export"], outputs["export"]
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


# One kernel run with three kinds of outcome: a wrong softmax (heat-maps), a make_qkv that raises
# in a helper defined in another cell (locations), and a composed step that passes with the
# reference standing in for the two.
HELPER_CELL = "def project(X, W):\n    return X.no_such_attribute @ W\n"
CALLS_HELPER = "    return project(X, W_Q), project(X, W_K), project(X, W_V)\n"


def with_cell_before(notebook, tag, source):
    index = next(i for i, cell in enumerate(notebook.cells) if tag in cell.metadata.get("tags", []))
    notebook.cells.insert(index, nbformat.v4.new_code_cell(source, metadata={"tags": ["helper"]}))
    return notebook


@pytest.fixture(scope="module")
def wrong_run(student):
    filled = fill.fill_notebook(as_built(student))
    notebook = with_cell_before(planted(planted(filled, "softmax", WRONG_AXIS), "make_qkv", CALLS_HELPER),
                                "step:make_qkv", HELPER_CELL)
    return run_in_kernel(notebook, student)


def test_a_mistake_shows_the_same_diagnosis_as_autograder_check(wrong_run):
    outputs = wrong_run
    text, shown = outputs["check:softmax"], outputs["check:softmax:html"]
    assert_ours(text, shown)
    # Over columns, right on the single rows (1-D): the share of the public tests passed, 3 of 7.
    assert text.startswith("■ softmax — 0.6/2점 · 틀림")
    assert "행이 아니라 열 방향으로 계산했습니다" in text
    assert "공개 테스트 '페이지 예제'" in text and "'page'" not in text
    assert "숨은 테스트" not in text
    # The same check shows its header, its text and the heat-maps of the page's case in one output.
    assert '<p class="ag-head">■ softmax — 0.6/2점 · 틀림</p>' in shown
    assert "행이 아니라 열 방향으로 계산했습니다" in shown
    assert shown.count('class="ag-maps"') == 1 and shown.count("<svg") == 3
    assert "1 나는" in shown and "제출한 값" in shown and "<script" not in shown
    assert "페이지 예제 테스트의 값" in shown
    assert shown.count('class="ag-bad"') == 3 * 9  # every cell of a wrong-axis softmax is off
    for step in STEPS:
        if step.name in ("scores", "mix", "most_attended"):
            assert outputs[f"check:{step.name}"].startswith(passed(step))
            assert "ag-maps" not in outputs[f"check:{step.name}:html"]


def test_an_error_names_the_notebook_cells_never_the_kernels_files(wrong_run):
    outputs = wrong_run
    text, shown = outputs["check:make_qkv"], outputs["check:make_qkv:html"]
    assert_ours(text, shown)
    assert text.startswith("■ make_qkv — 0/2점 · 오류")
    assert "AttributeError: 'numpy.ndarray' object has no attribute 'no_such_attribute'" in text
    step_cell, helper_cell = outputs["step:make_qkv:count"], outputs["helper:count"]
    assert f"내 코드 셀 [{step_cell}], " in text and "번째 줄(make_qkv): return project(X, W_Q)" in text
    assert f"내 코드 셀 [{helper_cell}], 2번째 줄(project): return X.no_such_attribute @ W" in text
    for tag, text in outputs.items():
        if not tag.endswith(":count"):
            assert "/tmp/ipykernel" not in str(text) and "ipykernel_" not in str(text), tag


def test_a_passing_composed_step_says_the_reference_stood_in(wrong_run):
    text, shown = wrong_run["check:self_attention"], wrong_run["check:self_attention:html"]
    assert_ours(text, shown)
    assert text.startswith(passed(STEPS_BY_NAME["self_attention"]))
    assert "기준 답으로 바꿔 계산한 함수: make_qkv, softmax" in text
    assert "기준 답으로 바꿔 계산한 함수: make_qkv, softmax" in shown and "ag-pass" in shown


def test_check_all_shows_every_step_in_the_labs_order_with_the_public_total(wrong_run):
    text, shown = wrong_run["check-all"], wrong_run["check-all:html"]
    assert_ours(text, shown)
    heads = [line.split(" — ")[0] for line in text.splitlines() if line.startswith("■ ")]
    assert heads == [f"■ {step.name}" for step in STEPS]
    assert "공개 테스트 합계 " in text and "숨은 테스트까지 넣어" in text
    assert shown.count('class="ag-head"') == len(STEPS) and shown.count('class="ag-maps"') == 1


def test_a_notebook_written_in_english_checks_in_english(student):
    notebook = fill.fill_notebook(as_built(student))
    for cell in notebook.cells:
        if "grader-init" in cell.metadata.get("tags", []):
            cell.source = build_notebook.grader_setup_source("en", LAB.name)
    notebook = with_cell_before(planted(notebook, "make_qkv", CALLS_HELPER), "step:make_qkv", HELPER_CELL)
    outputs = run_in_kernel(planted(notebook, "softmax", WRONG_AXIS), student)
    assert outputs["grader-init"].startswith("The checks are ready.")
    text = outputs["check:make_qkv"]
    assert_ours(text, outputs["check:make_qkv:html"])
    assert text.startswith("■ make_qkv — 0/2 points · error")
    assert f"cell [{outputs['helper:count']}], line 2 (project)" in text or \
        f"cell [{outputs['helper:count']}], line 2" in text
    assert "public case 'page'" in outputs["check:softmax"] and "셀" not in text
    assert outputs["check:mix"].startswith(passed(STEPS_BY_NAME["mix"], "en"))


# The check's HTML in a real browser: what a student sees under the cell ------------------------

NOTEBOOK_PAGE = """<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>check</title></head>
<body style="font-family: sans-serif; max-width: 1100px; margin: 1rem">{cells}</body></html>"""
MEASURE_CHECK = """<script>
(function () {
  var out = document.createElement("pre");
  var heads = Array.prototype.map.call(document.querySelectorAll(".ag-check .ag-head"), function (head) {
    var box = head.getBoundingClientRect();
    return {text: head.textContent, color: getComputedStyle(head).color, width: box.width, height: box.height};
  });
  var maps = Array.prototype.map.call(document.querySelectorAll(".ag-maps svg"), function (svg) {
    var box = svg.getBoundingClientRect();
    return {width: box.width, height: box.height, right: box.right};
  });
  out.id = "measured";
  out.textContent = JSON.stringify({heads: heads, maps: maps, text: document.body.innerText,
                                    pageWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth});
  document.body.appendChild(out);
})();
</script>"""


def test_the_checks_html_reads_in_a_browser(chromium, wrong_run, tmp_path):
    """NOTEBOOK_SCREENSHOTS=<folder> keeps the screenshot."""
    from test_report_browser import run_chromium

    cells = "".join(f"<h3>In [{wrong_run[f'check:{name}:count']}]: grader.check(\"{name}\")</h3>"
                    + wrong_run[f"check:{name}:html"] for name in ("make_qkv", "softmax", "self_attention"))
    page = tmp_path / "notebook-check.html"
    page.write_text(NOTEBOOK_PAGE.format(cells=cells + MEASURE_CHECK), "utf-8")
    dom = run_chromium(chromium, page, tmp_path / "measure", "--dump-dom", height=1600)
    start = dom.index('<pre id="measured">') + len('<pre id="measured">')
    seen = json.loads(html.unescape(dom[start:dom.index("</pre>", start)]))
    assert [head["text"].split(" — ")[0] for head in seen["heads"]] == ["■ make_qkv", "■ softmax", "■ self_attention"]
    failed_red, _, passed_green = (head["color"] for head in seen["heads"])
    assert failed_red == "rgb(179, 38, 30)" and passed_green == "rgb(30, 123, 52)"
    assert all(head["height"] > 0 and head["width"] > 0 for head in seen["heads"])
    assert len(seen["maps"]) == 3 and all(m["width"] > 50 and m["right"] <= seen["clientWidth"] for m in seen["maps"])
    assert seen["pageWidth"] <= seen["clientWidth"]
    assert "셀 [" in seen["text"] and "Test case failed" not in seen["text"] and "/tmp" not in seen["text"]
    shot = tmp_path / "notebook-check.png"
    run_chromium(chromium, page, tmp_path / "shot", f"--screenshot={shot}", height=1600)
    assert shot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    keep = os.environ.get("NOTEBOOK_SCREENSHOTS")
    if keep:
        pathlib.Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, pathlib.Path(keep) / shot.name)
        shutil.copy(page, pathlib.Path(keep) / page.name)


def test_filled_script_runs_its_checks_from_the_student_folder(student):
    script = student / "filled_lab.py"
    script.write_text(fill.fill_script((student / "self_attention_lab.py").read_text("utf-8")), "utf-8")
    done = subprocess.run([sys.executable, script.name], cwd=student, capture_output=True, text=True,
                          timeout=120)
    script.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    for step in STEPS:
        assert passed(step) in done.stdout  # the kit's words, as in the notebook and python -m lab_check
    assert_ours(done.stdout + done.stderr)


# The notebook without its folder: Colab (the checks' zip uploaded), or a Jupyter with the notebook only --

@pytest.fixture
def alone(tmp_path):
    folder = tmp_path / "only-the-notebook"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("chosen, sentence", [
    (None, "검사 코드(lab_check/)를 찾지 못했습니다. 나눠 받은 폴더에서 노트북을 여십시오."),
    ("en", "The checks (lab_check/) were not found. Open the notebook in the folder you were given"),
    ("fr", "검사 코드(lab_check/)를 찾지 못했습니다.")])
def test_the_notebook_alone_says_where_its_checks_are(student, alone, chosen, sentence):
    """In the student's LAB_CHECK_LANG when it names a language, else in the notebook's."""
    notebook = as_built(student)
    notebook.cells = [cell for cell in notebook.cells if "grader-init" in cell.metadata.get("tags", [])]
    chose = "" if chosen is None else f"\nimport os\nos.environ['LAB_CHECK_LANG'] = {chosen!r}"
    outputs = run_in_kernel(notebook, alone, first_cells=[
        'import importlib.util\nassert importlib.util.find_spec("lab_check") is None' + chose])
    said = outputs["grader-init"]
    assert sentence in said
    assert "ModuleNotFoundError" not in said and "Traceback" not in said


# Colab: `from google.colab import files` offers an upload button; files.upload() saves the chosen
# files in the working folder and returns {name: bytes}. This one hands over the checks' zip.
FAKE_COLAB = '''import shutil, sys, types
google = types.ModuleType("google")
colab = types.ModuleType("google.colab")
files = types.ModuleType("google.colab.files")
def upload():
    shutil.copy({path!r}, "lab_check-self_attention.zip")
    return {{"lab_check-self_attention.zip": b""}}
files.upload = upload
google.colab, colab.files = colab, files
sys.modules.update({{"google": google, "google.colab": colab, "google.colab.files": files}})
'''


def test_on_colab_the_checks_come_from_the_zip_the_student_uploads(student, alone):
    """Colab keeps the notebook out of the working folder; the set-up cell asks for the checks' zip."""
    notebook = planted(fill.fill_notebook(as_built(student)), "softmax", WRONG_AXIS)
    outputs = run_in_kernel(notebook, alone, save_as=None, first_cells=[
        FAKE_COLAB.format(path=str(student / "lab_check-self_attention.zip"))])
    assert "함께 받은 lab_check-self_attention.zip 파일을 골라 올리십시오." in outputs["grader-init"]
    assert "행이 아니라 열 방향으로 계산했습니다" in outputs["check:softmax"]
    assert outputs["check:mix"].startswith(passed(STEPS_BY_NAME["mix"]))
    checks_from = pathlib.Path(outputs["checks-from"].split("CHECKS FROM", 1)[1].strip())
    assert alone in checks_from.parents and ROOT not in checks_from.parents


def test_the_notebook_is_small_and_carries_no_checks(student):
    """The checks travel beside the notebook (lab_check/, and the same in the zip for Colab)."""
    size = (student / "self_attention_lab.ipynb").stat().st_size
    assert size < 60_000, size  # 1.1 MB while the checks were inside it
    notebook = json.loads((student / "self_attention_lab.ipynb").read_text("utf-8"))
    assert set(notebook["metadata"]) == {"kernelspec", "language_info", "autograder_lab"}
    setup = next(cell for cell in notebook["cells"] if "grader-init" in cell["metadata"].get("tags", []))
    assert len(setup["source"]) <= 20 and setup["metadata"]["jupyter"] == {"source_hidden": True}
    on_disk = {p.relative_to(student).as_posix(): p.read_bytes()
               for folder in ("tests", "lab_check") for p in (student / folder).rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    with zipfile.ZipFile(student / build_notebook.checks_zip_name(LAB.name)) as archive:
        zipped = {name: archive.read(name) for name in archive.namelist()}
    assert zipped == on_disk
    text = b"".join(zipped.values()).decode("utf-8")
    assert "hidden-" not in text and "def hidden_cases" not in text
    assert (ROOT / "solutions" / "self_attention.py").read_text("utf-8") not in text


def test_student_half_names_only_what_it_ships(student):
    readme = (student / "README.md").read_text("utf-8")
    assert "pip install -r requirements.txt" in readme
    assert "python -m lab_check" in readme
    assert "otter-grader" in (student / "requirements.txt").read_text("utf-8")
    notebook = as_built(student)
    texts = [readme, (student / "self_attention_lab.py").read_text("utf-8")]
    texts += [cell.source for cell in notebook.cells]
    for text in texts:
        assert "autograder check" not in text and "autograder " not in text
    for path in student.rglob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+(autograder|solutions)\b", path.read_text("utf-8"),
                             re.MULTILINE), path


# python -m lab_check: the students' own command line -------------------------------------

def check_command(student, path, *extra):
    return subprocess.run([sys.executable, "-m", "lab_check", str(path), *extra], cwd=student,
                          capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})


COMPARED_SECONDS = 3


@pytest.fixture(scope="module")
def public_plan():
    return Plan.build(LAB, public_cases())


@pytest.mark.parametrize("path", CORPUS + EXPLAINED, ids=[p.name for p in CORPUS + EXPLAINED])
def test_command_line_check_says_what_the_engine_says_on_public_cases(student, zygote, public_plan, path):
    # One time limit, told to both (the file that loops forever waits it out in each).
    done = check_command(student, path, "--json", "--timeout", str(COMPARED_SECONDS))
    if path.name == "mix__crashed__exit.py":  # os._exit ends the check's own process
        assert done.returncode == 2 and "프로세스를 종료시켰습니다" in done.stderr
        return
    limits = Limits(step_seconds=COMPARED_SECONDS, load_seconds=COMPARED_SECONDS)
    engine = as_dict(grade_file(path, zygote, public_plan, limits), LAB, "ko")
    got = json.loads(done.stdout)
    assert done.returncode == (0 if engine["score"] == engine["max_score"] else 1)
    assert got["steps"] == engine["steps"]
    assert got["score"] == engine["score"]


def test_command_line_check_reads_the_stubs_and_the_reference(student, tmp_path):
    stubs = check_command(student, LAB_FOLDER / "self_attention_lab.ipynb")
    assert stubs.returncode == 1 and "합계 0 / 10점" in stubs.stdout
    reference = check_command(student, ROOT / "solutions" / "self_attention.py", "--lang", "en")
    assert reference.returncode == 0 and "10 / 10" in reference.stdout
    missing = check_command(student, tmp_path / "nothing.py")
    assert missing.returncode == 2 and "파일이 없습니다" in missing.stderr


def test_command_line_check_stops_a_step_that_runs_too_long(student):
    started = time.monotonic()
    done = check_command(student, CORPORA / "corpus" / "mix__timeout__endless_loop.py",
                         "--timeout", "1", "--json")
    steps = {step["name"]: step["status"] for step in json.loads(done.stdout)["steps"]}
    assert steps["mix"] == "timeout" and steps["softmax"] == "passed"
    assert time.monotonic() - started < 250  # it ended; the deadline itself is not measured
