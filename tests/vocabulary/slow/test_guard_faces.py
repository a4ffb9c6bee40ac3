"""Every face keeps every student's record whatever values, texts and names a submission holds
(docs/SECURITY.md, "Invariant: one guard between a submission and the grader's own work").

Generated submissions, each the reference with one step wrapped to return hostile values
(±1.7e308, nan, inf, subnormals, huge ints, mixed types, text) on some of its calls, a hostile
comment (lone surrogates a notebook's JSON escapes, control characters, a huge line; in a .py,
bytes that are not UTF-8) and a hostile file name (undecodable bytes, CP949), through the faces
as they are run: `autograder grade` then `autograder history` on a class of them, `autograder
check --json`, and the Gradescope entry point. Never an internal error, a student without a
record, or "the grader failed": a file is graded, or graded as broken with its reason.
"""
import csv
import json
import os
import pathlib
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import ROOT

CORRECT = (ROOT / "samples" / "correct.py").read_text("utf-8")
WRAPPED = {"scores": "Q, K", "softmax": "x", "mix": "weights, V"}
NUMBERS = [1.7e308, -1.7e308, float("nan"), float("inf"), float("-inf"), 5e-324, 2.0 ** 1023, 0.0, -0.0]
CONDITIONS = ["True", "np.size(out) % 2 == 1", "np.shape(out) == (3, 3)", "np.ndim(out) == 1"]
COMMENTS = st.lists(st.sampled_from(["\ud800", "\udfff", "\x1b[2J", "\x00", "\u202e", "가", "\r", "x" * 5000, "%%"]),
                    max_size=6).map("".join)
NAME_BYTES = st.binary(min_size=1, max_size=8).filter(lambda b: b"/" not in b and b"\0" not in b)
SETTINGS = settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def literal(value):
    """Python source for `value` (floats through float('...'): nan and inf have no literal)."""
    if isinstance(value, float):
        return f"float({str(value)!r})"
    if isinstance(value, list):
        return "[" + ", ".join(map(literal, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


@st.composite
def hostile_values(draw):
    """Source of an expression of `out` (the right answer) that a hostile step returns instead."""
    number = draw(st.one_of(st.sampled_from(NUMBERS), st.floats(allow_nan=True, allow_infinity=True)))
    numbers = draw(st.lists(st.sampled_from(NUMBERS), min_size=1, max_size=4))
    return draw(st.sampled_from([
        f"np.full(np.shape(out), {literal(number)})",
        f"np.resize(np.array({literal(numbers)}), np.size(out)).reshape(np.shape(out))",
        f"np.full(np.shape(out), {draw(st.sampled_from(['10 ** 30', '-(10 ** 40)', '2 ** 200']))}, dtype=object).tolist()",
        literal([1, "a", None, [2.0, float("nan")], {"k": 1.7e308}]),
        literal(draw(st.text(max_size=20))),
    ]))


@st.composite
def submissions(draw):
    """(suffix, bytes) of a generated hostile submission."""
    step = draw(st.sampled_from(sorted(WRAPPED)))
    params = WRAPPED[step]
    comment = draw(COMMENTS)
    wrapper = (f"# {comment}\n_right_{step} = {step}\n\n\ndef {step}({params}):\n"
               f"    out = _right_{step}({params})\n    if {draw(st.sampled_from(CONDITIONS))}:\n"
               f"        return {draw(hostile_values())}\n    return out\n")
    if draw(st.booleans()):
        cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
                 for s in (CORRECT, wrapper)]
        return ".ipynb", json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    return ".py", (CORRECT + "\n\n" + wrapper).encode("utf-8", "surrogatepass")  # a surrogate: not UTF-8


def cli(*argv, cwd=ROOT, timeout=900):
    return subprocess.run([sys.executable, "-m", "autograder", *map(os.fsdecode, argv)], capture_output=True,
                          cwd=cwd, timeout=timeout)


def lines(done):
    return done.stderr.decode("utf-8", "replace")[-2000:]


@SETTINGS
@given(st.lists(st.tuples(submissions(), NAME_BYTES), min_size=2, max_size=5))
def test_grade_and_history_keep_every_student_whatever_their_files_hold(tmp_path_factory, files):
    work = tmp_path_factory.mktemp("class")
    root = work / "class"
    root.mkdir()
    for number, ((suffix, data), name) in enumerate(files):
        (root / os.fsdecode(b"s%02d_" % number + name + suffix.encode())).write_bytes(data)
    out = work / "course" / "self_attention"
    graded = cli("grade", root, "--out", out, "--jobs", "2", "--lab", "self_attention", "--timeout", "3")
    assert graded.returncode == 0, lines(graded)
    with open(out / "grades.csv", encoding="utf-8-sig", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["total"]]
    assert len(rows) == len(files), rows
    assert not [row for row in rows if row["status"].startswith("error")], rows
    records = [json.loads(p.read_text("utf-8"))["extra_data"]["autograder"] for p in (out / "results").glob("*.json")]
    assert sorted(r["id"] for r in records) == sorted(row["id"] for row in rows)
    for record in records:
        code = record.get("code")
        assert code is None or "steps" in code or "not_computed" in code, code
    history = cli("history", work / "course")
    assert history.returncode == 0, lines(history)
    with open(work / "course" / "history" / "course.csv", encoding="utf-8-sig", newline="") as handle:
        assert sorted(row["id"] for row in csv.DictReader(handle)) == sorted(row["id"] for row in rows)
    assert len(list((work / "course" / "history" / "students").glob("*.html"))) == len(rows)


@SETTINGS
@given(submissions(), NAME_BYTES)
def test_check_grades_any_of_them_and_never_fails_itself(tmp_path_factory, submission, name):
    suffix, data = submission
    path = tmp_path_factory.mktemp("check") / os.fsdecode(name + suffix.encode())
    path.write_bytes(data)
    done = cli("check", path, "--lab", "self_attention", "--json", "--timeout", "3")
    assert done.returncode in (0, 1), lines(done)
    verdict = json.loads(done.stdout.decode("utf-8"))
    assert 0 <= verdict["score"] <= verdict["max_score"] and len(verdict["steps"]) == 6


GRADESCOPE_CONFIG = {"plugins": [{"autograder.otter.plugin.EngineGrading": {
    "lab": "self_attention", "lang": "ko", "visibility": "after_published", "step_seconds": 3}}]}


@SETTINGS
@given(submissions(), NAME_BYTES)
def test_the_gradescope_entry_point_grades_any_of_them(tmp_path_factory, submission, name):
    suffix, data = submission
    root = tmp_path_factory.mktemp("gradescope")
    for folder in ("source", "results", "submission"):
        (root / folder).mkdir()
    (root / "source" / "otter_config.json").write_text(json.dumps(GRADESCOPE_CONFIG), "utf-8")
    (root / "submission_metadata.json").write_text("{}", "utf-8")
    (root / "submission" / os.fsdecode(name + suffix.encode())).write_bytes(data)
    done = subprocess.run([sys.executable, "-I", "-m", "autograder.otter.gradescope"], capture_output=True,
                          cwd=root / "submission", env={**os.environ, "AUTOGRADER_ROOT": str(root)}, timeout=900)
    assert done.returncode == 0, lines(done)
    done.stdout.decode("utf-8")  # what it prints is text
    results = json.loads((root / "results" / "results.json").read_text("utf-8"))
    assert isinstance(results["score"], (int, float))
    assert not [t for t in results["tests"] if t.get("name") == "Autograder error"], results
