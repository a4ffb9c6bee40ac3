#!/usr/bin/env bash
# TA (English): a Canvas class of 30 (submissions.zip with lastfirst_userid_attachmentid_name, Hangul
# names, a Word file) graded with --lang en, then `export canvas` into the gradebook Canvas exports today
# (BOM, a 'Manual Posting' row above 'Points Possible', three assignment columns, a Test Student).
# Promise (docs/ta/index.md, export.md): every grade is the one `autograder check` gives the same bytes;
# everything grade and export say is English; the sheet is byte-identical but for the Lab 1 cells.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
d=$W/c30; rm -rf "$d"; mkdir -p "$d"; "$APY" "$C/lms.py" "$SUBS" "$d" canvas; cd "$d"
"$AG" grade submissions.zip --out lab1 --lang en > grade.out 2> grade.err; rc=$?
say "grade exit $rc: $(tail -1 grade.out)"
[ $rc = 0 ] || verdict BROKE "grade exited $rc: $(tail -2 grade.err)"
"$APY" "$C/oracle.py" "$AG" lab1/grades.csv submissions.zip || verdict BROKE "grades differ from autograder check on the same files"
hangul() { grep -P '[\x{AC00}-\x{D7A3}]' "$@" | grep -vP '^(graded|autograder: note)' ; }
"$AG" export canvas lab1 --lab self_attention --sheet 2026-03-05T0900_Grades-TP101.csv --out canvas-import.csv --column "Lab 1" --lang en > export.out 2> export.err; rc=$?
say "export exit $rc: $(cat export.out)"
[ $rc = 0 ] || verdict BROKE "export exited $rc: $(cat export.err)"
# English only: the summary lines and the report txt (students' names and the section column are data).
for f in grade.out export.out export.err canvas-import-report.txt; do
    if grep -P '[\x{AC00}-\x{D7A3}]' "$f" | grep -vP '김|이|박|최|정|강|조|윤|장|임|분반' > /dev/null; then
        verdict BROKE "$f has Korean text under --lang en: $(grep -P '[\x{AC00}-\x{D7A3}]' "$f" | head -2)"
    fi
done
"$APY" - <<'PY' || verdict BROKE "the filled gradebook differs from the download beyond the Lab 1 cells"
import csv, sys, os
sys.path.insert(0, os.path.join(os.environ["FIELD"], "lib")); from rawcsv import split_raw
raw = open("2026-03-05T0900_Grades-TP101.csv", "rb").read(); got = open("canvas-import.csv", "rb").read()
assert got[:3] == b"\xef\xbb\xbf", "BOM lost"
want = {r["id"]: r["total"] for r in csv.DictReader(open("lab1/grades.csv", encoding="utf-8-sig")) if r["total"]}
a, b = raw[3:].decode().split("\n"), got[3:].decode().split("\n")
assert len(a) == len(b), "line count"
changed = 0
for x, y in zip(a, b):
    fx, fy = split_raw(x), split_raw(y)
    if x == y:
        continue
    assert len(fx) == len(fy) and [c for i, c in enumerate(fx) if i != 6] == [c for i, c in enumerate(fy) if i != 6], (x, y)
    assert float(fy[6]) == float(want[fx[1]]), (fx[1], fy[6], want[fx[1]])
    changed += 1
assert changed == 30, changed
print(f"  | sheet: only the 30 Lab 1 cells changed, each equal to grades.csv; Manual Posting, Points Possible, Test Student rows untouched")
PY
verdict HELD "30 Canvas students graded as autograder check grades them; English throughout; gradebook filled exactly"
