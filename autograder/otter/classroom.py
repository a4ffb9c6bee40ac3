"""A lab's GitHub Classroom template repository: the student half and its workflow, one autograding step per
lab step."""
import pathlib
import shutil

from ..authoring.build_notebook import CHECK_PACKAGE
from ..core.lab import Lab

HEADER = """# GitHub Classroom autograding for {title} (public tests only).
#
# Runs in the student's repository on every push. One step per lab step: the command passes
# (and earns max-score points) when `python -m {package}` finds that step right on the
# public tests. The student can edit this file and everything else in the repository, so the
# points shown in Classroom are feedback, not a grade to trust: grade the submitted notebook
# with the course's own grader (`autograder grade` or the Otter zip).
name: Autograding Tests
'on':
- push
- repository_dispatch
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
    - name: Checkout code
      uses: actions/checkout@v4
    - name: Set up Python
      uses: actions/setup-python@v5
      with:
        python-version: '3.11'
    - name: Install the checks' requirements
      run: python -m pip install --quiet "numpy>=1.26" "pandas>=2.0"
"""

STEP = """    - name: {name}
      id: {id}
      uses: classroom-resources/autograding-command-grader@v1
      with:
        test-name: {name}
        command: python -m {package} {notebook} --step {name}
        timeout: 5
        max-score: {points:g}
"""

REPORTER = """    - name: Autograding Reporter
      uses: classroom-resources/autograding-grading-reporter@v1
      env:
{env}      with:
        runners: {runners}
"""


def workflow(lab: Lab, package: str) -> str:
    """.github/workflows/classroom.yml for `lab`, whose check package is `package`."""
    ids = [step.name.replace("_", "-") for step in lab.steps]
    text = HEADER.format(title=lab.title("en"), package=package)
    for step, id_ in zip(lab.steps, ids):
        text += STEP.format(name=step.name, id=id_, package=package, notebook=lab.notebook, points=step.points)
    env = "".join(f'        {id_.upper()}_RESULTS: "${{{{steps.{id_}.outputs.result}}}}"\n' for id_ in ids)
    return text + REPORTER.format(env=env, runners=",".join(ids))


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
