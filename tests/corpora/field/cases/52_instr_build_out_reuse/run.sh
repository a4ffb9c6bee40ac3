#!/usr/bin/env bash
# Instructor reusing build folders (docs/instructors/index.md "What --out may hold"):
#  1. builds lab 2 into lab 1's build folder
#  2. builds lab 1 into a TA's grading run folder (out/lab1 of `autograder grade`)
#  3. opened student/self_attention_lab.ipynb of the build, ran it (Jupyter left a zip from
#     grader.export() and .ipynb_checkpoints/), then rebuilds lab 1 over it
#  4. moves those away and rebuilds lab 1 over its own build
# Promise: 1-3 refused with exit status 1 (as documented) and a sentence naming what is in the way,
# nothing written; 4 replaces its own build and passes the self-check.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build
d=$W/c52; rm -rf "$d"; mkdir -p "$d"; cd "$d"
cp -r "$W/dist1" dist; cp -r "$W/dist1" dist-run
mkdir cls; cp "$SUBS/l1_correct.py" cls/kim_1_2_a.py; cp "$SUBS/l1_stub.py" cls/lee_3_4_a.py
"$AG" grade cls --out out/lab1 > /dev/null 2>&1 || verdict BROKE "set-up grade failed"
snap() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
try() {  # try WHAT WANT_RC OUT args...
    local what=$1 want=$2 out=$3; shift 3
    local before; before=$(snap "$out")
    "$AG" build "$@" --out "$out" > b.out 2> b.err; local rc=$?
    say "$what: exit $rc: $(cat b.err | head -c 250 | tr '\n' ' ')"
    [ $rc = "$want" ] || verdict BROKE "$what: exit $rc (want $want): $(tail -2 b.out)"
    [ "$want" = 0 ] || [ "$(snap "$out")" = "$before" ] || verdict BROKE "$what: $out changed"
}
try "lab 2 into lab 1's build" 1 dist --lab masked_attention
try "lab 1 into a grading run" 1 out/lab1 --lab self_attention
mkdir -p dist-run/student/.ipynb_checkpoints; cp dist-run/student/self_attention_lab.ipynb dist-run/student/.ipynb_checkpoints/self_attention_lab-checkpoint.ipynb
printf 'PK\x05\x06%018d' 0 > dist-run/student/self_attention_lab_2026_03_01T10_00_00_000000.zip
try "lab 1 over its build with a student's run left in student/" 1 dist-run --lab self_attention
grep -q "self_attention_lab_2026_03_01T10_00_00_000000.zip\|ipynb_checkpoints" b.err || verdict BROKE "the refusal does not name what is in the way"
rm -rf dist-run/student/.ipynb_checkpoints dist-run/student/self_attention_lab_2026_*.zip
try "lab 1 over its own build" 0 dist-run --lab self_attention
grep -q "reference: 10 points" b.out && grep -q "stubs: 0 points" b.out || verdict BROKE "the rebuild's self-check did not pass"
verdict HELD "three reuses refused naming what is in the way; the own build is replaced and self-checked"
