#!/usr/bin/env bash
# Student (Python 3.10, the student half only) makes the mistakes students make, one file each, and checks
# with `python -m lab_check FILE --json` before submitting; the TA grades the same file with
# `autograder check --json` (the final grade, hidden cases included):
#   nomax   softmax without subtracting the maximum (overflows on large scores)
#   dv      self_attention scaled by sqrt(d_v) instead of sqrt(d_k)
#   three   mix hard-coded for three words (weights[:, :3] @ V[:3])
#   inplace scores that scales K in place (K /= 1) and transposes by hand for 3 words
# Promise (docs/students/index.md: the public tests catch most mistakes the hidden ones catch;
# docs/instructors/reading.md: 'the public cases alone fail exactly the steps the full grade fails'):
# for each file, the steps the student's check fails are the steps that lose points in the final grade.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build; . "$C/../60_student_py310_run_all_and_export/student_env.sh"
ensure_student_venv 3.10
d=$W/c64; rm -rf "$d"; mkdir -p "$d"; fresh_half "$d/lab"; cd "$d/lab"
"$APY" - "$FIELD/lib" <<'PY'
import sys; sys.path.insert(0, sys.argv[1]); import subs
base = open("self_attention_lab.py", encoding="utf-8").read()
mistakes = {
    "nomax": ("softmax", "e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)"),
    "dv": ("self_attention", "Q, K, V = make_qkv(X, W_Q, W_K, W_V)\n    w = softmax(scores(Q, K) / np.sqrt(V.shape[1]))\n    return mix(w, V), w"),
    "three": ("mix", "return weights[:, :3] @ V[:3]"),
    "inplace": ("scores", "K = np.asarray(K)\n    out = np.zeros((Q.shape[0], K.shape[0]))\n    for i in range(3):\n        for j in range(3):\n            out[i, j] = Q[i] @ K[j]\n    return out"),
}
for name, (step, body) in mistakes.items():
    b = subs.bodies_for("self_attention", "correct"); b[step] = body
    text = subs.fill_text(base, b)
    open(f"mistake_{name}.py", "w", encoding="utf-8").write(text)
PY
bad=0
for f in mistake_*.py; do
    "$SPY" -m lab_check "$f" --json > "$f.public.json" 2> /dev/null
    "$AG" check "$f" --json > "$f.final.json" 2> /dev/null
    line=$("$APY" - "$f" <<'PY'
import json, sys
f = sys.argv[1]
pub = json.load(open(f + ".public.json")); fin = json.load(open(f + ".final.json"))
def failing(d): return {s["name"]: tuple(s.get("mistakes") or ()) for s in d["steps"] if s["score"] < s["max_score"]}
p, q = failing(pub), failing(fin)
ok = set(p) == set(q)
print(("OK  " if ok else "DIFF") + f" {f}: public check fails {p or '{}'}; final grade loses points on {q or '{}'} ({fin['score']}/10)")
PY
)
    say "$line"; case "$line" in DIFF*) bad=$((bad + 1));; esac
done
[ $bad = 0 ] || verdict BROKE "$bad mistake(s) pass the student's checks but lose points in the final grade (or the reverse)"
verdict HELD "for every typical mistake the student's public check fails the same steps as the final grade"
