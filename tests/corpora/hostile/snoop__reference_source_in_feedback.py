"""Correct except self_attention, which raises an exception carrying whatever step-function source it
can find in its process (reference helpers included), wrapped in terminal escape sequences and
control characters that would clear or recolour a TA's terminal."""
import inspect
import sys

import numpy as np
import pandas as pd


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    x = np.asarray(x, dtype=float)
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def _found_source():
    found = []
    for module in list(sys.modules.values()):
        compiled = getattr(module, "_compiled_helpers", None)
        if isinstance(compiled, dict):
            found.extend(k for k in compiled if isinstance(k, str))
    for name in ("make_qkv", "scores", "softmax", "mix", "most_attended"):
        function = globals().get(name)
        try:
            found.append(inspect.getsource(function))
        except (OSError, TypeError):
            pass
    return "\n".join(found)


def self_attention(X, W_Q, W_K, W_V):
    raise RuntimeError("\x1b[2J\x1b[H\x1b[31m\x1b]0;pwned\x07\x9b1m\u202e\x00\x08\r"
                       + _found_source()[:450] + "\x1b[0m")


def most_attended(weights, words):
    table = pd.DataFrame(weights, index=words, columns=words)
    return table.idxmax(axis=1).to_dict()
