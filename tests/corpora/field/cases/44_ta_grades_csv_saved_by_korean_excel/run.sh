#!/usr/bin/env bash
# TA: opened lab1/grades.csv in Excel on Korean Windows to look at it and pressed Save ('CSV (쉼표로 분리)':
# cp949, CRLF, 10.0 shown as 10). Then `autograder export canvas ...` and `autograder history`.
# docs/ta/index.md: grades.csv is 'UTF-8 with BOM, opens in spreadsheets'; overrides.csv is read in
# Korean Excel's cp949; export.md: 'change grades with overrides.csv'.
# Promise (a demanding TA): export/history either read the file or refuse with a sentence in the TA's
# language that says what happened (grades.csv is no longer the file grade wrote, e.g. saved by Excel)
# and how to go on (run the same `autograder grade` again to rewrite it); a Python codec error is BROKE.
# Then the way out: the same grade command rewrites grades.csv and export works.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c44; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" canvas; cd "$d"
"$AG" grade submissions.zip --out course/lab1 > /dev/null 2>&1 || verdict BROKE "set-up grade failed"
"$APY" - <<'PY'
import csv, io
rows = list(csv.reader(io.StringIO(open("course/lab1/grades.csv", encoding="utf-8-sig").read())))
out = io.StringIO(); w = csv.writer(out, lineterminator="\r\n")
for r in rows:
    w.writerow([c[:-2] if c.endswith(".0") else c for c in r])
open("course/lab1/grades.csv", "w", encoding="cp949", newline="").write(out.getvalue())
PY
S=2026-03-05T0900_Grades-TP101.csv
"$AG" export canvas course/lab1 --lab self_attention --sheet $S --out import.csv --column "Lab 1" > e.out 2> e.err; erc=$?
say "export exit $erc: $(cat e.out e.err | tr '\n' ' ')"
"$AG" history course > h.out 2> h.err; hrc=$?
say "history exit $hrc: $(cat h.out h.err | head -c 300 | tr '\n' ' ')"
"$AG" grade submissions.zip --out course/lab1 > g.out 2> g.err; grc=$?
"$AG" export canvas course/lab1 --lab self_attention --sheet $S --out import.csv --column "Lab 1" > e2.out 2> e2.err; e2=$?
say "way out: grade again exit $grc, export exit $e2"
bad=""
for f in e.err h.err; do
    if [ -s $f ]; then
        grep -qiE "codec|can't decode|invalid start byte" $f && bad="$bad $f:codec-error"
        grep -qE "autograder grade|다시 채점|grade를 다시|같은 명령" $f || bad="$bad $f:no-way-out"
    fi
done
[ $erc = 0 ] && [ $hrc = 0 ] && bad=""
[ -z "$bad" ] || verdict BROKE "a grades.csv saved by Korean Excel gives a Python codec error with no way out ($bad)"
[ $grc = 0 ] && [ $e2 = 0 ] || verdict BROKE "grading again did not restore the run (grade $grc, export $e2)"
verdict HELD "read, or refused with the way out; grading again restores it"
