"""`autograder build --lab NAME --out DIR`: DIR/student/ (what students get) and DIR/autograder/ (the LMS zip).

The student half holds the lab's notebook, its .py twin, Otter test files with public checks only
and the `lab_check` package: the engine's `autograder.kit` subpackage shipped whole with
every engine module it imports (judge, renderer, catalogs), and the lab's public cases as data;
never a reference, a hidden case or the grading engine. The zip installs this package from a wheel
with pip (setup.sh) and grades with `python3 -I -m autograder.otter.gradescope` (run_autograder);
`otter run -a ZIP` grades through plugin.EngineGrading. Before the build succeeds, the zip is
installed into a fresh Python environment and must give the filled-in notebook full marks and the
untouched stubs zero there, as on the LMS (see emulation.py).
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import pathlib
import shutil
import tempfile
import time
import zipfile
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, TypedDict

import nbformat

from ..authoring.build_notebook import CHECK_PACKAGE, checks_zip_name
from ..declaration import Step
from ..lab import Lab
from ..said import Refusal, Said, said
from .classroom import workflow
from .gradescope import CONFIG, PLUGIN
from .public_data import public_data
from .results import VISIBILITIES
from .wheel import WheelError, write_wheel
from ..options import BuildOptions, BuildResult

if TYPE_CHECKING:  # imported where used (check_zip)
    from .emulation import GradingImage

ROOT = pathlib.Path(__file__).resolve().parents[2]
KIT = "kit"  # the engine's subpackage the check package is made of
KIT_DATA = ("locale/ko.toml", "locale/en.toml")  # read with importlib.resources, not imported
# Read by `otter run -a ZIP` only; the zip's own run_autograder reads the plugin's settings.
OTTER_CONFIG = {"show_hidden": True, "force_public_test_summary": True, "show_stdout": False,
                "grade_from_log": False, "zips": False, "pdf": False}
MIN_PYTHON = (3, 10)
# The catalogs are TOML: tomllib reads them from Python 3.11 on, tomli (the same parser) before.
TOML_REQUIREMENT = "tomli>=1.1; python_version < '3.11'"


class BuildError(Refusal):
    """The build does not go on, or its zip does not grade as it must: exit status 1."""

    status = 1
    program = "autograder build"


class BuildReport(TypedDict):
    """What `build` wrote: the two halves, the classroom template, the zip, the self-check's lines."""

    student: pathlib.Path
    classroom: pathlib.Path
    zip: pathlib.Path
    checks: list[Said]


class BuildRefused(Refusal):
    """The build cannot start (which lab): exit status 2, nothing written."""

    program = "autograder build"


def run_build(options: BuildOptions) -> BuildResult:
    """commands.build: a BuildRefused (exit 2) when the lab cannot be chosen, a BuildError (exit 1)
    when the build is refused or its zip does not grade as it must."""
    from ..registry import LabNotFound, choose, lab_names
    from ..render.messages import Messages

    names = lab_names()
    if options.lab is None and len(names) > 1:  # a build is of one lab, and nothing but --lab says which
        raise BuildRefused(said("several_labs", "build", labs=", ".join(names), first=names[0], out=options.out))
    try:
        lab = choose(options.lab)
    except LabNotFound as error:
        raise BuildRefused(*error.sentences) from None
    out = pathlib.Path(options.out)
    report = build(out, lab, step_seconds=options.timeout, lang=options.lang, memory_mb=options.memory_mb,
                   visibility=options.visibility, extra_requirements=_read_optional(options.requirements),
                   setup_script=_read_optional(options.setup_script), self_check=options.self_check)
    say = Messages(options.lang)
    checks = tuple(line.text(say) for line in report["checks"])
    lines = [said("summary_student", "build", path=str(out / "student")),
             said("summary_classroom", "build", path=str(out / "classroom")),
             said("summary_zip", "build", path=str(report["zip"]))]
    summary = "\n".join([line.text(say) for line in lines]
                        + [said("summary_check", "build", line=check).text(say) for check in checks])
    return BuildResult(status=0, student=str(report["student"]), classroom=str(report["classroom"]),
                       zip=str(report["zip"]), checks=checks, summary=summary)


