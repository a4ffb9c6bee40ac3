#!/usr/bin/env bash
# TA: the course's two labs on Moodle, each its own assignment: lab 1 and lab 2 downloaded with
# 'Download all submissions', graded into out/course/lab1 and out/course/lab2, then
# `autograder history out/course` (docs/ta/after.md, quickstart-ko §6).
# Moodle names each folder 'Full Name_<participant id>_assignsubmission_file_', and the participant id is
# Moodle's per-assignment mapping (assign_user_mapping: the same student has another number in each
# assignment; it is also the 'Participant N' of that assignment's worksheet). So the same 30 people show
# under other numbers in lab 2.
# Promise (after.md "Course history"): one row per student of the course, with a total per lab and the
# course total — 30 students, each with both labs — or, if the runs cannot be joined, a refusal or a
# warning that says so. Never 60 half-students whose course totals are each one lab.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c33; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" moodle-en; cd "$d"
"$APY" - "$SUBS" "$L" <<'PY'
import sys, zipfile
sys.path.insert(0, sys.argv[2]); import lms
k = ["l2_correct.py", "l2_wrong_mask.py", "l2_stub.py"]
with zipfile.ZipFile("TP101-Lab 2-4402.zip", "w") as z:
    for p in lms.roster():   # the same people; Moodle's participant number of the lab 2 assignment
        z.writestr(f"{p['name']}_{int(p['moodle']) + 1000}_assignsubmission_file_/masked_attention_lab.py",
                   open(f"{sys.argv[1]}/{k[p['i'] % 3]}", "rb").read())
PY
"$AG" grade "TP101-Lab 1-4401.zip" --out course/lab1 --lang en > g1.out 2> g1.err || verdict BROKE "lab 1 grade exited $?"
"$AG" grade "TP101-Lab 2-4402.zip" --out course/lab2 --lang en > g2.out 2> g2.err || verdict BROKE "lab 2 grade exited $?"
"$AG" history course --lang en > h.out 2> h.err; rc=$?
say "history exit $rc: $(cat h.out)"
say "stderr: $(head -c 300 h.err)"
rows=$(($(wc -l < course/history/course.csv) - 1))
say "course.csv: $rows rows; first: $(sed -n 2p course/history/course.csv)"
both=$("$APY" -c "
import csv
print(sum(1 for r in csv.DictReader(open('course/history/course.csv', encoding='utf-8-sig')) if r['self_attention_total'] and r['masked_attention_total']))")
say "students with both labs: $both"
[ "$rows" = 30 ] && [ "$both" -ge 29 ] && verdict HELD "30 students, each with both labs"
[ $rc != 0 ] && ! [ -s course/history/course.csv ] && verdict HELD "refused (cannot join Moodle assignments)"
grep -qi "moodle" h.err && grep -qi "participant" h.err && verdict HELD "warned that Moodle's participant numbers differ per assignment"
verdict BROKE "history made $rows 'students' of 30, $both with both labs, course totals of one lab each, exit $rc, no word about why"
