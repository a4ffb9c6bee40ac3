#!/usr/bin/env bash
# TA + instructor: two students each uploaded two files in ONE attempt — the notebook they worked in and
# the untouched .py twin (kim: notebook done; lee: .py done, the notebook untouched). The course grades
# lab 1 on Gradescope with the `autograder build` zip, and the TA grades the Canvas copy of the same
# attempts with `autograder grade`.
# Promise (docs/instructors/trust.md: the same engine in every face, both trusted; docs/students/submit.md
# tells students the one-attempt rule 'notebook, then .py, then zip'): the same attempt gets the same
# grade from `autograder grade` as from the LMS zip. Here the zip is run in the emulated Gradescope image
# of docs/OTTER.md (autograder.otter.emulation.GradingImage, Python 3.10 like Gradescope's default).
C=$(cd "$(dirname "$0")" && pwd); export FIELD_WORK=${FIELD_WORK:-/tmp/field-work}
export FIELD_CLONE=${FIELD_CLONE:-$(cd "$C/../../../../.." && pwd)}
. "$C/../../lib/env.sh"; ensure_subs; ensure_build
d=$W/c46; rm -rf "$d"; mkdir -p "$d"; cd "$d"
PY310=${FIELD_PY310:-$(ls -d ~/.pyenv/versions/3.10.*/bin/python3 | head -1)}
"$APY" - "$SUBS" <<'PY'
import sys, zipfile
S = sys.argv[1]; t = (2026, 3, 1, 10, 0, 0)   # one attempt: both files uploaded together
with zipfile.ZipFile("submissions.zip", "w") as z:
    z.writestr(zipfile.ZipInfo("kimminsu_20001_70001_self_attention_lab.ipynb", t), open(f"{S}/l1_correct.ipynb", "rb").read())
    z.writestr(zipfile.ZipInfo("kimminsu_20001_70002_self_attention_lab.py", t), open(f"{S}/l1_stub.py", "rb").read())
    z.writestr(zipfile.ZipInfo("leejiwon_20002_70003_self_attention_lab.ipynb", t), open(f"{S}/l1_stub.ipynb", "rb").read())
    z.writestr(zipfile.ZipInfo("leejiwon_20002_70004_self_attention_lab.py", t), open(f"{S}/l1_correct.py", "rb").read())
PY
"$AG" grade submissions.zip --out lab1 --lang en > g.out 2> g.err || verdict BROKE "grade exited $?"
"$APY" - "$W/dist1/autograder/self_attention_lab-autograder.zip" "$PY310" "$SUBS" <<'PY' > faces.txt || verdict BROKE "emulated Gradescope run failed: $(tail -3 faces.txt)"
import csv, pathlib, sys
from autograder.otter.emulation import GradingImage
zip_path, python, S = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
img = GradingImage(pathlib.Path("image").resolve(), python=python).install(zip_path)
grade = {r["id"]: r for r in csv.DictReader(open("lab1/grades.csv", encoding="utf-8-sig")) if r["status"] == "graded"}
for sid, files in {"20001": {"self_attention_lab.ipynb": S / "l1_correct.ipynb", "self_attention_lab.py": S / "l1_stub.py"},
                   "20002": {"self_attention_lab.ipynb": S / "l1_stub.ipynb", "self_attention_lab.py": S / "l1_correct.py"}}.items():
    run = img.grade(zip_path, {k: v.read_bytes() for k, v in files.items()})
    print(sid, "gradescope", run.results["score"], "grade", grade[sid]["total"], grade[sid]["file"])
PY
sed 's/^/  | /' faces.txt
"$APY" - <<'PY' || verdict BROKE "the same attempt gets different grades: $(tr '\n' ';' < faces.txt)"
for line in open("faces.txt"):
    sid, _, gs, _, gr, f = line.split()
    assert abs(float(gs) - float(gr)) < 0.01, line
PY
verdict HELD "autograder grade and the LMS zip grade the same attempt alike"
