"""pytest face of the grader: `pytest --submission PATH` adds one test per step to the run.

For courses that grade with pytest-based tools (GitHub Classroom and the like). The submission is
graded once, by `autograder check --json` in a fresh interpreter (`python -I`, started in a folder
of its own), so nothing in the submission's folder (a conftest.py, a module named like ours, a
sitecustomize.py, PYTHONPATH) reaches the grading. Each step's item fails with the same feedback
text a student gets from the CLI. Other tests of the run are collected and run as usual.

What pytest runs inside a repository the student controls is the student's: the run, the plugin
and the workflow can all be changed there. Grades a course can trust come from `autograder
check`/`grade` or the Otter zip run by staff (docs/SECURITY.md).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

    from _pytest._code.code import ExceptionInfo, TerminalRepr, TracebackStyle

EXIT_ALL_PASSED, EXIT_LOST_POINTS = 0, 1  # autograder check's own exit codes for a graded file


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lab autograder")
    group.addoption("--submission", default=None, metavar="PATH",
                    help="grade this .py or .ipynb submission, one test per step")
    group.addoption("--submission-lab", default=None, metavar="NAME",
                    help="the lab it is for (default: the only one installed, else the one the file is for)")
    group.addoption("--submission-step", action="append", default=None,
                    metavar="STEP", help="only this step's test (repeatable; default: every step)")
    group.addoption("--submission-lang", default="ko", choices=("ko", "en"),
                    help="feedback language for --submission (default ko)")
    group.addoption("--submission-timeout", default=10.0, type=float, metavar="S",
                    help="seconds each step may run (default 10)")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("submission")
    if not path:
        return
    if config.getoption("submission_timeout") <= 0:
        raise pytest.UsageError("--submission-timeout must be positive")
    if os.path.isdir(path):
        raise pytest.UsageError(f"--submission: a folder, not a file: {path}")
    from .submission import read_regular_file

    try:
        head = read_regular_file(path)  # never blocks on a FIFO; as much as the grader reads of a file
    except OSError as error:
        reason = "no such file" if isinstance(error, FileNotFoundError) else (error.strerror or str(error))
        raise pytest.UsageError(f"--submission: {reason}: {path}") from None
    from .registry import LabNotFound, choose, lab_names

    wanted = config.getoption("submission_lab")
    try:
        # The file is read under the reader's budget and catch-all (registry.each_lab).
        lab = choose(wanted, [head], fit=True, what=("file", "files"))
    except LabNotFound as error:
        if wanted is not None or not lab_names():
            raise pytest.UsageError(f"--submission-lab: {str(error).replace('--lab', '--submission-lab')}") from None
        # What the file holds says no lab: a failing item says so, and the run's other tests run.
        config.stash[GRADING] = SubmissionGrading(
            os.path.abspath(path), None, (), config.getoption("submission_lang"),
            config.getoption("submission_timeout"),
            failure=GradingFailed(f"{path}: {str(error).replace('--lab', '--submission-lab')}"))
        return
    unknown = [s for s in config.getoption("submission_step") or () if s not in lab.function_names]
    if unknown:
        raise pytest.UsageError(f"--submission-step: {', '.join(unknown)} is not a step of {lab.name} "
                                f"(choose from {', '.join(lab.function_names)})")
    config.stash[GRADING] = SubmissionGrading(
        os.path.abspath(path), lab.name, lab.function_names, config.getoption("submission_lang"),
        config.getoption("submission_timeout"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the steps' items to whatever else was collected (before -k and -m select)."""
    grading = config.stash.get(GRADING, None)
    if grading is None:
        return
    wanted = config.getoption("submission_step") or grading.steps
    name = os.path.basename(grading.path)
    collector = SubmissionCollector.from_parent(session, name=name, nodeid=name, grading=grading,
                                                steps=wanted)
    items.extend(session.genitems(collector))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    grading = config.stash.get(GRADING, None)
    if grading is None or grading.result is None:
        return
    terminalreporter.write_sep("=", f"autograder: {grading.lab}")
    terminalreporter.write_line(grading.total_line())


GRADING: pytest.StashKey[SubmissionGrading] = pytest.StashKey()


