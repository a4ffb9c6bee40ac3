#!/usr/bin/env bash
# Instructor (pytest face, docs/instructors/classroom.md): grades two students' files in one pytest
# command, as pytest users pass repeated options:
#   pytest --submission kim.py --submission lee.py --junitxml=out/report.xml
# (kim.py: softmax over the wrong axis, 8.94; lee.py: all correct, 10).
# Promise (a demanding staff user; classroom.md: 'A missing or unreadable --submission ... is a usage
# error'): either both files are graded (12 tests, two totals) or the command is refused as a usage
# error. Grading one and dropping the other without a word is BROKE.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
d=$W/c53; rm -rf "$d"; mkdir -p "$d"; cd "$d"
cp "$SUBS/l1_wrong_softmax.py" kim.py; cp "$SUBS/l1_correct.py" lee.py
PYTEST=$(dirname "$AG")/pytest
timeout 300 "$PYTEST" --submission kim.py --submission lee.py --junitxml=out/report.xml -q -p no:cacheprovider > p.out 2>&1; rc=$?
say "exit $rc: $(grep -E 'passed|failed|error|합계|Total' p.out | tr '\n' ' ')"
names=$(grep -o 'classname="[^"]*"\|name="[^"]*::[^"]*"' out/report.xml 2>/dev/null | sort -u | head -3 | tr '\n' ' ')
tests=$(grep -o '<testcase ' out/report.xml 2>/dev/null | wc -l)
say "junit: $tests testcases; $(grep -o 'file="[^"]*"' out/report.xml 2>/dev/null | sort -u | tr '\n' ' ')"
mentions_kim=$(grep -c "kim.py" p.out)
[ "$tests" = 12 ] && verdict HELD "both files graded"
[ $rc = 4 ] || [ $rc = 2 ] && grep -qi "submission" p.out && [ "$tests" = 0 ] && verdict HELD "refused as a usage error"
verdict BROKE "exit $rc with $tests tests of one file; kim.py (8.94) is named $mentions_kim times in the output — graded nowhere, reported nowhere"
