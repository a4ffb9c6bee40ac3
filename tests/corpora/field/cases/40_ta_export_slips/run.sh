#!/usr/bin/env bash
# TA, exporting lab 1 (Canvas) with slips (docs/ta/export.md "What export never writes over"):
#  1. the gradebook of another course (TP102: none of the run's students)
#  2. the submissions.zip given where the run's folder is wanted
#  3. --out the downloaded sheet itself (to 'save over it')
#  4. --out inside the run's folder (lab1/canvas-import.csv)
# Promise: each refused with exit 2 and a sentence that says what was wrong; nothing written; the
# downloaded sheet and lab1/ unchanged byte for byte.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c40; rm -rf "$d" "$W/c40-logs"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" canvas; cd "$d"
S=2026-03-05T0900_Grades-TP101.csv
"$APY" - <<'PY'
raw = open("2026-03-05T0900_Grades-TP101.csv", encoding="utf-8-sig").read().split("\n")
out = raw[:3] + [l.replace(",200", ",300", 1) for l in raw[3:] if l]   # other people: ids 300xx
open("2026-03-05T0910_Grades-TP102.csv", "w", encoding="utf-8-sig").write("\n".join(out) + "\n")
PY
"$AG" grade submissions.zip --out lab1 > /dev/null 2>&1 || verdict BROKE "set-up grade failed"
snap() { (find lab1 -type f -print0 | sort -z | xargs -0 sha256sum; sha256sum "$S" 2026-03-05T0910_Grades-TP102.csv) ; }
mkdir -p ../c40-logs; before=$(snap); ls > ../c40-logs/before.ls
try() {
    local what=$1; shift
    "$AG" export canvas "$@" --lab self_attention --column "Lab 1" --lang en > ../c40-logs/t.out 2> ../c40-logs/t.err; local rc=$?
    say "$what: exit $rc: $(head -c 260 ../c40-logs/t.err | tr '\n' ' ')"
    [ $rc = 2 ] || verdict BROKE "$what: exit $rc, not refused"
}
try "another course's gradebook" lab1 --sheet 2026-03-05T0910_Grades-TP102.csv --out import.csv
try "the zip instead of the run" submissions.zip --sheet $S --out import.csv
try "--out the sheet itself" lab1 --sheet $S --out ./$S
try "--out inside the run folder" lab1 --sheet $S --out lab1/canvas-import.csv
ls > ../c40-logs/after.ls
[ "$(snap)" = "$before" ] || verdict BROKE "a sheet or lab1/ changed"
cmp -s ../c40-logs/before.ls ../c40-logs/after.ls || verdict BROKE "files appeared: $(diff ../c40-logs/before.ls ../c40-logs/after.ls | tr '\n' ' ')"
verdict HELD "four export slips refused with the reason; nothing written, nothing changed"
