"""Which mistakes of the corpora fail hidden tests only: the students' own public checks pass them.

Every wrong file of every corpus (benchmarks/explain_corpora.py says how they are read) is graded;
each step that loses points is counted as
  public   at least one public test fails: the student sees the mistake before grades are published
  hidden   only hidden tests fail: the student's public checks pass, the grade is lower
A step listed as hidden is a place where a public test could be added or changed (one where the
mistake shows), unless only a hidden test can show it (a function fitted to the public tests).
Run by hand (it grades every file once, a few minutes on 2 cores):

    .venv/bin/python benchmarks/public_shows.py
    .venv/bin/python benchmarks/public_shows.py --corpus corpus_field --list
"""
import argparse
import collections
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from autograder import registry  # noqa: E402
from autograder.grading import grade_file  # noqa: E402
from autograder.grading.plan import Plan
from autograder.sandbox.runner import Zygote  # noqa: E402
from explain_corpora import CORPORA, wrong_files  # noqa: E402


def shown(step):
    """'public' when a public test of a step that lost points fails, 'hidden' when none does."""
    return "public" if any(not case.passed and not case.hidden for case in step.cases) else "hidden"


def measure(corpus, plan, zygote):
    """[(file, its own step, step that lost points, public | hidden, failing hidden tests)]."""
    rows = []
    for path, own in wrong_files(ROOT / "tests" / "corpora" / corpus):
        result = grade_file(path, zygote, plan)
        for step in result.steps:
            if step.score < step.max_score:
                failing = sorted({c.case for c in step.cases if not c.passed and c.hidden})
                rows.append((path.name, own, step.name, shown(step), failing))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", action="append", choices=sorted(CORPORA))
    parser.add_argument("--list", action="store_true", help="list every step shown by hidden tests only")
    options = parser.parse_args()
    corpora = options.corpus or list(CORPORA)
    plans = {}
    totals = collections.Counter()
    print(f"{'corpus':18s} {'public':>7s} {'hidden':>7s}")
    with Zygote() as zygote:
        for corpus in corpora:
            name = CORPORA[corpus]
            plan = plans.setdefault(name, Plan.build(registry.load(name)))
            rows = measure(corpus, plan, zygote)
            counts = collections.Counter(kind for *_, kind, _ in rows)
            totals.update(counts)
            print(f"{corpus:18s} {counts['public']:7d} {counts['hidden']:7d}")
            if options.list:
                for file, own, step, kind, failing in rows:
                    if kind == "hidden":
                        print(f"    {file:58s} own step {own:22s} lost in {step:22s} hidden {failing}")
    print(f"{'all':18s} {totals['public']:7d} {totals['hidden']:7d}")


if __name__ == "__main__":
    main()
