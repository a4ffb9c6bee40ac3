#!/usr/bin/env bash
# TA: Blackboard. Grade the assignment download (attempts + receipts), export into the Grade Center
# .xls (UTF-16) and .csv, compare byte for byte.
. "$(dirname "$0")/../../lib/env.sh"; ensure_subs
d=$W/blackboard; rm -rf "$d"; "$APY" "$(dirname "$0")/make_class.py" "$SUBS" "$d"; cd "$d"
"$AG" grade gradebook_TP101_Lab201_2026-03-05-09-00-00.zip --out lab1 > grade.out 2> grade.err; rc=$?
say "grade exit $rc: $(tail -1 grade.out)"; [ $rc = 0 ] || verdict BROKE "grade exited $rc"
for ext in xls csv; do
    "$AG" export blackboard lab1 --sheet gc_TP101_fullgc_2026-03-05-09-00-00.$ext --out bb-upload.$ext --lab self_attention > export-$ext.out 2> export-$ext.err; rc=$?
    say "$ext export exit $rc: $(cat export-$ext.out)"; [ $rc = 0 ] || verdict BROKE "export $ext exited $rc"
done
python3 - <<'PY' || verdict BROKE "Grade Center file differs beyond the Lab 1 cells"
import sys; import os; sys.path.insert(0, os.path.join(os.environ["FIELD"], "lib")); from rawcsv import expected_sheet
want = {"kim_ms": '"10"', "lee_jw": '"10"', "choi_jh": '"9"'}
for ext, enc, bom, delim in (("xls", "utf-16-le", b"\xff\xfe", "\t"), ("csv", "utf-8", b"\xef\xbb\xbf", ",")):
    raw = open(f"gc_TP101_fullgc_2026-03-05-09-00-00.{ext}", "rb").read()
    got = open(f"bb-upload.{ext}", "rb").read()
    exp = bom + expected_sheet(raw[len(bom):].decode(enc), 2, 8, want, delim, "\r\n").encode(enc)
    assert got == exp, (ext, got.decode(enc, "replace")[:600])
    print(f"  | {ext}: byte-identical except Lab 1 of kim_ms 10 (newest attempt), lee_jw 10, choi_jh 9")
PY
verdict HELD "Blackboard .xls and .csv filled exactly; newest attempt counted; receipt-only student left blank"
