#!/usr/bin/env bash
# TA: Blackboard class (receipts say "... KST"), deadline given as the README writes it, with an offset:
#   --due 2026-03-01T18:00+09:00 --late-penalty 10%/day
# on a grading machine whose clock is UTC (a cloud VM, a container, Colab). kim_ms submitted at 12:30:45 KST
# and lee_jw at 10:00 KST: both on time. choi_jh at 01:00 KST the next day: late by one started day.
# The attempt names carry no zone: they are read in the zone of --due, and grades.csv and the feedback show
# the offset. A deadline written in another zone than the receipts state is refused; --lms-timezone decides.
. "$(dirname "$0")/../../lib/env.sh"; ensure_subs
d=$W/bb-due; rm -rf "$d"; "$APY" "$(dirname "$0")/../04_ta_blackboard_roundtrip/make_class.py" "$SUBS" "$d"; cd "$d"
Z=gradebook_TP101_Lab201_2026-03-05-09-00-00.zip
TZ=UTC "$AG" grade $Z --out lab1 --due 2026-03-01T18:00+09:00 --late-penalty 10%/day > grade.out 2> grade.err; rc=$?
say "grade exit $rc"
[ $rc = 0 ] || verdict BROKE "grade exited $rc: $(cat grade.err)"
rows() { python3 - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(f"{sys.argv[1]}/grades.csv", encoding="utf-8-sig")):
    if r["status"] == "graded":
        print(r["id"], r["submitted_at"], r["late"], r["total"], r["raw_total"])
PY
}
rows lab1 | sed 's/^/  | /'
grep -h "마감" lab1/feedback/choi_jh.md | sed 's/^/  | feedback choi_jh: /'
want="choi_jh 2026-03-02T01:00:00+09:00 yes 8.1 9.0
kim_ms 2026-03-01T12:30:45+09:00 no 10.0 10.0
lee_jw 2026-03-01T10:00:00+09:00 no 10.0 10.0"
[ "$(rows lab1)" = "$want" ] || verdict BROKE "grades.csv: on-time students marked late, or times without their zone"
grep -q "2026-03-02 01:00:00 +09:00에 제출하여 1일 늦은" lab1/feedback/choi_jh.md \
    || verdict BROKE "choi_jh's feedback does not show the submission time with its zone"
# The same deadline written in UTC, while the receipts say KST: refused before anything is written.
TZ=UTC "$AG" grade $Z --out lab1-utc --due 2026-03-01T09:00Z --late-penalty 10%/day > utc.out 2> utc.err; rc=$?
say "deadline in UTC: exit $rc: $(cat utc.err)"
[ $rc = 2 ] && [ ! -e lab1-utc ] && grep -q -- "--lms-timezone +09:00" utc.err \
    || verdict BROKE "a deadline in another zone than the receipts' was not refused with the fix named"
# --lms-timezone says the LMS's zone: the UTC deadline is then 18:00 KST, as above.
TZ=UTC "$AG" grade $Z --out lab1-tz --due 2026-03-01T09:00Z --lms-timezone Asia/Seoul --late-penalty 10%/day > tz.out 2> tz.err; rc=$?
say "--lms-timezone Asia/Seoul: exit $rc"
[ $rc = 0 ] && [ "$(rows lab1-tz)" = "$want" ] || verdict BROKE "--lms-timezone Asia/Seoul did not give the same grades"
# No offset anywhere, on a machine in Korea: the deadline and the attempt names are both Korean time.
TZ=Asia/Seoul "$AG" grade $Z --out lab1-seoul --due 2026-03-01T18:00 --late-penalty 10%/day > seoul.out 2> seoul.err; rc=$?
[ $rc = 0 ] && [ "$(rows lab1-seoul)" = "$want" ] || verdict BROKE "a machine in Korea with --due without offset: other grades"
verdict HELD "on-time Blackboard students are not marked late; times shown with their zone; a deadline in another zone is refused"
