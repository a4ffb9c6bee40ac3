#!/usr/bin/env bash
# Student on Korean Windows works in the .py twin and runs it as its own header says:
#   "실행:  python self_attention_lab.py   (단계마다 Otter 검사도 합니다 ...)"
# with output going through cp949 (an editor's Run/Build panel or a redirect; emulated with PYTHONIOENCODING=cp949,
# the README's own stand-in for Korean Windows). One step is wrong (softmax along columns).
. "$(dirname "$0")/../lib/env.sh"; ensure_build; ensure_student_venv 3.12.1
s=$W/twin; rm -rf "$s"; cp -r "$W/dist1/student" "$s"; cd "$s"
"$APY" "$REPLAYS/lib/subs.py" self_attention wrong_softmax self_attention_lab.py self_attention_lab.py
"$W/venv-3.12.1/bin/python" self_attention_lab.py > utf8.txt 2>&1; rc0=$?
PYTHONIOENCODING=cp949 "$W/venv-3.12.1/bin/python" self_attention_lab.py > cp949.txt 2>&1; rc=$?
say "UTF-8 terminal: exit $rc0; softmax part: $(grep -m2 -A1 'softmax results' utf8.txt | tr '\n' ' ' | cut -c1-120)"
say "cp949 terminal: exit $rc; last lines:"; iconv -f cp949 -t utf-8 -c cp949.txt | tail -3 | sed 's/^/  |   /'
grep -q "UnicodeEncodeError" cp949.txt && verdict BROKE "running the .py twin on a cp949 console stops with UnicodeEncodeError at the first failed step (Otter's '❌' is not in cp949); the later steps are never checked"
verdict HELD "the twin runs to the end on cp949"
