#!/usr/bin/env bash
# Student (Python 3.13) copies only self_attention_lab.ipynb to the desktop and runs it there (no
# lab_check/ beside it), in English (LAB_CHECK_LANG=en) and in Korean.
# Promise (docs/students/index.md: '노트북은 받은 폴더 안에서 여십시오'; the set-up cell 'checks the kernel's
# Python ... says what to change'): the set-up cell stops with one sentence in the student's language
# that says to open the notebook in the folder handed out (or upload the zip on Colab); no traceback of
# the kit, no other error.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build; . "$C/../60_student_py310_run_all_and_export/student_env.sh"
ensure_student_venv 3.13
d=$W/c65; rm -rf "$d"; mkdir -p "$d/Desktop"; cp "$W/dist1/student/self_attention_lab.ipynb" "$d/Desktop/"; cd "$d/Desktop"
for lang in ko en; do
    LAB_CHECK_LANG=$lang "$SBIN/jupyter" nbconvert --to notebook --execute self_attention_lab.ipynb --output-dir ../out-$lang > ../nb-$lang.log 2>&1; rc=$?
    msg=$(grep -E "SystemExit|Error" ../nb-$lang.log | grep -v "^\[" | tail -1 | sed 's/\x1b\[[0-9;]*m//g')
    say "$lang: nbconvert exit $rc: $msg"
    case $lang in
      ko) grep -q "lab_check" <<<"$msg" && grep -qP '[\x{AC00}-\x{D7A3}]' <<<"$msg" || verdict BROKE "ko: not one Korean sentence naming lab_check/: $msg";;
      en) grep -q "lab_check" <<<"$msg" && ! grep -qP '[\x{AC00}-\x{D7A3}]' <<<"$msg" || verdict BROKE "en: not one English sentence naming lab_check/: $msg";;
    esac
    grep -q "Traceback" ../nb-$lang.log && grep -q "lab_check/kit\|ready.py" ../nb-$lang.log && verdict BROKE "$lang: a traceback of the kit"
done
verdict HELD "outside its folder the set-up cell says, in the student's language, to open it in the folder handed out"
