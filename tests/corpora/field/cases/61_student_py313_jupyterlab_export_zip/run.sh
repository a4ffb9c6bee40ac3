#!/usr/bin/env bash
# Student on a fresh Python 3.13 venv, working as docs/students/index.md says: `jupyter lab` in the
# folder handed out, opens self_attention_lab.ipynb, fills it, runs every cell down to
# grader.export(pdf=False), and submits the zip (docs/students/submit.md: the recommended submission).
# Driven for real: a jupyter server from the student's venv, a session opened through its REST API as
# JupyterLab's browser opens it (lab_session.py), every code cell run in that session's kernel.
# Promise (docs/ta/index.md "Zips a student sends": 'the zip grader.export() writes ... is graded as its
# notebook'; the kit 'finds the notebook (VS Code's __vsc_ipynb_file__, JPY_SESSION_NAME ...)'): the zip
# is graded 10/10 by `autograder check`, by `autograder grade` in a Canvas class, and by the LMS zip in
# the emulated Gradescope image.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build; . "$C/../60_student_py310_run_all_and_export/student_env.sh"
ensure_student_venv 3.13
d=$W/c61; rm -rf "$d"; mkdir -p "$d"; fresh_half "$d/lab"; cd "$d/lab"
"$APY" "$FIELD/lib/subs.py" self_attention correct self_attention_lab.ipynb self_attention_lab.ipynb
"$SPY" "$C/lab_session.py" "$d/lab" self_attention_lab.ipynb > ../cells.jsonl 2> ../session.err || { tail -3 ../session.err; exit 2; }
say "set-up cell: $(head -1 ../cells.jsonl | cut -c1-200)"
z=$(ls self_attention_lab_*.zip 2>/dev/null | head -1)
[ -n "$z" ] || verdict BROKE "grader.export() made no zip: $(tail -1 ../cells.jsonl)"
say "zip members: $(unzip -Z1 "$z" | tr '\n' ' ')"
cd "$d"
"$AG" check "lab/$z" --json > c.json 2> c.err; crc=$?
say "autograder check: exit $crc: $(head -c 250 c.err)"
mkdir cls && cp "lab/$z" "cls/kimminsu_20001_70001_$z" && cp "$SUBS/l1_correct.py" cls/leejiwon_20002_70002_self_attention_lab.py
"$AG" grade cls --out graded > g.out 2> g.err
row=$(grep '^20001,' graded/grades.csv | cut -d, -f1,6,15); say "autograder grade: $row"
"$APY" - "$W/dist1/autograder/self_attention_lab-autograder.zip" "lab/$z" <<'PY' > gs.txt 2>&1
import glob, pathlib, sys
from autograder.otter.emulation import GradingImage
py = sorted(glob.glob(str(pathlib.Path.home() / ".pyenv/versions/3.10.*/bin/python3")))[-1]
img = GradingImage(pathlib.Path("image").resolve(), python=py).install(sys.argv[1])
run = img.grade(sys.argv[1], {pathlib.Path(sys.argv[2]).name: pathlib.Path(sys.argv[2]).read_bytes()})
print("gradescope score", run.results["score"], "|", run.results["tests"][0]["output"][:200].replace("\n", " "))
PY
say "$(tail -1 gs.txt)"
bad=""
[ $crc = 0 ] || bad="$bad check-exit-$crc"
grep -q ',10.0,graded' <<<"$row" || bad="$bad grade:$row"
grep -q "gradescope score 10.0" gs.txt || bad="$bad gradescope:$(grep -o 'score [0-9.]*' gs.txt)"
[ -z "$bad" ] || verdict BROKE "the zip grader.export() writes in JupyterLab is not gradable:$bad (it holds the notebook under its absolute path)"
verdict HELD "the JupyterLab export zip is graded 10 by check, grade and the LMS zip"
