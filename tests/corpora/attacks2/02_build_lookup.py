"""Builds 02_public_answer_lookup.py from what the students' kit ships (public_data.json: the public
probes' arguments and expected values, see autograder/otter/public_data.py). A student reads the
same data from dist/student/attention_check/kit/public_data.json; nothing hidden is used.

Run: .venv/bin/python tests/corpora/attacks2/02_build_lookup.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(HERE))))  # the checkout

from autograder.otter.public_data import public_data  # the kit's own data, as `autograder build` writes it
from autograder.core.child import codec
from labs.self_attention import LAB


def main():
    data = public_data(LAB)
    table = {}
    for step, probes in data["probes"].items():
        rows = []
        for probe in probes:
            args = [codec.decode(a) for a in probe["args"]]
            expected = [codec.decode(e) for e in probe["expected"]]
            rows.append([[_plain(a) for a in args], [_plain(e) for e in expected]])
        table[step] = rows
    path = os.path.join(HERE, "02_public_answer_lookup.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(TEMPLATE.replace("@TABLE@", json.dumps(table, ensure_ascii=False)))
    print("wrote", path)


def _plain(value):
    import numpy as np
    if isinstance(value, np.ndarray):
        return {"array": value.tolist()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


TEMPLATE = '''"""Attack 02 (points not earned): no computation at all, only a table of the public answers.

The students' kit ships every public probe's arguments and expected values (public_data.json).
Each function looks its arguments up in that table and returns the stored answer; on any other
input it returns an array of the right *shape* (read from the inputs) filled with a number derived
from the inputs (so the grader sees neither `ignores_arguments` nor `nondeterministic`). The page's
case is answered, and so is a public case of other sizes, so the grader's `hardcoded` rule (0 %)
never fires; every step then keeps the share of cases it "passed".
"""
import json

import numpy as np

TABLE = json.loads(r"""@TABLE@""")


def _key(value):
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return ("words", tuple(value))
    array = np.asarray(value, dtype=float)
    return (array.shape, tuple(np.round(array.ravel(), 4).tolist()))


def _unplain(value):
    if isinstance(value, dict) and "array" in value:
        return np.array(value["array"], dtype=float)
    return value


_LOOKUP = {step: {tuple(_key(_unplain(a)) for a in args): [_unplain(e) for e in expected]
                  for args, expected in rows} for step, rows in TABLE.items()}


def _answer(step, *args):
    found = _LOOKUP[step].get(tuple(_key(a) for a in args))
    return None if found is None else found


def _filler(*args):
    """A number that follows the inputs (no computation of the step): their total, tiny."""
    total = 0.0
    for a in args:
        try:
            total += float(np.nansum(np.asarray(a, dtype=float)))
        except (TypeError, ValueError):
            total += len(a)
    return 1e-3 * (1 + abs(total) % 7)


def make_qkv(X, W_Q, W_K, W_V):
    found = _answer("make_qkv", X, W_Q, W_K, W_V)
    if found is not None:
        return tuple(found)
    c = _filler(X, W_Q, W_K, W_V)
    n = np.shape(X)[0]
    return (np.full((n, np.shape(W_Q)[1]), c), np.full((n, np.shape(W_K)[1]), 2 * c),
            np.full((n, np.shape(W_V)[1]), 3 * c))


def scores(Q, K):
    found = _answer("scores", Q, K)
    if found is not None:
        return found[0]
    return np.full((np.shape(Q)[0], np.shape(K)[0]), _filler(Q, K))


def softmax(x):
    found = _answer("softmax", x)
    if found is not None:
        return found[0]
    return np.full(np.shape(x), _filler(x))


def mix(weights, V):
    found = _answer("mix", weights, V)
    if found is not None:
        return found[0]
    return np.full((np.shape(weights)[0], np.shape(V)[1]), _filler(weights, V))


def self_attention(X, W_Q, W_K, W_V):
    found = _answer("self_attention", X, W_Q, W_K, W_V)
    if found is not None:
        return tuple(found)
    c = _filler(X, W_Q, W_K, W_V)
    n = np.shape(X)[0]
    return np.full((n, np.shape(W_V)[1]), c), np.full((n, n), 2 * c)


def most_attended(weights, words):
    found = _answer("most_attended", weights, words)
    if found is not None:
        return found[0]
    words = list(words)
    return {w: words[(i + int(1000 * _filler(weights))) % len(words)] for i, w in enumerate(words)}
'''

if __name__ == "__main__":
    main()
