"""The student half: the notebook, its .py twin, the public tests, the check package and the README."""
from __future__ import annotations

import ast
import json
import pathlib
import zipfile
from collections.abc import Mapping
from importlib import resources

import nbformat

from ..authoring.build_notebook import CHECK_PACKAGE, checks_zip_name
from ..core.declaration import Step
from ..core.lab import Lab
from ..said import said
from .public_data import public_data
from .refusals import BuildError

KIT = "kit"  # the engine's subpackage of the kit's own code
CORE = "core"  # the engine's subpackage the kit and the grader share (the students' core)
KIT_DATA = ("core/locale/ko.toml", "core/locale/en.toml")  # read with importlib.resources, not imported
# The catalogs are TOML: tomllib reads them from Python 3.11 on, tomli (the same parser) before.
TOML_REQUIREMENT = "tomli>=1.1; python_version < '3.11'"


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
    """Paths (inside the autograder package) the check package ships: the students' core
    (`autograder/core`) and the kit, each folder whole, and the catalogs.

    Every import among them must be relative (the package is renamed when shipped) and stay
    inside the two folders; an absolute import of autograder or a lab, or a relative one that
    leaves them, stops the build.
    """
    engine = pathlib.Path(str(resources.files("autograder")))
    shipped = sorted(path.relative_to(engine).as_posix() for folder in (CORE, KIT)
                     for path in (engine / folder).rglob("*.py") if "__pycache__" not in path.parts)
    for relative in shipped:
        for imported in _relative_imports(engine, relative):
            if imported not in shipped:
                raise BuildError(said("kit_import", "build", module="autograder/" + relative, name=imported))
    return shipped + list(KIT_DATA)


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


def _add(archive: zipfile.ZipFile, name: str, data: str | bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o755 if executable else 0o644) << 16
    archive.writestr(info, data)
