"""An attacker who wants a classmate flagged, without their rare wrong values: submits the page's stub,
the stub with the reference's shapes of code, the same unfinished steps, and common named mistakes."""
from common import CORRECT, RARE, ROOT, SOFTMAX, with_softmax
from simclass import grade_class

FACE = "autograder grade (similar.csv)"
PROMISE = "a student cannot get another student flagged on purpose without sharing their rare wrong values"

STUB = (ROOT / "assignments" / "self_attention" / "self_attention_lab.py").read_text("utf-8")
MOST_ATTENDED = CORRECT[CORRECT.index("def most_attended"):]


def attack(work):
    # The victim: a rare wrong softmax, most_attended left as on the page.
    stub_most = STUB[STUB.index("def most_attended"):].split("\n# %%")[0]
    victim = with_softmax(RARE).replace(MOST_ATTENDED, stub_most + "\n")
    attempts = {
        "the stub untouched": STUB,
        "right code, most_attended left as stub, the common wrong axis": CORRECT.replace(MOST_ATTENDED, stub_most + "\n")
        .replace(SOFTMAX, SOFTMAX.replace("axis=-1", "axis=0")),
    }
    listed = []
    for label, attacker in attempts.items():
        groups, _ = grade_class(work / f"frame{len(listed)}{len(label)}", (victim, attacker))
        if any(set(ids.split()) >= {"s01", "s02"} for ids in groups):
            listed.append(f"{label}: {groups}")
    return not listed, "; ".join(listed) or "the victim is never listed with the attacker"
