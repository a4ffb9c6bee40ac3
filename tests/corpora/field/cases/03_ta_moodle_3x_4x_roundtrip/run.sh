#!/usr/bin/env bash
# TA: Moodle 4.x (folders) and 3.x (flat names, "Maximum Grade", CRLF, a grade already in the sheet):
# grade, export moodle, compare byte for byte: only Grade and Feedback comments of graded participants change.
. "$(dirname "$0")/../../lib/env.sh"; ensure_subs
d=$W/moodle; rm -rf "$d"; "$APY" "$(dirname "$0")/make_class.py" "$SUBS" "$d"; cd "$d"
for v in 4x 3x; do
    "$AG" grade TP101-Lab1-$v.zip --out lab1-$v > grade-$v.out 2> grade-$v.err; rc=$?
    say "$v grade exit $rc: $(tail -1 grade-$v.out)"; [ $rc = 0 ] || verdict BROKE "grade $v exited $rc"
    "$AG" export moodle lab1-$v --sheet "Grades-TP101-Lab 1-$v.csv" --out upload-$v.csv --lab self_attention > export-$v.out 2> export-$v.err; rc=$?
    say "$v export exit $rc: $(cat export-$v.out)"; [ $rc = 0 ] || verdict BROKE "export $v exited $rc: $(cat export-$v.err)"
done
python3 - <<'PY' || verdict BROKE "a Moodle sheet changed beyond Grade/Feedback comments, or wrong grades"
import sys, zipfile; import os; sys.path.insert(0, os.path.join(os.environ["FIELD"], "lib")); from rawcsv import split_raw
def check(v, nl, want, grade_col, fb_col):
    raw = open(f"Grades-TP101-Lab 1-{v}.csv", encoding="utf-8", newline="").read().split(nl)
    got = open(f"upload-{v}.csv", encoding="utf-8", newline="").read().split(nl)
    assert len(raw) == len(got), (v, "line count")
    for a, b in zip(raw, got):
        fa, fb = split_raw(a), split_raw(b)
        key = fa[0].strip('"').split()[-1] if fa[0] else ""
        if key in want:
            assert fb[grade_col] == want[key], (v, key, fb[grade_col])
            assert [x for i, x in enumerate(fa) if i not in (grade_col, fb_col)] == [x for i, x in enumerate(fb) if i not in (grade_col, fb_col)], (v, key)
        else:
            assert a == b, (v, "unchanged row changed", a, b)
    print(f"  | {v}: only Grade/Feedback cells of {sorted(want)} changed; grades {want}")
check("4x", "\n", {"123456": "10.00", "123457": "8.50", "123458": "0.00", "123459": "9.00", "123461": "10.00"}, 4, 9)
check("3x", "\r\n", {"123456": "100.00", "123457": "85.00", "123458": "0.00"}, 4, 10)
names = zipfile.ZipFile("upload-4x-feedback.zip").namelist()
assert "Kim Minsu_123456_assignsubmission_file_/feedback.html" in names, names
PY
grep -q "50.00 → 85.00" export-3x.err || verdict BROKE "the replaced grade 50.00 was not reported"
verdict HELD "Moodle 3.x and 4.x worksheets filled exactly; replaced grade reported; feedback zip named as Moodle names folders"
