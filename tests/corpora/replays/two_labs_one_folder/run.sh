#!/usr/bin/env bash
# Student keeps both labs' notebooks in one folder (lab 2's downloaded after lab 1's) and works on lab 1 in a
# kernel that is not started by JupyterLab/VS Code/Colab (no JPY_SESSION_NAME: nbclient here; also classic
# Notebook 6, PyCharm, papermill). docs/OTTER.md: the first cell finds the notebook by __vsc_ipynb_file__,
# JPY_SESSION_NAME, "else the newest .ipynb in the folder that carries the metadata". README:
# "grader.export() zips the notebook the first cell found, even when the folder holds other notebooks".
. "$(dirname "$0")/../lib/env.sh"; ensure_build; ensure_student_venv 3.12.1
s=$W/both; rm -rf "$s"; mkdir -p "$s"; cp -r "$W/dist1/student/." "$s/"
"$APY" "$REPLAYS/lib/subs.py" self_attention wrong_softmax "$W/dist1/student/self_attention_lab.ipynb" "$s/self_attention_lab.ipynb"
touch -d '2026-03-01 10:00' "$s/self_attention_lab.ipynb"
cp "$W/dist2/student/masked_attention_lab.ipynb" "$s/"; touch -d '2026-03-08 10:00' "$s/masked_attention_lab.ipynb"
env -u JPY_SESSION_NAME "$W/venv-3.12.1/bin/python" "$REPLAYS/lib/run_nb.py" "$s/self_attention_lab.ipynb" "$s/run.json" > "$s/run.log" 2>&1
python3 - "$s/run.json" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1])):
    if c["tags"] and c["tags"][0] in ("grader-init", "check:make_qkv", "check:softmax"):
        for o in c["outputs"]:
            print("  |", c["tags"][0], "->", (o.get("text") or o.get("ename", "") + ": " + o.get("evalue", "")).strip()[:120])
PY
z=$(ls "$s"/*.zip 2>/dev/null | head -1); say "grader.export() wrote: $(basename "$z") holding $(unzip -Z1 "$z" 2>/dev/null | grep ipynb)"
unzip -Z1 "$z" 2>/dev/null | grep -q "^self_attention_lab.ipynb$" || verdict BROKE "the lab 1 notebook picked lab 2's notebook: every grader.check is a FileNotFoundError traceback ('Test make_qkv does not exist') and grader.export() zips masked_attention_lab.ipynb — the student would submit the wrong lab"
verdict HELD "lab 1's notebook found and exported"
