"""Other edits as trivial as a comment: a bare `...` or `pass` line, a type hint on a local
variable. Each, alone, must not hide the copy of attack 08."""
import importlib

from common import CORRECT, SOFTMAX
from simclass import grade_class

FACE = "autograder grade (similar.csv)"
PROMISE = "a true copy is not hidden trivially; say what defeats it"

base = importlib.import_module("08_similar_rename_survives")
EDITS = {
    "nothing (the control: an exact copy)": base.ORIGINAL,
    "a bare ... line": base.ORIGINAL.replace("    return out", "    ...\n    return out"),
    "a pass line": base.ORIGINAL.replace("    return out", "    pass\n    return out"),
    "a local type hint": base.ORIGINAL.replace("    lifted = np.exp", "    lifted: np.ndarray = np.exp"),
}


def attack(work):
    hidden = []
    for label, body in EDITS.items():
        groups, _ = grade_class(work / label.replace(" ", "_").replace(".", "dot"),
                                (CORRECT.replace(SOFTMAX, base.ORIGINAL), CORRECT.replace(SOFTMAX, body)))
        if not any(set(ids.split()) >= {"s01", "s02"} for ids in groups):
            hidden.append(label)
    if "nothing (the control: an exact copy)" in hidden:
        return True, "(setup: even an exact copy is not listed)"
    if hidden:
        return False, f"the copy is no longer listed after only: {', '.join(hidden)}"
    return True, "each trivial edit still listed"
