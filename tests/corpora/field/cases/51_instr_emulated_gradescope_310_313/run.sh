#!/usr/bin/env bash
# Instructor: before uploading, runs the zip the way docs/OTTER.md says Gradescope runs it, in the
# emulated image (autograder.otter.emulation.GradingImage: a fresh venv set up by the zip's own setup.sh,
# /autograder/{source,submission,results} laid out, run_autograder run from the student's folder), on
# Python 3.10 (Gradescope's default image) and 3.13.
# Promise (docs/instructors/index.md, OTTER.md): setup.sh installs on both; the filled-in notebook gets
# full marks, the untouched one 0, a .py with one wrong step what `autograder check` gives it (to the
# hundredth), and the public output speaks the build's language (Korean).
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build
d=$W/c51; rm -rf "$d"; mkdir -p "$d"; cd "$d"
Z=$W/dist1/autograder/self_attention_lab-autograder.zip
for v in 3.10 3.13; do
    py=$(ls -d ~/.pyenv/versions/$v.*/bin/python3 2>/dev/null | head -1)
    [ -n "$py" ] || { echo "no Python $v"; exit 2; }
    "$APY" - "$Z" "$py" "$SUBS" "$AG" <<'PY' > emu-$v.txt 2>&1; rc=$?
import json, pathlib, subprocess, sys
from autograder.otter.emulation import GradingImage
zip_path, python, S, ag = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), sys.argv[4]
img = GradingImage(pathlib.Path("image-" + python.split("/")[-3]).resolve(), python=python).install(zip_path)
print("python", img.version())
bad = 0
for name, want in (("l1_correct.ipynb", 10.0), ("l1_stub.ipynb", 0.0), ("l1_wrong_softmax.py", None)):
    target = "self_attention_lab." + name.rsplit(".", 1)[1]
    run = img.grade(zip_path, {target: (S / name).read_bytes()})
    if want is None:
        want = json.loads(subprocess.run([ag, "check", str(S / name), "--json"], capture_output=True, text=True).stdout)["score"]
    public = run.results["tests"][0]["output"]
    korean = any("\uac00" <= ch <= "\ud7a3" for ch in public.replace("나는", "").replace("사과를", "").replace("먹었다", ""))
    ok = abs(run.results["score"] - want) < 0.005 and run.returncode == 0 and korean
    bad += not ok
    print(f"{name}: score {run.results['score']} (want {want}), run_autograder exit {run.returncode}, public output Korean: {korean}, {run.seconds:.1f} s")
sys.exit(1 if bad else 0)
PY
    sed "s/^/  | $v: /" emu-$v.txt | tail -5
    [ $rc = 0 ] || verdict BROKE "Python $v: $(tail -1 emu-$v.txt)"
done
verdict HELD "the zip installs and grades alike on emulated Python 3.10 and 3.13 images"
