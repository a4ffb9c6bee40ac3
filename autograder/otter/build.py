"""`autograder build --out DIR`: DIR/student/ (what students get) and DIR/autograder/ (the LMS zip).

The student half holds the notebook, its .py twin, Otter test files with public checks only and
the `attention_check` package (judge, renderer, catalogs and the public cases as data), never the
reference, the hidden cases or the grading engine. The zip installs this package from a wheel
with pip (setup.sh) and grades with `python3 -I -m autograder.otter.gradescope` (run_autograder);
`otter run -a ZIP` grades through plugin.EngineGrading. Before the build succeeds, the zip is
installed into a fresh Python environment and must give the filled-in notebook full marks and the
untouched stubs zero there, as on the LMS (see emulation.py).
"""
import importlib.util
import json
import pathlib
import shutil
import sys
import tempfile
import zipfile

import nbformat

from ..steps import STEPS
from .gradescope import CONFIG, PLUGIN
from .public_data import public_data
from .results import VISIBILITIES
from .wheel import WheelError, write_wheel

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = "self_attention_lab.ipynb"
SCRIPT = "self_attention_lab.py"
ZIP_NAME = "self_attention_lab-autograder.zip"
CHECK_PACKAGE = "attention_check"
# Engine modules the public checks reuse as they are; none of them computes expected values.
SHARED_MODULES = ("judge.py", "render.py", "lab.py", "cases.py", "declaration.py", "submission.py",
                  "sandbox/__init__.py", "sandbox/codec.py", "sandbox/worker.py",
                  "locale/__init__.py", "locale/ko.toml", "locale/en.toml")
KIT_MODULES = {"steps.py": "steps.py", "check.py": "check.py"}
# Read by `otter run -a ZIP` only; the zip's own run_autograder reads the plugin's settings.
OTTER_CONFIG = {"show_hidden": True, "force_public_test_summary": True, "show_stdout": False,
                "grade_from_log": False, "zips": False, "pdf": False}
MIN_PYTHON = (3, 11)


class BuildError(Exception):
    pass


def run_build(args):
    out = pathlib.Path(args.out)
    try:
        report = build(out, step_seconds=args.timeout, lang=args.lang, memory_mb=args.memory_mb,
                       visibility=args.visibility,
                       extra_requirements=_read_optional(args.requirements),
                       setup_script=_read_optional(args.setup_script))
    except BuildError as error:
        print(f"autograder build: {error}", file=sys.stderr)
        return 1
    print(f"student half:    {out / 'student'}")
    print(f"autograder zip:  {report['zip']}")
    for line in report["checks"]:
        print(f"self-check:      {line}")
    return 0


def _read_optional(path):
    if not path:
        return ""
    try:
        return pathlib.Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BuildError(f"cannot read {path}: {error}") from None


def build(out, assignments=ROOT / "assignments", step_seconds=10.0, lang="ko", self_check=True,
          memory_mb=1024, visibility="after_published", extra_requirements="", setup_script="",
          image=None):
    """Write both halves under `out`; raise BuildError when the zip does not grade as it must.

    `image`: an emulation.GradingImage to self-check in (a fresh venv is made when None; a given
    one keeps its venv, and the zip's setup.sh installs this build's wheel into it).
    """
    out, assignments = pathlib.Path(out), pathlib.Path(assignments)
    if step_seconds <= 0 or memory_mb < 256:
        raise BuildError("--timeout must be positive and --memory-mb at least 256")
    if visibility not in VISIBILITIES:
        raise BuildError(f"--visibility must be one of {', '.join(VISIBILITIES)}")
    for name in (NOTEBOOK, SCRIPT):
        if not (assignments / name).is_file():
            raise BuildError(f"missing {assignments / name}")
    student = _fresh(out / "student")
    write_student_half(student, assignments)
    settings = {"lang": lang, "step_seconds": step_seconds, "memory_mb": memory_mb, "visibility": visibility}
    zip_path = write_autograder_zip(_fresh(out / "autograder"), ROOT, student / "tests", settings,
                                    extra_requirements, setup_script)
    checks = check_zip(zip_path, assignments, image) if self_check else []
    return {"student": student, "zip": zip_path, "checks": checks}


def _fresh(folder):
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


# Student half -------------------------------------------------------------------------------

