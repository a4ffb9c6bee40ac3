#!/usr/bin/env bash
# TA: `autograder history out/course --out ~/강의` where ~/강의 is the TA's own folder: their course page
# index.html, their own course.csv of attendance, and a students/ folder of notes.
# Promise (docs/ta/slips.md: 'Nothing is ever deleted or replaced to make room'; `grade` refuses a
# non-empty folder that holds no run; a demanding TA: no lost data): history refuses such a folder, or
# writes beside the TA's files without replacing any. Replacing them silently is BROKE.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c41; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" canvas; cd "$d"
"$AG" grade submissions.zip --out course/lab1 > /dev/null 2>&1 || verdict BROKE "set-up grade failed"
mkdir -p 강의/students
echo '<h1>트랜스포머 과정 안내</h1>' > 강의/index.html
printf 'id,출석\n20001,O\n' > 강의/course.csv
echo '상담 기록' > 강의/students/20001.html
snap() { (cd 강의 && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
before=$(snap)
"$AG" history course --out 강의 > h.out 2> h.err; rc=$?
say "history exit $rc: $(cat h.out h.err | head -c 300)"
after=$(snap)
lost=$(diff <(echo "$before") <(echo "$after") | grep '^<' | awk '{print $3}' | tr '\n' ' ')
say "TA files replaced: ${lost:-none}"
[ -z "$lost" ] || verdict BROKE "history --out replaced the TA's own files without a word (exit $rc): $lost"
verdict HELD "the TA's files were kept (refused or written beside them)"
