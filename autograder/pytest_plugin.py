"""pytest face of the grader: `pytest --submission PATH` runs one test per step of the submission.

For courses that grade with pytest-based tools (GitHub Classroom and the like). The submission is
graded once, by `autograder check --json` in a fresh interpreter (`python -I`, started in a folder
of its own), so nothing in the submission's folder (a conftest.py, a module named like ours, a
sitecustomize.py, PYTHONPATH) reaches the grading. Each step's item fails with the same feedback
text a student gets from the CLI.

INVARIANT: a `--submission` run collects the submission's steps and nothing else, from any folder
(a repository's root with its own `testpaths`, a folder of submissions with its own conftest.py or
pytest.ini, an empty folder), unless test paths are typed on the command line: those are collected
as pytest always does (`_collect_only_named_paths`). The submission itself is never collected as a
test module (`pytest_ignore_collect`). The steps' items are pytest's own kinds (a Module and its
Functions), so an installed plugin's hooks read of them what they read of any test.

INVARIANT (docs/SECURITY.md): no code of the submission's folder or of the run's folder reaches the
report: no conftest.py is imported (`pytest_load_initial_conftests`), a plugin module from those
folders is refused (`foreign_plugins`), `--submission` is given once, and every name shown passes
`guard.safe_name` (`SubmissionGrading.shown_path`).

What pytest runs inside a repository the student controls is the student's: the run, the plugin
and the workflow can all be changed there. Grades a course can trust come from `autograder
check`/`grade` or the Otter zip run by staff (docs/SECURITY.md).
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import types
from typing import TYPE_CHECKING

import pytest

from .core.guard import SafeText, safe_name

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from typing import Any

    from _pytest._code.code import ExceptionInfo, TerminalRepr

    from .core.render.messages import Messages

EXIT_ALL_PASSED, EXIT_LOST_POINTS = 0, 1  # autograder check's own exit codes for a graded file


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lab autograder")
    group.addoption("--submission", action="append", default=None, metavar="PATH",
                    help="grade this .py or .ipynb submission, one test per step (one file per run)")
    group.addoption("--submission-lab", default=None, metavar="NAME",
                    help="the lab it is for (default: the only one installed, else the one the file is for)")
    group.addoption("--submission-step", action="append", default=None,
                    metavar="STEP", help="only this step's test (repeatable; default: every step)")
    group.addoption("--submission-lang", default="ko", choices=("ko", "en"),
                    help="feedback language for --submission (default ko)")
    group.addoption("--submission-timeout", default=10.0, type=float, metavar="S",
                    help="seconds each step may run (default 10)")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """With `--submission`, no conftest.py is imported into this process (pytest's `--noconftest`):
    code imported here could rewrite any report (a `pytest_runtest_makereport` wrapper, the JUnit
    properties, this module's own functions), so no check made in this process could hold against it."""
    if early_config.known_args_namespace.submission:
        early_config.known_args_namespace.noconftest = True


def pytest_configure(config: pytest.Config) -> None:
    paths = config.getoption("submission")
    if not paths:
        return
    say = _say(config)
    if len(paths) > 1:
        raise pytest.UsageError(say("pytest", "several_submissions",
                                    files=", ".join(safe_name(path) for path in paths)))
    path = paths[0]
    _refuse_foreign_plugins(config, path, say)
    if config.getoption("submission_timeout") <= 0:
        raise pytest.UsageError("--submission-timeout must be positive")
    if os.path.isdir(path):
        raise pytest.UsageError(f"--submission: a folder, not a file: {safe_name(path)}")
    from .checking import grader_file_through_a_link
    from .core.reading.files import read_regular_file

    if grader_file_through_a_link(path) is not None:
        raise pytest.UsageError(f"--submission: leads through a symbolic link into the grader's own files: "
                                f"{safe_name(path)}")
    try:
        # Never blocks on a FIFO; as much as the grader reads of a file; a symbolic link is no submission.
        head = read_regular_file(path, follow_links=False)
    except OSError as error:
        reason = "no such file" if isinstance(error, FileNotFoundError) else (error.strerror or str(error))
        raise pytest.UsageError(f"--submission: {reason}: {safe_name(path)}") from None
    _collect_only_named_paths(config, path)
    from .registry import LabNotFound, choose, lab_names

    wanted = config.getoption("submission_lab")
    try:
        # The file is read under the reader's budget and catch-all (registry.each_lab).
        lab = choose(wanted, [head], fit=True, what="file")
    except LabNotFound as error:
        if wanted is not None or not lab_names():
            raise pytest.UsageError(f"--submission-lab: {str(error).replace('--lab', '--submission-lab')}") from None
        # What the file holds says no lab: a failing item says so, and the run's other tests run.
        config.stash[GRADING] = SubmissionGrading(
            os.path.abspath(path), None, (), config.getoption("submission_lang"),
            config.getoption("submission_timeout"),
            failure=GradingFailed(f"{safe_name(path)}: {str(error).replace('--lab', '--submission-lab')}"))
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
    """Add the steps' items to whatever else was collected (before -k and -m select, and before any
    conftest's hook of the same name sees the items)."""
    grading = config.stash.get(GRADING, None)
    if grading is None:
        return
    wanted = config.getoption("submission_step") or grading.steps
    items.extend(session.genitems(SubmissionModule.of(session, grading=grading, steps=wanted)))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    grading = config.stash.get(GRADING, None)
    if grading is None or grading.result is None:
        return
    terminalreporter.write_sep("=", f"autograder: {grading.lab}")
    terminalreporter.write_line(grading.total_line())


GRADING: pytest.StashKey[SubmissionGrading] = pytest.StashKey()


def _say(config: pytest.Config) -> Messages:
    from .core.render.messages import Messages

    return Messages(config.getoption("submission_lang"))


def foreign_plugins(*, plugins: Iterable[tuple[str, object]], folders: Iterable[pathlib.Path],
                    own: object) -> list[str]:
    """The plugins (modules) whose file lies in or below one of `folders`, `own` (this module) aside:
    code of the submission's folder or of the folder pytest was started in (an ini file's `addopts =
    -p NAME` with `pythonpath = .`, a `python -m pytest` run) that was imported into this process."""
    roots = [folder.resolve() for folder in folders]
    installed = [pathlib.Path(place).resolve() for place in _installed_places()]
    found: list[str] = []
    for name, plugin in plugins:
        file = getattr(plugin, "__file__", None)
        if plugin is own or not isinstance(plugin, types.ModuleType) or not isinstance(file, str):
            continue
        where = pathlib.Path(file).resolve()
        if (any(where.is_relative_to(root) for root in roots)
                and not any(where.is_relative_to(place) for place in installed)):
            found.append(safe_name(name))
    return found


def _installed_places() -> set[str]:
    """Where this interpreter's standard library and installed packages live (a virtual environment
    inside the folder pytest was started in included): plugins from there are the installation's."""
    import sysconfig

    paths = sysconfig.get_paths()
    return {sys.prefix, sys.base_prefix, sys.exec_prefix, paths["stdlib"], paths["purelib"], paths["platlib"]}


def _refuse_foreign_plugins(config: pytest.Config, path: str, say: Messages) -> None:
    folders = [config.invocation_params.dir, pathlib.Path(os.path.abspath(path)).parent]
    found = foreign_plugins(plugins=config.pluginmanager.list_name_plugin(), folders=folders,
                            own=sys.modules[__name__])
    if found:
        raise pytest.UsageError(say("pytest", "foreign_plugin", plugins=", ".join(found)))


class SubmissionGrading:
    """Grades the submission the first time a step asks, then answers from memory."""

    def __init__(self, path: str, lab: str | None, steps: Iterable[str], lang: str, timeout: float,
                 failure: GradingFailed | None = None) -> None:
        self.path, self.lab, self.steps, self.lang, self.timeout = path, lab, tuple(steps), lang, timeout
        self.result: dict[str, Any] | None
        self.result, self.failure = None, failure

    @property
    def shown_path(self) -> SafeText:
        """The path as every report shows it (node id, location, `__file__`, JUnit): through the guard."""
        return safe_name(self.path)

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
        from .core.render.messages import Messages, points_text

        # Asked only once graded (see pytest_terminal_summary).
        return Messages(self.lang)("text", "total", score=points_text(self.result["score"]),  # type: ignore[index]
                                   max_score=points_text(self.result["max_score"]))  # type: ignore[index]


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


# Which paths a --submission run collects ---------------------------------------------------------

def named_test_paths(*, collected: Sequence[str], command_line: Sequence[str]) -> list[str]:
    """The test paths a `--submission` run collects besides the steps: those of `collected` (pytest's
    `config.args` when they came from arguments) that were typed on the command line. Paths that
    came from `testpaths`, `addopts`, PYTEST_ADDOPTS or the current folder are not collected."""
    typed = set(command_line)
    return [argument for argument in collected if argument in typed]


def _collect_only_named_paths(config: pytest.Config, submission: str) -> None:
    """Leave in `config.args` only the test paths the user named; refuse the submission itself as one
    (pytest would import it as a test module, running its code in this process)."""
    named = (named_test_paths(collected=config.args, command_line=config.invocation_params.args)
             if config.args_source == pytest.Config.ArgsSource.ARGS else [])
    graded = pathlib.Path(submission).resolve()
    for argument in named:
        if (config.invocation_params.dir / argument.split("::")[0]).resolve() == graded:
            raise pytest.UsageError(f"--submission: {argument} is the submission to grade; it cannot also be a "
                                    "test path (pytest would run its code as a test module)")
    config.args[:] = named


def pytest_ignore_collect(collection_path: pathlib.Path, config: pytest.Config) -> bool | None:
    """The submission is graded, never collected as a test module (a named folder holding it)."""
    grading = config.stash.get(GRADING, None)
    if grading is not None and collection_path.resolve() == pathlib.Path(grading.path).resolve():
        return True
    return None


# The submission as pytest's own nodes ------------------------------------------------------------

class SubmissionModule(pytest.Module):
    """The submission as a test module with one test function per step, so that whatever a conftest
    or another plugin reads of an item (`item.module`, `item.function`, `item.cls`,
    `item.fixturenames`, markers, `item.location`, ...) is what a test module's item has. Its module
    object is made here (`step_module`): the submission itself is never imported into pytest."""

    grading: SubmissionGrading
    steps: tuple[str, ...]

    @classmethod
    def of(cls, session: pytest.Session, *, grading: SubmissionGrading, steps: Iterable[str]) -> SubmissionModule:
        path = pathlib.Path(grading.path)
        try:
            shown = path.relative_to(session.config.rootpath).as_posix()
        except ValueError:  # outside the run's root folder: its name
            shown = path.name
        module = cls.from_parent(session, path=path, nodeid=safe_name(shown))
        module.grading, module.steps = grading, tuple(steps)
        return module

    def _getobj(self) -> types.ModuleType:
        return step_module(self.grading, self._item_names())

    def _item_names(self) -> tuple[str, ...]:
        if not self.grading.steps:  # no lab to grade with: one item carries the reason
            return (NO_LAB_ITEM,)
        return tuple(name for name in self.grading.steps if name in self.steps)

    def collect(self) -> Iterator[StepItem]:
        for name in self._item_names():
            yield StepItem.from_parent(self, name=name)

    def reportinfo(self) -> tuple[str, None, str]:
        return self.grading.shown_path, None, os.path.basename(self.grading.shown_path)


NO_LAB_ITEM = "submission"


def step_module(grading: SubmissionGrading, names: Iterable[str]) -> types.ModuleType:
    """A module object standing for the submission: `__file__` is the submission's path, and each
    step is a function that raises the step's feedback unless the step passed."""
    path = pathlib.Path(grading.shown_path)
    module = types.ModuleType(path.stem, f"The steps of {path.name}, graded by autograder check.")
    module.__file__ = str(path)
    for name in names:
        setattr(module, name, _step_test(grading, name, module.__name__))
    return module


def _step_test(grading: SubmissionGrading, step: str, module: str) -> Callable[[], None]:
    def step_test() -> None:
        result = grading.step(step)
        if result["status"] != "passed":
            raise StepFailed(result["feedback"])

    step_test.__name__ = step_test.__qualname__ = step
    step_test.__module__ = module
    step_test.__doc__ = f"Step {step}: passes when the step earned its points."
    return step_test


class StepFailed(Exception):
    pass


class StepItem(pytest.Function):
    """One step's test: a test function of SubmissionModule; its failure is the step's feedback."""

    @property
    def step_name(self) -> str:
        return self.originalname

    @property
    def grading(self) -> SubmissionGrading:
        assert isinstance(self.parent, SubmissionModule)  # made only by SubmissionModule.collect
        return self.parent.grading

    def runtest(self) -> None:
        result = self.grading.step(self.step_name)  # graded once, for every step
        self.user_properties.append(("score", result["score"]))
        self.user_properties.append(("max_score", result["max_score"]))
        super().runtest()  # the step's function: raises StepFailed unless the step passed

    def repr_failure(self, excinfo: ExceptionInfo[BaseException]) -> str | TerminalRepr:  # type: ignore[override]
        if isinstance(excinfo.value, (StepFailed, GradingFailed)):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, None, str]:
        return self.grading.shown_path, None, f"step {self.step_name}"
