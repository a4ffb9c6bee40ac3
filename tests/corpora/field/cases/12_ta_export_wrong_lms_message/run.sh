#!/usr/bin/env bash
# TA: types `export canvas` for the Moodle worksheet (a slip). README: "A sheet of another LMS ... is refused
# with exit status 2 and nothing written". The sentence must say what the sheet's header is, which LMS's
# sheet it looks like, and which command fits; the same for each wrong pair of LMS and sheet.
HERE=$(cd "$(dirname "$0")/.." && pwd)
. "$HERE/../lib/env.sh"; ensure_subs
d=$W/wrong-lms; rm -rf "$d"; "$APY" "$HERE/03_ta_moodle_3x_4x_roundtrip/make_class.py" "$SUBS" "$d"; cd "$d"
"$APY" "$HERE/02_ta_canvas_roundtrip/make_class.py" "$SUBS" canvas > /dev/null
"$APY" "$HERE/04_ta_blackboard_roundtrip/make_class.py" "$SUBS" bb > /dev/null
"$AG" grade TP101-Lab1-4x.zip --out lab1 > /dev/null 2>&1
"$AG" export canvas lab1 --lab self_attention --sheet "Grades-TP101-Lab 1-4x.csv" --out canvas.csv > e.out 2> e.err; rc=$?
msg=$(cat e.err); say "exit $rc: $msg"
say "the sheet's real header: $(head -1 "Grades-TP101-Lab 1-4x.csv")"
[ $rc = 2 ] && [ ! -f canvas.csv ] || verdict BROKE "not refused"
case "$msg" in
  *"its header starts with Student, ID, SIS User ID"*) verdict BROKE "refused, but the sentence says the Moodle sheet's header 'starts with Student, ID, SIS User ID, ...' — that is Canvas's header, not this sheet's (Identifier, Full name, ...)";;
esac
for want in "its header is Identifier, Full name, Email address" "Moodle grading worksheet" "autograder export moodle"; do
    case "$msg" in *"$want"*) ;; *) verdict BROKE "the sentence does not say '$want'";; esac
done
check() {  # check LMS SHEET WANT...: export LMS with SHEET is refused, naming each WANT
    local lms=$1 sheet=$2; shift 2
    "$AG" export $lms lab1 --lab self_attention --sheet "$sheet" --out other.$lms > o.out 2> o.err; local rc=$?
    say "export $lms with $(basename "$sheet"): exit $rc: $(cat o.err)"
    [ $rc = 2 ] && [ ! -e other.$lms ] || verdict BROKE "export $lms with $(basename "$sheet") not refused"
    for want in "$@"; do grep -qF -- "$want" o.err || verdict BROKE "export $lms with $(basename "$sheet"): no '$want'"; done
}
check moodle canvas/2026-03-05T0900_Grades-TP101.csv "its header is Student, ID, SIS User ID" "Canvas gradebook" "autograder export canvas"
check blackboard canvas/2026-03-05T0900_Grades-TP101.csv "its header is Student, ID" "autograder export canvas"
check canvas bb/gc_TP101_fullgc_2026-03-05-09-00-00.xls "its header is Last Name, First Name, Username" "autograder export blackboard"
check moodle bb/gc_TP101_fullgc_2026-03-05-09-00-00.csv "Blackboard Grade Center sheet" "autograder export blackboard"
check blackboard "Grades-TP101-Lab 1-3x.csv" "its header is Identifier, Full name" "autograder export moodle"
verdict HELD "refused with a sentence that describes the sheet, the LMS it looks like and the command that fits"
