"""The `grader` of the notebook's set-up cell and of the .py twin: `prepare_grader("self_attention")`.

The notebook's first cell and the twin's first `__main__` block import this module from the student
half's check package and call `prepare_grader`. In a Jupyter or Colab kernel it gives Otter's
notebook grader (its checks show the kit's feedback: notebook.py); in a terminal running the .py
twin, a grader whose checks print the same text without Otter's wrapper. Either way:

- `grader.check("softmax")` says what `python -m lab_check` says of that step;
- a demo cell of an unfinished step, `try: ... except (NotImplementedError, NameError) as error:
  display(error)`, says in the student's language that its example was not run because the step
  is not finished yet (or a value an earlier example makes is missing), so "Run All" goes on to
  the last cell (why_skipped). The kernel's display() shows it so once the set-up cell ran; the
  twin imports this module's display(); while grading, display() shows nothing.

Parsed and run by Python 3.6 and newer, so that an old kernel is told what to change (and every
later check repeats it) instead of a traceback: no syntax or import here that an old Python lacks.
"""
import glob
import importlib
import json
import os
import subprocess
import sys
import traceback
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from .terminal import in_kernel, kernel_shell

OLDEST, NEWEST_TRIED = (3, 10), (3, 13)
LANG_VARIABLE = "LAB_CHECK_LANG"  # the same as public.LANG_VARIABLE (public.py needs Python 3.10)
# Which lab a notebook is of: the metadata key the notebook builder writes (reading.submission.METADATA_KEY).
LAB_KEY = "autograder_lab"

WORDS = {
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
        "script_export": "제출용 zip 파일은 노트북에서 만듭니다. .py 판으로 풀었다면 이 .py 파일을 그대로 제출하십시오.",
        "unfinished": "{steps} 함수를 아직 완성하지 않아 이 셀의 예시는 실행하지 않았습니다. "
                      "함수를 완성한 뒤 이 셀을 다시 실행하십시오.",
        "missing_value": "이 셀에 필요한 값({name})이 아직 없어 이 셀의 예시는 실행하지 않았습니다. 그 값을 만드는 "
                         "위의 예시가 실행되지 않았습니다. 앞 단계의 함수를 완성하고 위의 셀부터 차례로 다시 실행하십시오.",
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
        "script_export": "The zip to submit is made in the notebook. If you worked in the .py file, submit "
                         "that .py file as it is.",
        "unfinished": "This cell's example was not run: {steps} is not finished yet. Finish it, then run "
                      "this cell again.",
        "missing_value": "This cell's example was not run: the value it needs ({name}) does not exist yet, because "
                         "the example above that makes it did not run. Finish the earlier steps' functions, then run "
                         "the cells above in order, and this one.",
    },
}


def prepare_grader(lab: Optional[str] = None, lang: Optional[str] = None) -> Any:
    """The `grader` of a notebook (in a kernel) or of the .py twin (in a terminal) for `lab`; its
    checks and sentences speak the student's LAB_CHECK_LANG, else `lang`, else the student half's."""
    chosen = os.environ.get(LANG_VARIABLE)
    if chosen in WORDS:
        lang = chosen
    running = ".".join(str(part) for part in sys.version_info[:3])
    if sys.version_info[:2] < OLDEST:
        return NoChecks(WORDS[lang if lang in WORDS else "ko"]["too_old"].format(v=running))
    from . import public

    lang = lang if lang in WORDS else public.lang()
    os.environ[LANG_VARIABLE] = lang  # what every check of the kit reads (public.lang)
    words = WORDS[lang]
    if sys.version_info[:2] > NEWEST_TRIED:
        print(words["untested"].format(v=running), file=sys.stderr)
    if not in_kernel():
        return ScriptChecks(lab, lang)
    show_skipped_demos(kernel_shell(), lang)
    try:
        import otter  # noqa: F401
    except ImportError:
        print(words["installing"])
        try:
            # The checks read their catalogs with tomllib, which Python 3.10 lacks: tomli stands in.
            wanted = ["otter-grader>=7,<8"] + (["tomli>=1.1"] if sys.version_info[:2] < (3, 11) else [])
            subprocess.run([sys.executable, "-m", "pip", "install", "-q"] + wanted, check=True)
            importlib.invalidate_caches()
            import otter  # noqa: F401
        except Exception:  # noqa: BLE001 - no network, no pip: the checks say why at each call
            return NoChecks(words["no_otter"])
    return _kernel_grader(lab, lang, _caller_globals())


