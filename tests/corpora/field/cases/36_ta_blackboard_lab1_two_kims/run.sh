#!/usr/bin/env bash
# TA: regrade of two resubmissions on Blackboard. The assignment is called 'Lab1' (no space, as many
# are: HW1, Lab1), and on the 'Download Assignment' page the TA ticks only the two students who
# resubmitted: kim_ms and kim_jh. Blackboard writes 'Lab1_kim_ms_attempt_2026-03-03-10-00-00_attention.py'
# and receipts whose first lines say 'Name: Kim Minsu (kim_ms)' and 'Assignment: Lab1'.
# Promise (docs/ta/lms.md "Student ids": a Blackboard name 'Lab 1_kim_ms_attempt_...' -> 'kim_ms'; ids
# come from what the LMS writes; export.md: Blackboard is matched by 'Username'): the ids are kim_ms and
# kim_jh, and `export blackboard` fills their two cells in the Grade Center download.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
d=$W/c36; rm -rf "$d"; mkdir -p "$d"; cd "$d"
"$APY" - "$SUBS" <<'PY'
import sys, zipfile
S = sys.argv[1]
att = [("Kim Minsu", "kim_ms", "2026-03-03-10-00-00", "Tuesday, March 3, 2026 10:00:00 AM KST", "l1_correct.py"),
       ("Kim Jihoon", "kim_jh", "2026-03-03-11-30-00", "Tuesday, March 3, 2026 11:30:00 AM KST", "l1_wrong_softmax.py")]
with zipfile.ZipFile("gradebook_TP101_Lab1_2026-03-04-09-00-00.zip", "w") as z:
    for name, user, stamp, date, src in att:
        base = f"Lab1_{user}_attempt_{stamp}"
        z.writestr(base + ".txt", f"Name: {name} ({user})\nAssignment: Lab1\nDate Submitted: {date}\nCurrent Grade: Needs Grading\n\n"
                   "Submission Field:\nThere is no student submission text data for this assignment.\n\nComments:\n"
                   f"There are no student comments for this assignment.\n\nFiles:\n\tOriginal filename: attention.py\n\tFilename: {base}_attention.py\n")
        z.writestr(base + "_attention.py", open(f"{S}/{src}", "rb").read())
rows = [["Last Name", "First Name", "Username", "Student ID", "Last Access", "Availability", "Lab1 [Total Pts: 10 Score] |2345678"],
        ["Kim", "Minsu", "kim_ms", "2024001", "", "Available", ""], ["Kim", "Jihoon", "kim_jh", "2024007", "", "Available", ""],
        ["Lee", "Jiwon", "lee_jw", "2024002", "", "Available", "10"], ["Park", "Seoyeon", "park_sy", "2024003", "", "Available", "7"]]
open("gc_TP101_fullgc_2026-03-04-09-00-00.xls", "wb").write(b"\xff\xfe" + "".join("\t".join('"%s"' % c for c in r) + "\r\n" for r in rows).encode("utf-16-le"))
PY
"$AG" grade gradebook_TP101_Lab1_2026-03-04-09-00-00.zip --out lab1-regrade --lms-timezone Asia/Seoul > g.out 2> g.err; rc=$?
ids=$(cut -d, -f1,2,6 lab1-regrade/grades.csv | tail -n +2 | tr '\n' ' ')
say "grade exit $rc; grades.csv id,name,total: $ids"
"$AG" export blackboard lab1-regrade --lab self_attention --sheet gc_TP101_fullgc_2026-03-04-09-00-00.xls --out bb-upload.xls > e.out 2> e.err; erc=$?
say "export exit $erc: $(cat e.out e.err | head -3)"
case "$ids" in *"kim_jh,"*"kim_ms,"*) ;; *) verdict BROKE "ids are not the usernames the receipts and the Grade Center name (got: $ids); export exit $erc";; esac
[ $erc = 0 ] || verdict BROKE "export exit $erc"
verdict HELD "ids are the usernames; export filled both cells"
