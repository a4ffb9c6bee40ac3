#@title 채점 준비(고치지 말고 실행만 하십시오)
# 처음 실행할 때는 otter-grader를 설치하느라 1~2분 걸릴 수 있습니다.
# 검사에 쓰는 공개 테스트는 이 노트북 파일 안(메타데이터)에 들어 있어, 노트북 파일 하나만 있으면 됩니다.
def _prepare_grader(key="check_kit"):
    import glob, importlib, json, os, subprocess, sys

    try:
        import otter
    except ImportError:
        print("otter-grader를 설치합니다 ...")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "otter-grader>=7,<8"], check=True)
        importlib.invalidate_caches()
        import otter

    def this_notebook():
        """(노트북 경로, 노트북 내용). Colab에서는 경로 없이 내용만 받습니다."""
        if "google.colab" in sys.modules:
            try:
                from google.colab import _message
                return None, _message.blocking_request("get_ipynb", timeout_sec=60)["ipynb"]
            except Exception:
                return None, None
        named = [globals().get("__vsc_ipynb_file__"), os.environ.get("JPY_SESSION_NAME")]
        paths = [p for p in named if p and p.endswith(".ipynb")]
        newest_first = sorted(glob.glob("*.ipynb"), reverse=True,
                              key=lambda p: os.path.getmtime(p) if os.path.isfile(p) else 0)
        for path in paths + newest_first:
            for candidate in (path, os.path.basename(path)):
                try:
                    with open(candidate, encoding="utf-8") as handle:
                        notebook = json.load(handle)
                except (OSError, ValueError):
                    continue
                if key in notebook.get("metadata", {}):
                    return candidate, notebook
        return None, None

    path, notebook = this_notebook()
    if notebook is None or key not in notebook.get("metadata", {}):
        if os.path.isdir("tests"):
            return otter.Notebook(tests_dir="tests")
        raise RuntimeError("이 노트북에서 검사 데이터를 찾지 못했습니다. "
                           "나눠 받은 노트북 파일을 그대로 열었는지 확인하십시오.")
    payload = notebook["metadata"][key]
    folder = os.path.join(os.path.expanduser("~"), ".cache", key, payload["version"])
    for relative, text in payload["files"].items():
        target = os.path.join(folder, *relative.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        try:
            with open(target, encoding="utf-8") as handle:
                unchanged = handle.read() == text
        except OSError:
            unchanged = False
        if not unchanged:
            with open(target + ".part", "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(target + ".part", target)
    package = payload["package"]
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]  # another version of the checks, from an earlier run
    if folder not in sys.path:
        sys.path.insert(0, folder)
    if path:
        print(f"검사 준비가 끝났습니다. 제출할 노트북: {path}")
    else:
        print("검사 준비가 끝났습니다.")
    return otter.Notebook(path, tests_dir=os.path.join(folder, "tests"))


grader = _prepare_grader()
