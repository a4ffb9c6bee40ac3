# Attack 08 — hidden inputs smuggled in the names of refused stand-in requests.
# The student's softmax forgets the maximum (it loses part of the softmax step), so the grader
# stands in for softmax in self_attention: inside that call `softmax` is the grader's proxy, whose
# closure holds the event channel and the call id. On each hidden call, self_attention sends 40
# forged helper requests whose *names* spell the hidden X (a name is kept up to 40 characters, and
# the grader keeps its own record of every refusal, name included), then raises, so the hidden
# case is judged "stand_in_refused" and its detail keeps that record ("refused" is the one key
# grading.hidden_facts_only lets through). The attack succeeds if any face shows those names.
import numpy as np
import pandas as pd

_CALLS = [0]


def make_qkv(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def scores(Q, K):
    return Q @ K.T


def softmax(x):
    e = np.exp(np.asarray(x, dtype=float))  # no maximum subtracted: overflows on large values
    return e / e.sum(axis=-1, keepdims=True)


def mix(weights, V):
    return weights @ V


def _forge(X):
    proxy = globals().get("softmax")
    names = getattr(getattr(proxy, "__code__", None), "co_freevars", ())
    cells = dict(zip(names, [c.cell_contents for c in (proxy.__closure__ or ())]))
    channel, call_id = cells.get("channel"), cells.get("call_id")
    if channel is None:
        return False
    digits = ".".join(str(int(round(v * 10))) for v in np.asarray(X, float).ravel())
    pieces = [f"HX{k:02d}{digits[k * 36:(k + 1) * 36]}" for k in range(40) if digits[k * 36:(k + 1) * 36]]
    for piece in pieces[:40]:
        channel.ask_helper(call_id, piece, [])
    return True


def self_attention(X, W_Q, W_K, W_V):
    _CALLS[0] += 1
    if _CALLS[0] > 4 and _forge(X):
        raise LookupError("done")
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    scaled = Q @ K.T / np.sqrt(K.shape[1])
    e = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V, weights


def most_attended(weights, words):
    return pd.DataFrame(weights, index=words, columns=words).idxmax(axis=1).to_dict()
