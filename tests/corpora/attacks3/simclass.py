"""A class of ten for the look-alike attacks: eight varied students plus two chosen by the attack."""
import csv

from common import CORRECT, SOFTMAX, cli, write_class

# Eight honest, differently written softmax functions (all right).
VARIED = [
    '''def softmax(x):
    x = np.asarray(x, dtype=float)
    z = x - np.max(x, axis=-1, keepdims=True)
    ez = np.exp(z)
    s = np.sum(ez, axis=-1, keepdims=True)
    return ez / s
''',
    '''def softmax(x):
    arr = np.array(x, dtype=np.float64)
    arr = arr - arr.max(axis=-1)[..., None]
    out = np.exp(arr)
    out /= out.sum(axis=-1)[..., None]
    return out
''',
    '''def softmax(x):
    x = np.asarray(x, dtype=float)
    m = x.max(axis=-1, keepdims=True)
    return np.exp(x - m) / np.exp(x - m).sum(axis=-1, keepdims=True)
''',
    '''def softmax(x):
    values = np.asarray(x, dtype=float)
    biggest = np.amax(values, axis=-1, keepdims=True)
    powered = np.exp(values - biggest)
    return powered / powered.sum(axis=-1, keepdims=True)
''',
    '''def softmax(x):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        e = np.exp(x - x.max())
        return e / e.sum()
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
''',
    '''def softmax(x):
    x = np.asarray(x, dtype=float)
    shifted = x - x.max(axis=-1, keepdims=True)
    log_den = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return np.exp(shifted - log_den)
''',
    SOFTMAX,
    '''def softmax(x):
    x = np.asarray(x, dtype=float)
    result = np.exp(x - np.max(x, axis=-1, keepdims=True))
    result = result / np.sum(result, axis=-1, keepdims=True)
    return result
''',
]


def grade_class(folder, pair):
    """Grade s01, s02 = `pair` and s03..s10 = VARIED; return the listed groups {ids: [steps]}."""
    files = {"s01": pair[0], "s02": pair[1]}
    files.update({f"s{n + 3:02d}": CORRECT.replace(SOFTMAX, body) for n, body in enumerate(VARIED)})
    root = write_class(folder / "class", files)
    out = folder / "run"
    done = cli("grade", root, "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    with open(out / "similar.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    groups = {}
    for row in rows:
        groups.setdefault(row["ids"], []).append(f"{row['step']}={row['step_score']}")
    return groups, out
