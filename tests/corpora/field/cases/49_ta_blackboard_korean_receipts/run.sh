#!/usr/bin/env bash
# TA: Blackboard with a Korean language pack. The assignment is '3장 실습 1'; receipts start with
# '이름: 김민수 (kim_ms)', '과제: 3장 실습 1', '제출 날짜: ...', '현재 성적: ...'; attempt names carry no zone.
# Graded on a UTC machine with --due 2026-03-01T18:00+09:00 --late-penalty 20%.
# Promise (docs/ta/lms.md: the receipt's header 'in the course's language, 이름:, 과제:, 제출 날짜:, 현재
# 성적:' gives the name; late.md: attempt times read in the zone of --due): ids are the usernames, names
# the receipts' Korean names, times shown at +09:00, the one attempt after 18:00 KST is late (8.0), the
# others are not; no student's own receipt text is read.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
d=$W/c49; rm -rf "$d"; mkdir -p "$d"; cd "$d"
"$APY" - "$SUBS" <<'PY'
import sys, zipfile
S = sys.argv[1]
att = [("김민수", "kim_ms", "2026-03-01-12-30-45", "2026년 3월 1일 일요일 오후 12시 30분 45초 KST", "l1_correct.py"),
       ("이지원", "lee_jw", "2026-03-01-17-59-00", "2026년 3월 1일 일요일 오후 5시 59분 00초 KST", "l1_wrong_softmax.py"),
       ("박서연", "park_sy", "2026-03-01-18-20-00", "2026년 3월 1일 일요일 오후 6시 20분 00초 KST", "l1_correct.py")]
with zipfile.ZipFile("gradebook_TP101_3장 실습 1_2026-03-05-09-00-00.zip", "w") as z:
    for name, user, stamp, date, src in att:
        base = f"3장 실습 1_{user}_attempt_{stamp}"
        z.writestr(base + ".txt", f"이름: {name} ({user})\n과제: 3장 실습 1\n제출 날짜: {date}\n현재 성적: 채점 필요\n\n"
                   "제출 필드:\nName: 해커 (kim_ms)\n\n코멘트:\n이 과제에 대한 학생 코멘트가 없습니다.\n\n"
                   f"파일:\n\t원래 파일 이름: attention.py\n\t파일 이름: {base}_attention.py\n")
        z.writestr(base + "_attention.py", open(f"{S}/{src}", "rb").read())
PY
TZ=UTC "$AG" grade "gradebook_TP101_3장 실습 1_2026-03-05-09-00-00.zip" --out lab1 --due 2026-03-01T18:00+09:00 --late-penalty 20% > g.out 2> g.err; rc=$?
say "grade exit $rc: $(tail -1 g.out | cut -c1-150)"
[ $rc = 0 ] || verdict BROKE "grade exited $rc: $(grep -v '^채점 ' g.err)"
got=$(cut -d, -f1,2,4,5,6 lab1/grades.csv | tail -n +2 | sort | tr '\n' ' ')
say "id,name,submitted_at,late,total: $got"
want="kim_ms,김민수,2026-03-01T12:30:45+09:00,no,10.0 lee_jw,이지원,2026-03-01T17:59:00+09:00,no,8.94 park_sy,박서연,2026-03-01T18:20:00+09:00,yes,8.0 "
[ "$got" = "$want" ] || verdict BROKE "Korean Blackboard download read wrong: want '$want'"
verdict HELD "Korean receipts give the names; times at +09:00; only the 18:20 attempt is late"
