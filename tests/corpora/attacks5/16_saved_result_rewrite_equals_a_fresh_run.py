"""The outputs a rerun writes from the judged results saved in results/<id>.json (here: only the
language changed, so no code runs) must be byte for byte what a fresh grading writes. Tried on the
hostile corpus's files that lie about themselves, forge events, return NaN, subclasses, mappings
of object arrays, escape sequences and broken files, beside two honest ones."""
import pathlib
import shutil

from helpers5 import CORRECT, ROOT, cli, tree, write_class

FACE = "autograder grade (a rerun that rewrites outputs from results/<id>.json)"
PROMISE = ("a student's outputs rewritten from the saved judged result are byte for byte what a fresh grading "
           "writes, without running the code")

PICKED = ("tamper__", "display__", "broken__", "leak__", "snoop__softmax", "snoop__reference_helpers")


def attack(work):
    work = pathlib.Path(work)
    root = work / "class"
    root.mkdir()
    for path in sorted((ROOT / "tests" / "corpora" / "hostile").iterdir()):
        if path.name.startswith(PICKED) and path.suffix in (".py", ".ipynb"):
            shutil.copy(path, root / path.name)
    write_class(root, {"honest_a": CORRECT, "honest_b": CORRECT.replace("return weights @ V", "return weights.T @ V")})
    count = len(list(root.iterdir()))
    first = cli("grade", root, "--out", work / "rerun", "--lab", "self_attention", "--jobs", "2", "--timeout", "3",
                "--allow-merged-ids")
    assert first.returncode == 0, first.stderr[-400:]
    again = cli("grade", root, "--out", work / "rerun", "--lab", "self_attention", "--jobs", "2", "--timeout", "3",
                "--lang", "en", "--allow-merged-ids")
    fresh = cli("grade", root, "--out", work / "fresh", "--lab", "self_attention", "--jobs", "2", "--timeout", "3",
                "--lang", "en", "--allow-merged-ids")
    assert again.returncode == 0 and fresh.returncode == 0, again.stderr[-300:] + fresh.stderr[-300:]
    summary = again.stdout.strip().splitlines()[-1] if again.stdout.strip() else ""
    rewritten, graded = tree(work / "rerun"), tree(work / "fresh")
    per_student = [name for name in graded if name.startswith(("feedback/", "results/"))]
    differ = [name for name in per_student if rewritten.get(name) != graded[name]]
    if differ:
        return False, f"{len(differ)} of {len(per_student)} outputs differ from a fresh run: {differ[:6]} ({summary})"
    return True, (f"{len(per_student)} outputs of {count} files identical to a fresh grading; the rerun said: "
                  f"{summary[:200]}")
