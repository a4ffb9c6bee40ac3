#!/usr/bin/env bash
# TA: Blackboard class of 30 ('Download Assignment': attempts + receipts stating KST), two students with
# a second attempt after the deadline; graded on a UTC machine with the quick start's command
#   --due 2026-03-01T18:00+09:00 --late-penalty 10%/day,max=50%
# then exported into the Grade Center's Work Offline .xls (UTF-16, tab).
# Promise (docs/ta/late.md, lms.md, export.md): the newest attempt counts; the two late attempts lose 10 %
# (one started day) and nobody else does; the .xls is byte-identical but for the Lab 1 cells, which hold
# the penalised totals.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c35; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" blackboard; cd "$d"
Z=gradebook_TP101_Lab201_2026-03-05-09-00-00.zip
"$APY" - "$SUBS" "$L" "$Z" <<'PY'
import sys, zipfile
sys.path.insert(0, sys.argv[2]); import lms
people = {p["bb"]: p for p in lms.roster()}
with zipfile.ZipFile(sys.argv[3], "a") as z:
    for user in ("park_se2", "jung_ha4"):        # wrong_softmax / stub first, then a correct .py, late
        p = people[user]; base = f"Lab 1_{user}_attempt_2026-03-02-09-00-00"
        z.writestr(base + ".txt", lms.receipt(p, "", "Monday, March 2, 2026 9:00:00 AM KST", "attention.py", base + "_attention.py"))
        z.writestr(base + "_attention.py", open(f"{sys.argv[1]}/l1_correct.py", "rb").read())
PY
TZ=UTC "$AG" grade $Z --out lab1 --due 2026-03-01T18:00+09:00 --late-penalty 10%/day,max=50% > g.out 2> g.err; rc=$?
say "grade exit $rc: $(tail -1 g.out)"
[ $rc = 0 ] || verdict BROKE "grade exited $rc: $(grep -v '^채점 ' g.err)"
"$APY" "$L/oracle.py" "$AG" lab1/grades.csv $Z || verdict BROKE "raw totals differ from autograder check"
late=$("$APY" -c "
import csv
print(' '.join(f\"{r['id']}:{r['total']}\" for r in csv.DictReader(open('lab1/grades.csv', encoding='utf-8-sig')) if r['late'] == 'yes'))")
say "late: $late"
[ "$late" = "jung_ha4:9.0 park_se2:9.0" ] || verdict BROKE "late students/penalties wrong: '$late'"
"$AG" export blackboard lab1 --lab self_attention --sheet gc_TP101_fullgc_2026-03-05-09-00-00.xls --out bb-upload.xls --column "Lab 1" > e.out 2> e.err; rc=$?
say "export exit $rc: $(cat e.out)"
[ $rc = 0 ] || verdict BROKE "export exited $rc: $(cat e.err)"
"$APY" - <<'PY' || verdict BROKE "the .xls differs beyond the Lab 1 cells or holds other totals"
import csv
raw = open("gc_TP101_fullgc_2026-03-05-09-00-00.xls", "rb").read(); got = open("bb-upload.xls", "rb").read()
assert got[:2] == b"\xff\xfe"
tot = {r["id"]: r["total"] for r in csv.DictReader(open("lab1/grades.csv", encoding="utf-8-sig")) if r["total"]}
a = raw[2:].decode("utf-16-le").split("\r\n"); b = got[2:].decode("utf-16-le").split("\r\n")
assert len(a) == len(b)
n = 0
for x, y in zip(a[1:], b[1:]):
    if not x: assert x == y; continue
    fx, fy = x.split("\t"), y.split("\t")
    assert fx[:8] == fy[:8], (x, y)
    user = fx[2].strip('"')
    assert float(fy[8].strip('"')) == float(tot[user]), (user, fy[8], tot[user]); n += 1
assert a[0] == b[0]
print(f"  | bb-upload.xls: {n} Lab 1 cells = grades.csv totals (late ones 9), everything else byte-identical")
PY
verdict HELD "newest attempts graded, two late attempts penalised 10 %, Grade Center .xls filled exactly"
