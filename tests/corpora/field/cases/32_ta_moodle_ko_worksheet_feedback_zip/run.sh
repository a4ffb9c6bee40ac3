#!/usr/bin/env bash
# TA (Korean Moodle): 30 students downloaded with 'Download all submissions' (folders
# '김민수_310001_assignsubmission_file_/') and the grading worksheet of a Korean interface
# (식별자, 성명, ..., '참가자 310001'). Graded, then exported with the README's Korean options.
# Promise (docs/ta/export.md): the worksheet is filled (성적 = the run's totals, only 성적 and 피드백 코멘트
# change), and '…-feedback.zip ... holds one folder per participant, named as Moodle names them
# (김민수_123456_assignsubmission_file_/feedback.html)' — i.e. the download's own folder names.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c32; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" moodle-ko; cd "$d"
Z="TP101-Lab 1-4401.zip"; S="성적-TP101-실습 1-4401.csv"
"$AG" grade "$Z" --out lab1 > g.out 2> g.err; rc=$?; say "grade exit $rc: $(tail -1 g.out)"
[ $rc = 0 ] || verdict BROKE "grade exited $rc"
"$APY" "$L/oracle.py" "$AG" lab1/grades.csv "$Z" || verdict BROKE "grades differ from autograder check"
"$AG" export moodle lab1 --lab self_attention --sheet "$S" --out upload.csv \
    --id-column 식별자 --column 성적 --max-column "최대 성적" --feedback-column "피드백 코멘트" > e.out 2> e.err; rc=$?
say "export exit $rc: $(cat e.out)"
[ $rc = 0 ] || verdict BROKE "export exited $rc: $(cat e.err)"
"$APY" - "$Z" "$S" <<'PY' || verdict BROKE "worksheet cells wrong"
import csv, io, sys
sys.path.insert(0, __import__("os").environ["FIELD"] + "/lib"); from rawcsv import split_raw
raw = open(sys.argv[2], encoding="utf-8", newline="").read().split("\n")
got = open("upload.csv", encoding="utf-8", newline="").read().split("\n")
tot = {r["id"]: r["total"] for r in csv.DictReader(open("lab1/grades.csv", encoding="utf-8-sig")) if r["total"]}
assert len(raw) == len(got)
n = 0
for a, b in zip(raw, got):
    fa, fb = split_raw(a), split_raw(b)
    pid = fa[0].strip('"').split()[-1] if fa[0] else ""
    if pid in tot:
        assert abs(float(fb[4]) - float(tot[pid])) < 1e-9, (pid, fb[4], tot[pid])
        assert [x for i, x in enumerate(fa) if i not in (4, 9)] == [x for i, x in enumerate(fb) if i not in (4, 9)], pid
        n += 1
    else:
        assert a == b, (a, b)
print(f"  | upload.csv: 성적 of {n} participants equal grades.csv; other cells and rows unchanged")
PY
"$APY" - "$Z" <<'PY' || verdict BROKE "the feedback zip's folders are not named as Moodle names them (the download's own folder names)"
import sys, zipfile
dl = sorted({n.split("/")[0] for n in zipfile.ZipFile(sys.argv[1]).namelist()})
fb = zipfile.ZipFile("upload-feedback.zip")
names = sorted({n.split("/")[0] for n in fb.namelist()})
print(f"  | download's folders: {dl[:2]} ...")
print(f"  | feedback zip's folders: {names[:2]} ...")
nonascii = [i.filename for i in fb.infolist() if any(ord(c) > 127 for c in i.filename) and not i.flag_bits & 0x800]
assert not nonascii, f"non-ASCII names without the UTF-8 flag: {nonascii[:2]}"
assert names == dl, "differ"
PY
verdict HELD "Korean worksheet filled exactly; feedback zip folders named as the download's"
