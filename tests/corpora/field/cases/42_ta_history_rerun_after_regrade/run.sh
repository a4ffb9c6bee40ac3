#!/usr/bin/env bash
# TA: keeps an English course history beside the Korean one, inside the course folder:
#   autograder history out/course                                   (-> out/course/history/)
#   autograder history out/course --out out/course/history-en --lang en
# then lab 2 is regraded after a resubmission, and the TA runs the same two commands again.
# Promise (docs/ta/after.md: every run rewrites the outputs; history reads 'the grade runs in
# COURSE_DIR's folders'): running the same history commands again after a regrade works and shows the
# new grade. A history refusing the course because of a folder that history itself wrote is BROKE.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c42; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" canvas; cd "$d"
mkdir lab2; for i in 01 02 03; do cp "$SUBS/l2_wrong_mask.py" "lab2/s${i}_200${i}_9${i}_masked_attention_lab.py"; done
"$AG" grade submissions.zip --out course/lab1 > /dev/null 2>&1 && "$AG" grade lab2 --out course/lab2 > /dev/null 2>&1 || verdict BROKE "set-up grades failed"
for round in 1 2; do
    "$AG" history course > h$round.out 2> h$round.err; a=$?
    "$AG" history course --out course/history-en --lang en > e$round.out 2> e$round.err; b=$?
    say "round $round: history exit $a: $(head -c 150 h$round.out h$round.err | tr '\n' ' ')"
    say "round $round: history --out course/history-en exit $b: $(head -c 300 e$round.out e$round.err | tr '\n' ' ')"
    [ $a = 0 ] && [ $b = 0 ] || verdict BROKE "round $round: the same history commands fail (exit $a, $b): $(cat h$round.err e$round.err | head -c 300)"
    [ $round = 1 ] && { cp "$SUBS/l2_correct.py" lab2/s01_20001_95_masked_attention_lab-1.py; rm lab2/s01_20001_901_masked_attention_lab.py
                        "$AG" grade lab2 --out course/lab2 > /dev/null 2>&1 || verdict BROKE "regrade failed"; }
done
grep -q '^20001,.*,10.0,graded,' course/history-en/course.csv || verdict BROKE "the regraded lab 2 is not in history-en/course.csv"
verdict HELD "both history commands rerun after the regrade"
