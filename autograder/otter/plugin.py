"""The Otter plugin behind `otter run -a ZIP`: grade with the engine; Otter's kernel never starts.

Otter would run the submission (and every test, hidden ones too) in a Jupyter kernel started with
`python -m ipykernel_launcher` inside the submission folder, where a student's own
`ipykernel_launcher.py`, `otter/` or `numpy.py` runs first, as the grader's user, and the results
come back by pickle. Here `before_grading` reads the submission FILE's bytes, grades them in the
engine's sandbox, and puts in place of Otter's `grade_notebook` (for this run) a function that
returns the engine's verdict: no kernel, no logging server, no pickle from the submission side.
The zip's own entry point on the LMS (gradescope.py) does not go through Otter at all.
"""
import os

import otter
from otter.plugins import AbstractOtterPlugin
from otter.run.run_autograder.runners import python_runner
from otter.run.run_autograder.utils import OtterRuntimeError
from otter.test_files import GradingResults

from .gradescope import DEFAULT_SETTINGS, grade_safely, lab_for, read_regular
from .results import GradescopeResults, gradescope_results

SUPPORTED_OTTER = "7.0.0"
# Files that Otter would deserialise (the log, with dill); never read from a submission.
UNTRUSTED_NAMES = {".OTTER_LOG"}
UNTRUSTED_SUFFIXES = (".pkl", ".pickle", ".dill", ".joblib")


class EngineResults(GradingResults):  # type: ignore[misc]  # Otter ships no types
    """Otter's results object carrying the engine's results.json (plain data, safe to pickle)."""

    def __init__(self, gradescope: GradescopeResults) -> None:
        super().__init__([])
        self.gradescope = gradescope

    def to_gradescope_dict(self, ag_config: object) -> GradescopeResults:
        return self.gradescope

    def summary(self, public_only: bool = False) -> str:
        return "\n\n".join(test.get("output", "") for test in self.gradescope["tests"][:1])


class EngineGrading(AbstractOtterPlugin):  # type: ignore[misc]  # Otter ships no types
    """Config keys (otter_config.json): lab, lang, step_seconds, memory_mb, visibility."""

    def before_grading(self, config: object) -> None:
        if otter.__version__ != SUPPORTED_OTTER or not hasattr(python_runner, "grade_notebook"):
            # Never fall back to Otter's kernel: refuse instead (Otter reports the error).
            raise OtterRuntimeError(f"this autograder supports otter-grader {SUPPORTED_OTTER} only, "
                                    f"not {otter.__version__}")
        # Otter loads .OTTER_LOG with dill right after this hook; it must be gone before.
        remove_untrusted(os.path.dirname(self.submission_path))
        settings = {**DEFAULT_SETTINGS, **(self.plugin_config or {})}
        name = os.path.basename(self.submission_path)
        data, problem = read_regular(self.submission_path)
        lab = lab_for(settings, name, data)
        result, _ = grade_safely(lab, name, data, problem, settings)
        engine = EngineResults(gradescope_results(result, lab, settings["lang"], settings["visibility"]))
        original = python_runner.grade_notebook

        def engine_verdict(*args: object, **kwargs: object) -> EngineResults:
            python_runner.grade_notebook = original
            return engine

        python_runner.grade_notebook = engine_verdict


def remove_untrusted(folder: str) -> list[str]:
    """Delete logs and pickles anywhere under `folder`; returns the relative paths removed."""
    removed = []
    for root, dirs, files in os.walk(folder):
        for name in files:
            if name in UNTRUSTED_NAMES or name.lower().endswith(UNTRUSTED_SUFFIXES):
                path = os.path.join(root, name)
                os.remove(path)
                removed.append(os.path.relpath(path, folder))
    return sorted(removed)
