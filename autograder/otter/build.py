"""`autograder build --out DIR`: DIR/student/ (what students get) and DIR/autograder/ (the Otter zip).

The student half holds the notebook, its .py twin, Otter test files with public checks only and
the `attention_check` package (judge, renderer, catalogs and the public cases as data), never the
reference, the hidden cases or the grading engine. The zip is made by `otter generate`; it
installs this package from a wheel and grades through plugin.EngineGrading. The build grades the
filled-in notebook (full marks) and the untouched stubs (zero) through the zip before it succeeds.
"""
import hashlib
import importlib.util
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import nbformat

from ..steps import STEPS
from .public_data import public_data
from .wheel import write_wheel

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = "self_attention_lab.ipynb"
SCRIPT = "self_attention_lab.py"
ZIP_NAME = "self_attention_lab-autograder.zip"
CHECK_PACKAGE = "attention_check"
PLUGIN = "autograder.otter.plugin.EngineGrading"
# Engine modules the public checks reuse as they are; none of them computes expected values.
SHARED_MODULES = ("judge.py", "render.py", "lab.py", "cases.py", "declaration.py", "submission.py",
                  "sandbox/__init__.py", "sandbox/codec.py", "sandbox/worker.py",
                  "locale/__init__.py", "locale/ko.toml", "locale/en.toml")
KIT_MODULES = {"steps.py": "steps.py", "check.py": "check.py", "cli.py": "cli.py",
               "__main__.py": "__main__.py"}
# Where the notebook carries the public tests and the check package (see assignments/grader_setup.py).
PAYLOAD_KEY = "self_attention_lab"
OTTER_CONFIG = {"show_hidden": True, "force_public_test_summary": True, "show_stdout": False,
                "grade_from_log": False, "zips": False, "pdf": False}


class BuildError(Exception):
    pass


def run_build(args):
    out = pathlib.Path(args.out)
    try:
        report = build(out, step_seconds=getattr(args, "timeout", 10.0))
    except BuildError as error:
        print(f"autograder build: {error}", file=sys.stderr)
        return 1
    print(f"student half:    {out / 'student'}")
    print(f"classroom repo:  {out / 'classroom'}")
    print(f"autograder zip:  {report['zip']}")
    for line in report["checks"]:
        print(f"self-check:      {line}")
    return 0


def build(out, assignments=ROOT / "assignments", step_seconds=10.0, lang="ko", self_check=True):
    """Write both halves under `out`; raise BuildError when the zip does not grade as it must."""
    out, assignments = pathlib.Path(out), pathlib.Path(assignments)
    for name in (NOTEBOOK, SCRIPT):
        if not (assignments / name).is_file():
            raise BuildError(f"missing {assignments / name}")
    student = _fresh(out / "student")
    write_student_half(student, assignments)
    classroom = write_classroom_template(_fresh(out / "classroom"), student)
    zip_path = write_autograder_zip(_fresh(out / "autograder"), ROOT, student / "tests",
                                    step_seconds, lang)
    checks = check_zip(zip_path, assignments) if self_check else []
    return {"student": student, "classroom": classroom, "zip": zip_path, "checks": checks}


def _fresh(folder):
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


# Student half -------------------------------------------------------------------------------

