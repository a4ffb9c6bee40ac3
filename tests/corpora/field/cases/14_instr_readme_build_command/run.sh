#!/usr/bin/env bash
# Instructor: types the README's own build examples (section "Instructors: Otter-grader and the LMS") in a
# fresh folder, with both labs installed. Each must run (the one with --lang en is the case's); the same
# command without --lab must stop with exit 2 and a sentence about building (a build grades no submissions).
. "$(dirname "$0")/../../lib/env.sh"; ensure_clone
out=$W/build-readme; rm -rf "$out"; mkdir -p "$out"; cd "$out"
mapfile -t builds < <(readme_commands "autograder build")
say "the README's build commands: ${#builds[@]}"
[ ${#builds[@]} -ge 1 ] || verdict BROKE "no build command found in the README"
english=""
for command in "${builds[@]}"; do case "$command" in *"--lang en"*) english=$command;; esac; done
[ -n "$english" ] || verdict BROKE "the README has no build example with --lang en"
say "running: $english"
eval "\"\$AG\" ${english#autograder }" > en.out 2> en.err; rc=$?
say "exit $rc: $(tail -3 en.out) $(cat en.err)"
[ $rc = 0 ] || verdict BROKE "the README's build command exits $rc: $(cat en.err)"
grep -q "self-check" en.out || verdict BROKE "the build printed no self-check"
"$AG" build --out no-lab --lang en > nolab.out 2> nolab.err; rc=$?
say "without --lab: exit $rc: $(cat nolab.err)"
[ $rc = 2 ] && [ ! -e no-lab ] || verdict BROKE "a build without --lab (two labs installed) was not refused before writing"
grep -q "submission" nolab.err && verdict BROKE "the build's refusal speaks of submissions: $(cat nolab.err)"
grep -q -- "--lab" nolab.err && grep -q "self_attention" nolab.err || verdict BROKE "the refusal does not say to give --lab and which labs"
verdict HELD "the README's build command ran; without --lab the build says to give it, naming the labs"
