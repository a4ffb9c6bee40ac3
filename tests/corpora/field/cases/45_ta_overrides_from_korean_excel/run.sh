#!/usr/bin/env bash
# TA: writes overrides.csv in Excel on Korean Windows, saved twice over the term: once as 'CSV (쉼표로
# 분리)' (cp949, CRLF, a comment with a comma quoted, two empty rows Excel keeps as ',,,,'), once as
# 'CSV UTF-8' (BOM). docs/ta/after.md: 'Write DIR/overrides.csv (UTF-8 or Korean Excel's cp949)'.
# Promise: both files are read, the two overrides applied (grades.csv, automatic_total, the student's
# feedback shows the comment and who wrote it), and export uses the final totals.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c45; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" canvas; cd "$d"
"$AG" grade submissions.zip --out lab1 > /dev/null 2>&1 || verdict BROKE "set-up grade failed"
body='id,step,points,comment,by\r\n20003,softmax,1.5,"축은 틀렸지만, 설명은 맞음",김조교\r\n20006,mix,0.5,부분 점수,이조교\r\n,,,,\r\n,,,,\r\n'
for enc in cp949 utf-8-sig; do
    "$APY" -c "import sys; open('lab1/overrides.csv','w',encoding='$enc',newline='').write(sys.argv[1].replace('\\\\r\\\\n','\r\n'))" "$body"
    "$AG" grade submissions.zip --out lab1 > g.out 2> g.err; rc=$?
    say "$enc: grade exit $rc: $(grep -v '^채점 ' g.err | head -3 | tr '\n' ' ')"
    [ $rc = 0 ] || verdict BROKE "overrides.csv saved as $enc refused"
    a=$(grep '^20003,' lab1/grades.csv | cut -d, -f6); b=$(grep '^20006,' lab1/grades.csv | cut -d, -f6)
    say "$enc: totals 20003=$a (8.94 automatic, softmax 0.94->1.5), 20006=$b (9 automatic, mix 0->0.5)"
    [ "$a" = 9.5 ] && [ "$b" = 9.5 ] || verdict BROKE "$enc: overrides not applied ($a, $b)"
    grep -q "축은 틀렸지만, 설명은 맞음" lab1/feedback/20003.md && grep -q 김조교 lab1/feedback/20003.md || verdict BROKE "$enc: feedback lacks the comment or the TA"
done
"$AG" export canvas lab1 --lab self_attention --sheet 2026-03-05T0900_Grades-TP101.csv --out import.csv --column "Lab 1" > e.out 2> e.err || verdict BROKE "export exit $?: $(cat e.err)"
grep -q '^"Park, Seoyeon",20003,.*,9.5,' import.csv || verdict BROKE "export did not use the final total: $(grep 20003 import.csv)"
verdict HELD "cp949 and UTF-8-BOM overrides from Excel applied; feedback and export use them"
