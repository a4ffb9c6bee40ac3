"""The GitHub Classroom workflow of a lab's template repository, one autograding step per lab step."""
from ..lab import Lab

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
