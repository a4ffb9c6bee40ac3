#!/usr/bin/env bash
# Student on a fresh Python 3.10 venv (docs/students/index.md): installs only `pip install -r
# requirements.txt` from the folder the TA handed out, runs the untouched notebook in a real kernel
# (jupyter nbconvert --execute = Run All), fills the functions, runs it again, and submits the zip the
# last two cells make (docs/students/submit.md: the recommended submission).
# Promise: Run All of the untouched notebook reaches the last cell (each unfinished demo says so in one
# sentence, no traceback); the filled notebook's check_all shows every step passed; the zip it makes is
# graded 10/10 by `autograder check` and in a Canvas class by `autograder grade`.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build; . "$C/student_env.sh"
ensure_student_venv 3.10
d=$W/c60; rm -rf "$W/c60-out"; fresh_half "$d"; cd "$d"
"$SBIN/jupyter" nbconvert --to notebook --execute self_attention_lab.ipynb --output-dir "$W/c60-out" --output run-untouched.ipynb > nb1.log 2>&1 \
    || verdict BROKE "Run All of the untouched notebook stopped: $(grep -E 'Error|error' nb1.log | tail -2)"
nb_outputs "$W/c60-out/run-untouched.ipynb" > untouched.txt
say "untouched: $(grep -c '아직 완성하지 않아\|실행하지 않았습니다' untouched.txt) demo cells say 'not finished'; errors: $(grep -c '\[error\]' untouched.txt)"
grep -q '\[error\]' untouched.txt && verdict BROKE "an error output in the untouched run: $(grep '\[error\]' untouched.txt | head -1)"
rm -f self_attention_lab_*.zip
"$APY" "$FIELD/lib/subs.py" self_attention correct self_attention_lab.ipynb self_attention_lab.ipynb
"$SBIN/jupyter" nbconvert --to notebook --execute self_attention_lab.ipynb --inplace > nb2.log 2>&1 || verdict BROKE "Run All of the filled notebook stopped"
nb_outputs self_attention_lab.ipynb > filled.txt
last=$(grep -E '합계|총점|Total' filled.txt | tail -1); say "check_all: ${last:0:200}"
grep -q "10 / 10\|10/10" <<<"$last" || verdict BROKE "check_all does not show 10/10"
z=$(ls self_attention_lab_*.zip 2>/dev/null | head -1)
[ -n "$z" ] || verdict BROKE "grader.export() made no zip"
say "zip: $z: $(unzip -Z1 "$z" | tr '\n' ' ')"
"$AG" check "$z" --json > c.json 2> c.err; say "autograder check of the zip: exit $?: $(head -c 200 c.err)"
score=$("$APY" -c "import json; print(json.load(open('c.json'))['score'])" 2>/dev/null)
[ "$score" = 10.0 ] || verdict BROKE "autograder check gives the zip '$score'"
mkdir cls && cp "$z" "cls/kimminsu_20001_70001_$z" && "$AG" grade cls --out graded > g.out 2> g.err
say "grade: $(cut -d, -f1,6,15 graded/grades.csv | tail -1)"
grep -q '^20001,.*,10.0,10.0,.*graded' graded/grades.csv || verdict BROKE "autograder grade does not give the zip 10"
verdict HELD "3.10: Run All reaches the end untouched; filled notebook passes; its export zip is graded 10"
