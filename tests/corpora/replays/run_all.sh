#!/usr/bin/env bash
# Replays what users did on fresh machines, each as a script (exit 0 = the promise held, 1 = it broke,
# anything else = the replay could not run), and prints HELD or BROKE for each. The last commit of
# the checkout is cloned into $REPLAY_WORK (default /tmp/autograder-replays); `--fresh` starts from an
# empty work folder (a new clone, new builds, new student venvs: about ten minutes on 2 cores).
# Needs: git, pyenv's Pythons 3.9.18, 3.10.13 and 3.12.1, and PyPI access for the student venvs.
cd "$(dirname "$0")"
export REPLAYS=$(pwd) REPLAY_WORK=${REPLAY_WORK:-/tmp/autograder-replays}
[ "${1:-}" = --fresh ] && { rm -rf "$REPLAY_WORK"; shift; }
mkdir -p "$REPLAY_WORK/logs"
held=0; broke=0; other=0
for c in ${@:-*/}; do
    name=$(basename "$c")
    [ -f "$name/run.sh" ] || continue
    bash "$name/run.sh" > "$REPLAY_WORK/logs/$name.log" 2>&1; rc=$?
    why=$(grep -m1 '^RESULT:' "$REPLAY_WORK/logs/$name.log" | sed 's/^RESULT: [A-Z]* — //')
    case $rc in
        0) echo "HELD   $name — $why"; held=$((held+1));;
        1) echo "BROKE  $name — $why"; broke=$((broke+1));;
        *) echo "ERROR  $name (exit $rc; see $REPLAY_WORK/logs/$name.log)"; other=$((other+1));;
    esac
done
echo "$((held+broke+other)) replays: $broke broke a promise, $held held, $other could not run. Logs: $REPLAY_WORK/logs/"
[ $broke = 0 ] && [ $other = 0 ]