def write_student_half(student, assignments):
    """The notebook (public tests and checks in its metadata), its .py twin, tests/, the check
    package, README.md and requirements.txt: everything a student needs, nothing more."""
    files = student_files()
    notebook = nbformat.read(assignments / NOTEBOOK, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    notebook.metadata[PAYLOAD_KEY] = notebook_payload(files)
    nbformat.write(notebook, student / NOTEBOOK)
    shutil.copy(assignments / SCRIPT, student / SCRIPT)
    for relative, text in files.items():
        target = student / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    (student / "requirements.txt").write_text(STUDENT_REQUIREMENTS, encoding="utf-8")
    (student / "README.md").write_text(STUDENT_README, encoding="utf-8")


def student_files():
    """{relative path: text} of tests/ and the check package (public cases only, no reference)."""
    files = {f"tests/{step.name}.py": test_file_source(step) for step in STEPS}
    engine = ROOT / "autograder"
    for relative in SHARED_MODULES:
        files[f"{CHECK_PACKAGE}/{relative}"] = (engine / relative).read_text("utf-8")
    for source, target in KIT_MODULES.items():
        files[f"{CHECK_PACKAGE}/{target}"] = (pathlib.Path(__file__).parent / "kit" / source).read_text("utf-8")
    files[f"{CHECK_PACKAGE}/__init__.py"] = (
        '"""Public checks of the self-attention lab: otter.Notebook (tests/*.py) and '
        '`python -m attention_check FILE`."""\n')
    files[f"{CHECK_PACKAGE}/public_data.json"] = json.dumps(public_data(), ensure_ascii=False)
    return dict(sorted(files.items()))


def notebook_payload(files):
    """What the notebook's first cell unpacks, so its checks run with nothing but the .ipynb."""
    digest = hashlib.sha256(json.dumps(files, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    return {"version": digest, "package": CHECK_PACKAGE, "files": files}


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


STUDENT_REQUIREMENTS = "otter-grader>=7,<8\nnumpy>=1.26\npandas>=2.0\n"

STUDENT_README = f"""# 3장 실습 1 — self-attention 손으로 풀기

## 이 폴더에 든 것

| 파일 | 쓰임 |
| --- | --- |
| `{NOTEBOOK}` | 실습 노트북. 여기에 함수를 완성합니다. |
| `{SCRIPT}` | 같은 실습의 `.py` 판 (노트북 대신 편집기에서 풀고 싶을 때) |
| `tests/`, `{CHECK_PACKAGE}/` | 공개 테스트와 검사 코드 (고치지 마세요) |
| `requirements.txt` | 설치할 패키지 목록 |

## 설치 (한 번만)

Python 3.11 이상에서 이 폴더로 이동한 뒤 다음 명령 하나를 실행합니다.

```bash
pip install -r requirements.txt
```

## 노트북으로 풀기

Jupyter 에서 `{NOTEBOOK}` 를 열고 맨 위의 채점 준비 셀부터 차례로 실행합니다. 함수마다 바로 아래의
`grader.check(...)` 셀이 공개 테스트로 검사하고, 틀리면 무엇이 왜 틀렸는지 알려 줍니다.

**Colab** 이나 노트북 파일 하나만 받은 경우에도 그대로 됩니다. 공개 테스트가 노트북 파일 안에 들어 있고,
채점 준비 셀이 otter-grader 가 없으면 설치합니다 (처음 한 번 1~2분).

## 터미널에서 검사하기

```bash
python -m {CHECK_PACKAGE} {NOTEBOOK}
python -m {CHECK_PACKAGE} {SCRIPT} --lang en     # 영어 피드백
```

이 폴더에서 실행합니다. 모든 단계를 공개 테스트로 검사해 점수와 피드백을 보여 줍니다.
종료 코드는 모두 통과면 0, 틀린 단계가 있으면 1, 파일이 없는 등 검사를 못 하면 2 입니다.

## 제출하기

노트북 맨 끝의 두 셀을 실행해 만든 zip 파일(Colab 에서는 다운로드한 `.ipynb` 파일)을 제출합니다.
최종 점수는 공개 테스트에 더해 숨은 테스트(다른 크기의 입력, 아주 큰 값 등)로 매겨집니다. 공개 테스트를
모두 통과했더라도 낱말 수나 벡터 길이를 숫자로 적어 넣었다면 점수를 잃을 수 있습니다.
"""


def write_classroom_template(folder, student):
    """A GitHub Classroom template repository: the student half plus classroom/ (the workflow)."""
    shutil.copytree(student, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "classroom", folder, dirs_exist_ok=True)
    with open(folder / "README.md", "a", encoding="utf-8") as readme:
        readme.write(CLASSROOM_README)
    return folder


CLASSROOM_README = """
## GitHub Classroom

이 저장소에 push 할 때마다 GitHub Actions 가 노트북을 공개 테스트로 단계마다 검사하고, 통과한 단계의
점수를 Classroom 에 보여 줍니다 (Actions 탭에서 단계별 피드백을 볼 수 있습니다). 이 점수는 진행 상황을
알려 주는 참고용입니다. 최종 점수는 제출한 노트북을 강의의 채점기가 숨은 테스트까지 포함해 매깁니다.
"""


# Autograder half ----------------------------------------------------------------------------

def write_autograder_zip(folder, root, tests, step_seconds, lang):
    with tempfile.TemporaryDirectory(prefix="autograder-build-") as staging:
        staging = pathlib.Path(staging)
        shutil.copytree(tests, staging / "tests")
        wheel = write_wheel(root, staging)
        config = dict(OTTER_CONFIG, plugins=[{PLUGIN: {"lang": lang, "step_seconds": step_seconds}}])
        (staging / "otter_config.json").write_text(json.dumps(config, indent=2), "utf-8")
        # Gradescope installs these in the grading image (otter generate adds otter-grader itself).
        (staging / "requirements.txt").write_text(
            "numpy>=1.26\npandas>=2.0\n" f"/autograder/source/files/{wheel.name}\n", "utf-8")
        zip_path = folder / ZIP_NAME
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        _run([sys.executable, "-m", "otter", "generate", "-t", "tests", "-o", str(zip_path.resolve()),
              "-c", "otter_config.json", "-r", "requirements.txt", "--python-version", version,
              wheel.name], cwd=staging, what="otter generate")
    return zip_path


def _run(command, cwd, what, timeout=300):
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BuildError(f"{what} did not finish within {timeout} s") from None
    if done.returncode != 0:
        raise BuildError(f"{what} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done


# Self-check ---------------------------------------------------------------------------------

def check_zip(zip_path, assignments):
    """The reference must get full marks through the zip, the untouched stubs zero."""
    fill = _load_fill(assignments)
    notebook = nbformat.read(assignments / NOTEBOOK, as_version=4)
    with tempfile.TemporaryDirectory(prefix="autograder-selfcheck-") as work:
        work = pathlib.Path(work)
        filled = work / "reference" / NOTEBOOK
        stubs = work / "stubs" / NOTEBOOK
        filled.parent.mkdir()
        stubs.parent.mkdir()
        nbformat.write(fill.fill_notebook(nbformat.from_dict(notebook)), filled)
        nbformat.write(notebook, stubs)
        started = time.monotonic()
        graded = otter_run_many(zip_path, [filled, stubs])
        seconds = time.monotonic() - started
    lines, problems = [], []
    for label, scores, want_full in (("reference", graded[0], True), ("stubs", graded[1], False)):
        for step in STEPS:
            score, max_score = scores.get(step.name, (None, None))
            expected = step.points if want_full else 0
            if score is None or abs(score - expected) > 1e-9 or abs(max_score - step.points) > 1e-9:
                problems.append(f"{label}: step {step.name} scored {score}/{max_score}, expected "
                                f"{expected}/{step.points}")
        lines.append(f"{label}: {sum(s for s, _ in scores.values()):g} points")
    if problems:
        raise BuildError("the autograder zip does not grade as it must:\n  " + "\n  ".join(problems))
    lines.append(f"two otter runs in {seconds:.1f} s")
    return lines


def _load_fill(assignments):
    path = assignments / "fill.py"
    if not path.is_file():
        raise BuildError(f"missing {path}: the self-check needs it to fill in the reference")
    spec = importlib.util.spec_from_file_location("assignment_fill", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def otter_run_many(zip_path, submissions, timeout=300):
    """Run `otter run` on each submission (in parallel); per-step (score, max_score) for each."""
    jobs = []
    for submission in submissions:
        out = submission.parent / "otter-out"
        out.mkdir()
        process = subprocess.Popen(
            [sys.executable, "-m", "otter", "run", "-a", str(zip_path), "-o", str(out), str(submission)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        jobs.append((submission, out, process))
    graded = []
    for submission, out, process in jobs:
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise BuildError(f"otter run on {submission.name} did not finish within {timeout} s") from None
        results = out / "results.json"
        if process.returncode != 0 or not results.is_file():
            raise BuildError(f"otter run on {submission.name} failed:\n{output[-3000:]}")
        tests = json.loads(results.read_text("utf-8"))["tests"]
        graded.append({t["name"]: (t["score"], t["max_score"]) for t in tests if "max_score" in t})
    return graded
