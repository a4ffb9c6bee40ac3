#!/usr/bin/env bash
# A student uploads lab 2's finished notebook/.py to lab 1's Gradescope assignment (two labs open the same
# week). docs/OTTER.md: "Every submission gets a results.json that says what happened"; README: a file
# written for another lab is refused by `check --lab` "saying which lab they are for"; "never the same
# reason and an unrelated hint six times".
. "$(dirname "$0")/../lib/env.sh"; ensure_subs; ensure_build
img=$(gs_image py310 "$W/dist1/autograder/self_attention_lab-autograder.zip" 3.10.13)
cp "$SUBS/l2_correct.py" "$W/masked_attention_lab.py"
gs_grade "$img" "$W/masked_attention_lab.py" > "$W/gs18.out" 2>&1
python3 - "$img/root/results/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
out = d["tests"][0]["output"]
print("  | score", d["score"], "| top-level output:", repr(d.get("output", ""))[:80])
print("  | Public Tests:", "\n  |   ".join(out.split("\n")[:4]))
print("  | '함수가 없습니다' x", out.count("함수가 없습니다"), "| mentions masked_attention / 실습 2:", "masked_attention" in json.dumps(d, ensure_ascii=False) or "실습 2" in out)
PY
"$AG" check "$W/masked_attention_lab.py" --lab self_attention > /dev/null 2> "$W/c18.err"; say "autograder check --lab self_attention: exit $?: $(head -c 150 "$W/c18.err")"
grep -q "masked_attention\|실습 2" "$img/root/results/results.json" || verdict BROKE "lab 2's file on lab 1's Gradescope: 0/10 with six 'function missing — check the spelling' messages; nothing says it is lab 2's file (the engine knows: check --lab says so)"
verdict HELD "results.json says the file is for the other lab"
