#!/usr/bin/env bash
# TA (Korean, default --lang ko): the slips a tired TA makes, each refused with exit 2. The quick start
# (docs/ta/quickstart-ko.md) is Korean and says '채점기는 --lang(기본은 한국어)으로 말합니다'; the refusals
# of an --out folder of another run or of a folder of the TA's documents are Korean.
# Promise (a demanding Korean TA: clear messages in the user's language): every refusal below is a
# Korean sentence. (docs/ta/index.md admits that some pre-grading refusals 'are still in English'; this
# case records which ones a Korean TA meets.)
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c38; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" canvas; cd "$d"
mkdir lab2subs; cp "$SUBS/l2_correct.py" lab2subs/kimminsu_20001_90001_masked_attention_lab.py
cp "$SUBS/l2_wrong_mask.py" lab2subs/leejiwon_20002_90002_masked_attention_lab.py
"$AG" grade submissions.zip --out lab1 > /dev/null 2>&1 || verdict BROKE "set-up grade failed"
english=0; n=0
slip() {  # slip "what" command...
    local what=$1; shift
    "$@" > s.out 2> s.err; local rc=$?; n=$((n + 1))
    local msg; msg=$(grep -v "^채점 " s.err | head -3 | tr '\n' ' ')
    if grep -qP '[\x{AC00}-\x{D7A3}]' <<<"$(sed -E 's/[^ ]*(submissions|lab1|lab2subs|김조교)[^ ]*//g' <<<"$msg")"; then
        say "ko   ($what) exit $rc: ${msg:0:170}"
    else
        english=$((english + 1)); say "EN!! ($what) exit $rc: ${msg:0:170}"
    fi
}
slip "lab 2 files graded with --lab self_attention" "$AG" grade lab2subs --lab self_attention --out lab1-wrong
slip "--late-penalty without --due" "$AG" grade submissions.zip --out lab1 --late-penalty 10%/day
slip "--due typed the Korean way" "$AG" grade submissions.zip --out lab1 --due "2026.03.01 18:00"
slip "a typo in the folder name" "$AG" grade submission.zip --out lab1
printf 'id,step,points,comment,by\n20003,softmax,1,5,김조교\n' > lab1/overrides.csv
slip "overrides.csv with a decimal comma" "$AG" grade submissions.zip --out lab1
rm lab1/overrides.csv
slip "export without --lab" "$AG" export canvas lab1 --sheet 2026-03-05T0900_Grades-TP101.csv --out x.csv
say "$english of $n refusals were not in Korean"
[ $english = 0 ] || verdict BROKE "$english of $n refusals a Korean TA met were in English (default --lang ko)"
verdict HELD "every refusal in Korean"
