"""Two students who each write softmax the way every textbook and blog writes it (right answers)."""
from common import CORRECT, SOFTMAX
from simclass import grade_class

FACE = "autograder grade (similar.csv)"
PROMISE = "innocent common work is never flagged"

# The form of d2l, cs231n notes and countless blog posts; two students write it independently,
# one with a docstring and other names.
TEXTBOOK_A = '''def softmax(x):
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e_x / np.sum(e_x, axis=-1, keepdims=True)
'''
TEXTBOOK_B = '''def softmax(x):
    """numerically stable softmax"""
    exps = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exps / np.sum(exps, axis=-1, keepdims=True)
'''


def attack(work):
    groups, _ = grade_class(work / "textbook", (CORRECT.replace(SOFTMAX, TEXTBOOK_A), CORRECT.replace(SOFTMAX, TEXTBOOK_B)))
    flagged = {ids: steps for ids, steps in groups.items() if "s01" in ids.split() and "s02" in ids.split()}
    if flagged:
        return False, f"two right answers written the textbook way are listed: {flagged}"
    return True, f"not listed (groups: {groups or 'none'})"