def _read_optional(path: str | None) -> str:
    if not path:
        return ""
    try:
        return pathlib.Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BuildError(said("cannot_read", "build", path=path, problem=str(error))) from None


def build(out: str | os.PathLike[str], lab: Lab, step_seconds: float = 10.0, lang: str = "ko", self_check: bool = True,
          memory_mb: int = 1024, visibility: str = "after_published", extra_requirements: str = "",
          setup_script: str = "", image: "GradingImage | None" = None) -> BuildReport:
    """Write both halves of `lab` under `out`; raise BuildError when the zip does not grade as it must.

    `image`: an emulation.GradingImage to self-check in (a fresh venv is made when None; a given
    one keeps its venv, and the zip's setup.sh installs this build's wheel into it).
    """
    out = pathlib.Path(out)
    if step_seconds <= 0 or memory_mb < 256:
        raise BuildError(said("options", "build"))
    if visibility not in VISIBILITIES:
        raise BuildError(said("visibility", "build", visibilities=", ".join(VISIBILITIES)))
    for name in (lab.notebook, lab.script):
        if not lab.assignment_file(name).is_file():
            raise BuildError(said("missing_file", "build", name=name, package=lab.assignment_package))
    claim_out_folder(out, lab)
    student = _fresh(out / "student")
    write_student_half(student, lab, lang)
    classroom = write_classroom_template(_fresh(out / "classroom"), student, lab)
    settings = {"lab": lab.name, "lang": lang, "step_seconds": step_seconds, "memory_mb": memory_mb,
                "visibility": visibility}
    zip_path = write_autograder_zip(_fresh(out / "autograder"), ROOT, student / "tests", settings,
                                    extra_requirements, setup_script, zip_name(lab))
    _write_stamp(out, lab, _built_files(out))
    checks = check_zip(zip_path, lab, image) if self_check else []
    return {"student": student, "classroom": classroom, "zip": zip_path, "checks": checks}


# What a build may replace ---------------------------------------------------------------------

BUILD_FOLDERS = ("student", "classroom", "autograder")
# Written by every build into --out: the lab it built and every file it wrote (None while it runs).
STAMP = "autograder-build.json"


def claim_out_folder(out: pathlib.Path, lab: Lab) -> None:
    """INVARIANT: a build never replaces what another run, or a person, left in `out`. It writes into
    `out` only when `out` does not exist, is an empty folder, or holds this lab's earlier build and
    nothing else (its stamp, its three folders, only the files that build wrote in them, each still
    holding what it wrote: the stamp records each file's SHA-256; a build that stopped before it
    ended may be replaced whole). Else BuildError names what is in the way: files added, files
    changed since."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        pass  # a file: told below
    except OSError as error:
        raise BuildError(said("cannot_make", "build", out=str(out), why=error.strerror or str(error))) from None
    if not out.is_dir():
        raise BuildError(said("out_is_a_file", "build", out=str(out)))
    entries = sorted(entry.name for entry in out.iterdir())
    if entries:
        stamp = _read_stamp(out)
        if stamp is None:
            raise BuildError(said("not_empty", "build", out=str(out), listing=_listed(entries)))
        if stamp["lab"] != lab.name:
            raise BuildError(said("other_lab", "build", out=str(out), other=stamp["lab"], lab=lab.name))
        others = [name for name in entries if name not in (STAMP, *BUILD_FOLDERS)]
        changed: list[str] = []
        if stamp["files"] is not None:
            built = stamp["files"]
            present = _built_files(out)
            others += [name for name in present if name not in built]
            changed = [name for name in present if name in built and built[name] is not None
                       and built[name] != _digest(out / name)]
        if changed:
            raise BuildError(said("changed_files", "build", out=str(out), lab=lab.name,
                                  listing=_listed(changed + others)))
        if others:
            raise BuildError(said("other_files", "build", out=str(out), lab=lab.name, listing=_listed(others)))
    _write_stamp(out, lab, None)


def _listed(names: list[str], most: int = 5) -> str:
    return ", ".join(names[:most]) + (", ..." if len(names) > most else "")


def _built_files(out: pathlib.Path) -> list[str]:
    """Relative paths of the files (and links) under the build's folders in `out`; Python's byte-code
    caches (written when the check package is run there) are the build's own files, not counted."""
    found = []
    for folder in BUILD_FOLDERS:
        for path in sorted((out / folder).rglob("*")):
            if "__pycache__" in path.relative_to(out).parts:
                continue
            if path.is_symlink() or not path.is_dir():
                found.append(path.relative_to(out).as_posix())
    return found


