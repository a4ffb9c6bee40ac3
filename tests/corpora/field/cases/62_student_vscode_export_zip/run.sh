#!/usr/bin/env bash
# Student on Python 3.10 who works in VS Code (docs/students/index.md: 'VS Code에서 열고 위에서 설치한
# Python을 커널로 고릅니다'): VS Code starts the kernel itself in the notebook's folder and sets
# __vsc_ipynb_file__ (the notebook's absolute path); the student fills the notebook and runs the last two
# cells (check_all, grader.export(pdf=False)) and uploads the zip to Canvas.
# Promise (docs/ta/index.md 'the zip grader.export() writes ... is graded as its notebook'; docs/OTTER.md:
# kit/ready.py finds the notebook by VS Code's __vsc_ipynb_file__): the zip is graded 10/10.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build; . "$C/../60_student_py310_run_all_and_export/student_env.sh"
ensure_student_venv 3.10
d=$W/c62; rm -rf "$d"; mkdir -p "$d"; fresh_half "$d/lab"; cd "$d/lab"
"$APY" "$FIELD/lib/subs.py" self_attention correct self_attention_lab.ipynb self_attention_lab.ipynb
"$SPY" "$C/vscode_session.py" "$d/lab" self_attention_lab.ipynb > ../cells.jsonl 2> ../session.err || { tail -3 ../session.err; exit 2; }
say "set-up cell: $(head -1 ../cells.jsonl | cut -c1-200)"
z=$(ls self_attention_lab_*.zip 2>/dev/null | head -1)
[ -n "$z" ] || verdict BROKE "grader.export() made no zip: $(tail -1 ../cells.jsonl)"
say "zip members: $(unzip -Z1 "$z" | tr '\n' ' ')"
cd "$d"; mkdir cls && cp "lab/$z" "cls/kimminsu_20001_70001_$z" && cp "$SUBS/l1_correct.py" cls/leejiwon_20002_70002_self_attention_lab.py
"$AG" check "lab/$z" > c.out 2> c.err; crc=$?; say "autograder check: exit $crc: $(head -c 200 c.err)"
"$AG" grade cls --out graded > g.out 2> g.err; row=$(grep '^20001,' graded/grades.csv | cut -d, -f1,6,15)
say "autograder grade: $row"
grep -q ',10.0,graded' <<<"$row" && [ $crc = 0 ] || verdict BROKE "the zip grader.export() writes under VS Code is graded '$row' (check exit $crc)"
verdict HELD "the VS Code export zip is graded 10"
