#!/usr/bin/env bash
# TA, tired, reuses output folders (docs/ta/slips.md "The output folder belongs to one run"):
#  1. grades the Moodle section of the same lab into the Canvas class's lab1/ (another class)
#  2. grades lab 2 into lab1/ (another lab)
#  3. gives --out ~/문서 — a folder of the TA's own documents
#  4. gives the class zip's folder itself / a file as --out
# Promise: each refused with exit 2 before anything is written, the sentence names what is there and a
# folder to give instead; not one byte of lab1/ or of the documents changes; lab1 still regrades.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c39; rm -rf "$d"; mkdir -p "$d"; cd "$d"
"$APY" "$L/lms.py" "$SUBS" canvas canvas; "$APY" "$L/lms.py" "$SUBS" moodle-en moodle-en
mkdir lab2subs; for i in 1 2 3; do cp "$SUBS/l2_correct.py" "lab2subs/kim${i}_2000${i}_9000${i}_masked_attention_lab.py"; done
mkdir 문서; echo "회의록" > 문서/회의록.txt; cp "$SUBS/l1_correct.py" 문서/내_풀이.py; echo "<h1>x</h1>" > 문서/index.html
"$AG" grade canvas/submissions.zip --out lab1 > /dev/null 2>&1 || verdict BROKE "set-up grade failed"
snap() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum) ; }
before=$(snap lab1); docs=$(snap 문서)
try() {  # try "what" args...
    local what=$1; shift
    "$AG" grade "$@" > t.out 2> t.err; local rc=$?
    say "$what: exit $rc: $(head -c 220 t.err)"
    [ $rc = 2 ] || verdict BROKE "$what: exit $rc, not refused"
}
try "another class into lab1" "moodle-en/TP101-Lab 1-4401.zip" --out lab1
try "lab 2 into lab1" lab2subs --out lab1
try "the TA's documents as --out" canvas/submissions.zip --out 문서
try "a file as --out" canvas/submissions.zip --out canvas/2026-03-05T0900_Grades-TP101.csv
[ "$(snap lab1)" = "$before" ] || verdict BROKE "lab1/ changed"
[ "$(snap 문서)" = "$docs" ] || verdict BROKE "the TA's documents changed"
[ ! -e lab1-masked_attention ] || verdict BROKE "a folder was made"
"$AG" grade canvas/submissions.zip --out lab1 > r.out 2> r.err || verdict BROKE "the same class no longer regrades into lab1: $(cat r.err)"
verdict HELD "four out-folder slips refused, nothing changed, the right folder still regrades"
