#!/usr/bin/env bash
# Student on Python 3.13 who prefers English and works in the .py twin of the Korean build:
#   LAB_CHECK_LANG=en python self_attention_lab.py        (docs/OTTER.md: LAB_CHECK_LANG wins over the build)
#   python -m lab_check self_attention_lab.py --lang en   (docs/students/index.md)
# with a softmax over the wrong axis and an unfinished most_attended.
# Promise: every check's text (the '■ step' headers and the lines under them) is English — only the lab's
# own words ('나는', '사과를', '먹었다') and the twin's own Korean prints may be Korean; the two faces name the
# same mistake; python -m lab_check exits 1.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build; . "$C/../60_student_py310_run_all_and_export/student_env.sh"
ensure_student_venv 3.13
d=$W/c63; rm -rf "$d"; mkdir -p "$d"; fresh_half "$d/lab"; cd "$d/lab"
"$APY" - "$FIELD/lib" <<'PY'
import sys; sys.path.insert(0, sys.argv[1]); import subs
b = subs.bodies_for("self_attention", "wrong_softmax"); del b["most_attended"]
text = subs.fill_text(open("self_attention_lab.py", encoding="utf-8").read(), b)
open("self_attention_lab.py", "w", encoding="utf-8").write(text)
PY
LAB_CHECK_LANG=en "$SPY" self_attention_lab.py > twin.out 2> twin.err; trc=$?
"$SPY" -m lab_check self_attention_lab.py --lang en > cli.out 2> cli.err; crc=$?
say "twin exit $trc, lab_check exit $crc"
"$APY" - <<'PY' || verdict BROKE "Korean check text under --lang en / LAB_CHECK_LANG=en: $(cat korean.txt)"
import re
words = ("나는", "사과를", "먹었다")
bad = []
for f in ("twin.out", "cli.out"):
    block = False
    for line in open(f, encoding="utf-8"):
        if line.startswith("■") or line.startswith("Total") or line.startswith("Public"):
            block = True
        elif not line.startswith(" ") and not line.startswith("■"):
            block = False
        if block:
            t = line
            for w in words: t = t.replace(w, "")
            if re.search("[\uac00-\ud7a3]", t): bad.append(f"{f}: {line.strip()[:120]}")
open("korean.txt", "w").write(" / ".join(bad[:3]))
print(f"  | checked the check blocks of twin.out and cli.out: {len(bad)} lines with Korean")
raise SystemExit(1 if bad else 0)
PY
grep -q "normalised over columns instead of rows" twin.out && grep -q "normalised over columns instead of rows" cli.out || verdict BROKE "the two faces do not both name the wrong axis"
[ $crc = 1 ] || verdict BROKE "python -m lab_check exited $crc, not 1"
verdict HELD "English check text in the twin and the CLI; same mistake named"
