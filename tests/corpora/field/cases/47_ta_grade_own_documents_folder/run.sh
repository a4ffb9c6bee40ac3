#!/usr/bin/env bash
# TA: in the Downloads folder, types `autograder grade . --out lab1` instead of giving the zip. The folder
# holds the Canvas submissions.zip, the gradebook CSV, the TA's own scripts (성적정리.py, plot.py), a PDF
# syllabus, a .docx and meeting notes.
# Promise (docs/ta/slips.md "Before grading"): refused with exit 2, nothing written (not even lab1/), the
# sentence lists what it found and, since one is a .zip, says to give it itself — in Korean by default,
# in English with --lang en.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c47; rm -rf "$d"; mkdir -p "$d/Downloads"; "$APY" "$L/lms.py" "$SUBS" "$d/Downloads" canvas; cd "$d/Downloads"
printf 'import pandas as pd\ndf = pd.read_csv("grades.csv")\nprint(df.total.mean())\n' > 성적정리.py
printf 'import matplotlib.pyplot as plt\nplt.hist([1, 2, 3])\nplt.savefig("h.png")\n' > plot.py
printf '%%PDF-1.4\n%%\xe2\xe3\xcf\xd3\n' > 강의계획서.pdf; printf 'PK\x03\x04docx' > 채점기준.docx; echo "다음 주 실습 2" > 회의록.txt
for lang in ko en; do
    "$AG" grade . --out lab1 --lang $lang > g.out 2> g-$lang.err; rc=$?
    say "$lang: exit $rc: $(cat g-$lang.err | tr '\n' ' ' | head -c 400)"
    [ $rc = 2 ] || verdict BROKE "not refused (exit $rc)"
    [ ! -e lab1 ] || verdict BROKE "lab1/ was written"
    grep -q "submissions.zip" g-$lang.err || verdict BROKE "$lang: the sentence does not name the zip to give"
done
grep -qP '[\x{AC00}-\x{D7A3}]{2}' <(sed 's/[^ ]*\.\(py\|pdf\|docx\|txt\|zip\|csv\)//g' g-ko.err) || verdict BROKE "the default refusal is not Korean"
verdict HELD "the TA's Downloads folder refused in both languages, naming submissions.zip; nothing written"
