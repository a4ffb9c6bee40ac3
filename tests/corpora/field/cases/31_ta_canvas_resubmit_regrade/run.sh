#!/usr/bin/env bash
# TA: graded a Canvas class of 30 (lab1/), wrote an override for 20003, then downloaded submissions.zip
# again after three resubmissions (Canvas: new attachment id, '-1' before the extension, one _LATE_) and
# ran the same command into the same folder.
# Promise (docs/ta/index.md "Runs are safe to repeat", after.md "Overrides"): the rerun grades only the
# three resubmitters, the other 27 are unchanged; resubmitters' new grades are those of their new files;
# the override written against the old automatic points is flagged for review, not applied, and
# `export` withholds that one cell (exit 3) while filling every other.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c31; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" canvas; cd "$d"
"$AG" grade submissions.zip --out lab1 > g1.out 2> g1.err || verdict BROKE "first grade exited $?"
printf 'id,step,points,comment,by\n20003,softmax,1.5,축 설명은 맞음,김조교\n' > lab1/overrides.csv
"$AG" grade submissions.zip --out lab1 > g2.out 2> g2.err || verdict BROKE "grade with overrides exited $?"
grep -q '^20003,.*,9.5,9.5,' lab1/grades.csv || verdict BROKE "override not applied: $(grep ^20003, lab1/grades.csv)"
"$APY" - "$SUBS" <<'PY'
import sys, zipfile
subs = sys.argv[1]
src = zipfile.ZipFile("submissions.zip"); out = zipfile.ZipFile("submissions (1).zip", "w")
new = {"20003": ("parkseoyeon_20003_80001_self_attention_lab-1.py", "l1_correct.py"),        # fixed softmax
       "20005": ("jungharin_LATE_20005_80002_self_attention_lab-1.ipynb", "l1_correct.ipynb"),  # stub -> done, late
       "20010": ("limjiwon_20010_80003_self_attention_lab-1.py", "l1_wrong_softmax.py")}         # made it worse
for i in src.infolist():
    uid = i.filename.split("_")[-3] if "_LATE_" not in i.filename else i.filename.split("_")[2]
    uid = [p for p in i.filename.split("_") if p.isdigit() and len(p) == 5][0]
    if uid in new:
        name, body = new[uid]
        out.writestr(zipfile.ZipInfo(name, (2026, 3, 3, 9, 0, 0)), open(f"{subs}/{body}", "rb").read())
    else:
        out.writestr(i, src.read(i))
out.close()
PY
"$AG" grade "submissions (1).zip" --out lab1 > g3.out 2> g3.err; rc=$?
say "regrade exit $rc: $(tail -1 g3.out)"
grep -v "^채점 " g3.err | sed 's/^/  | stderr: /' | head -6
[ $rc = 0 ] || verdict BROKE "regrade exited $rc"
grep -q "이번에 채점한 학생 3명" g3.out || verdict BROKE "the rerun did not grade exactly the 3 resubmitters: $(tail -1 g3.out)"
"$APY" "$L/oracle.py" "$AG" lab1/grades.csv "submissions (1).zip" || verdict BROKE "regraded totals differ from autograder check"
for id in 20003 20005 20010; do say "grades.csv: $(grep "^$id," lab1/grades.csv | cut -d, -f1,3,5,6,15-)"; done
grep -q "^20003,.*review" lab1/grades.csv || verdict BROKE "the stale override of 20003 is not flagged for review"
"$AG" export canvas lab1 --lab self_attention --sheet 2026-03-05T0900_Grades-TP101.csv --out import.csv --column "Lab 1" > e.out 2> e.err; rc=$?
say "export exit $rc: $(cat e.out)"
[ $rc = 3 ] || verdict BROKE "export exit $rc, expected 3 (one withheld cell)"
"$APY" - <<'PY' || verdict BROKE "export did not fill 29 cells and withhold 20003's"
import csv, io
rows = list(csv.reader(io.StringIO(open("import.csv", encoding="utf-8-sig").read())))
cells = {r[1]: r[6] for r in rows[3:] if len(r) > 6}
assert cells["20003"] == "", cells["20003"]
assert sum(1 for k, v in cells.items() if v) == 29, cells
assert cells["20005"] == "10" and cells["20010"] == "8.94", (cells["20005"], cells["20010"])
print("  | import.csv: 29 cells filled (20005 10, 20010 8.94), 20003 left empty for review")
PY
verdict HELD "rerun graded only the 3 resubmitters, right grades, stale override held for review and withheld by export"
