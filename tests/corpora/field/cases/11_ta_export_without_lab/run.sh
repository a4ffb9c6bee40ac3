#!/usr/bin/env bash
# TA: graded lab 2 (masked_attention) by mistake into the folder meant for lab 1, then exports into the
# Canvas "Lab 1" column without --lab. README ("Which lab"): "`build` and `export` need it [--lab] when
# several labs are installed"; "A run whose grades cannot be right is never exported (...) a run of
# another lab than `export --lab`". Both refusals: exit 2, nothing written, the run's lab named.
. "$(dirname "$0")/../../lib/env.sh"; ensure_subs
d=$W/export-nolab; rm -rf "$d"; "$APY" "$(dirname "$0")/../02_ta_canvas_roundtrip/make_class.py" "$SUBS" "$d"; cd "$d"
mkdir lab2-subs
cp "$SUBS/l2_correct.py" lab2-subs/kimminsu_12345_77890_heads.py
cp "$SUBS/l2_wrong_mask.py" lab2-subs/leejiwon_12346_77891_heads.py
cp "$SUBS/l2_stub.py" lab2-subs/hanmirae_12351_77892_heads.py
"$AG" grade lab2-subs --out lab1 > g.out 2> g.err; say "grade (no --lab): exit $?: $(tail -1 g.out)"
cp 2026-03-05T0900_Grades-TP101.csv sheet-before.csv
"$AG" export canvas lab1 --sheet 2026-03-05T0900_Grades-TP101.csv --out canvas-import.csv --column "Lab 1" > e.out 2> e.err; rc=$?
say "export canvas without --lab: exit $rc: $(cat e.out e.err)"
[ -f canvas-import.csv ] && diff 2026-03-05T0900_Grades-TP101.csv canvas-import.csv | grep '^>' | sed 's/^/  | /'
[ $rc = 2 ] && [ ! -e canvas-import.csv ] && [ ! -e canvas-import-report.txt ] \
    || verdict BROKE "export ran without --lab (2 labs installed) and wrote lab 2 grades into the 'Lab 1 (5501)' column"
grep -q "graded masked_attention" e.err && grep -q -- "--lab" e.err \
    || verdict BROKE "the refusal does not name the run's lab and --lab"
"$AG" export canvas lab1 --sheet 2026-03-05T0900_Grades-TP101.csv --out with-lab.csv --column "Lab 1" --lab self_attention > e2.out 2> e2.err; rc2=$?
say "the same with --lab self_attention: exit $rc2: $(cat e2.err)"
[ $rc2 = 2 ] && [ ! -e with-lab.csv ] && grep -q "the run graded masked_attention, not --lab self_attention" e2.err \
    || verdict BROKE "a --lab other than the run's lab was not refused"
cmp -s sheet-before.csv 2026-03-05T0900_Grades-TP101.csv || verdict BROKE "the downloaded sheet changed"
verdict HELD "export without --lab refused, naming the run's lab; a --lab other than the run's refused; nothing written"
