#!/usr/bin/env bash
# Instructor (docs/instructors/classroom.md): `pytest --submission FILE` run from (a) the clone's root
# (its testpaths hold ~5,000 tests), (b) an empty folder, (c) a folder of submissions with its own
# pytest.ini (testpaths, addopts -x) and a conftest.py; with --submission-lang en and --junitxml; and
# (d) a lab 2 file given --submission-lab self_attention.
# Promise: (a)-(c) collect exactly the six steps and nothing else, the JUnit 'score' properties sum to
# what `autograder check` gives the file, the output is English; (d) refused naming masked_attention.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
d=$W/c54; rm -rf "$d"; mkdir -p "$d/empty" "$d/subs"; cd "$d"
PYTEST=$(dirname "$AG")/pytest; F=$d/attention.py; cp "$SUBS/l1_wrong_softmax.py" "$F"
want=$("$AG" check "$F" --json | "$APY" -c "import json,sys; print(json.load(sys.stdin)['score'])")
printf '[pytest]\ntestpaths = .\naddopts = -x\npython_files = *.py\n' > subs/pytest.ini
printf 'import pytest\ndef pytest_collection_modifyitems(items):\n    for i in items: i.add_marker(pytest.mark.slow)\n' > subs/conftest.py
cp "$SUBS/l1_correct.py" subs/other_student.py
for where in "$CLONE" "$d/empty" "$d/subs"; do
    n=$(cd "$where" && timeout 300 "$PYTEST" --submission "$F" --collect-only -q -p no:cacheprovider 2>&1 | grep -c '::')
    say "$where: collected $n"
    [ "$n" = 6 ] || verdict BROKE "pytest --submission in $where collected $n items"
    (cd "$where" && timeout 300 "$PYTEST" --submission "$F" --submission-lang en --junitxml="$d/r.xml" -q -p no:cacheprovider > "$d/p.out" 2>&1)
    got=$("$APY" -c "
import re; print(round(sum(float(v) for v in re.findall(r'name=\"score\" value=\"([^\"]+)\"', open('$d/r.xml').read())), 2))")
    say "   score properties sum $got (autograder check $want); $(grep -E 'Total|passed|failed' "$d/p.out" | tr '\n' ' ')"
    [ "$got" = "$want" ] || verdict BROKE "in $where the JUnit scores sum to $got, check says $want"
    grep -P '[\x{AC00}-\x{D7A3}]' "$d/p.out" | grep -vP "나는|사과를|먹었다" | head -2 | grep -q . && verdict BROKE "Korean text under --submission-lang en: $(grep -P '[\x{AC00}-\x{D7A3}]' "$d/p.out" | grep -vP '나는|사과를|먹었다' | head -1)"
done
cp "$SUBS/l2_correct.py" heads.py
timeout 300 "$PYTEST" --submission heads.py --submission-lab self_attention -q -p no:cacheprovider > w.out 2>&1; rc=$?
say "lab 2 file with --submission-lab self_attention: exit $rc: $(grep -i 'masked' w.out | head -1)"
[ $rc != 0 ] && grep -q "masked_attention" w.out || verdict BROKE "a lab 2 file was not refused"
verdict HELD "six steps collected from the clone, an empty folder and a hostile folder; scores = check; wrong lab refused"
