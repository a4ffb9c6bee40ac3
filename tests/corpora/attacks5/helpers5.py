"""Helpers of the fifth round of attacks: each face run as a TA, an instructor or the LMS runs it.

The CLI is `.venv/bin/autograder` in a subprocess (cwd: the repository root), pytest is
`.venv/bin/pytest`, the Gradescope entry point is `python -I -m autograder.otter.gradescope`.
"""
import csv
import json
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
BIN = ROOT / ".venv" / "bin"
AUTOGRADER = BIN / "autograder"
PYTEST = BIN / "pytest"
PYTHON = BIN / "python"
SAMPLES = ROOT / "samples"
CORRECT = (SAMPLES / "correct.py").read_text("utf-8")
SOFTMAX = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    # 행마다 최댓값을 빼서 exp가 넘치지 않게
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
'''
assert SOFTMAX in CORRECT
STUB = (ROOT / "assignments" / "self_attention" / "self_attention_lab.py").read_text("utf-8")


def cli(*argv, env=None, timeout=900, cwd=None):
    """`autograder ARGV` as a TA types it."""
    environment = {**os.environ, **(env or {})}
    return subprocess.run([str(AUTOGRADER), *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd or ROOT, env=environment)


def with_softmax(body):
    return CORRECT.replace(SOFTMAX, body)


def write_class(folder, files, suffix=".py"):
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for student, text in files.items():
        name = student if "." in student else f"{student}{suffix}"
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        (folder / name).write_bytes(data)
    return folder


def grades(out):
    with open(pathlib.Path(out) / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle) if row["id"]}


def similar(out):
    with open(pathlib.Path(out) / "similar.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    groups = {}
    for row in rows:
        groups.setdefault(row["ids"], []).append(f"{row['step']}={row['step_score']}")
    return groups


def listed_together(groups, *ids):
    return any(set(ids) <= set(key.split()) for key in groups)


def tree(folder):
    folder = pathlib.Path(folder)
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def short(text, most=400):
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[:most] + " ..."


GRADESCOPE_CONFIG = {"plugins": [{"autograder.otter.plugin.EngineGrading": {
    "lab": "self_attention", "lang": "en", "visibility": "after_published"}}]}


def gradescope(root, files, metadata=None):
    """The zip's entry point at AUTOGRADER_ROOT=`root` laid out as Gradescope lays it out, started
    from an empty folder of its own (run_autograder's mktemp -d). (returncode, results, output)."""
    root = pathlib.Path(root)
    if root.exists():
        shutil.rmtree(root)
    for folder in ("source", "results", "submission", "cwd"):
        (root / folder).mkdir(parents=True)
    (root / "source" / "otter_config.json").write_text(json.dumps(GRADESCOPE_CONFIG), "utf-8")
    for name, data in files.items():
        path = root / "submission" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    (root / "submission_metadata.json").write_text(json.dumps(metadata or {}), "utf-8")
    done = subprocess.run([str(PYTHON), "-I", "-m", "autograder.otter.gradescope"], capture_output=True, text=True,
                          cwd=root / "cwd", env={**os.environ, "AUTOGRADER_ROOT": str(root)}, timeout=900)
    results = json.loads((root / "results" / "results.json").read_text("utf-8"))
    return done.returncode, results, done.stdout + done.stderr
