"""On a kernel that refuses Landlock, the sandbox user reads Gradescope's submission_metadata.json
(written world-readable): its previous submissions hold whole earlier results, hidden tests
included, which a public test's error message then shows at once. The entry point must make every
file the LMS provides readable by the grader only before anything is graded."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from common import CORRECT, GRADESCOPE_CONFIG, SOFTMAX

from autograder.otter.emulation import WITHOUT_LANDLOCK

FACE = "the Gradescope entry point, without Landlock"
PROMISE = "no hidden verdict reaches a student before grades are published"

MARKER = "HIDDEN-VERDICT-OF-AN-EARLIER-ATTEMPT"
READER = '''

import os as _os

_right_softmax = softmax


def softmax(x):
    for _path in {paths!r}:
        try:
            with open(_path, encoding="utf-8", errors="replace") as _handle:
                raise ValueError("read " + _path + ": " + _handle.read()[:3000])
        except OSError:
            pass
        try:
            raise ValueError("listed " + _path + ": " + " ".join(_os.listdir(_path)))
        except OSError:
            pass
    return _right_softmax(x)
'''


def run(root):
    """The entry point at `root`, as the platform starts it, on a kernel refusing Landlock."""
    command = [sys.executable, "-I", "-c", WITHOUT_LANDLOCK, sys.executable, "-I", "-m", "autograder.otter.gradescope"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=root / "submission",
                          env={**os.environ, "AUTOGRADER_ROOT": str(root)}, timeout=600)
    return done, json.loads((root / "results" / "results.json").read_text("utf-8"))


def attack(work):
    if os.geteuid() != 0:
        return True, "(setup: not root, so submissions run as this user: only Landlock can keep them out)"
    # A root the sandbox user can walk to, as /autograder is (pytest's own folders are not).
    top = pathlib.Path(tempfile.mkdtemp(prefix="attacks4-root-"))
    try:
        os.chmod(top, 0o755)
        root = top / "autograder"
        for folder in ("source", "results", "submission"):
            (root / folder).mkdir(parents=True)
        os.chmod(root, 0o755)
        (root / "source" / "otter_config.json").write_text(json.dumps(GRADESCOPE_CONFIG), "utf-8")
        earlier = {"score": 7.0, "tests": [{"name": "softmax", "score": 0, "output": MARKER}]}
        (root / "submission_metadata.json").write_text(json.dumps(
            {"previous_submissions": [{"submission_time": "2024-03-01T10:00:00+09:00", "score": 7.0,
                                       "results": earlier}]}), "utf-8")
        os.chmod(root / "submission_metadata.json", 0o644)  # as Gradescope writes it
        paths = [str(root / name) for name in ("submission_metadata.json", "results", "source", "submission")]
        source = CORRECT.replace(SOFTMAX, SOFTMAX + READER.replace("{paths!r}", repr(paths)))
        (root / "submission" / "self_attention_lab.py").write_text(source, "utf-8")
        done, results = run(root)
        step = next(t for t in results["tests"] if t["name"] == "softmax")
        shown = " ".join(t.get("output") or "" for t in results["tests"] if t.get("visibility") == "visible")
        if MARKER in shown or MARKER in json.dumps(results):
            return False, "the earlier attempt's hidden verdict is in this attempt's results"
        if step.get("score") != step.get("max_score"):
            return False, f"softmax read something under the root: {step.get('output', '')[:300]!r}"
        return True, f"nothing under the root readable by the sandbox user (softmax {step['score']}/{step['max_score']})"
    finally:
        shutil.rmtree(top, ignore_errors=True)
