#!/usr/bin/env bash
# Student on Korean Windows: the console is cp949 (emulated with PYTHONIOENCODING=cp949, as
# docs/instructors/reading.md and docs/students/index.md describe it), Python 3.10 venv. Runs
#   python -m lab_check self_attention_lab.py          python self_attention_lab.py
#   python -m lab_check self_attention_lab.py --json
# on a twin with a softmax over the wrong axis.
# Promise (docs/students/index.md '한국어판 Windows의 콘솔(cp949)...'): no UnicodeEncodeError; every step is
# checked; Hangul stays Hangul; '—' becomes a look-alike; --json is the same data as on a UTF-8 terminal;
# exit 1 (a step lost points).
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build; . "$C/../60_student_py310_run_all_and_export/student_env.sh"
ensure_student_venv 3.10
d=$W/c66; rm -rf "$d"; mkdir -p "$d"; fresh_half "$d/lab"; cd "$d/lab"
"$APY" "$FIELD/lib/subs.py" self_attention wrong_softmax self_attention_lab.py self_attention_lab.py
PYTHONIOENCODING=cp949 "$SPY" -m lab_check self_attention_lab.py > cli.bin 2> cli.err; a=$?
PYTHONIOENCODING=cp949 "$SPY" self_attention_lab.py > twin.bin 2> twin.err; b=$?
PYTHONIOENCODING=cp949 "$SPY" -m lab_check self_attention_lab.py --json > j949.json 2> /dev/null
PYTHONIOENCODING=utf-8 "$SPY" -m lab_check self_attention_lab.py --json > jutf.json 2> /dev/null
say "lab_check exit $a, twin exit $b; stderr: $(cat cli.err twin.err | head -c 200)"
"$APY" - <<'PY' || verdict BROKE "$(cat why.txt)"
import json
why = []
for f in ("cli.bin", "twin.bin"):
    t = open(f, "rb").read().decode("cp949")          # what the console shows
    steps = t.count("■") if "■" in t else t.count("\u25a0")
    if "softmax" not in t or "사과를" not in t: why.append(f"{f}: steps or Hangul missing")
    if t.count("most_attended") < 1: why.append(f"{f}: stopped before the last step")
    print(f"  | {f}: decodes as cp949, {len(t.splitlines())} lines, softmax and most_attended checked, Hangul intact")
a, b = json.load(open("j949.json")), json.load(open("jutf.json"))
if a != b: why.append("--json differs between cp949 and utf-8 consoles")
open("why.txt", "w").write("; ".join(why))
raise SystemExit(1 if why else 0)
PY
grep -q "UnicodeEncodeError" cli.err twin.err && verdict BROKE "UnicodeEncodeError on the cp949 console"
[ $a = 1 ] || verdict BROKE "lab_check exit $a, not 1"
verdict HELD "cp949 console: every step checked, Hangul intact, same JSON, exit 1"
