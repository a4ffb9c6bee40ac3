"""How many wrong files of a blind corpus the repair search names on the line of their real mistake
(the corpus's MANIFEST.csv gives each file's step and line), and how many correct files get full
marks. The search reads neither the labs' declared mistakes nor the explainer's relations, so the
count is the same with both switched off (AUTOGRADER_DECLARED_MISTAKES=off AUTOGRADER_RELATIONS=off).
Run by hand:

    .venv/bin/python benchmarks/repair_corpora.py tests/corpora/corpus_blind6
    .venv/bin/python benchmarks/repair_corpora.py tests/corpora/corpus_blind5 --list
"""
import argparse
import collections
import csv
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.grading import grade_bytes  # noqa: E402
from autograder.grading.plan import Plan
from autograder.sandbox.runner import Zygote  # noqa: E402
from labs.masked_attention import LAB as MASKED  # noqa: E402
from labs.self_attention import LAB  # noqa: E402

LABS = {LAB.name: LAB, MASKED.name: MASKED}


def verdict(row, result):
    """'line' (a repair names the manifest's line), 'other_line', 'none', or 'passed' (not detected)."""
    step = next(s for s in result.steps if s.name == row["step"])
    if step.status == "passed":
        return "passed", None
    if step.repair is None:
        return "none", None
    lines = {part.line for part in (*step.repair.parts, *step.repair.also)}
    return ("line" if int(row["line"]) in lines else "other_line"), step.repair


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=pathlib.Path)
    parser.add_argument("--list", action="store_true", help="one line per file")
    args = parser.parse_args(argv)
    plans = {name: Plan.build(lab) for name, lab in LABS.items()}
    counts = collections.Counter()
    started = time.monotonic()
    with Zygote() as zygote, open(args.corpus / "MANIFEST.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            path = args.corpus / row["file"]
            result = grade_bytes(path.name, path.read_bytes(), zygote, plans[row["lab"]])
            if not row["step"]:
                counts["correct, full marks" if result.score == result.max_score else "correct, NOT full marks"] += 1
                continue
            found, repair = verdict(row, result)
            counts[found] += 1
            if args.list:
                print(f"{found:10} {row['file']}  {repair and [(p.kind, p.line) for p in repair.parts]}", flush=True)
    detected = counts["line"] + counts["other_line"] + counts["none"]
    print(dict(counts), f"{time.monotonic() - started:.0f} s")
    if detected:
        print(f"named on the line: {counts['line']} of {detected} detected wrong files ({100 * counts['line'] / detected:.0f} %)")


if __name__ == "__main__":
    main()
