"""Two students hand in the notebook's .py twin as it was handed out, with one step written (the
same self_attention, computed inline). Everything else is the stub, which is nobody's. The step's
own code item is capped below the listing threshold (STEP_CODE_CAP), but the whole file is the
same, and the file item weighs the same step's nodes again, without the cap."""
import pathlib

from helpers5 import CORRECT, SOFTMAX, STUB, cli, listed_together, similar, write_class
from simclass import VARIED

FACE = "autograder grade (similar.csv, the report's look-alike section)"
PROMISE = "one step's code alone is never listed (shared code weighs in proportion to its own size)"

STUB_BODY = '''        output  -- (n, d_v) 새 벡터: weights대로 V를 가중 평균한 것.
    """
    raise NotImplementedError
'''
FILLED = '''        output  -- (n, d_v) 새 벡터: weights대로 V를 가중 평균한 것.
    """
    X = np.asarray(X, dtype=float)
    queries = X @ np.asarray(W_Q, dtype=float)
    keys = X @ np.asarray(W_K, dtype=float)
    values = X @ np.asarray(W_V, dtype=float)
    raw = queries @ keys.T / np.sqrt(keys.shape[1])
    raw = raw - raw.max(axis=1, keepdims=True)
    weights = np.exp(raw)
    weights = weights / weights.sum(axis=1, keepdims=True)
    return weights @ values, weights
'''


def attack(work):
    work = pathlib.Path(work)
    assert STUB.count(STUB_BODY) == 1
    one_step = STUB.replace(STUB_BODY, FILLED)
    files = {"s01": one_step, "s02": one_step,
             **{f"s{n + 3:02d}": CORRECT.replace(SOFTMAX, body) for n, body in enumerate(VARIED)}}
    root = write_class(work / "class", files)
    out = work / "run"
    done = cli("grade", root, "--out", out, "--jobs", "2", "--lab", "self_attention")
    if done.returncode != 0:
        return False, f"grade exited {done.returncode}: {done.stderr[-300:]}"
    groups = similar(out)
    pair = {ids: steps for ids, steps in groups.items() if {"s01", "s02"} <= set(ids.split())}
    if pair:
        return False, (f"two files whose only code that is not the handed-out stub is one step function are "
                       f"listed: {pair}")
    return True, f"not listed (groups: {groups or 'none'})"
