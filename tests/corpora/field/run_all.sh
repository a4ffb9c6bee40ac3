#!/usr/bin/env bash
# Replays the TA and instructor field cases kept here and prints HELD or BROKE for each (exit 0 =
# the promise held, 1 = broke, anything else = the case could not run). `--fresh` starts from an
# empty $FIELD_WORK (default /tmp/field-work); see lib/env.sh for the other variables.
cd "$(dirname "$0")"
export FIELD=$(pwd) FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
[ "${1:-}" = --fresh ] && rm -rf "$FIELD_WORK"
mkdir -p "$FIELD_WORK/logs"
held=0; broke=0; other=0
for c in cases/*/; do
    name=$(basename "$c")
    bash "$c/run.sh" > "$FIELD_WORK/logs/$name.log" 2>&1; rc=$?
    why=$(grep -m1 '^RESULT:' "$FIELD_WORK/logs/$name.log" | sed 's/^RESULT: [A-Z]* — //')
    case $rc in
        0) echo "HELD   $name — $why"; held=$((held+1));;
        1) echo "BROKE  $name — $why"; broke=$((broke+1));;
        *) echo "ERROR  $name (exit $rc; see $FIELD_WORK/logs/$name.log)"; other=$((other+1));;
    esac
done
echo "$((held+broke+other)) cases: $broke broke a promise, $held held, $other could not run. Logs: $FIELD_WORK/logs/"
