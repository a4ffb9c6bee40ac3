"""A copier hides a whole-file copy from the look-alike signal with one statement that does
nothing. `...`, `pass` and type hints were made neutral after the third round (attacks3/09); any
other statement that does nothing still changes the step's and the file's fingerprint: a bare
`-1`, a bare name, `()`, `if False: pass`, `assert True`, `x = x`, an f-string "docstring"."""
import pathlib

from helpers5 import CORRECT, SOFTMAX, cli, listed_together, similar, write_class
from simclass import VARIED

FACE = "autograder grade (similar.csv, the report's look-alike section)"
PROMISE = "statements that do nothing and type hints never change a code fingerprint"

# The copied softmax (attacks3/08's ORIGINAL): long enough to count, with the rest of correct.py.
ORIGINAL = '''def softmax(x):
    x = np.asarray(x, dtype=float)
    peak = np.max(x, axis=-1, keepdims=True)
    lifted = np.exp(x - peak)
    denom = lifted.sum(axis=-1, keepdims=True)
    out = lifted / denom
    out = np.where(np.isfinite(out), out, 0.0)
    return out
'''
ANCHOR = "    return out\n"
NOOPS = {
    "nothing (control: the exact copy)": None,
    "a bare ... (neutral since round 3)": "...",
    "a bare -1": "-1",
    "a bare name": "out",
    "an empty tuple ()": "()",
    "if False: pass": "if False:\n        pass",
    "assert True": "assert True",
    "out = out": "out = out",
    "an f-string docstring": 'f"softmax"',
}


def attack(work):
    work = pathlib.Path(work)
    original = CORRECT.replace(SOFTMAX, ORIGINAL)
    hidden, kept = [], []
    for number, (label, noop) in enumerate(NOOPS.items()):
        copy = original if noop is None else original.replace(ANCHOR, f"    {noop}\n{ANCHOR}")
        assert noop is None or copy != original
        files = {"s01": original, "s02": copy,
                 **{f"s{n + 3:02d}": CORRECT.replace(SOFTMAX, body) for n, body in enumerate(VARIED)}}
        root = write_class(work / f"c{number}" / "class", files)
        out = work / f"c{number}" / "run"
        done = cli("grade", root, "--out", out, "--jobs", "2", "--lab", "self_attention")
        if done.returncode != 0:
            return False, f"grade exited {done.returncode}: {done.stderr[-300:]}"
        (kept if listed_together(similar(out), "s01", "s02") else hidden).append(label)
    if "nothing (control: the exact copy)" in hidden:
        return True, "(setup: even the exact copy is not listed)"
    if [h for h in hidden if "neutral" not in h]:
        return False, (f"the exact copy is listed, but one no-op line in softmax unlists it: "
                       f"{', '.join(h for h in hidden if 'neutral' not in h)} (still listed: {', '.join(kept)})")
    return True, f"every no-op line keeps the copy listed ({', '.join(kept)})"
