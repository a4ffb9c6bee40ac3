#!/usr/bin/env bash
# TA: the grading worksheet got zipped with the submissions. README: an LMS grade sheet zipped with the
# submissions "is listed ..., never a student of their own and never a row of grades.csv"; in an LMS's
# export, a file the LMS did not name beside its units is the TA's, whatever its content or language.
# Checked with the English worksheet, the Korean one (the README's export section fills it with
# --id-column 식별자 --column 성적 ...), and a TA's notes file in Korean that no recogniser knows.
. "$(dirname "$0")/../../lib/env.sh"; ensure_subs
d=$W/moodle-sheet; rm -rf "$d"; "$APY" "$(dirname "$0")/make_class.py" "$SUBS" "$d"; cd "$d"
"$APY" - <<'PY'
import shutil, zipfile
shutil.copy("moodle-with-sheet-ko.zip", "moodle-with-notes.zip")
with zipfile.ZipFile("moodle-with-notes.zip", "a") as z:
    z.writestr("채점 메모.txt", "박서연: 노트북을 다시 받기로 함\n")
PY
for t in en ko notes; do
    z=moodle-with-sheet-$t.zip; [ $t = notes ] && z=moodle-with-notes.zip
    "$AG" grade $z --out lab1-$t > $t.out 2> $t.err; rc=$?
    say "$t: exit $rc: $(tail -1 $t.out)"
    grep "^autograder" $t.err | sed "s/^/  | $t stderr: /"
    [ $rc = 0 ] || verdict BROKE "grade of the $t zip exited $rc"
    python3 -c "
import csv
for r in csv.DictReader(open('lab1-$t/grades.csv',encoding='utf-8-sig')): print('  |   ', r['id'], '|', r['file'], '|', r['total'], '|', r['status'])"
    ids=$(python3 -c "import csv;print(' '.join(sorted(r['id'] for r in csv.DictReader(open('lab1-$t/grades.csv',encoding='utf-8-sig')))))")
    [ "$ids" = "123456 123457 123458" ] || verdict BROKE "$t: grades.csv rows are not the three students (got: $ids)"
    grep -q "mean 6.17/10" $t.out || verdict BROKE "$t: the class mean is not the three students' (6.17)"
done
grep -q "성적-TP101-실습 1-123.csv" lab1-ko/report.html || verdict BROKE "the Korean worksheet is not listed in the report"
grep -q "채점 메모.txt" lab1-notes/report.html || verdict BROKE "the TA's notes are not listed in the report"
# The export with the README's Korean options fills the three students, with no unmatched 'student'.
"$AG" export moodle lab1-ko --lab self_attention --sheet "성적-TP101-실습 1-123.csv" --out upload.csv --id-column 식별자 --column 성적 --max-column "최대 성적" --feedback-column "피드백 코멘트" > exp.out 2> exp.err; rc=$?
say "export of the same worksheet with the README's Korean options: exit $rc; $(cat exp.out)"
[ $rc = 0 ] || verdict BROKE "export of the Korean worksheet exited $rc: $(cat exp.err)"
verdict HELD "both worksheets and the TA's notes listed in the report, never a row of grades.csv; the Korean worksheet exported"
