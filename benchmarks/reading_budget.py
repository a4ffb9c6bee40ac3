"""What reading one submission costs the grader at the edge of `reading.budget.BUDGET`: CPU seconds and
the peak of the memory Python allocates while reading (tracemalloc; the file's own bytes not
counted), per worst case, each in a fresh process. CPU time covers the reading and the lab guess.

    .venv/bin/python benchmarks/reading_budget.py [--python PATH]

The numbers back the bounds docs/SECURITY.md states ("Reading a submission"). Run by hand: the
tests count work, never time it.
"""
import argparse
import io
import json
import pathlib
import subprocess
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.core.reading.budget import BUDGET  # noqa: E402

FILL = BUDGET.file_bytes - 1024


def padded(prefix, suffix=b"}"):
    """A notebook of `prefix`, padded with spaces to the size limit."""
    return prefix + b" " * (FILL - len(prefix) - len(suffix)) + suffix


def code_cells(sources):
    return json.dumps({"cells": [{"cell_type": "code", "source": source} for source in sources]}).encode()


def export_of(notebook):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("__zip_filename__", "e.zip")
        archive.writestr("a.ipynb", notebook)
    return buffer.getvalue()


def cases():
    """(title, file name, a function making the file) of the worst file for each bound."""
    containers = BUDGET.json_containers - 10
    items = BUDGET.json_items - 10
    per_cell = BUDGET.code_lines // BUDGET.code_cells
    yield "JSON lists at the container bound", "a.ipynb", lambda: padded(
        b'{"cells": [], "x": [' + b"[]," * containers + b"[]]")
    yield "JSON lists of lists at the container bound", "a.ipynb", lambda: padded(
        b'{"cells": [], "x": [' + b"[[[[[[[[[[]]]]]]]]]]," * (containers // 10) + b"[]]")
    yield "JSON floats at the item bound", "a.ipynb", lambda: padded(b'{"cells": [], "x": [' + b"0.5," * items + b"0.5]")
    keys = BUDGET.json_keys - 10
    yield "JSON keys at the key bound", "a.ipynb", lambda: padded(
        b'{"cells": [], "x": {' + b",".join(b'"%x":0' % i for i in range(keys)) + b"}")
    yield "JSON short strings at the item bound", "a.ipynb", lambda: padded(
        b'{"cells": [], "x": [' + b'"ab",' * items + b'"ab"]')
    yield "code cells of IPython lines at the line bound", "a.ipynb", lambda: code_cells(
        ["\n".join(["!ls -la", "x = %time 1", "y?"] * (per_cell // 3))] * BUDGET.code_cells)
    spent = BUDGET.parsed_chars // BUDGET.parse_chars + 1
    yield "cells parsed up to the parse bound", "a.ipynb", lambda: code_cells(
        ["x = 1\n" * (BUDGET.parse_chars // 6)] * spent + ["def f():\n    pass\n"] * (BUDGET.code_cells - spent))
    yield "trees at the depth bound", "a.ipynb", lambda: code_cells(
        [("x = a" + ".b" * (BUDGET.ast_depth - 5) + "\n") * (BUDGET.parse_chars // (2 * BUDGET.ast_depth))] * spent)
    yield "a 20 MB .py of definitions", "a.py", lambda: b"def f():\n    pass\n" * (FILL // 18)
    yield "an export of a 20 MB notebook", "e.zip", lambda: export_of(padded(b'{"cells": [], "x": "', b'"}'))
    yield "JSON short strings with one wide character", "a.ipynb", lambda: padded(
        b'{"cells": [], "x": [' + b'"ab",' * items + '"\U0001F600"]'.encode())
    long_line = "x = a" + ".b" * ((BUDGET.token_line_chars - 8) // 2) + "\n"
    yield "a .py of the longest lines, tokenized again after each error", "a.py", lambda: (
        (long_line + "y = 'open\n") * (BUDGET.parse_chars // len(long_line)) + "def f(:\n").encode()[:BUDGET.parse_chars]
    yield "a .py that does not compile, cut by the tokenizer", "a.py", lambda: (
        "".join(f"# %%\nx{i} = 'open\ndef f{i}(:\n" for i in range(BUDGET.script_lines // 3))
        [:BUDGET.parse_chars]).encode()


MEASURE = """
import sys, time, tracemalloc
sys.path.insert(0, sys.argv[1])
from autograder import registry
from autograder.core.reading.submission import read_submission
name, data = sys.argv[2], open(sys.argv[3], "rb").read()
started = time.process_time()
read = read_submission(name, data)
try:
    said = next(registry.each_lab([data]))
except ImportError:  # a Python without the labs' dependencies: the reading alone
    said = "not run"
seconds = time.process_time() - started
del read
tracemalloc.start()
read = read_submission(name, data)
grown = tracemalloc.get_traced_memory()[1] / 2 ** 20
tracemalloc.stop()
print(f"{seconds:.2f}|{grown:.0f}|{read.problem or 'read'} {read.problem_detail[:60]}|{said}")
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    scratch = pathlib.Path("/tmp/reading-budget-benchmark")
    scratch.mkdir(exist_ok=True)
    print(f"{'case':62} {'CPU s':>6} {'MB':>5}  outcome")
    for title, name, make in cases():
        path = scratch / "submission"
        path.write_bytes(make())
        done = subprocess.run([args.python, "-c", MEASURE, str(ROOT), name, str(path)], capture_output=True,
                              text=True, timeout=600)
        if done.returncode:
            print(f"{title:62} failed: {done.stderr[-300:]}")
            continue
        seconds, grown, outcome, said = done.stdout.strip().split("|")
        print(f"{title:62} {float(seconds):6.2f} {float(grown):5.0f}  {outcome} (guess: {said})")


if __name__ == "__main__":
    main()
