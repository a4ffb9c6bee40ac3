"""How many wrong files of each corpus get a specific explanation, with the declared mistakes on
and off (AUTOGRADER_DECLARED_MISTAKES=off: only the explainer, autograder/core/explain/, reads values).

A wrong file's own step (its file name or its MANIFEST says which) is counted as one of:
  declared   a declared mistake of the lab names it (or a rule of the judge: hardcoded, transposed, ...)
  relation   a generic code, and the explainer names a relation of the values (a formula, a predicate,
             a container, a mapping's relation, a constant ratio)
  observed   a generic code; the explainer says only what is observable (which rows, which kind of test)
  error      the function raised, timed out or is missing: the error itself is told
  vague      a generic code and nothing more ("compare each line with the page")
  passed     the step passed (a file the grader accepts)
Run by hand (it grades every file twice, a few minutes on 2 cores):

    .venv/bin/python benchmarks/explain_corpora.py
    .venv/bin/python benchmarks/explain_corpora.py --corpus corpus_field2 --list
"""
import argparse
import collections
import csv
import os
import pathlib
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder import registry  # noqa: E402
from autograder.grading import grade_file  # noqa: E402
from autograder.grading.plan import Plan
from autograder.core.judge import EXPLAINABLE  # noqa: E402
from autograder.core.predictions import DECLARED_MISTAKES_SWITCH  # noqa: E402
from autograder.sandbox.runner import Zygote  # noqa: E402

CORPORA = {"corpus": "self_attention", "corpus_field": "self_attention", "corpus_field2": "self_attention",
           "corpus_wild": "self_attention", "corpus_masked": "masked_attention",
           "corpus_blind/lab1": "self_attention", "corpus_blind/lab2": "masked_attention",
           "corpus_blind2/lab1": "self_attention", "corpus_blind2/lab2": "masked_attention",
           "corpus_blind3/lab1": "self_attention", "corpus_blind3/lab2": "masked_attention",
           "corpus_blind4/lab1": "self_attention", "corpus_blind4/lab2": "masked_attention"}
ERRORS = {"exception", "crashed", "timeout", "not_run", "not_implemented", "missing", "syntax_error",
          "missing_module", "stand_in_refused"}
ACCEPTED = {"most_attended__returns_series.py"}  # a Series answers like the dict asked for
# A judge's rule whose own words stand when the explainer finds nothing in the values.
RULE_CODES = {"fails_off_page", "fails_off_seen"}
CATEGORIES = ("declared", "relation", "observed", "error", "vague", "passed")


def wrong_files(folder):
    """(path, its own step) of every wrong file of a corpus folder."""
    manifest = folder / "MANIFEST.toml"
    sheet = folder.parent / "MANIFEST.csv"  # one sheet beside the labs' folders: file,lab,step,cause,kind
    if sheet.exists():
        rows = csv.DictReader(sheet.open(encoding="utf-8"))
        # The lab column says lab1/lab2 (the folder's name) or the lab's own name; a correct file has
        # no step ("-" or empty).
        return [(folder / row["file"], row["step"]) for row in rows
                if row["lab"] in (folder.name, CORPORA.get(f"{folder.parent.name}/{folder.name}"))
                and row["step"] not in ("-", "") and (folder / row["file"]).exists()]
    if manifest.exists():
        entries = tomllib.loads(manifest.read_text("utf-8"))
        return [(folder / name, entry["step"]) for name, entry in sorted(entries.items())
                if entry["step"] != "none" and name not in ACCEPTED]
    return [(path, path.name.split("__")[0]) for path in sorted(folder.iterdir())
            if path.suffix in (".py", ".ipynb") and "__" in path.name]


def category(step):
    if step.status == "passed":
        return "passed"
    code = step.mistakes[0] if step.mistakes else "wrong_values"
    if code in ERRORS:
        return "error"
    found = step.explained
    if any(e["relation"] not in ("observed", "kind_only") for e in found) and code in EXPLAINABLE:
        return "relation"
    if code not in EXPLAINABLE or code in RULE_CODES:
        return "declared"
    return "observed" if found else "vague"


def measure(corpus, lab, zygote, declared):
    os.environ[DECLARED_MISTAKES_SWITCH] = "on" if declared else "off"
    plan = Plan.build(lab)  # a fresh verdict memo for each setting
    rows = []
    for path, step_name in wrong_files(ROOT / "tests" / "corpora" / corpus):
        result = grade_file(path, zygote, plan)
        step = next(s for s in result.steps if s.name == step_name)
        rows.append((path.name, category(step), step.mistakes[:1], list(step.explained) or None))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", action="append", choices=sorted(CORPORA))
    parser.add_argument("--list", action="store_true", help="print each file's category")
    options = parser.parse_args()
    corpora = options.corpus or list(CORPORA)
    print(f"{'corpus':15s} {'declared':>9s} " + " ".join(f"{c:>9s}" for c in CATEGORIES) + "  total")
    with Zygote() as zygote:
        for corpus in corpora:
            lab = registry.load(CORPORA[corpus])
            for declared in (True, False):
                rows = measure(corpus, lab, zygote, declared)
                counts = collections.Counter(c for _, c, _, _ in rows)
                print(f"{corpus:15s} {'on' if declared else 'off':>9s} "
                      + " ".join(f"{counts[c]:9d}" for c in CATEGORIES) + f"  {len(rows)}")
                if options.list:
                    for name, kind, codes, explained in rows:
                        print(f"    {kind:9s} {name:55s} {codes} {explained or ''}")
    os.environ.pop(DECLARED_MISTAKES_SWITCH, None)


if __name__ == "__main__":
    main()
