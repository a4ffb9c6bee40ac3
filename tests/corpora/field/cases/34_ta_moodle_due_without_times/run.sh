#!/usr/bin/env bash
# TA: a Moodle class graded with the quick start's late-policy command
#   autograder grade moodle.zip --out lab1 --due 2026-03-01T18:00+09:00 --late-penalty 10%/day,max=50%
# Moodle's 'Download all submissions' names no submission time (the worksheet's 'Last modified
# (submission)' has it), and a file's own time never makes anyone late (docs/ta/report.md). So this
# deadline can mark nobody late. Here 10 of the 30 submitted on 3 March (the zip
# entries carry that date, as Moodle writes each file's time).
# Promise (a demanding TA; docs/ta/late.md "--late-penalty without --due ... exits 2": a policy that cannot
# apply is not silently dropped): the run says that no file has a time the LMS wrote, so --due and
# --late-penalty changed nobody's grade (or reads the times). Silence with 'late = no' for all is BROKE.
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs
L=$C/../30_ta_canvas_class30_en
d=$W/c34; rm -rf "$d"; mkdir -p "$d"; "$APY" "$L/lms.py" "$SUBS" "$d" moodle-en; cd "$d"
"$APY" - <<'PY'
import zipfile
src = zipfile.ZipFile("TP101-Lab 1-4401.zip"); out = zipfile.ZipFile("moodle.zip", "w")
for k, i in enumerate(src.infolist()):       # Moodle writes each file's own time into the zip
    j = zipfile.ZipInfo(i.filename, (2026, 3, 3 if k % 3 == 0 else 1, 11, 0, 0)); out.writestr(j, src.read(i))
out.close()
PY
for lang in ko en; do
    "$AG" grade moodle.zip --out lab1-$lang --lang $lang --due 2026-03-01T18:00+09:00 --late-penalty 10%/day,max=50% > g-$lang.out 2> g-$lang.err; rc=$?
    say "$lang: exit $rc: $(tail -1 g-$lang.out | cut -c1-160)"
    # A refusal that names the way to accept unknown times is no silence.
    [ $rc = 2 ] && grep -q -- "--allow-unknown-times" g-$lang.err && { refused=$((${refused:-0} + 1)); continue; }
    [ $rc = 0 ] || verdict BROKE "grade exited $rc"
done
[ "${refused:-0}" = 2 ] && verdict HELD "refused in both languages, naming --allow-unknown-times (no LMS time: lateness unknown)"
late=$(grep -c ',yes,' lab1-en/grades.csv)
say "grades.csv: rows late=yes: $late; submitted_at of the first: $(sed -n 2p lab1-en/grades.csv | cut -d, -f4)"
notes=$(grep -v "^graded \|^채점 " g-en.err)
say "stderr (en) besides progress: ${notes:-<nothing>}"
[ "$late" -gt 0 ] && verdict HELD "late students found"
grep -qiE "due|late|deadline" <<<"$notes" && grep -qiE "마감|지각|due" g-ko.err && verdict HELD "told the TA that --due/--late-penalty could not apply"
verdict BROKE "--due/--late-penalty accepted for a Moodle class where nobody can be late: 0 late, exit 0, not a word on stderr or in the summary"
