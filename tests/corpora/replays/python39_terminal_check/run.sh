#!/usr/bin/env bash
# Student with Python 3.9 checks from the terminal instead (student README: python -m lab_check FILE).
# README: "Exit code (both commands): 0 when every step passed, 1 when any step lost points ..., 2 when the
# grader could not run"; the notebook's cell tells a 3.9 user what to change — the terminal check should too.
. "$(dirname "$0")/../lib/env.sh"; ensure_build
v=$W/venv-3.9.18
[ -x "$v/bin/python" ] || { /root/.pyenv/versions/3.9.18/bin/python -m venv "$v"; "$v/bin/pip" install -q numpy pandas > /dev/null 2>&1; }
s=$W/cli-3.9; rm -rf "$s"; cp -r "$W/dist1/student" "$s"; cd "$s"
"$APY" "$REPLAYS/lib/subs.py" self_attention wrong_softmax self_attention_lab.py self_attention_lab.py
"$v/bin/python" -m lab_check self_attention_lab.py > out.txt 2> err.txt; rc=$?
say "exit $rc; stdout $(wc -c < out.txt)B; stderr last lines:"; tail -3 err.txt | sed 's/^/  |   /'
grep -q "Traceback" err.txt && verdict BROKE "a Python traceback (ModuleNotFoundError: tomli / dataclass kw_only) and exit $rc, which the README says means 'a step lost points'; no sentence saying Python 3.9 is too old"
[ $rc = 2 ] || verdict BROKE "exit $rc"
verdict HELD "one sentence, exit 2"
