"""Shared helpers for the third round of attacks: each face run as a TA or the LMS runs it."""
import csv
import json
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
PYTHON = sys.executable
SAMPLES = ROOT / "samples"
CORRECT = (SAMPLES / "correct.py").read_text("utf-8")
SOFTMAX = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    # 행마다 최댓값을 빼서 exp가 넘치지 않게
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
'''
assert SOFTMAX in CORRECT
# A rare wrong softmax that no mistake of the catalog names.
RARE = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    total = e.sum(axis=-1, keepdims=True) + 0.37 * e.max(axis=-1, keepdims=True)
    return e / total
'''


def with_softmax(body):
    return CORRECT.replace(SOFTMAX, body)


def cli(*argv, env=None, timeout=600):
    """`python -m autograder ARGV` as a TA types it."""
    environment = {**os.environ, **(env or {})}
    return subprocess.run([PYTHON, "-m", "autograder", *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=environment)


def check_json(path, *extra):
    done = cli("check", path, "--lab", "self_attention", "--json", *extra)
    return json.loads(done.stdout), done


def grades(out):
    with open(pathlib.Path(out) / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle) if row["total"]}


def tree(folder):
    folder = pathlib.Path(folder)
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def write_class(folder, files):
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for student, text in files.items():
        (folder / f"{student}.py").write_text(text, "utf-8")
    return folder


_BASE = {}


def base_class(work):
    """Ten students graded once per harness run (copied by each attack that needs a run folder)."""
    if "out" not in _BASE:
        root = write_class(pathlib.Path(work) / "_base_class", {
            "s01": with_softmax(RARE), "s02": CORRECT.replace("return weights @ V", "return weights.T @ V"),
            **{f"s{n:02d}": CORRECT for n in range(3, 9)},
            "s09": CORRECT.replace("weights = softmax(scores(Q, K) / np.sqrt(d_k))", "weights = softmax(scores(Q, K))"),
            "s10": (SAMPLES / "parkseoyeon_10233_55003_attention.py").read_text("utf-8")})
        out = pathlib.Path(work) / "_base_run"
        done = cli("grade", root, "--out", out, "--jobs", "2")
        assert done.returncode == 0, done.stderr
        _BASE.update(root=root, out=out)
    return _BASE["root"], _BASE["out"]


def copy_base(work, name):
    root, out = base_class(work)
    target = pathlib.Path(work) / name
    shutil.copytree(root, target / "class")
    shutil.copytree(out, target / "run")
    return target / "class", target / "run"


# The Gradescope entry point, at a root laid out as the platform lays it out ---------------------

GRADESCOPE_CONFIG = {"plugins": [{"autograder.otter.plugin.EngineGrading": {
    "lab": "self_attention", "lang": "ko", "visibility": "after_published"}}]}


def gradescope(work, files, metadata=None, raw_metadata=None):
    """Run `python3 -I -m autograder.otter.gradescope` (the zip's entry point) at AUTOGRADER_ROOT with
    source/otter_config.json, submission/ and submission_metadata.json as Gradescope writes them, from
    the submission folder as working folder (the platform's worst case). Returns (returncode, results, output)."""
    root = pathlib.Path(work)
    if root.exists():
        shutil.rmtree(root)
    (root / "source").mkdir(parents=True)
    (root / "results").mkdir()
    (root / "submission").mkdir()
    (root / "source" / "otter_config.json").write_text(json.dumps(GRADESCOPE_CONFIG), "utf-8")
    for name, data in files.items():
        (root / "submission" / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    if raw_metadata is not None:
        (root / "submission_metadata.json").write_bytes(raw_metadata)
    else:
        (root / "submission_metadata.json").write_text(json.dumps(metadata or {}), "utf-8")
    done = subprocess.run([PYTHON, "-I", "-m", "autograder.otter.gradescope"], capture_output=True, text=True,
                          cwd=root / "submission", env={**os.environ, "AUTOGRADER_ROOT": str(root)}, timeout=600)
    results = json.loads((root / "results" / "results.json").read_text("utf-8"))
    return done.returncode, results, done.stdout + done.stderr


def previous_entry(results, time="2024-03-01T10:00:00+09:00"):
    return {"submission_time": time, "score": results.get("score"), "results": results}
