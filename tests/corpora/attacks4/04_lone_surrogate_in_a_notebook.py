"""A notebook whose JSON escapes a lone surrogate ("\\ud800") in a comment of its code: valid JSON,
invalid Unicode. It must be graded as what it is (the reference: full marks) on every face, never
"internal error", "the grader failed" or "not your fault, 0 points"."""
import json
import pathlib

from common import CORRECT, check_json, cli, gradescope, grades, write_class

FACE = "autograder check, autograder grade, the Gradescope entry point"
PROMISE = "every text from a submission is made safe where it is read"

NAME = "self_attention_lab.ipynb"


def surrogate_notebook():
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
              "source": "# 메모 \ud800 끝\n" + CORRECT}]
    text = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, ensure_ascii=True)
    assert "\\ud800" in text
    return text.encode("ascii")


def attack(work):
    work = pathlib.Path(work)
    data = surrogate_notebook()
    problems = []
    path = work / NAME
    path.write_bytes(data)
    done = cli("check", path, "--lab", "self_attention", "--json")
    if done.returncode != 0:
        problems.append(f"check exited {done.returncode}: {done.stderr.strip().splitlines()[-1:]}")
    else:
        checked, _ = check_json(path)
        if checked["score"] != checked["max_score"]:
            problems.append(f"check scored {checked['score']}")
    root = write_class(work / "class", {"s01": CORRECT})
    (root / "s02.ipynb").write_bytes(data)
    graded = cli("grade", root, "--out", work / "run", "--jobs", "2")
    row = grades(work / "run").get("s02", {}) if graded.returncode == 0 else {}
    if row.get("status") != "graded" or float(row.get("total") or 0) != 10.0:
        problems.append(f"grade: s02 {row.get('status')!r} {row.get('total')!r} (exit {graded.returncode})")
    code, results, output = gradescope(work / "gradescope", {NAME: data})
    if code != 0 or results.get("score") != 10.0:
        problems.append(f"Gradescope: exit {code}, score {results.get('score')}, {results.get('output', '')[:80]!r}")
    return not problems, "; ".join(problems) or "full marks on check, grade and Gradescope"
