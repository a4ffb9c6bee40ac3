#!/usr/bin/env bash
# Instructor: pushes dist/classroom/ (from `autograder build`) as the GitHub Classroom template; a student
# commits a notebook with a softmax over the wrong axis. The workflow (.github/workflows/classroom.yml)
# sets up Python 3.11, installs what its 'Install' step says, and runs one command per step.
# Emulated here: a fresh Python 3.11 venv, the workflow's own 'run:' install line, then each step's
# `command:` in the repository folder; a step earns its max-score when the command exits 0.
# Promise (docs/instructors/classroom.md): the commands run with only what the workflow installs; every
# step but softmax earns its points, softmax none; the points add up to what the student's own
# `python -m lab_check` says of the passed steps.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build
d=$W/c55; rm -rf "$d"; mkdir -p "$d"; cp -r "$W/dist1/classroom" "$d/repo"; cd "$d"
base=$(ls -d ~/.pyenv/versions/3.11.*/bin/python3 | sort -V | tail -1)
"$base" -m venv venv || exit 2
Y=repo/.github/workflows/classroom.yml
install=$("$APY" -c "
import yaml, sys
w = yaml.safe_load(open('$Y'))
steps = w['jobs']['run-autograding-tests']['steps']
print([s['run'] for s in steps if 'run' in s][0])")
say "workflow install: $install"
(. venv/bin/activate && cd repo && eval "$install") > install.log 2>&1 || { tail -3 install.log; exit 2; }
"$APY" "$FIELD/lib/subs.py" self_attention wrong_softmax repo/self_attention_lab.ipynb repo/self_attention_lab.ipynb
"$APY" -c "
import yaml
w = yaml.safe_load(open('$Y'))
for s in w['jobs']['run-autograding-tests']['steps']:
    if 'with' in s and 'command' in s['with']:
        print(s['with']['test-name'], s['with']['max-score'], s['with']['command'], sep='\t')" > steps.tsv
earned=0; total=0; bad=""
while IFS=$'\t' read -r name pts cmd; do
    (. venv/bin/activate && cd repo && timeout 300 bash -c "$cmd") > "out-$name.txt" 2>&1; rc=$?
    total=$((total + pts)); [ $rc = 0 ] && earned=$((earned + pts))
    say "$name ($pts pts): exit $rc $(head -1 out-$name.txt | cut -c1-80)"
    if [ "$name" = softmax ]; then [ $rc = 1 ] || bad="$bad softmax:$rc"; else [ $rc = 0 ] || bad="$bad $name:$rc"; fi
    grep -q "Traceback\|ModuleNotFoundError" "out-$name.txt" && bad="$bad $name:traceback"
done < steps.tsv
say "Classroom points: $earned / $total"
[ -z "$bad" ] || verdict BROKE "workflow commands did not give the expected exits:$bad"
[ $earned = 8 ] && [ $total = 10 ] || verdict BROKE "points $earned/$total, want 8/10"
verdict HELD "the workflow's commands run with only what it installs; 8/10 (softmax 0)"
