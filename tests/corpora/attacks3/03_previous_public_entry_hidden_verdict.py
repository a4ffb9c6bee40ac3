"""The entry shown at once ("compared with your last submission, public tests") must not tell a step
that now fails only hidden tests; neither may any entry shown before publication."""
from common import CORRECT, SOFTMAX, gradescope, previous_entry

FACE = "Gradescope entry point (previous_submissions)"
PROMISE = "no hidden verdict or value shown before grades are published"

# Right on every public softmax input; wrong only on a 6-column input (a hidden test's shape).
HIDDEN_ONLY = SOFTMAX + '''

_right_softmax = softmax


def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.shape[-1] == 6:
        return np.ones_like(x) / 7.0
    return _right_softmax(x)
'''


def attack(work):
    code, first, _ = gradescope(work / "first", {"self_attention_lab.py": CORRECT})
    assert code == 0 and first["score"] == 10.0
    source = CORRECT.replace(SOFTMAX, HIDDEN_ONLY)
    code, now, output = gradescope(work / "second", {"self_attention_lab.py": source},
                                   {"previous_submissions": [previous_entry(first)]})
    step = next(t for t in now["tests"] if t["name"] == "softmax")
    if step.get("score", 2) >= 2:
        return True, f"(setup failed: softmax was not failing a hidden test: {step.get('score')})"
    shown = [t for t in now["tests"] if t.get("visibility") == "visible"]
    said = [f"{t['name']}: {line.strip()}" for t in shown for line in (t.get("output") or "").splitlines()
            if "softmax" in line and ("틀립니다" in line or "fails" in line or "more" in line)]
    names = [t["name"] for t in now["tests"]]
    return not said, ("visible entries name softmax failing: " + " | ".join(said)) if said else (
        f"softmax scored {step.get('score')} (hidden failure); visible entries {[t['name'] for t in shown]} "
        f"say nothing of it; all entries {names}")