def _read_stamp(out: pathlib.Path) -> dict[str, Any] | None:
    """The stamp as {"lab": name, "files": {relative path: SHA-256 or None} or None (a build running or
    stopped)}; a stamp of a build that listed names alone gives None for each digest (compared by name)."""
    try:
        stamp = json.loads((out / STAMP).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stamp, dict) or not isinstance(stamp.get("lab"), str):
        return None
    files = stamp.get("files")
    if isinstance(files, list) and all(isinstance(f, str) for f in files):
        return {"lab": stamp["lab"], "files": dict.fromkeys(files)}
    if files is None or (isinstance(files, dict) and all(isinstance(d, str) for d in files.values())):
        return {"lab": stamp["lab"], "files": files}
    return None


def _write_stamp(out: pathlib.Path, lab: Lab, files: list[str] | None) -> None:
    digests = None if files is None else {name: _digest(out / name) for name in files}
    (out / STAMP).write_text(json.dumps({"lab": lab.name, "files": digests}, indent=1) + "\n", "utf-8")


def _digest(path: pathlib.Path) -> str:
    """SHA-256 of a file the build wrote (of a link's target path for a link: never followed)."""
    if path.is_symlink():
        return hashlib.sha256(os.readlink(path).encode("utf-8", "surrogateescape")).hexdigest()
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""  # unreadable now: not as the build wrote it


def _fresh(folder: pathlib.Path) -> pathlib.Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


# Student half -------------------------------------------------------------------------------

def zip_name(lab: Lab) -> str:
    return f"{pathlib.Path(lab.notebook).stem}-autograder.zip"


# What a --lang en student half says in English and what stays Korean (README, docs/OTTER.md):
# English: the set-up cell (its title, comments and messages), every check's feedback
# (grader.check, check_all, the .py twin's checks, `python -m lab_check` by default), the
# check package's own sentences, Otter's names of the checks, README.md, and a note heading the
# notebook. Korean, having no English version: the notebook's explanations (markdown cells),
# the code's comments and docstrings, the .py twin's header.
ENGLISH_NOTE = ("**In English:** this notebook's explanations, comments and docstrings are in Korean (there is "
                "no English version of them yet). Everything the checks print is in English: the set-up cell "
                "below, each `grader.check(...)`, `grader.check_all()` and "
                f"`python -m {CHECK_PACKAGE}`. Each function's arguments and what it returns are in its "
                "docstring's shapes, e.g. `(n, d_k)`.")


