#!/usr/bin/env bash
# Instructor: the README's local check of the zip, typed in a fresh folder as the README writes it
# (the lines of its code block from `mkdir` on, up to `otter run`).
. "$(dirname "$0")/../../lib/env.sh"; ensure_subs; ensure_build
d=$W/otter-run; rm -rf "$d"; mkdir -p "$d/out/dist"; cd "$d"
cp -r "$W/dist1/autograder" out/dist/; cp "$SUBS/l1_wrong_softmax.ipynb" some_submission.ipynb
mapfile -t lines < <(readme_commands "mkdir"; readme_commands "otter run")
[ ${#lines[@]} -ge 2 ] || verdict BROKE "the README shows no mkdir before otter run: ${lines[*]}"
OTTER=$(dirname "$AG")/otter
for line in "${lines[@]}"; do
    say "running: $line"
    case "$line" in otter*) eval "\"\$OTTER\" ${line#otter }";; *) eval "$line";; esac > o1.out 2>&1; rc=$?
    [ $rc = 0 ] || break
done
say "exit $rc: $(grep 'Total Score' o1.out || tail -1 o1.out)"
[ $rc = 0 ] || verdict BROKE "the README's otter run commands fail in a fresh folder (exit $rc): $(tail -1 o1.out)"
[ -f out/results/results.json ] || verdict BROKE "no out/results/results.json"
verdict HELD "README's otter run commands work in a fresh folder"