class NoChecks:
    """Stands in for the grader when the checks cannot run: each call says why, never a traceback."""

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


# Demo cells of unfinished steps --------------------------------------------------------------

class Said:
    """What a check of the .py twin says: shown as its text, printed or as a cell's last value."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def why_skipped(error: BaseException, env: Mapping[str, object], lang: str) -> str:
    """What a demo cell that stopped at `error` (`except (NotImplementedError, NameError) as error:
    display(error)`) says: that its step is not finished yet (a stub, or not defined), or that a
    value an earlier example makes does not exist yet; an error raised inside a finished function
    of the student's is told as Python tells it (the check above the cell explains it)."""
    function = _raising_function(error)
    if isinstance(error, NotImplementedError) and function is not None:
        return WORDS[lang]["unfinished"].format(steps=function)
    if isinstance(error, NameError) and function is None:
        name = getattr(error, "name", None) or str(error)
        if name in env or not isinstance(name, str):
            return "".join(traceback.format_exception_only(type(error), error)).strip()
        return WORDS[lang]["missing_value"].format(name=name)
    return "".join(traceback.format_exception_only(type(error), error)).strip()


def _raising_function(error: BaseException) -> Optional[str]:
    """The name of the function `error` went up from, None when the cell's own code raised it."""
    last = error.__traceback__
    while last is not None and last.tb_next is not None:
        last = last.tb_next
    name = last.tb_frame.f_code.co_name if last is not None else "<module>"
    return None if name == "<module>" else name


def display(*objects: object) -> None:
    """The .py twin's display(): a demo's error as the sentence a notebook shows, anything else printed."""
    env = _caller_globals()
    chosen = os.environ.get(LANG_VARIABLE)  # set by prepare_grader
    lang = chosen if chosen in WORDS else "ko"
    for shown in objects:
        print(why_skipped(shown, env, lang) if isinstance(shown, BaseException) else shown)


def show_skipped_demos(shell: Any, lang: str) -> None:
    """In a kernel: display(error) of a demo cell shows why_skipped's sentence."""
    def sentence(error: BaseException, printer: Any, cycle: bool) -> None:
        printer.text(why_skipped(error, shell.user_ns, lang))

    try:
        for kind in (NotImplementedError, NameError):
            shell.display_formatter.formatters["text/plain"].for_type(kind, sentence)
    except Exception:  # noqa: BLE001 - the kernel's own display stays
        pass


def _caller_globals(depth: int = 2) -> Dict[str, Any]:
    """The globals of the code that called the grader (the notebook's namespace, or the .py twin's)."""
    return sys._getframe(depth).f_globals


# The .py twin in a terminal ------------------------------------------------------------------

class ScriptChecks:
    """The .py twin's grader: each check prints the kit's feedback on the public tests, as
    `python -m lab_check` words it, with the functions the script has defined so far."""

    def __init__(self, lab: Optional[str], lang: str) -> None:
        self.lab, self.lang = lab, lang

    def check(self, step: str) -> Said:
        from .notebook import check_in_kernel

        return Said(check_in_kernel(step, _caller_globals(), self.lang).text)

    def check_all(self) -> Said:
        from . import public
        from .notebook import TOTAL, check_in_kernel

        env = _caller_globals()
        verdicts = [check_in_kernel(step, env, self.lang) for step in public.load()[0].function_names]
        total = TOTAL[self.lang].format(score="{:g}".format(round(sum(v.score for v in verdicts), 2)),
                                        max_score="{:g}".format(round(sum(v.max_score for v in verdicts), 2)))
        return Said("\n\n".join([v.text for v in verdicts] + [total]))

    def export(self, *args: Any, **kwargs: Any) -> None:
        print(WORDS[self.lang]["script_export"], file=sys.stderr)

    def __repr__(self) -> str:
        return WORDS[self.lang]["ready"]


