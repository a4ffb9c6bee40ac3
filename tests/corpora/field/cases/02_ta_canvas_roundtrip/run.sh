#!/usr/bin/env bash
# TA: Canvas. Download submissions.zip and the gradebook, `autograder grade`, `autograder export canvas`,
# and compare the filled sheet with the downloaded one byte for byte (only Lab 1 cells of graded students may change).
. "$(dirname "$0")/../../lib/env.sh"; ensure_subs
d=$W/canvas; rm -rf "$d"; "$APY" "$(dirname "$0")/make_class.py" "$SUBS" "$d"; cd "$d"
"$AG" grade submissions.zip --out lab1 > grade.out 2> grade.err; rc=$?
say "grade exit $rc: $(tail -1 grade.out)"
[ $rc = 0 ] || verdict BROKE "grade exited $rc"
"$AG" export canvas lab1 --sheet 2026-03-05T0900_Grades-TP101.csv --out canvas-import.csv --column "Lab 1" --lab self_attention > export.out 2> export.err; rc=$?
say "export exit $rc: $(cat export.out)"
[ $rc = 0 ] || verdict BROKE "export exited $rc: $(cat export.err)"
python3 - <<'PY' || verdict BROKE "the filled sheet differs from the download beyond the grade cells"
import sys; import os; sys.path.insert(0, os.path.join(os.environ["FIELD"], "lib")); from rawcsv import expected_sheet
raw = open("2026-03-05T0900_Grades-TP101.csv", "rb").read()
got = open("canvas-import.csv", "rb").read()
assert raw[:3] == b"\xef\xbb\xbf" and got[:3] == b"\xef\xbb\xbf", "BOM lost"
want = {"12345": "10", "12346": "8.5", "12347": "0", "12348": "9", "12349": "10", "12350": "10"}
exp = b"\xef\xbb\xbf" + expected_sheet(raw[3:].decode(), 1, 5, want).encode()
if got != exp:
    for a, b in zip(exp.decode().split("\n"), got.decode().split("\n")):
        if a != b: print("  | want", a); print("  | got ", b)
    sys.exit(1)
print("  | byte-identical except the six Lab 1 cells (10, 8.5, 0, 9, 10, 10); Han and Test Student untouched")
PY
verdict HELD "Canvas round trip exact; unmatched student reported"
