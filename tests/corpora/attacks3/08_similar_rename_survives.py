"""A true copy hidden the trivial ways (names, comments, docstrings, parameter hints, blank lines,
quotes) must still be listed. The copied work is right, so only the code can tell."""
from common import CORRECT, SOFTMAX
from simclass import grade_class

FACE = "autograder grade (similar.csv)"
PROMISE = "a true copy is not hidden trivially (renaming, comments)"

ORIGINAL = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    peak = np.max(x, axis=-1, keepdims=True)
    lifted = np.exp(x - peak)
    denom = lifted.sum(axis=-1, keepdims=True)
    out = lifted / denom
    out = np.where(np.isfinite(out), out, 0.0)
    return out
'''
DISGUISED = '''def softmax(logits: np.ndarray) -> np.ndarray:
    """행마다 확률로 바꿉니다."""
    # 배열로 바꾸기
    logits = np.asarray(logits, dtype=float)

    top = np.max(logits, axis=-1, keepdims=True)  # 최댓값
    powered = np.exp(logits - top)
    total = powered.sum(axis = -1, keepdims = True)
    result = powered / total
    result = np.where(np.isfinite(result), result, 0.0)
    return result
'''


def attack(work):
    groups, _ = grade_class(work / "rename", (CORRECT.replace(SOFTMAX, ORIGINAL), CORRECT.replace(SOFTMAX, DISGUISED)))
    pair = {ids: steps for ids, steps in groups.items() if set(ids.split()) >= {"s01", "s02"}}
    return bool(pair), f"listed: {pair}" if pair else f"the disguised copy is not listed (groups: {groups or 'none'})"
