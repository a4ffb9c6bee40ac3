"""The Otter plugin that grades with this package's engine instead of Otter's kernel.

Otter runs tests inside the student's kernel, with no time limit, and unpickles what that
kernel writes. Here the submission FILE is graded by the sandboxed engine (one forked child per
submission, time and memory limits, plain JSON back); Otter's kernel gets an empty notebook, so
no student code runs in the process that decides scores, and the results Otter reports are
replaced by the engine's verdict.
"""
import os

import nbformat
from otter.plugins import AbstractOtterPlugin

from ..grading import grade_bytes
from ..render import Messages, load_notes
from ..sandbox.runner import Limits, Zygote
from .results import otter_test_files

# Files that Otter or a student's kernel would deserialise; never read from a submission.
UNTRUSTED_NAMES = {".OTTER_LOG"}
UNTRUSTED_SUFFIXES = (".pkl", ".pickle", ".dill", ".joblib")


class EngineGrading(AbstractOtterPlugin):
    """Config keys (otter_config.json): lang ("ko"|"en"), step_seconds, memory_mb."""

    result = None

    def before_grading(self, config):
        # Runs before Otter looks for .OTTER_LOG (which it would load with dill).
        remove_untrusted(os.path.dirname(self.submission_path))
        name = os.path.basename(self.submission_path)
        with open(self.submission_path, "rb") as handle:
            data = handle.read()  # the engine leaves out the notebook's checker cells itself
        # Otter reads the file again later (a .py as text): give it nothing it could fail on.
        with open(self.submission_path, "w", encoding="utf-8") as handle:
            handle.write(nbformat.writes(nbformat.v4.new_notebook()) if name.endswith(".ipynb") else "")
        with Zygote() as zygote:
            self.result = grade_bytes(name, data, zygote, limits_from(self.plugin_config or {}))

    def before_execution(self, submission):
        """Otter's kernel gets an empty notebook: the submission itself never runs there."""
        return nbformat.v4.new_notebook()

    def after_grading(self, results):
        lang = (self.plugin_config or {}).get("lang", "ko")
        results.results = {tf.name: tf for tf in otter_test_files(self.result, lang)}
        notes = load_notes(self.result.notes, lang)
        if notes:
            results.set_output(Messages(lang)("text", "load_heading") + "\n"
                               + "\n".join("  " + note for note in notes))
        # The kernel ran no submission code; whatever it reported is superseded by the verdict.
        results._catastrophic_error = None


def limits_from(config):
    seconds = float(config.get("step_seconds", 10.0))
    memory = int(config.get("memory_mb", 1024)) * 1024 * 1024
    # The sandbox's defaults pick the unprivileged user (as root, as on Gradescope) and confinement.
    return Limits(step_seconds=seconds, load_seconds=seconds, memory_bytes=memory)


def remove_untrusted(folder):
    """Delete logs and pickles anywhere under `folder`; returns the relative paths removed."""
    removed = []
    for root, dirs, files in os.walk(folder):
        for name in files:
            if name in UNTRUSTED_NAMES or name.lower().endswith(UNTRUSTED_SUFFIXES):
                path = os.path.join(root, name)
                os.remove(path)
                removed.append(os.path.relpath(path, folder))
    return sorted(removed)
