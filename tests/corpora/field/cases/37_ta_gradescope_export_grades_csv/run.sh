#!/usr/bin/env bash
# TA: Gradescope 'Export Submissions' of 30 (assignment_4812345_export/submission_N/ and
# submission_metadata.yml as Gradescope writes it: 'submission_N:' keys, ':submitters:' with ':sid:'),
# unpacked into a folder to which the TA also copied Gradescope's 'Download Grades' CSV
# (First Name, Last Name, SID, Email, ..., Total Score, Max Points, ...).
# Promise (docs/ta/lms.md): ids are the SIDs, names the submitters' names, times Gradescope's created_at
# shown in the course's zone (--lms-timezone Asia/Seoul: +09:00); the grades CSV is an LMS file,
# listed, never a student nor a row of grades.csv; grades are autograder check's.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c37; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" gradescope; cd "$d"
mkdir class && (cd class && unzip -q ../assignment_4812345_export.zip) && cp Lab_1_scores.csv class/assignment_4812345_export/
TZ=UTC "$AG" grade class --out lab1 --lms-timezone Asia/Seoul --lang en > g.out 2> g.err; rc=$?
say "grade exit $rc: $(tail -1 g.out)"
[ $rc = 0 ] || verdict BROKE "grade exited $rc"
"$APY" "$L/oracle.py" "$AG" lab1/grades.csv class || verdict BROKE "grades differ from autograder check"
"$APY" - "$L" <<'PY' || verdict BROKE "ids, names or times are not Gradescope's"
import csv, sys
sys.path.insert(0, sys.argv[1]); import lms
people = {p["sis"]: p for p in lms.roster()}
rows = list(csv.DictReader(open("lab1/grades.csv", encoding="utf-8-sig")))
assert len(rows) == 30, [r["id"] for r in rows if r["id"] not in people]
for r in rows:
    p = people[r["id"]]
    assert r["name"] == p["name"], (r["id"], r["name"], p["name"])
    want = f"2026-03-01T{10 + p['i'] % 8:02d}:{p['i'] % 60:02d}:00+09:00"
    assert r["submitted_at"] == want, (r["id"], r["submitted_at"], want)
print("  | 30 rows: ids = SIDs, names = submitters, submitted_at = created_at at +09:00")
PY
grep -q "Lab_1_scores.csv" lab1/report.html || verdict BROKE "the grades CSV is not listed in the report"
verdict HELD "Gradescope export read as Gradescope wrote it; grades CSV listed, not graded"
