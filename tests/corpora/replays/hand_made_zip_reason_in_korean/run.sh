#!/usr/bin/env bash
# Student (Korean): zips the notebook together with its .py twin by hand and uploads 과제.zip to Gradescope.
# README: feedback "in Korean (default)"; docs/OTTER.md: such a submission is "graded 0 with the reason
# (Korean or English, from the catalogs)". We read the reason the student gets.
. "$(dirname "$0")/../lib/env.sh"; ensure_subs; ensure_build
img=$(gs_image py310 "$W/dist1/autograder/self_attention_lab-autograder.zip" 3.10.13)
z=$W/zip19; rm -rf "$z"; mkdir -p "$z"; cd "$z"
cp "$SUBS/l1_correct.ipynb" self_attention_lab.ipynb; cp "$SUBS/l1_correct.py" self_attention_lab.py
python3 -c "import zipfile; z=zipfile.ZipFile('과제.zip','w'); z.write('self_attention_lab.ipynb'); z.write('self_attention_lab.py'); z.close()"
python3 -c "import zipfile; z=zipfile.ZipFile('메모.zip','w'); z.writestr('메모.txt','제출합니다'); z.close()"
bad=""
for f in 과제.zip 메모.zip; do
    gs_grade "$img" "$z/$f" > gs.out 2>&1
    line=$(python3 -c "import json;d=json.load(open('$img/root/results/results.json'));print(d['score'], d['output'].split(chr(10))[1].strip())")
    say "$f -> $line"
    echo "$line" | grep -q "files in the zip" && bad="$bad $f"
done
[ -z "$bad" ] || verdict BROKE "the Korean reason the student reads carries an untranslated English clause ('(2 .ipynb or .py files in the zip: ...)', '(0 .ipynb or .py files in the zip)')"
verdict HELD "reason fully in Korean"
