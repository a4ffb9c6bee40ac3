"""AUTOGRADER_DECLARED_MISTAKES=off changes which mistakes are named, hence points; a rerun without it
must regrade, not keep the grades made with it."""
from common import CORRECT, cli, grades, write_class

FACE = "autograder grade (resume by grader version and settings)"
PROMISE = "a rerun equals a clean run"

NO_EXP = CORRECT.replace("shifted = np.exp(x - x.max(axis=-1, keepdims=True))",
                         "shifted = x - x.min(axis=-1, keepdims=True) + 1e-9")


def attack(work):
    root = write_class(work / "switch" / "class", {"s01": NO_EXP, "s02": CORRECT,
                                                    "s03": CORRECT.replace("return weights @ V", "return weights.T @ V")})
    out = work / "switch" / "run"
    cli("grade", root, "--out", out, "--jobs", "2", env={"AUTOGRADER_DECLARED_MISTAKES": "off"})
    off = {s: r["total"] for s, r in grades(out).items()}
    again = cli("grade", root, "--out", out, "--jobs", "2")
    rerun = {s: r["total"] for s, r in grades(out).items()}
    clean_out = work / "switch" / "clean"
    cli("grade", root, "--out", clean_out, "--jobs", "2")
    clean = {s: r["total"] for s, r in grades(clean_out).items()}
    if off == clean:
        return True, f"(setup: the switch changed no total here: {off})"
    said = [line for line in again.stdout.splitlines() if "이번에 채점한" in line]
    return rerun == clean, f"switch off {off}; rerun {rerun}; clean {clean}; rerun said {said[-1:]!r}"
