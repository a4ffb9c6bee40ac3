"""Helpers of the tenth round of attacks: each face run as a TA or an instructor runs it, from the
repository root (where the TAs' quick start has them work): `.venv/bin/autograder`, `.venv/bin/pytest`."""
import csv
import json
import os
import pathlib
import signal
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[3]
BIN = ROOT / ".venv" / "bin"
CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")
STUB = "import numpy as np\n" + "".join(
    f"def {name}({args}):\n    raise NotImplementedError\n"
    for name, args in (("make_qkv", "X, W_Q, W_K, W_V"), ("scores", "Q, K"), ("softmax", "x"), ("mix", "weights, V"),
                       ("self_attention", "X, W_Q, W_K, W_V"), ("most_attended", "weights, words")))
WORSE = CORRECT.replace("return weights @ V", "return weights.T @ V")
assert WORSE != CORRECT


def cli(*argv, env=None, timeout=900, cwd=None):
    """`autograder ARGV` as a TA types it, in the repository's folder."""
    return subprocess.run([str(BIN / "autograder"), *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd or ROOT, env={**os.environ, **(env or {})})


def checked(path, *extra):
    """(the finished `check --json`, its JSON or None)."""
    done = cli("check", path, "--json", "--lang", "en", *extra)
    try:
        return done, json.loads(done.stdout)
    except ValueError:
        return done, None


def write_class(folder, files):
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    return folder


def grade_signalled(root, out, number, when, env=None):
    """`grade ROOT --out OUT`, sent `number` as soon as a progress line satisfies `when`: (exit
    code, every line it wrote on stderr)."""
    process = subprocess.Popen([str(BIN / "autograder"), "grade", str(root), "--out", str(out), "--lang", "en"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})})
    seen = []
    for line in process.stderr:
        seen.append(line)
        if when(line):
            process.send_signal(number)
            break
    seen += process.stderr.read().splitlines()
    process.stdout.read()
    process.wait(timeout=300)
    return process.returncode, seen


def grades(out):
    path = pathlib.Path(out) / "grades.csv"
    if not path.exists():
        return None
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle) if row["id"]}


LAST_STUDENT = lambda line: "(100%)" in line  # noqa: E731  the progress line of the last student graded
SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
