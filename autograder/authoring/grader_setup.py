#@title 채점 준비(고치지 말고 실행만 하십시오)
# 처음 실행할 때는 otter-grader를 설치하느라 1~2분 걸릴 수 있습니다.
# 검사에 쓰는 공개 테스트는 이 노트북 파일 안(메타데이터)에 들어 있어, 노트북 파일 하나만 있으면 됩니다.
def _prepare_grader(lab: "str | None" = None, lang: str = "ko", key: str = "check_kit") -> object:
    import glob, importlib, json, os, subprocess, sys
    from typing import Any, Callable, Dict, Optional, Tuple  # names an old Python has too

    oldest, newest = (3, 10), (3, 13)
    running = "{}.{}.{}".format(*sys.version_info[:3])
    # The student's own choice (set before Jupyter started) wins over the notebook's language.
    chosen = os.environ.get("LAB_CHECK_LANG")
    lang = chosen if chosen in ("ko", "en") else lang if lang in ("ko", "en") else "ko"
    words = {
        "ko": {
            "too_old": "이 노트북은 Python 3.10~3.13에서 검사합니다. 지금 커널은 Python {v}이라 검사할 수 없습니다.\n"
                       "- Jupyter나 VS Code에서 커널을 Python 3.10 이상으로 바꾸십시오"
                       "(Jupyter: Kernel → Change Kernel, VS Code: 오른쪽 위의 커널 선택).\n"
                       "- Python 3.10 이상이 없다면 python.org에서 Python 3.12를 설치하고, 나눠 받은 폴더에서 "
                       "새 가상 환경을 만든 뒤 pip install -r requirements.txt를 실행하십시오.\n"
                       "- Colab에서는 이 문제가 생기지 않습니다.",
            "untested": "Python {v}에서는 아직 확인하지 않았습니다(확인한 버전: 3.10~3.13). "
                        "검사가 이상하게 동작하면 Python 3.13 이하의 커널로 바꾸십시오.",
            "installing": "otter-grader를 설치합니다 ...",
            "no_otter": "otter-grader를 설치하지 못했습니다. 인터넷 연결을 확인하거나, 터미널에서 나눠 받은 폴더로 "
                        "이동해 pip install -r requirements.txt를 실행한 뒤 커널을 다시 시작하십시오.",
            "no_data": "이 노트북에서 검사 데이터를 찾지 못했습니다. 나눠 받은 노트북 파일을 그대로 열었는지 확인하십시오.",
            "ready": "검사 준비가 끝났습니다.",
            "ready_path": "검사 준비가 끝났습니다. 제출할 노트북: {path}",
            "several": "이 폴더에 이 실습의 노트북이 여러 개 있어 지금 연 노트북이 어느 파일인지 알 수 없습니다: {names}. "
                       "검사는 그대로 됩니다. 제출할 zip 파일은 마지막 셀을 grader.export(\"{first}\", pdf=False)처럼 "
                       "이 노트북의 파일 이름을 넣어 고친 뒤 실행해 만들거나, 다른 노트북을 다른 폴더로 옮기고 "
                       "이 셀부터 다시 실행하십시오.",
            "unknown": "지금 연 노트북이 어느 파일인지 알 수 없어 zip 파일을 만들지 않았습니다. "
                       "grader.export(\"노트북 파일 이름.ipynb\", pdf=False)처럼 이 노트북의 파일 이름을 넣어 실행하십시오.",
            "other_lab": "{path}은(는) 다른 실습({other})의 노트북이라 zip 파일로 만들지 않았습니다. "
                         "이 실습의 노트북 파일 이름을 넣어 grader.export(\"...\", pdf=False)를 실행하십시오.",
        },
        "en": {
            "too_old": "This notebook is checked on Python 3.10 to 3.13; this kernel runs Python {v}, so it cannot "
                       "check your work.\n"
                       "- In Jupyter or VS Code, switch to a kernel of Python 3.10 or newer "
                       "(Jupyter: Kernel > Change Kernel; VS Code: the kernel picker at the top right).\n"
                       "- Without one, install Python 3.12 from python.org, make a new virtual environment in the "
                       "folder you were given and run pip install -r requirements.txt there.\n"
                       "- Colab always has a recent Python.",
            "untested": "Python {v} has not been tried yet (tried: 3.10 to 3.13). If the checks misbehave, "
                        "switch to a kernel of Python 3.13 or older.",
            "installing": "Installing otter-grader ...",
            "no_otter": "otter-grader could not be installed. Check the internet connection, or run "
                        "pip install -r requirements.txt in a terminal in the folder you were given and restart "
                        "the kernel.",
            "no_data": "The checks' data was not found in this notebook. Open the notebook file as you received it.",
            "ready": "The checks are ready.",
            "ready_path": "The checks are ready. Notebook to submit: {path}",
            "several": "This folder holds several notebooks of this lab, so which one is open cannot be told: "
                       "{names}. The checks work as usual. To make the zip to submit, put this notebook's file "
                       "name in the last cell, as in grader.export(\"{first}\", pdf=False), or move the other "
                       "notebooks to another folder and run this cell again.",
            "unknown": "Which file this notebook is cannot be told, so no zip was made. Run "
                       "grader.export(\"your notebook's file name.ipynb\", pdf=False) with this notebook's file name.",
            "other_lab": "{path} is the notebook of another lab ({other}), so no zip was made of it. Run "
                         "grader.export(\"...\", pdf=False) with the file name of this lab's notebook.",
        },
    }[lang]

    class NoChecks:
        """Stands in for the grader when the checks cannot run: each check says why, not a traceback."""

        def __init__(self, message: str) -> None:
            self.message = message
            print(message, file=sys.stderr)

        def __getattr__(self, name: str) -> Callable[..., None]:  # check, check_all, export, ...
            if name.startswith("_"):
                raise AttributeError(name)

            def explain(*args: Any, **kwargs: Any) -> None:
                print(self.message, file=sys.stderr)
            return explain

        def __repr__(self) -> str:
            return self.message

    if sys.version_info[:2] < oldest:
        return NoChecks(words["too_old"].format(v=running))
    if sys.version_info[:2] > newest:
        print(words["untested"].format(v=running), file=sys.stderr)
    os.environ["LAB_CHECK_LANG"] = lang
    try:
        import otter
    except ImportError:
        print(words["installing"])
        try:
            # The checks read their catalogs with tomllib, which Python 3.10 lacks: tomli stands in.
            wanted = ["otter-grader>=7,<8"] + (["tomli>=1.1"] if sys.version_info[:2] < (3, 11) else [])
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", *wanted], check=True)
            importlib.invalidate_caches()
            import otter
        except Exception:
            return NoChecks(words["no_otter"])

    def read(path: str) -> Optional[Dict[str, Any]]:
        """The JSON object saved at `path` (a dict), or None."""
        try:
            with open(path, encoding="utf-8") as handle:
                found = json.load(handle)
        except (OSError, ValueError):
            return None
        return found if isinstance(found, dict) else None

    def metadata(notebook: object) -> Dict[str, Any]:
        found = notebook.get("metadata") if isinstance(notebook, dict) else None
        return found if isinstance(found, dict) else {}

    def ours(notebook: object) -> bool:
        """Whether a notebook carries this lab's checks: the lab its metadata names is this cell's."""
        return key in metadata(notebook) and (lab is None or metadata(notebook).get("autograder_lab") == lab)

    def this_notebook() -> Tuple[Optional[str], Optional[Dict[str, Any]], Optional[str]]:
        """(path, notebook whose checks to run, why the path is unknown). The notebook is found by
        what names it (Colab, VS Code, JupyterLab), else by this lab's name among the notebooks of
        the folder, never as "the only" or "the newest" notebook: another lab's never stands in."""
        if "google.colab" in sys.modules:
            try:
                from google.colab import _message
                return None, _message.blocking_request("get_ipynb", timeout_sec=60)["ipynb"], None
            except Exception:
                return None, None, None
        named = [globals().get("__vsc_ipynb_file__"), os.environ.get("JPY_SESSION_NAME")]
        for path in [p for p in named if p and p.endswith(".ipynb")]:
            for candidate in (path, os.path.basename(path)):
                notebook = read(candidate)
                if ours(notebook):
                    return candidate, notebook, None
        found = sorted(p for p in glob.glob("*.ipynb") if ours(read(p)))
        if len(found) == 1:
            return found[0], read(found[0]), None
        if found:  # the checks are the same lab's; which file to submit is the student's to say
            newest = max(found, key=lambda p: os.path.getmtime(p) if os.path.isfile(p) else 0)
            return None, read(newest), words["several"].format(names=", ".join(found), first=found[0])
        return None, None, None

    def refusal(path: Optional[str]) -> Optional[str]:
        """Why `path` must not be zipped as this lab's submission, or None."""
        if path is None:
            return unknown or words["unknown"]
        other = metadata(read(path)).get("autograder_lab")
        if lab is not None and other is not None and other != lab:
            return words["other_lab"].format(path=path, other=other)
        return None

    class Notebook(otter.Notebook):  # type: ignore[misc]  # Otter ships no types
        """Otter's notebook whose export() zips this lab's notebook only, never another's."""

        def export(self, nb_path: Optional[str] = None, *args: Any, **kwargs: Any) -> object:
            why = refusal(nb_path or self._notebook)
            if why:
                print(why, file=sys.stderr)
                return None
            return otter.Notebook.export(self, nb_path or self._notebook, *args, **kwargs)

    path, notebook, unknown = this_notebook()
    if key not in metadata(notebook):
        # The student half's own tests/, when they are this lab's (its check package says so).
        kit = read(os.path.join("lab_check", "kit", "public_data.json")) or {}
        if os.path.isdir("tests") and (lab is None or kit.get("lab") == lab):
            return Notebook(tests_dir="tests")
        return NoChecks(words["no_data"])
    payload = metadata(notebook)[key]
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
    if unknown:
        print(unknown, file=sys.stderr)
    else:
        print(words["ready_path"].format(path=path) if path else words["ready"])
    return Notebook(path, tests_dir=os.path.join(folder, "tests"))


grader = _prepare_grader()
