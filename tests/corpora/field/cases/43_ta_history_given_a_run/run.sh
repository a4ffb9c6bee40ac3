#!/usr/bin/env bash
# TA: types `autograder history out/lab1` — the run folder of lab 1 itself — instead of its parent
# (the quick start: `autograder history out/course/  # out/course/lab1, out/course/lab2 …`).
# Promise (a demanding TA: a refusal says what is wrong): the sentence says that out/lab1 is a grading
# run itself and to give the folder that holds the runs (out/), not that out/lab1 'holds no run'.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c43; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" canvas; cd "$d"
"$AG" grade submissions.zip --out out/lab1 > /dev/null 2>&1 || verdict BROKE "set-up grade failed"
for lang in ko en; do
    "$AG" history out/lab1 --lang $lang > h.out 2> h-$lang.err; rc=$?
    say "$lang: exit $rc: $(cat h.out h-$lang.err)"
done
[ $rc != 0 ] || verdict HELD "history accepted a run folder (a course of one lab)"
grep -qE "holds no run|실행 결과가 없|채점 결과가 없" h-en.err h-ko.err && verdict BROKE "refused saying out/lab1 'holds no run' although it is a run; the sentence never says to give out/"
grep -q "out/lab1" h-en.err && grep -qE "'out'|out/ |the folder that holds" h-en.err && verdict HELD "refused naming the parent folder"
verdict BROKE "refusal does not say that out/lab1 is a run and to give out/: $(cat h-en.err)"
