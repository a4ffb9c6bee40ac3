"""Two installs of the grader give the same grades and the same feedback on the corpora.

Grades `tests/corpora/corpus_blind/`, `tests/corpora/corpus_blind2/` and `samples/` (each file under the lab its
name says: "lab2" files under masked_attention, the others under self_attention) with this
install and with --other, and compares grades.csv (every column but the grader's version) and
every file under feedback/ byte for byte. Exit 0 when all are the same. Run by hand, e.g. against
main's venv after a change that must not change any grade:

    .venv/bin/python benchmarks/same_grades.py --other /work/main/.venv/bin/python
"""
import argparse
import csv
import difflib
import io
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "tests" / "corpora" / "corpus_blind", ROOT / "tests" / "corpora" / "corpus_blind2", ROOT / "samples"]
LABS = ("self_attention", "masked_attention")
VERSION_COLUMNS = {"grader_version", "version"}


def lab_of(path):
    return "masked_attention" if "lab2" in path.name else "self_attention"


def gather(work):
    """{lab: folder of that lab's files}, copied from every source."""
    folders = {lab: work / "in" / lab for lab in LABS}
    for folder in folders.values():
        folder.mkdir(parents=True)
    for source in SOURCES:
        for path in sorted(source.rglob("*")):
            if path.suffix in (".py", ".ipynb") and path.is_file():
                name = f"{source.name}__{path.relative_to(source).as_posix().replace('/', '__')}"
                shutil.copy2(path, folders[lab_of(path)] / name)
    return folders


def grade(python, folder, lab, out):
    done = subprocess.run([python, "-m", "autograder", "grade", str(folder), "--lab", lab, "--out", str(out),
                           "--jobs", "2", "--allow-merged-ids", "--allow-other-lab"],
                          capture_output=True, text=True, cwd="/")
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"{python} grade {folder}: exit {done.returncode}\n{done.stderr[-2000:]}")


def rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    return [{k: v for k, v in row.items() if k not in VERSION_COLUMNS} for row in table]


def compare(mine, theirs):
    """Differences between two output folders, as lines of text."""
    problems = []
    if rows(mine / "grades.csv") != rows(theirs / "grades.csv"):
        problems.append(f"grades.csv differs in {mine.name}")
    mine_files = {p.relative_to(mine) for p in (mine / "feedback").rglob("*") if p.is_file()}
    their_files = {p.relative_to(theirs) for p in (theirs / "feedback").rglob("*") if p.is_file()}
    for name in sorted(mine_files ^ their_files):
        problems.append(f"only in one install's output: {name}")
    for name in sorted(mine_files & their_files):
        a, b = (mine / name).read_bytes(), (theirs / name).read_bytes()
        if a != b:
            diff = difflib.unified_diff(io.StringIO(b.decode("utf-8", "replace")).readlines(),
                                        io.StringIO(a.decode("utf-8", "replace")).readlines(), "other", "this", n=1)
            problems.append(f"{name} differs:\n" + "".join(list(diff)[:30]))
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", required=True, help="the python of the other install (its venv's bin/python)")
    args = parser.parse_args(argv)
    problems, graded = [], 0
    with tempfile.TemporaryDirectory(prefix="autograder-same-") as work:
        work = pathlib.Path(work)
        for lab, folder in gather(work).items():
            count = sum(1 for _ in folder.iterdir())
            graded += count
            outputs = {}
            for install, python in (("this", sys.executable), ("other", args.other)):
                outputs[install] = work / "out" / install / lab
                grade(python, folder, lab, outputs[install])
            found = compare(outputs["this"], outputs["other"])
            print(f"{lab}: {count} files, {'the same' if not found else f'{len(found)} differences'}", flush=True)
            problems += found
    for problem in problems:
        print(problem)
    print(f"{graded} files graded by both installs: " + ("grades.csv and feedback/ the same" if not problems
                                                          else f"{len(problems)} differences"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
