#!/usr/bin/env bash
# TA: Canvas class, one student's upload marked _LATE_ by Canvas (leejiwon_LATE_20002_...), submitted the
# morning after the deadline. The TA grades the zip with
#   --due 2026-03-01T23:59+09:00 --late-penalty 10%/day,max=50%
# and, a week later, regrades the same files from a copy of the unpacked folder (cp -r onto the office PC;
# docs/ta/report.md itself says file times change when files are copied or downloaded).
# Promise (a demanding TA; report.md: 'a file's modification time never makes anyone late: copying or
# downloading changes it'): the same submission gets the same late penalty whichever copy is graded and
# whenever; the penalty never grows with the date of the TA's copy.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
d=$W/c48; rm -rf "$d"; mkdir -p "$d"; cd "$d"
"$APY" - "$SUBS" <<'PY'
import zipfile, sys
S = sys.argv[1]
with zipfile.ZipFile("submissions.zip", "w") as z:
    for name, when in (("kimminsu_20001_70001_self_attention_lab.py", (2026, 3, 1, 20, 0, 0)),
                       ("leejiwon_LATE_20002_70002_self_attention_lab.py", (2026, 3, 2, 9, 0, 0)),
                       ("parkseoyeon_20003_70003_self_attention_lab.py", (2026, 3, 1, 21, 0, 0))):
        z.writestr(zipfile.ZipInfo(name, when), open(f"{S}/l1_correct.py", "rb").read())
PY
R="--due 2026-03-01T23:59+09:00 --late-penalty 10%/day,max=50%"
TZ=Asia/Seoul "$AG" grade submissions.zip --out lab1 $R > g1.out 2> g1.err || verdict BROKE "grade exited $?"
mkdir unpacked && (cd unpacked && unzip -q ../submissions.zip)                # unzip keeps the entries' times
cp -r unpacked office-copy; touch -d "2026-03-09 10:00" office-copy/*          # what a plain copy a week later does
TZ=Asia/Seoul "$AG" grade unpacked --out lab1-unpacked $R > g2.out 2> g2.err || verdict BROKE "grade exited $?"
TZ=Asia/Seoul "$AG" grade office-copy --out lab1-copy $R > g3.out 2> g3.err || verdict BROKE "grade exited $?"
row() { grep '^20002,' "$1/grades.csv" | cut -d, -f4,5,6,8; }
say "zip:         20002 submitted_at,late,total,penalty = $(row lab1)"
say "unpacked:    20002 = $(row lab1-unpacked)"
say "office copy: 20002 = $(row lab1-copy)"
[ "$(row lab1 | cut -d, -f3,4)" = "$(row lab1-copy | cut -d, -f3,4)" ] || verdict BROKE "the same LATE submission loses $(row lab1 | cut -d, -f4)% from the zip and $(row lab1-copy | cut -d, -f4)% from a copy made a week later: the days are counted from the copy's file time"
verdict HELD "the late penalty does not depend on the copy's file time"