def write_student_half(student, assignments):
    notebook = nbformat.read(assignments / NOTEBOOK, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(notebook, student / NOTEBOOK)
    shutil.copy(assignments / SCRIPT, student / SCRIPT)
    write_test_files(student / "tests")
    write_check_package(student / CHECK_PACKAGE)


def write_test_files(folder):
    folder.mkdir(parents=True, exist_ok=True)
    for step in STEPS:
        (folder / f"{step.name}.py").write_text(test_file_source(step), encoding="utf-8")


def test_file_source(step):
    """An Otter exception-format test file: the step's public check, worth the step's points."""
    return (f'"""Otter test for step {step.name}: public cases only (hidden cases are graded by the LMS)."""\n'
            f"from otter.test_files import test_case\n\n"
            f"OK_FORMAT = False\n\n"
            f"name = {step.name!r}\n\n\n"
            f"@test_case(name={step.name + ' (public)'!r}, points={step.points!r}, hidden=False)\n"
            f"def public_cases(env):\n"
            f"    from {CHECK_PACKAGE}.check import check_step\n\n"
            f"    check_step({step.name!r}, env)\n")


def write_check_package(folder):
    engine = ROOT / "autograder"
    for relative in SHARED_MODULES:
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(engine / relative, target)
    for source, target in KIT_MODULES.items():
        shutil.copy(pathlib.Path(__file__).parent / "kit" / source, folder / target)
    (folder / "__init__.py").write_text(
        '"""Public checks of the self-attention lab, for otter.Notebook (tests/*.py)."""\n', "utf-8")
    (folder / "public_data.json").write_text(json.dumps(public_data(), ensure_ascii=False),
                                             encoding="utf-8")


# Autograder half ----------------------------------------------------------------------------

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Grades the submission with the self-attention lab's engine. Nothing of the submission is
# imported or run in this process tree outside the engine's sandbox: Python starts isolated (-I:
# neither the current folder nor PYTHON* variables reach sys.path) in an empty folder of its own,
# and the engine reads the submission's bytes and runs them in a confined child.
set -u
work="$(mktemp -d)"
cd "$work" || exit 1
python3 -I -m autograder.otter.gradescope
status=$?
cd / && rm -rf "$work"
exit $status
"""

SETUP_SH = """#!/usr/bin/env bash
# Installs the grader into the image's own Python with pip: no apt, no conda, no browser.
set -euo pipefail
cd "${{AUTOGRADER_ROOT:-/autograder}}/source"
{setup_script}
python3 -c 'import sys; sys.exit(0 if sys.version_info >= {min_python} else "the grader needs Python {min_text} or newer; this image has " + sys.version.split()[0])'
python3 -m pip --version >/dev/null 2>&1 || python3 -m ensurepip --upgrade
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_BREAK_SYSTEM_PACKAGES=1 PIP_NO_INPUT=1
python3 -m pip install -r requirements.txt
# The wheel again, so that a rebuilt zip of the same version replaces an older install.
python3 -m pip install --no-deps --force-reinstall ./files/{wheel}
python3 -I -c 'import autograder.otter.gradescope'
"""


def write_autograder_zip(folder, root, tests, settings, extra_requirements="", setup_script=""):
    """The LMS zip: run_autograder, setup.sh, requirements.txt, otter_config.json, tests/, files/."""
    with tempfile.TemporaryDirectory(prefix="autograder-build-") as staging:
        try:
            wheel = write_wheel(root, pathlib.Path(staging))
        except WheelError as error:
            raise BuildError(str(error)) from None
        config = dict(OTTER_CONFIG, plugins=[{PLUGIN: settings}])
        requirements = "numpy>=1.26\npandas>=2.0\n" + extra_requirements.strip() + "\n" + f"./files/{wheel.name}\n"
        setup = SETUP_SH.format(setup_script=setup_script.strip(), wheel=wheel.name,
                                min_python=MIN_PYTHON, min_text=".".join(map(str, MIN_PYTHON)))
        zip_path = folder / ZIP_NAME
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
            _add(archive, "run_autograder", RUN_AUTOGRADER, executable=True)
            _add(archive, "setup.sh", setup, executable=True)
            _add(archive, "requirements.txt", requirements.replace("\n\n", "\n"))
            _add(archive, CONFIG, json.dumps(config, indent=2))
            for test in sorted(pathlib.Path(tests).glob("*.py")):
                _add(archive, f"tests/{test.name}", test.read_text("utf-8"))
            _add(archive, f"files/{wheel.name}", wheel.read_bytes())
    return zip_path


def _add(archive, name, data, executable=False):
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o755 if executable else 0o644) << 16
    archive.writestr(info, data)


# Self-check ---------------------------------------------------------------------------------

def check_zip(zip_path, assignments, image=None):
    """Graded as on the LMS, from the installed wheel: the reference full marks, the stubs zero."""
    from .emulation import EmulationError, GradingImage

    fill = _load_fill(assignments)
    notebook = nbformat.read(assignments / NOTEBOOK, as_version=4)
    reference = nbformat.writes(fill.fill_notebook(nbformat.from_dict(notebook))).encode()
    stubs = nbformat.writes(notebook).encode()
    with tempfile.TemporaryDirectory(prefix="autograder-selfcheck-") as work:
        try:
            if image is None:
                image = GradingImage(pathlib.Path(work) / "image")
            image.install(zip_path)
            graded = {label: image.grade(zip_path, {NOTEBOOK: data})
                      for label, data in (("reference", reference), ("stubs", stubs))}
        except EmulationError as error:
            raise BuildError(f"the autograder zip does not install or run: {error}") from None
    lines, problems = [], []
    for label, want_full in (("reference", True), ("stubs", False)):
        run = graded[label]
        if run.returncode != 0:
            problems.append(f"{label}: run_autograder exited {run.returncode}:\n{run.output[-1500:]}")
        scores = {t["name"]: (t["score"], t["max_score"]) for t in run.results["tests"] if "max_score" in t}
        for step in STEPS:
            score, max_score = scores.get(step.name, (None, None))
            expected = step.points if want_full else 0
            if score is None or abs(score - expected) > 1e-9 or abs(max_score - step.points) > 1e-9:
                problems.append(f"{label}: step {step.name} scored {score}/{max_score}, expected "
                                f"{expected}/{step.points}")
        lines.append(f"{label}: {sum(s for s, _ in scores.values()):g} points ({run.seconds:.1f} s)")
    if problems:
        raise BuildError("the autograder zip does not grade as it must:\n  " + "\n  ".join(problems))
    lines.append(f"graded by {image.describe()}")
    return lines


def _load_fill(assignments):
    path = assignments / "fill.py"
    if not path.is_file():
        raise BuildError(f"missing {path}: the self-check needs it to fill in the reference")
    spec = importlib.util.spec_from_file_location("assignment_fill", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
