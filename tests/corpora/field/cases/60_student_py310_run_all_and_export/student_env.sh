# Student helpers (sourced after env.sh): a fresh venv of Python $1 with only what the student half's
# README says (`pip install -r requirements.txt`), made once per version under $W; a fresh copy of the
# student half (`autograder build` of lab 1, Korean) for each case.
ensure_student_venv() {  # ensure_student_venv 3.10 -> sets SPY (python) and SBIN
    local v=$1 base
    base=$(ls -d ~/.pyenv/versions/$v.*/bin/python3 2>/dev/null | sort -V | tail -1)
    [ -n "$base" ] || { echo "no Python $v under ~/.pyenv"; exit 2; }
    SV=$W/student-venv-$v; SPY=$SV/bin/python; SBIN=$SV/bin
    if [ ! -f "$SV/.done" ]; then
        rm -rf "$SV"; "$base" -m venv "$SV" || exit 2
        "$SPY" -m pip install -q -r "$W/dist1/student/requirements.txt" > "$W/student-venv-$v.log" 2>&1 || { tail -5 "$W/student-venv-$v.log"; exit 2; }
        touch "$SV/.done"
    fi
}
fresh_half() {  # fresh_half DIR: the student half as handed out
    rm -rf "$1"; cp -r "$W/dist1/student" "$1"
}
# nb_outputs NOTEBOOK: one line per code cell output, 'cell N: text' (text/plain, stream, errors)
nb_outputs() {
    "$APY" - "$1" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1], encoding="utf-8"))
for i, c in enumerate(nb["cells"]):
    if c["cell_type"] != "code": continue
    for o in c.get("outputs", []):
        t = o.get("text") or o.get("data", {}).get("text/plain") or (o.get("ename", "") + ": " + o.get("evalue", ""))
        t = "".join(t) if isinstance(t, list) else t
        print(f"cell {i} [{o['output_type']}]: " + t.replace("\n", " | ")[:400])
PY
}
