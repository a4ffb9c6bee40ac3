#!/usr/bin/env bash
# Instructor: builds lab 1 (`autograder build --lab self_attention --out ...`), then checks the zip with
# `otter run` as docs/instructors/index.md writes it, on three submissions: the notebook with a softmax
# over the wrong axis, the same as .py, and the notebook fully done.
# Promise (docs/instructors/trust.md: 'The same engine grades in every face'; docs/ta/report.md: totals
# 'are rounded once to hundredths ... in grades.csv, results/ and the feedback alike'): results.json's
# score and each step's score equal what `autograder check` / `autograder grade` give the same file —
# 8.94 is 8.94 on the LMS too, not 8.94118.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build
d=$W/c50; rm -rf "$d"; mkdir -p "$d"; cd "$d"
OTTER=$(dirname "$AG")/otter; Z=$W/dist1/autograder/self_attention_lab-autograder.zip
for f in l1_wrong_softmax.ipynb l1_wrong_softmax.py l1_correct.ipynb; do
    mkdir -p out/results-$f; cp "$SUBS/$f" "sub-$f"
    "$OTTER" run -a "$Z" -o out/results-$f/ "sub-$f" > o-$f.log 2>&1 || verdict BROKE "otter run $f exited $?: $(tail -2 o-$f.log)"
    "$AG" check "sub-$f" --json > c-$f.json
    "$APY" - "$f" <<'PY' || touch differ
import json, sys
f = sys.argv[1]
r = json.load(open(f"out/results-{f}/results.json")); c = json.load(open(f"c-{f}.json"))
lms = {t["name"]: t["score"] for t in r["tests"] if "score" in t}
chk = {s["name"]: s["score"] for s in c["steps"]}
print(f"  | {f}: otter run score {r['score']}, autograder check {c['score']}; softmax {lms.get('softmax')} vs {chk['softmax']}")
sys.exit(0 if r["score"] == c["score"] and all(lms[k] == v for k, v in chk.items()) else 1)
PY
done
[ -e differ ] && verdict BROKE "the LMS zip's results.json carries unrounded totals (8.94118) where check/grade/pytest give 8.94"
verdict HELD "otter run and autograder check give the same totals"