def write_student_half(student: pathlib.Path, lab: Lab, lang: str = "ko") -> None:
    """The notebook, its .py twin, tests/, the check package (and the same two in a zip for Colab),
    README.md and requirements.txt: everything a student needs, nothing more; everything
    the kit prints in `lang` (see ENGLISH_NOTE's comment for what a `--lang en` half translates)."""
    files = student_files(lab, lang)
    notebook = nbformat.reads(lab.assignment_file(lab.notebook).read_text("utf-8"), as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        if "grader-init" in cell.metadata.get("tags", []) and lang != "ko":
            # The notebook's own set-up cell is the Korean one (tests/authoring/test_assignments.py): only
            # another language writes it again.
            from ..authoring import build_notebook
            cell.source = build_notebook.grader_setup_source(lang, lab.name)
    if lang == "en":
        note = nbformat.v4.new_markdown_cell(ENGLISH_NOTE)
        note.id = "cell-english"
        notebook.cells.insert(1 if notebook.cells and notebook.cells[0].cell_type == "markdown" else 0, note)
    nbformat.write(notebook, student / lab.notebook)
    (student / lab.script).write_bytes(lab.assignment_file(lab.script).read_bytes())
    for relative, text in files.items():
        target = student / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    write_checks_zip(student / checks_zip_name(lab.name), files)
    (student / "requirements.txt").write_text(STUDENT_REQUIREMENTS, encoding="utf-8")
    (student / "README.md").write_text(student_readme(lab, lang), encoding="utf-8")


def student_files(lab: Lab, lang: str = "ko") -> dict[str, str]:
    """{relative path: text} of tests/ and the check package (public cases only, no reference);
    the package speaks `lang` unless the student chooses (kit/public.py, lang)."""
    files = {f"tests/{step.name}.py": test_file_source(step) for step in lab.steps}
    engine = resources.files("autograder")
    for relative in kit_modules():
        files[f"{CHECK_PACKAGE}/{relative}"] = engine.joinpath(relative).read_text("utf-8")
    files[f"{CHECK_PACKAGE}/__init__.py"] = (
        f'"""Public checks of {lab.title("en")}: otter.Notebook (tests/*.py) and '
        f'`python -m {CHECK_PACKAGE} FILE`."""\n')
    # The kit's own __main__, one package further down: it says which Python it needs first.
    files[f"{CHECK_PACKAGE}/__main__.py"] = engine.joinpath(f"{KIT}/__main__.py").read_text("utf-8") \
        .replace("from .", f"from .{KIT}.")
    files[f"{CHECK_PACKAGE}/{KIT}/public_data.json"] = json.dumps({**public_data(lab), "lang": lang},
                                                                  ensure_ascii=False)
    return dict(sorted(files.items()))


def kit_modules() -> list[str]:
    """Paths (inside the autograder package) of the kit and of every engine module it imports,
    with the packages holding them and the catalogs: the check package ships these whole.

    Every import among them must be relative (the package is renamed when shipped); an absolute
    import of autograder, or of a lab, stops the build.
    """
    engine = pathlib.Path(str(resources.files("autograder")))
    wanted = sorted(p.relative_to(engine).as_posix() for p in (engine / KIT).glob("*.py"))
    found: set[str] = set()
    while wanted:
        relative = wanted.pop()
        if relative in found:
            continue
        found.add(relative)
        parts = relative.split("/")
        for depth in range(1, len(parts)):  # the packages on the way
            init = "/".join(parts[:depth] + ["__init__.py"])
            if init not in found:
                wanted.append(init)
        wanted.extend(_relative_imports(engine, relative))
    return sorted(found) + list(KIT_DATA)


def _relative_imports(engine: pathlib.Path, relative: str) -> list[str]:
    tree = ast.parse((engine / relative).read_text("utf-8"))
    package = relative.split("/")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            names = []
        for name in names:
            if name.split(".")[0] in ("autograder", "labs", "solutions"):
                raise BuildError(said("kit_import", "build", module="autograder/" + relative, name=name))
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
        module = base + (node.module.split(".") if node.module else [])
        candidates = [module] if node.module else [module + [alias.name] for alias in node.names]
        for parts in candidates:
            for path in ("/".join(parts) + ".py", "/".join(parts + ["__init__.py"])):
                if (engine / path).is_file():
                    found.append(path)
    return found


def write_checks_zip(path: pathlib.Path, files: Mapping[str, str]) -> None:
    """The check package and tests/ in one zip beside the notebook: what a student uploads to Colab,
    where the notebook's set-up cell unpacks it (the notebook itself carries none of it)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for relative, text in sorted(files.items()):
            _add(archive, relative, text)


def test_file_source(step: Step) -> str:
    """An Otter exception-format test file: the step's public check, worth the step's points; in a
    notebook it shows the kit's own feedback (see autograder/kit/notebook.py)."""
    return (f'"""Otter test for step {step.name}: public cases only (hidden cases are graded by the LMS)."""\n'
            f"from {CHECK_PACKAGE}.{KIT}.notebook import StepCase\n\n"
            f"OK_FORMAT = False\n\n"
            f"name = {step.name!r}\n\n\n"
            f"@StepCase({step.name!r}, points={step.points!r})\n"
            f"def public_cases(env, case):\n"
            f"    case.check(env)  # the public check; when the step does not pass, its feedback\n")


# What a student installs (README "Students"): the checks (otter-grader), the lab's libraries, the
# Jupyter kernel that Jupyter and VS Code run the notebook in (ipykernel: without it, "No such
# kernel named python3"), JupyterLab to open the notebook in a browser, and tomli where Python
# has no tomllib (3.10).
STUDENT_REQUIREMENTS = ("otter-grader>=7,<8\nnumpy>=1.26\npandas>=2.0\nipykernel>=6\njupyterlab>=4\n"
                        + TOML_REQUIREMENT + "\n")

def student_readme(lab: Lab, lang: str = "ko") -> str:
    """README.md of the student half, in `lang`."""
    if lang == "en":
        return _english_readme(lab)
    return f"""# {lab.title("ko")}

## 이 폴더에 든 것

| 파일 | 쓰임 |
| --- | --- |
| `{lab.notebook}` | 실습 노트북. 여기에 함수를 완성합니다. |
| `{lab.script}` | 같은 실습의 `.py` 판 (노트북 대신 편집기에서 풀고 싶을 때) |
| `tests/`, `{CHECK_PACKAGE}/` | 공개 테스트와 검사 코드 (고치지 마십시오) |
| `{checks_zip_name(lab.name)}` | 같은 검사 코드를 묶은 파일 (Colab에서 올립니다) |
| `requirements.txt` | 설치할 패키지 목록 |

## 설치 (한 번만)

Python 3.10~3.13에서 이 폴더로 이동한 뒤 다음 명령 하나를 실행합니다. 가상 환경을 새로 만들어 설치하는
편이 안전합니다(`python -m venv .venv`로 만들고, Windows는 `.venv\\Scripts\\activate`, macOS와 Linux는
`source .venv/bin/activate`로 켭니다).

```bash
pip install -r requirements.txt
```

otter-grader, numpy, pandas와 함께 노트북을 실행할 커널(ipykernel)과 JupyterLab이 설치됩니다.
pip이 `Requires-Python >=3.10`이라며 otter-grader를 찾지 못했다고 하면 그 Python이 3.10보다 오래된
것입니다. Python 3.12를 설치하고 그 Python으로 가상 환경을 만들어 다시 실행하십시오.

## 노트북으로 풀기

`jupyter lab`을 실행해 `{lab.notebook}`를 열거나, VS Code에서 열고 위에서 설치한 Python을 커널로
고릅니다. 맨 위의 채점 준비 셀부터 차례로 실행합니다. 함수마다 바로 아래의 `grader.check(...)` 셀이 공개
테스트로 검사해 단계의 점수와 무엇이 왜 틀렸는지, 틀린 표라면 내 값·기대 값·차이를 색으로 칠한 표를
보여 줍니다. 오류가 난 곳은 노트북 셀 번호로 알려 줍니다(예: `셀 [7], 3번째 줄`).
커널의 Python이 3.10보다 오래되었으면 채점 준비 셀이 무엇을 바꿔야 하는지 알려 줍니다.

아직 완성하지 않은 함수의 예시 셀은 표 대신 그렇다는 문장 한 줄만 보여 주고 넘어가므로, "모두 실행"을
해도 노트북 끝까지 실행됩니다.

**Colab**에서는 노트북을 올려 열고 채점 준비 셀을 실행하면 `{checks_zip_name(lab.name)}`을 올리라고 합니다.
이 폴더에 있는 그 파일을 고르면 됩니다. otter-grader가 없으면 채점 준비 셀이 설치합니다(처음 한 번, 1~2분).

## .py 판으로 풀기

`python {lab.script}`를 이 폴더에서 실행하면 단계마다 노트북과 같은 검사 결과와 예시 값을 찍습니다.

## 터미널에서 검사하기

```bash
python -m {CHECK_PACKAGE} {lab.notebook}
python -m {CHECK_PACKAGE} {lab.script} --lang en     # 영어 피드백
```

이 폴더에서 실행합니다. 모든 단계를 공개 테스트로 검사해 점수와 피드백을 보여 줍니다.
종료 코드는 모두 통과면 0, 틀린 단계가 있으면 1, 파일이 없는 등 검사를 못 하면 2입니다.

## 제출하기

노트북 맨 끝의 두 셀을 실행해 만든 zip 파일(Colab에서는 다운로드한 `.ipynb` 파일)을 제출합니다.
최종 점수는 공개 테스트에 더해 숨은 테스트(다른 크기의 입력, 아주 큰 값 등)로 매겨집니다. 공개 테스트를
모두 통과했더라도 낱말 수나 벡터 길이를 숫자로 적어 넣었다면 점수를 잃을 수 있습니다.
"""


def _english_readme(lab: Lab) -> str:
    return f"""# {lab.title("en")}

## What is in this folder

| file | what for |
| --- | --- |
| `{lab.notebook}` | the lab's notebook: complete the functions here |
| `{lab.script}` | the same lab as a `.py` file (to work in an editor instead of the notebook) |
| `tests/`, `{CHECK_PACKAGE}/` | the public tests and the checks (do not edit them) |
| `{checks_zip_name(lab.name)}` | the same checks in one file (to upload to Colab) |
| `requirements.txt` | the packages to install |

The notebook's explanations, comments and docstrings are in Korean (there is no English version of
them yet); everything the checks print is in English.

## Install (once)

On Python 3.10 to 3.13, go to this folder and run the one command below. A fresh virtual environment
is the safe way (`python -m venv .venv`, then `.venv\\Scripts\\activate` on Windows or
`source .venv/bin/activate` on macOS and Linux).

```bash
pip install -r requirements.txt
```

It installs otter-grader, numpy and pandas, the kernel that runs the notebook (ipykernel) and
JupyterLab. If pip says it found no otter-grader because of `Requires-Python >=3.10`, that Python is
older than 3.10: install Python 3.12, make the virtual environment with it and run the command again.

## Working in the notebook

Run `jupyter lab` and open `{lab.notebook}`, or open it in VS Code with the Python installed above
as its kernel. Run the cells in order, starting with the set-up cell at the top. Under each function,
the `grader.check(...)` cell checks it on the public tests: the step's score, what is wrong and why,
and for a wrong table your values, the expected values and their difference in colour. Errors are
located by the notebook cell's number (e.g. `cell [7], line 3`). If the kernel's Python is older than
3.10, the set-up cell says what to change. To read the checks in Korean instead, start Jupyter with
the environment variable `LAB_CHECK_LANG=ko`.

The example cell of a function you have not finished yet says so in one sentence instead of a
table and lets the rest run, so "Run All" reaches the end of the notebook.

On **Colab**, upload the notebook, open it and run the set-up cell: it asks for
`{checks_zip_name(lab.name)}`; choose that file from this folder. The set-up cell installs
otter-grader when it is missing (once, a minute or two).

## Working in the .py file

`python {lab.script}`, run in this folder, prints each step's check (the same as the notebook's)
and the example values.

## Checking from a terminal

```bash
python -m {CHECK_PACKAGE} {lab.notebook}
python -m {CHECK_PACKAGE} {lab.script} --lang ko     # feedback in Korean
```

Run it in this folder. It checks every step on the public tests and shows the score and the
feedback. The exit code is 0 when every step passed, 1 when a step lost points, 2 when the check
could not run (no such file, a Python older than 3.10, ...).

## Submitting

Run the notebook's last two cells and submit the zip file they make (on Colab, the downloaded `.ipynb`
file). The final score adds hidden tests (inputs of other sizes, very large values, ...) to the public
ones: a step that passes every public test can still lose points if it writes the number of words or
the vector length into the code.
"""


def write_classroom_template(folder: pathlib.Path, student: pathlib.Path, lab: Lab) -> pathlib.Path:
    """A GitHub Classroom template repository: the student half plus classroom/ (the workflow)."""
    shutil.copytree(student, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    workflows = folder / ".github" / "workflows"
    workflows.mkdir(parents=True, exist_ok=True)
    (workflows / "classroom.yml").write_text(workflow(lab, CHECK_PACKAGE), encoding="utf-8")
    with open(folder / "README.md", "a", encoding="utf-8") as readme:
        readme.write(CLASSROOM_README)
    return folder


CLASSROOM_README = """
## GitHub Classroom

이 저장소에 push할 때마다 GitHub Actions가 노트북을 공개 테스트로 단계마다 검사하고, 통과한 단계의
점수를 Classroom에 보여 줍니다(Actions 탭에서 단계별 피드백을 볼 수 있습니다). 이 점수는 진행 상황을
알려 주는 참고용입니다. 최종 점수는 제출한 노트북을 강의의 채점기가 숨은 테스트까지 포함해 매깁니다.
"""


# Autograder half ----------------------------------------------------------------------------

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Grades the submission with the lab engine. Nothing of the submission is
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
# Installs the grader into the image's own python3 with pip (no conda, no browser), then makes
# what it installed readable by root only: on the LMS the grader runs as root and each
# submission as another user, who must not read the reference or the hidden cases, whether or
# not the kernel offers Landlock (see docs/SECURITY.md).
set -euo pipefail
cd "${{AUTOGRADER_ROOT:-/autograder}}/source"
{setup_script}
python3 -c 'import sys; sys.exit(0 if sys.version_info >= {min_python} else "setup.sh: the grader needs Python {min_text} or newer; this image has " + sys.version.split()[0] + " (install a newer one with autograder build --setup-script)")'
if ! python3 -m pip --version >/dev/null 2>&1; then
    echo "setup.sh: $(command -v python3) has no pip; installing it"
    if python3 -m ensurepip --upgrade >/dev/null 2>&1; then
        echo "setup.sh: installed pip with python3 -m ensurepip"
    elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "setup.sh: ensurepip is disabled here (as on Debian and Ubuntu); installing python3-pip with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q --no-install-recommends python3-pip
    fi
    if ! python3 -m pip --version >/dev/null 2>&1; then
        echo "setup.sh: cannot install pip for $(command -v python3) (no ensurepip, no apt-get as root);" \\
             "add the commands that install it with autograder build --setup-script" >&2
        exit 1
    fi
    echo "setup.sh: now $(python3 -m pip --version)"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_BREAK_SYSTEM_PACKAGES=1 PIP_NO_INPUT=1
python3 -m pip install -r requirements.txt
# The wheel again, so that a rebuilt zip of the same version replaces an older install.
python3 -m pip install --no-deps --force-reinstall ./files/{wheel}
python3 -I -c 'import autograder.otter.gradescope'
python3 -I -m autograder.otter.lockdown "$PWD"
"""


def write_autograder_zip(folder: pathlib.Path, root: str | os.PathLike[str], tests: str | os.PathLike[str],
                         settings: Mapping[str, Any], extra_requirements: str = "", setup_script: str = "",
                         name: str = "autograder.zip") -> pathlib.Path:
    """The LMS zip: run_autograder, setup.sh, requirements.txt, otter_config.json, tests/, files/."""
    with tempfile.TemporaryDirectory(prefix="autograder-build-") as staging:
        try:
            wheel = write_wheel(root, pathlib.Path(staging))
        except WheelError as error:
            raise BuildError(said("wheel", "build", problem=str(error))) from None
        config = dict(OTTER_CONFIG, plugins=[{PLUGIN: settings}])
        requirements = "numpy>=1.26\npandas>=2.0\n" + TOML_REQUIREMENT + "\n" + extra_requirements.strip() + "\n" + f"./files/{wheel.name}\n"
        setup = SETUP_SH.format(setup_script=setup_script.strip(), wheel=wheel.name,
                                min_python=MIN_PYTHON, min_text=".".join(map(str, MIN_PYTHON)))
        zip_path = folder / name
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
            _add(archive, "run_autograder", RUN_AUTOGRADER, executable=True)
            _add(archive, "setup.sh", setup, executable=True)
            _add(archive, "requirements.txt", requirements.replace("\n\n", "\n"))
            _add(archive, CONFIG, json.dumps(config, indent=2))
            for test in sorted(pathlib.Path(tests).glob("*.py")):
                _add(archive, f"tests/{test.name}", test.read_text("utf-8"))
            _add(archive, f"files/{wheel.name}", wheel.read_bytes())
    return zip_path


def _add(archive: zipfile.ZipFile, name: str, data: str | bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o755 if executable else 0o644) << 16
    archive.writestr(info, data)


# Self-check ---------------------------------------------------------------------------------

def check_zip(zip_path: pathlib.Path, lab: Lab, image: "GradingImage | None" = None) -> list[Said]:
    """Graded as on the LMS, from the installed wheel: the reference full marks, the stubs zero."""
    from .emulation import EmulationError, GradingImage

    from ..authoring import fill
    notebook = nbformat.reads(lab.assignment_file(lab.notebook).read_text("utf-8"), as_version=4)
    reference = nbformat.writes(fill.fill_notebook(nbformat.from_dict(notebook), lab=lab)).encode()
    stubs = nbformat.writes(notebook).encode()
    with tempfile.TemporaryDirectory(prefix="autograder-selfcheck-") as work:
        try:
            if image is None:
                image = GradingImage(pathlib.Path(work) / "image")
            image.install(zip_path)
            graded = {label: image.grade(zip_path, {lab.notebook: data})
                      for label, data in (("reference", reference), ("stubs", stubs))}
        except EmulationError as error:
            raise BuildError(said("does_not_run", "build", problem=str(error))) from None
    lines: list[Said] = []
    problems: list[str] = []
    for label, want_full in (("reference", True), ("stubs", False)):
        run = graded[label]
        if run.returncode != 0:
            problems.append(f"{label}: run_autograder exited {run.returncode}:\n{run.output[-1500:]}")
        scores = {t["name"]: (t["score"], t["max_score"]) for t in run.results["tests"] if "max_score" in t}
        for step in lab.steps:
            score, max_score = scores.get(step.name, (None, None))
            expected = step.points if want_full else 0
            if score is None or abs(score - expected) > 1e-9 or abs(max_score - step.points) > 1e-9:
                problems.append(f"{label}: step {step.name} scored {score}/{max_score}, expected "
                                f"{expected}/{step.points}")
        lines.append(said(f"self_check_{label}", "build", points=f"{sum(s for s, _ in scores.values()):g}",
                          seconds=f"{run.seconds:.1f}"))
    if problems:
        raise BuildError(said("does_not_grade", "build", lines="\n  ".join(problems)))
    lines.append(said("graded_by", "build", image=image.describe()))
    lines.append(check_mutants(lab))
    return lines


def check_mutants(lab: Lab) -> Said:
    """INVARIANT (docs/authors): a lab ships only with tests that catch every small edit of its
    reference that computes something else (autograder.mutants); each survivor is named."""
    from ..mutants import MutantsUnfinished, surviving_mutants
    from ..sandbox.runner import Zygote

    started = time.monotonic()
    try:
        with Zygote() as zygote:
            found = surviving_mutants(lab, zygote)
    except MutantsUnfinished as error:
        raise BuildError(said("mutants_unfinished", "build", problem=str(error))) from None
    if found.survivors:
        named = "\n  ".join(f"{m.step}, line {m.line}: {m.before} → {m.after} ({m.kind})" for m in found.survivors)
        raise BuildError(said("mutants_survive", "build", mutants=named))
    return said("self_check_mutants", "build", tried=found.tried, caught=found.caught, equivalent=found.equivalent,
                seconds=f"{time.monotonic() - started:.1f}")


