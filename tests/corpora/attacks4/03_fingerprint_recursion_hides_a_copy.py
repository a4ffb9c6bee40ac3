"""A true copy hidden by one line: a line nested deeper than Python's own parser builds a tree for
(a RecursionError while the tree is built). The sandbox runs the rest of the file as before (the
line's own part is a syntax error there); the look-alike fingerprints must not drop the whole
file for it."""
import csv
import importlib
import json
import pathlib

from common import CORRECT, SOFTMAX, cli
from simclass import VARIED

FACE = "autograder grade (similar.csv)"
PROMISE = "one line the grader cannot parse costs its own part of the fingerprint, never the whole file"

base = importlib.import_module("08_similar_rename_survives")
COPIED = CORRECT.replace(SOFTMAX, base.ORIGINAL)
DEEP = "_ = " + "-" * 3100 + "1\n"  # about three times the default recursion limit: Python's parser gives up


def notebook(*sources):
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
             for s in sources]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


COPIES = {
    "a .py with the deep line at its end": ("s02.py", COPIED + "\n" + DEEP),
    "a notebook with the deep line in a cell of its own": ("s02.ipynb", notebook(COPIED, DEEP)),
}


def listed(folder, copy_name, copy_text):
    folder = pathlib.Path(folder)
    root = folder / "class"
    root.mkdir(parents=True)
    (root / "s01.py").write_text(COPIED, "utf-8")
    (root / copy_name).write_text(copy_text, "utf-8")
    for n, body in enumerate(VARIED):
        (root / f"s{n + 3:02d}.py").write_text(CORRECT.replace(SOFTMAX, body), "utf-8")
    done = cli("grade", root, "--out", folder / "run", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    with open(folder / "run" / "similar.csv", encoding="utf-8-sig", newline="") as handle:
        return [row["ids"] for row in csv.DictReader(handle)]


def attack(work):
    hidden = []
    for label, (name, text) in COPIES.items():
        groups = listed(pathlib.Path(work) / label.replace(" ", "_"), name, text)
        if not any({"s01", "s02"} <= set(ids.split()) for ids in groups):
            hidden.append(label)
    if hidden:
        return False, f"the copy is no longer listed as: {', '.join(hidden)}"
    return True, "the copy is listed wherever the deep line is"
