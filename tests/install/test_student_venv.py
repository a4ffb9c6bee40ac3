"""The student half as a student installs it: a fresh venv of each supported Python (3.10 to 3.13)
made from its requirements.txt alone, Jupyter's `python3` kernel found by name, JupyterLab there,
and the notebook run in that kernel with the venv's own nbclient (nothing of this repository on any
path). A Python older than 3.10: pip refuses the requirements, and the notebook's first cell says
what to do, in a real kernel of that Python, instead of a traceback.

The venvs are built at once in the background (they mostly wait on pip), once per test run:
test_student_pythons.py uses the same ones (interpreters.shared_venvs).
Every Python must be there: a missing one fails, it is not skipped.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap

import nbformat
import pytest

import interpreters

from conftest import ROOT
from labs.self_attention import LAB
from labs.self_attention.steps import STEPS

from autograder.authoring import fill
from test_otter_student import planted


SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
TOO_OLD = "3.9"
INSTALL_SECONDS = 900
WRONG_AXIS = ("    e = np.exp(x - x.max(axis=0, keepdims=True))\n"
              "    return e / e.sum(axis=0, keepdims=True)\n")

# Run by the venv's own Python: execute a notebook in the kernel named python3, print its outputs.
RUNNER = textwrap.dedent('''
    import json, sys
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from nbclient import NotebookClient

    path, folder = sys.argv[1], sys.argv[2]
    spec = KernelSpecManager().get_kernel_spec("python3")
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": folder}}).execute()
    outputs = {}
    for index, cell in enumerate(notebook.cells):
        for tag in cell.metadata.get("tags", []) or ["cell-%d" % index]:
            outputs[tag] = {"text": "\\n".join(str(o.get("data", {}).get("text/plain", "")) + o.get("text", "")
                                               for o in cell.get("outputs", [])),
                            "html": "".join(str(o.get("data", {}).get("text/html", "")) for o in cell.get("outputs", [])),
                            "kinds": [o["output_type"] + ":" + o.get("name", "") for o in cell.get("outputs", [])],
                            "errors": [o.get("ename", "") + ": " + o.get("evalue", "") for o in cell.get("outputs", [])
                                       if o["output_type"] == "error"]}
    print(json.dumps({"kernel": spec.argv, "resources": spec.resource_dir, "outputs": outputs}))
''')


def interpreter(version):
    found = sorted(glob.glob(f"/root/.pyenv/versions/{version}.*/bin/python{version}"))
    if not found:
        pytest.fail(f"Python {version} is missing under /root/.pyenv/versions: the student half must be "
                    f"tested on it")
    return found[-1]


def clean_environment(venv, home):
    return {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
            "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
            **{key: value for key, value in os.environ.items() if key.startswith("PIP_")}}


class Venv:
    """A fresh venv built in the background: `python -m venv`, then pip with the given arguments."""

    def __init__(self, folder, python, *pip_args):
        self.folder, self.home = folder / "venv", folder / "home"
        self.home.mkdir(parents=True)
        script = (f'"{python}" -m venv "{self.folder}" && "{self.folder}/bin/python" -m pip install -q '
                  f'--no-compile --disable-pip-version-check {" ".join(pip_args)}')
        self.process = subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, env=clean_environment(self.folder, self.home), cwd=folder)

    def ready(self):
        try:
            output, _ = self.process.communicate(timeout=INSTALL_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail(f"{self.folder} was not built within {INSTALL_SECONDS} s")
        lines = [line for line in output.splitlines() if "is ignored: it is neither a file" not in line]
        return self.process.returncode, "\n".join(lines)

    def run(self, *command, cwd, timeout=600):
        return subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=timeout,
                              cwd=cwd, env=clean_environment(self.folder, self.home))


class SharedVenv(Venv):
    """A venv of interpreters.shared_venvs (built once per run, shared with test_student_pythons.py),
    run with a home of its own."""

    def __init__(self, folder, error, home):
        self.folder, self.error, self.home = folder, error, home
        self.home.mkdir(parents=True)

    def ready(self):
        return (0, "") if self.folder is not None else (1, self.error or "not built")


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    from autograder.otter import build as otter_build

    return otter_build.build(tmp_path_factory.mktemp("dist"), LAB, self_check=False)["student"]


@pytest.fixture(scope="module")
def venvs(student, tmp_path_factory):
    for version in SUPPORTED:
        interpreter(version)  # a missing Python fails
    old = Venv(tmp_path_factory.mktemp(f"py{TOO_OLD}"), interpreter(TOO_OLD), "ipykernel", "nbclient", "nbformat")
    shared = interpreters.shared_venvs(tmp_path_factory, (student / "requirements.txt").read_text("utf-8"),
                                       seconds=INSTALL_SECONDS)
    homes = tmp_path_factory.mktemp("homes")
    yield {**{version: SharedVenv(folder, error, homes / version) for version, (folder, error) in shared.items()},
           TOO_OLD: old}
    if old.process.poll() is None:
        old.process.kill()
        old.process.communicate()


def run_notebook(venv, notebook, folder):
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / LAB.notebook)
    (folder / "runner.py").write_text(RUNNER, "utf-8")
    done = venv.run(venv.folder / "bin" / "python", "runner.py", LAB.notebook, str(folder), cwd=folder)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("version", SUPPORTED)
def test_requirements_alone_run_the_notebook_in_jupyters_python3_kernel(venvs, student, tmp_path, version):
    venv = venvs[version]
    status, output = venv.ready()
    assert status == 0, output[-3000:]
    # Jupyter finds a kernel named python3 in the venv, and JupyterLab is there to open the notebook.
    specs = venv.run(venv.folder / "bin" / "jupyter", "kernelspec", "list", "--json", cwd=tmp_path)
    assert specs.returncode == 0, specs.stderr
    assert str(venv.folder) in json.loads(specs.stdout)["kernelspecs"]["python3"]["resource_dir"]
    lab = venv.run(venv.folder / "bin" / "jupyter", "lab", "--version", cwd=tmp_path)
    assert lab.returncode == 0 and lab.stdout.strip()[0].isdigit(), lab.stderr
    engine = venv.run(venv.folder / "bin" / "python", "-c", "import autograder", cwd=tmp_path)
    assert engine.returncode != 0  # the student half installs no grader

    folder = tmp_path / "student"
    shutil.copytree(student, folder)
    notebook = planted(fill.fill_notebook(nbformat.read(student / LAB.notebook, as_version=4)), "softmax", WRONG_AXIS)
    ran = run_notebook(venv, notebook, folder)
    assert ran["kernel"][0] in ("python", str(venv.folder / "bin" / "python")) or \
        ran["kernel"][0].startswith(str(venv.folder)), ran["kernel"]
    outputs = ran["outputs"]
    assert outputs["grader-init"]["errors"] == [] and "검사 준비가 끝났습니다" in outputs["grader-init"]["text"]
    softmax = outputs["check:softmax"]
    assert softmax["errors"] == [], softmax["errors"]
    assert softmax["text"].startswith("■ softmax — 0.6/2점 · 틀림")
    assert "Test case failed" not in softmax["text"] + softmax["html"] and "AssertionError" not in softmax["text"]
    assert softmax["html"].count("<svg") == 3
    for step in STEPS:
        if step.name != "softmax":
            assert outputs[f"check:{step.name}"]["text"].startswith(f"■ {step.name} — "), step.name
            assert "· 통과" in outputs[f"check:{step.name}"]["text"].splitlines()[0]
    assert all(not cell["errors"] for cell in outputs.values()), {k: v["errors"] for k, v in outputs.items()}
    # Run All on the untouched notebook reaches the last cell: no cell ends in an error.
    shutil.copytree(student, tmp_path / "untouched")
    untouched = run_notebook(venv, nbformat.read(student / LAB.notebook, as_version=4), tmp_path / "untouched")
    assert all(not cell["errors"] for cell in untouched["outputs"].values()), \
        {k: v["errors"] for k, v in untouched["outputs"].items() if v["errors"]}
    assert "make_qkv 함수를 아직 완성하지 않아" in json.dumps(untouched["outputs"], ensure_ascii=False)


def test_a_python_too_old_is_refused_by_pip_and_told_what_to_do_by_the_notebook(venvs, student, tmp_path):
    venv = venvs[TOO_OLD]
    status, output = venv.ready()
    assert status == 0, output[-3000:]
    refused = venv.run(venv.folder / "bin" / "python", "-m", "pip", "install", "--dry-run", "-r",
                       student / "requirements.txt", cwd=tmp_path)
    assert refused.returncode != 0 and "Requires-Python" in refused.stdout + refused.stderr

    notebook = nbformat.read(student / LAB.notebook, as_version=4)
    setup = next(i for i, cell in enumerate(notebook.cells) if "grader-init" in cell.metadata.get("tags", []))
    check = next(i for i, cell in enumerate(notebook.cells) if "check:make_qkv" in cell.metadata.get("tags", []))
    notebook.cells = [notebook.cells[setup], notebook.cells[check],
                      nbformat.v4.new_code_cell("grader.check_all()", metadata={"tags": ["check-all"]})]
    folder = tmp_path / "student"
    shutil.copytree(student, folder)  # opened in the folder it came in, as the README says
    outputs = run_notebook(venv, notebook, folder)["outputs"]
    told = outputs["grader-init"]
    assert told["errors"] == [] and told["kinds"] == ["stream:stderr"]
    assert f"지금 커널은 Python {TOO_OLD}." in told["text"] and "Python 3.10 이상으로 바꾸십시오" in told["text"]
    assert "pip install -r requirements.txt" in told["text"]
    for tag in ("check:make_qkv", "check-all"):
        assert outputs[tag]["errors"] == [] and "Python 3.10~3.13" in outputs[tag]["text"], outputs[tag]
        assert "Traceback" not in outputs[tag]["text"] and "NameError" not in outputs[tag]["text"]
