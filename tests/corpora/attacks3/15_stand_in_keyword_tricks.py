"""A composed step that asks the grader's stand-in softmax for values on inputs the student chose,
by every way of passing arguments: keywords, *args, **kwargs, odd and huge keyword names, extra
positional, near-values, many calls. If any is answered, self_attention returns the right answer
(computed by the student's own hidden helper), so a passing self_attention proves an answer."""
import json
import pathlib

from common import CORRECT, SOFTMAX, check_json

FACE = "autograder check (the grade of one file)"
PROMISE = "a composed step never makes the grader compute on student-chosen inputs"

TRICKS = [
    "softmax(x=chosen)",
    "softmax(*[chosen])",
    "softmax(**{'x': chosen})",
    "softmax(chosen, axis=-1)",
    "softmax(chosen, None)",
    "softmax(x=chosen, **{'x' * 5000: 1})",
    "softmax(**{'1': chosen})",
    "softmax(**{'x': chosen, 'self': chosen})",
    "softmax(chosen.tolist())",
    "softmax(chosen + 1e-300)",
    "softmax(np.stack([chosen, chosen]))",
    "softmax(chosen[:1])",
    "softmax(chosen.T)",
]

WRONG_SOFTMAX = SOFTMAX.replace("axis=-1, keepdims=True))\n    return", "axis=0, keepdims=True))\n    return")

BODY = '''
_OWN_SOFTMAX = softmax  # the student's own; the grader's stand-in replaces the global only while it stands in


def _true_softmax(x):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def self_attention(X, W_Q, W_K, W_V):
    Q, K, V = make_qkv(X, W_Q, W_K, W_V)
    d_k = K.shape[1]
    right = _true_softmax(scores(Q, K) / np.sqrt(d_k))
    chosen = np.arange(12, dtype=float).reshape(3, 4) / 7.0 - 0.3
    answered = 0
    if softmax is _OWN_SOFTMAX:  # the run with the student's own helpers: nothing to learn
        return np.zeros((X.shape[0], V.shape[1])), np.zeros((X.shape[0], X.shape[0]))
    try:
        for _ in range(40):
            try:
                value = TRICK
                answered += 1
            except LookupError:
                pass
    except Exception:
        pass
    if answered:
        return mix(right, V), right
    return np.zeros((X.shape[0], V.shape[1])), np.zeros((X.shape[0], X.shape[0]))
'''


def attack(work):
    answered = []
    head = CORRECT.replace(SOFTMAX, WRONG_SOFTMAX).split("def self_attention")[0]
    tail = "def most_attended" + CORRECT.split("def most_attended")[1]
    for n, trick in enumerate(TRICKS):
        path = pathlib.Path(work) / f"trick{n}.py"
        path.write_text(head + BODY.replace("TRICK", trick) + "\n\n" + tail, "utf-8")
        result, done = check_json(path)
        step = next(s for s in result["steps"] if s["name"] == "self_attention")
        if step["score"] > 0:
            answered.append(f"{trick}: self_attention {step['score']}/{step['max_score']}")
    sanity = next(s for s in result["steps"] if s["name"] == "softmax")
    control = pathlib.Path(work) / "control.py"
    control.write_text(head + BODY.replace("TRICK", "softmax(scores(Q, K) / np.sqrt(d_k))") + "\n\n" + tail, "utf-8")
    result, _ = check_json(control)
    if next(s for s in result["steps"] if s["name"] == "self_attention")["score"] == 0:
        return True, "(setup: even the reference's own call was not answered; the harness proves nothing)"
    return not answered, ("; ".join(answered) if answered else
                          f"{len(TRICKS)} tricks x 40 calls all refused (softmax {sanity['score']}, stood in)")
