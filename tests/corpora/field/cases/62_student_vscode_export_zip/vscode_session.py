"""Run a notebook the way VS Code's Jupyter extension does: it starts the kernel itself (jupyter_client,
cwd = the notebook's folder, no Jupyter server, so no JPY_SESSION_NAME), sets `__vsc_ipynb_file__` to the
notebook's absolute path in the kernel on start, then runs the cells in order. Prints one JSON line per cell."""
import json, os, sys
from jupyter_client.manager import KernelManager
folder, notebook = sys.argv[1], sys.argv[2]
env = {k: v for k, v in os.environ.items() if k != "JPY_SESSION_NAME"}
km = KernelManager(kernel_name="python3"); km.start_kernel(cwd=folder, env=env)
kc = km.client(); kc.start_channels(); kc.wait_for_ready(60)
try:
    path = os.path.abspath(os.path.join(folder, notebook))
    kc.execute_interactive(f"__vsc_ipynb_file__ = {path!r}", timeout=60)
    nb = json.load(open(path, encoding="utf-8"))
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code": continue
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        texts = []
        def out(msg):
            c = msg["content"]
            t = c.get("text") or c.get("data", {}).get("text/plain") or (c.get("ename", "") + ": " + c.get("evalue", "") if msg["msg_type"] == "error" else "")
            if t: texts.append(t)
        reply = kc.execute_interactive(src, output_hook=out, timeout=300)
        print(json.dumps({"cell": i, "status": reply["content"]["status"], "out": "".join(texts)[:3000]}, ensure_ascii=False), flush=True)
finally:
    kc.stop_channels(); km.shutdown_kernel(now=True)
