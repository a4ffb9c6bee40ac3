"""pytest face of the grader: `pytest --submission PATH` reports one test per step.

For courses that grade with pytest-based tools (GitHub Classroom and the like). The submission is
graded once, in the same sandbox as `autograder check`; each step's item fails with the same
feedback text a student gets from the CLI.
"""
import pytest

from .steps import STEPS


def pytest_addoption(parser):
    group = parser.getgroup("self-attention autograder")
    group.addoption("--submission", default=None, metavar="PATH",
                    help="grade this .py or .ipynb submission, one test per step")
    group.addoption("--submission-lang", default="ko", choices=("ko", "en"),
                    help="feedback language for --submission (default ko)")
    group.addoption("--submission-timeout", default=10.0, type=float, metavar="S",
                    help="seconds each step may run (default 10)")


def pytest_collection_modifyitems(session, config, items):
    path = config.getoption("submission")
    if not path:
        return
    grading = SubmissionGrading(path, config.getoption("submission_lang"),
                                config.getoption("submission_timeout"))
    config.stash[GRADING] = grading
    items[:] = [StepItem.from_parent(session, name=step.name, step_name=step.name,
                                     grading=grading) for step in STEPS]


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    grading = config.stash.get(GRADING, None)
    if grading is None or grading.result is None:
        return
    from .render import Messages

    say = Messages(grading.lang)
    result = grading.result
    terminalreporter.write_sep("=", "self-attention autograder")
    for line in _load_lines(grading):
        terminalreporter.write_line(line)
    terminalreporter.write_line(say("text", "total", score=f"{result.score:g}",
                                    max_score=f"{result.max_score:g}"))


def _load_lines(grading):
    from .render import load_notes

    return load_notes(grading.result.notes, grading.lang)


GRADING = pytest.StashKey()


class SubmissionGrading:
    """Grades the submission the first time a step asks, then answers from memory."""

    def __init__(self, path, lang, timeout):
        self.path, self.lang, self.timeout = path, lang, timeout
        self.result = None

    def step(self, name):
        if self.result is None:
            self.result = self._grade()
        return next(s for s in self.result.steps if s.name == name)

    def _grade(self):
        import os

        from .grading import grade_file
        from .sandbox.runner import Limits, Zygote

        if not os.path.isfile(self.path):
            raise pytest.UsageError(f"--submission: no such file: {self.path}")
        with Zygote() as zygote:
            return grade_file(self.path, zygote,
                              Limits(step_seconds=self.timeout, load_seconds=self.timeout))


class StepFailed(Exception):
    pass


class StepItem(pytest.Item):
    def __init__(self, *, step_name, grading, **kwargs):
        super().__init__(**kwargs)
        self.step_name = step_name
        self.grading = grading

    def runtest(self):
        from .render import step_feedback

        result = self.grading.step(self.step_name)
        self.user_properties.append(("score", result.score))
        self.user_properties.append(("max_score", result.max_score))
        if result.status != "passed":
            raise StepFailed(step_feedback(result, self.grading.lang))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, StepFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.grading.path, None, f"step {self.step_name}"
