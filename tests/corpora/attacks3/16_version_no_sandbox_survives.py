"""`grade --no-sandbox` (a TA debugging) and then the same command without it: a submission that reads
the reference when nothing confines it must lose those points in the sandboxed rerun."""
from common import CORRECT, cli, grades, write_class

FACE = "autograder grade (resume by grader version and settings)"
PROMISE = "a rerun equals a clean run: no stale grade survives a change the grade depends on"

CHEAT = CORRECT.split("def softmax")[0] + '''
def softmax(x):
    try:
        import importlib
        return importlib.import_module("solutions.self_attention").softmax(x)
    except Exception:
        return np.zeros_like(np.asarray(x, dtype=float))
''' + "def mix" + CORRECT.split("def mix")[1]


def attack(work):
    root = write_class(work / "sandbox" / "class", {"s01": CHEAT, "s02": CORRECT})
    out = work / "sandbox" / "run"
    loose = cli("grade", root, "--out", out, "--jobs", "1", "--no-sandbox")
    first = grades(out)["s01"]["softmax"]
    strict = cli("grade", root, "--out", out, "--jobs", "1")
    rerun = grades(out)["s01"]["softmax"]
    clean_out = work / "sandbox" / "clean"
    cli("grade", root, "--out", clean_out, "--jobs", "1")
    clean = grades(clean_out)["s01"]["softmax"]
    if first == clean:
        return True, f"(setup: the cheat scored the same unconfined and confined: {first})"
    said = [line for line in strict.stdout.splitlines() if "이번에 채점한" in line]
    return rerun == clean, (f"unconfined softmax {first}, sandboxed rerun {rerun}, clean sandboxed run {clean}; "
                            f"rerun said {said[-1:]!r}")
