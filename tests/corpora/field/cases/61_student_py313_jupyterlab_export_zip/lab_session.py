"""Run a notebook the way JupyterLab does: a jupyter server in the student folder, a session opened
through its REST API (what the browser does when the student opens the notebook), then every code
cell executed in that session's kernel in order. Prints each cell's text outputs as JSON lines."""
import json, os, socket, subprocess, sys, time, urllib.request
from jupyter_client import BlockingKernelClient
from jupyter_core.paths import jupyter_runtime_dir

folder, notebook = sys.argv[1], sys.argv[2]
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
token = "fieldtest"
server = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "jupyter"), "server", "--no-browser",
                           f"--port={port}", f"--IdentityProvider.token={token}", "--ServerApp.ip=127.0.0.1", "--allow-root"],
                          cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{port}"
def api(method, path, body=None):
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None,
                                 headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=30).read() or b"null")
try:
    for _ in range(120):
        try:
            api("GET", "/api/status"); break
        except Exception:
            time.sleep(0.5)
    # what JupyterLab's browser sends when a notebook is opened
    sess = api("POST", "/api/sessions", {"path": notebook, "name": os.path.basename(notebook), "type": "notebook",
                                          "kernel": {"name": "python3"}})
    kid = sess["kernel"]["id"]
    cf = os.path.join(jupyter_runtime_dir(), f"kernel-{kid}.json")
    for _ in range(60):
        if os.path.exists(cf): break
        time.sleep(0.5)
    kc = BlockingKernelClient(connection_file=cf); kc.load_connection_file(); kc.start_channels(); kc.wait_for_ready(60)
    nb = json.load(open(os.path.join(folder, notebook), encoding="utf-8"))
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
    kc.stop_channels()
finally:
    server.terminate(); server.wait(20)
