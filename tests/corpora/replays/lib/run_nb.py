"""Run a notebook cell by cell in a real Jupyter kernel (nbclient), as a student pressing Shift-Enter.

    python run_nb.py NOTEBOOK OUT.json [--cwd DIR] [--timeout S]

Uses the kernel named python3 of the Python that runs this script (the student's venv).
Writes every cell's outputs (text, html, errors) to OUT.json and prints a short digest.
"""
import json, sys, os, argparse
import nbformat
from nbclient import NotebookClient

ap = argparse.ArgumentParser()
ap.add_argument("nb"); ap.add_argument("out"); ap.add_argument("--cwd"); ap.add_argument("--timeout", type=int, default=600)
a = ap.parse_args()
nb = nbformat.read(a.nb, as_version=4)
cwd = a.cwd or os.path.dirname(os.path.abspath(a.nb))
client = NotebookClient(nb, timeout=a.timeout, kernel_name="python3", allow_errors=True,
                        resources={"metadata": {"path": cwd}})
try:
    client.execute()
except Exception as e:  # a dead kernel etc.
    print("NOTEBOOK RUN FAILED:", type(e).__name__, e)
cells = []
for i, c in enumerate(nb.cells):
    if c.cell_type != "code":
        continue
    outs = []
    for o in c.get("outputs", []):
        if o.output_type == "stream":
            outs.append({"type": "stream", "name": o.name, "text": o.text})
        elif o.output_type in ("execute_result", "display_data"):
            outs.append({"type": o.output_type, "text": o.data.get("text/plain", ""), "html": o.data.get("text/html", "")})
        elif o.output_type == "error":
            outs.append({"type": "error", "ename": o.ename, "evalue": o.evalue, "traceback": "\n".join(o.traceback)})
    cells.append({"index": i, "count": c.get("execution_count"), "tags": c.metadata.get("tags", []),
                  "source": c.source, "outputs": outs})
nbformat.write(nb, a.out.replace(".json", ".ipynb"))
json.dump(cells, open(a.out, "w"), ensure_ascii=False, indent=1)
errs = [c for c in cells if any(o["type"] == "error" for o in c["outputs"])]
print(f"{len(cells)} code cells, {len(errs)} with an error output")
