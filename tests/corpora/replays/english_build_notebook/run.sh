#!/usr/bin/env bash
# Student who reads English (exchange student). README: students get feedback "in Korean (default) or English";
# `autograder build --lang en` (README's instructor example; --help: "feedback language"). We build with
# --lang en and look at what the student half gives: the notebook's checks, and whether a student can ask
# for English without editing the set-up cell marked "고치지 말고 실행만 하십시오".
. "$(dirname "$0")/../lib/env.sh"; ensure_build; ensure_student_venv 3.12.1
en=$W/build-en; rm -rf "$en"
(cd "$CLONE" && "$AG" build --lab self_attention --out "$en" --lang en) > "$en.log" 2>&1; say "build --lang en: exit $?"
cmp -s "$en/student/self_attention_lab.ipynb" "$W/dist1/student/self_attention_lab.ipynb" && say "student notebook of --lang en is byte-identical to the Korean build's"
say "zip's otter_config lang: $(unzip -p "$en"/autograder/*.zip otter_config.json | grep -o '"lang": "[a-z]*"')"
s=$W/english; rm -rf "$s"; cp -r "$en/student" "$s"
"$APY" "$REPLAYS/lib/subs.py" self_attention wrong_softmax "$en/student/self_attention_lab.ipynb" "$s/self_attention_lab.ipynb"
# the student also exports the variable the checks read (the set-up cell overwrites it)
LAB_CHECK_LANG=en LANG=en_US.UTF-8 "$W/venv-3.12.1/bin/python" "$REPLAYS/lib/run_nb.py" "$s/self_attention_lab.ipynb" "$s/run.json" > "$s/run.log" 2>&1
head=$(python3 -c "
import json; cells=json.load(open('$s/run.json'))
print([c for c in cells if 'check:softmax' in c['tags']][0]['outputs'][0]['text'].split(chr(10))[0])")
say "grader.check(\"softmax\") in the --lang en build: $head"
case "$head" in *점*) verdict BROKE "the --lang en build gives students Korean checks (identical student half); the set-up cell forces lang='ko' and overwrites LAB_CHECK_LANG, so English needs editing a do-not-edit cell";; esac
verdict HELD "English checks available to the student"