class SubmissionGrading:
    """Grades the submission the first time a step asks, then answers from memory."""

    def __init__(self, path: str, lab: str | None, steps: Iterable[str], lang: str, timeout: float,
                 failure: GradingFailed | None = None) -> None:
        self.path, self.lab, self.steps, self.lang, self.timeout = path, lab, tuple(steps), lang, timeout
        self.result: dict[str, Any] | None
        self.result, self.failure = None, failure

    def step(self, name: str) -> dict[str, Any]:
        if self.failure is None and self.result is None:
            try:
                # No failure yet: a lab was chosen (see pytest_configure).
                self.result = grade_in_fresh_interpreter(self.path, self.lab,  # type: ignore[arg-type]
                                                         len(self.steps), self.lang, self.timeout)
            except GradingFailed as failure:
                self.failure = failure
        if self.failure is not None:
            raise self.failure
        return next(s for s in self.result["steps"] if s["name"] == name)  # type: ignore[index]  # graded above

    def total_line(self) -> str:
        from .render import Messages, _points

        # Asked only once graded (see pytest_terminal_summary).
        return Messages(self.lang)("text", "total", score=_points(self.result["score"]),  # type: ignore[index]
                                   max_score=_points(self.result["max_score"]))  # type: ignore[index]


class GradingFailed(Exception):
    """The grader itself could not run; no step gets a result."""


def grade_in_fresh_interpreter(path: str, lab: str, steps: int, lang: str, timeout: float) -> Any:
    """`autograder check --json` in `python -I`, run in an empty folder; its JSON result."""
    command = [sys.executable, "-I", "-m", "autograder", "check", path, "--lab", lab, "--json",
               "--lang", lang, "--timeout", repr(float(timeout))]
    seconds = 60 + 20 * timeout * steps  # loading, every step, restarts after a hang: well beyond grading
    try:
        with tempfile.TemporaryDirectory(prefix="autograder-pytest-") as folder:
            done = subprocess.run(command, cwd=folder, capture_output=True, text=True, encoding="utf-8",
                                  errors="replace", timeout=seconds)
    except subprocess.TimeoutExpired:
        raise GradingFailed(f"autograder check did not finish within {seconds:g} s") from None
    except OSError as error:
        raise GradingFailed(f"autograder check could not be started: {error}") from None
    if done.returncode not in (EXIT_ALL_PASSED, EXIT_LOST_POINTS):
        raise GradingFailed(f"autograder check exited with {done.returncode}:\n{done.stderr[-2000:]}")
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise GradingFailed(f"autograder check printed no JSON result:\n{done.stdout[-2000:]}") from None


class SubmissionCollector(pytest.Collector):
    """The submission as a collector: one item per step."""

    def __init__(self, *, grading: SubmissionGrading, steps: Iterable[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.grading, self.steps = grading, tuple(steps)

    def collect(self) -> Iterator[StepItem]:
        if not self.grading.steps:  # no lab to grade with: one item carries the reason
            yield StepItem.from_parent(self, name="submission", step_name="submission")
        for name in self.grading.steps:
            if name in self.steps:
                yield StepItem.from_parent(self, name=name, step_name=name)

    def reportinfo(self) -> tuple[str, None, str]:
        return self.grading.path, None, os.path.basename(self.grading.path)


class StepFailed(Exception):
    pass


class StepItem(pytest.Item):
    def __init__(self, *, step_name: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.step_name = step_name
        self.grading: SubmissionGrading = self.parent.grading  # type: ignore[union-attr]  # a SubmissionCollector's

    def runtest(self) -> None:
        result = self.grading.step(self.step_name)
        self.user_properties.append(("score", result["score"]))
        self.user_properties.append(("max_score", result["max_score"]))
        if result["status"] != "passed":
            raise StepFailed(result["feedback"])

    def repr_failure(self, excinfo: ExceptionInfo[BaseException], style: TracebackStyle | None = None
                     ) -> str | TerminalRepr:
        if isinstance(excinfo.value, (StepFailed, GradingFailed)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[str, None, str]:
        return self.grading.path, None, f"step {self.step_name}"