# The notebook in a kernel --------------------------------------------------------------------

def _kernel_grader(lab: Optional[str], lang: str, env: Mapping[str, object]) -> Any:
    """Otter's notebook grader over the student half's tests/, whose export() zips this lab's
    notebook only, never another's."""
    import otter

    words = WORDS[lang]
    top = sys.modules[(__package__ or "").split(".")[0]].__file__ or ""
    half = os.path.dirname(os.path.dirname(os.path.abspath(top)))  # the folder holding the package and tests/

    def read(path: str) -> Optional[Dict[str, Any]]:
        try:
            with open(path, encoding="utf-8") as handle:
                found = json.load(handle)
        except (OSError, ValueError):
            return None
        return found if isinstance(found, dict) else None

    def lab_of(notebook: object) -> Optional[str]:
        metadata = notebook.get("metadata") if isinstance(notebook, dict) else None
        found = metadata.get(LAB_KEY) if isinstance(metadata, dict) else None
        return found if isinstance(found, str) else None

    def this_notebook() -> Tuple[Optional[str], Optional[str]]:
        """(path, why it is unknown). Found by what names it (VS Code, JupyterLab), else by this lab's
        name among the notebooks of the folder; never "the only" or "the newest" notebook."""
        named = [env.get("__vsc_ipynb_file__"), os.environ.get("JPY_SESSION_NAME")]
        for path in [p for p in named if isinstance(p, str) and p.endswith(".ipynb")]:
            for candidate in (path, os.path.basename(path)):
                if lab_of(read(candidate)) == lab:
                    return candidate, None
        found = sorted(p for p in glob.glob("*.ipynb") if lab_of(read(p)) == lab)
        if len(found) == 1:
            return found[0], None
        if found:  # the checks are the same lab's; which file to submit is the student's to say
            return None, words["several"].format(names=", ".join(found), first=found[0])
        return None, None

    path, unknown = this_notebook()

    class Notebook(otter.Notebook):  # type: ignore[misc]  # Otter ships no types
        def check(self, question: str, global_env: Optional[Dict[str, Any]] = None) -> object:
            if global_env is not None:  # Otter's own calls (check_all) keep Otter's result
                return otter.Notebook.check(self, question, global_env)
            from .notebook import CheckResult

            return CheckResult(otter.Notebook.check(self, question, _caller_globals()))

        def export(self, nb_path: Optional[str] = None, *args: Any, **kwargs: Any) -> object:
            chosen = nb_path or self._notebook
            other = lab_of(read(chosen)) if chosen else None
            why = (unknown or words["unknown"]) if chosen is None else (
                words["other_lab"].format(path=chosen, other=other)
                if lab is not None and other is not None and other != lab else None)
            if why:
                print(why, file=sys.stderr)
                return None
            return otter.Notebook.export(self, zip_member_path(chosen), *args, **kwargs)

    if unknown:
        print(unknown, file=sys.stderr)
    else:
        print(words["ready_path"].format(path=path) if path else words["ready"])
    return Notebook(path, tests_dir=os.path.join(half, "tests"))



def zip_member_path(path: str) -> str:
    """The notebook's path as Otter's export() stores it in the zip (it zips the path it is given):
    relative to the working folder when the notebook lies in it or below, so that JupyterLab's and
    VS Code's absolute paths never become the member's folders; else the path as given."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if relative == os.pardir or relative.startswith(os.pardir + os.sep) else relative


# The notebook's set-up cell calls it by this name: in a kernel it gives Otter's Notebook, and a
# function returning a Notebook is how the course's grader tells the set-up cell from the student's
# code (reading.notebook.does_only_checking), tagged or not.
Notebook = prepare_grader
