"""`python -m attention_check FILE`: the public checks of the lab from a terminal (the kit's package
is named by `autograder build`; in the engine's own tree it is `autograder.kit`).

For a student's own .py or .ipynb, in the folder the student half was unpacked in: public cases
only, the same feedback as `autograder check` gives on them. The file runs in this process, as
in the student's own notebook; scores that count are decided by the course's grader.
"""
import argparse
import codecs
import contextlib
import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import threading
import unicodedata

from ..judge import SubmissionResult, broken
from ..render import as_dict, as_text, fit_to_width, terminal_width
from ..sandbox.worker import describe_exception, load
from ..submission import load_note, read_submission, similar_definition, syntax_error_near
from . import public
from .check import Outcome, call_probe, judge_public

EXIT_ALL_PASSED, EXIT_LOST_POINTS, EXIT_CANNOT_RUN = 0, 1, 2


def build_parser(lab):
    parser = argparse.ArgumentParser(
        prog=f"python -m {_top_package()}",
        description=f"{lab.title('ko')}: 공개 테스트로 제출 파일을 단계별로 검사합니다.")
    parser.add_argument("submission", help="검사할 .py 또는 .ipynb 파일")
    parser.add_argument("--lang", choices=("ko", "en"), default="ko", help="피드백 언어(기본: ko)")
    parser.add_argument("--json", action="store_true", help="결과를 JSON 객체 하나로 출력")
    parser.add_argument("--step", action="append", choices=lab.function_names, default=None,
                        help="이 단계만 검사(여러 번 쓸 수 있음. 기본: 모든 단계)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S",
                        help="함수를 한 번 호출할 때 기다릴 시간(초, 기본: 10)")
    return parser


def _top_package():
    return __package__.split(".")[0]


def main(argv=None):
    readable_output()
    try:
        lab, _ = public.load()
    except public.NoPublicData as error:
        print(f"{_top_package()}: {error}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    try:
        args = build_parser(lab).parse_args(argv)
    except SystemExit as exit:
        return EXIT_CANNOT_RUN if exit.code else EXIT_ALL_PASSED
    if not os.path.isfile(args.submission):
        print(f"{_top_package()}: 파일이 없습니다: {args.submission}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    if args.timeout <= 0:
        print(f"{_top_package()}: --timeout은 0보다 커야 합니다.", file=sys.stderr)
        return EXIT_CANNOT_RUN
    if os.environ.get(_CHILD) != "1":
        return _in_child(argv if argv is not None else sys.argv[1:])
    result = check_file(args.submission, args.timeout, args.step)
    if args.json:
        # Lossless on any stdout: where the encoding lacks a character, JSON's own \u escapes.
        print(json.dumps(as_dict(result, lab, args.lang), ensure_ascii=not _writes_unicode(sys.stdout),
                         indent=2))
    else:
        print(fit_to_width(as_text(result, lab, args.lang), terminal_width()), end="")
    return EXIT_ALL_PASSED if result.all_passed else EXIT_LOST_POINTS


_CHILD = "ATTENTION_CHECK_CHILD"

# Output that a terminal's encoding cannot hold (cp949 on Korean Windows, or redirected output) is
# written with a look-alike it holds, else "?": the check never stops on a character, and Hangul
# stays Hangul wherever the encoding has it.
FALLBACK_ERRORS = "attention_check_fallback"
LOOK_ALIKES = {"\u2014": ("\u2015", "-"), "\u2013": ("-",), "\u2212": ("-",), "\u2026": ("...",),
               "\u2192": ("->",), "\u00d7": ("x",), "\u221a": ("sqrt",), "\u00b7": (".",),
               "\u2018": ("'",), "\u2019": ("'",), "\u201c": ('"',), "\u201d": ('"',)}


def readable_output():
    """Make stdout and stderr write every character: those their encoding lacks become a look-alike
    the encoding has (LOOK_ALIKES, then the character's compatibility form), else "?"."""
    codecs.register_error(FALLBACK_ERRORS, _look_alike)
    for stream in (sys.stdout, sys.stderr):
        if stream is None or _writes_unicode(stream):
            continue
        try:
            stream.reconfigure(errors=FALLBACK_ERRORS)
        except (AttributeError, ValueError, LookupError):
            pass  # a stream that is not a TextIOWrapper (a test's capture): left as it is


def _writes_unicode(stream):
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
    return encoding.startswith("utf")


def _look_alike(error):
    if not isinstance(error, UnicodeEncodeError):
        raise error
    shown = []
    for character in error.object[error.start:error.end]:
        for candidate in (*LOOK_ALIKES.get(character, ()), unicodedata.normalize("NFKC", character), "?"):
            try:
                candidate.encode(error.encoding)
            except (UnicodeError, LookupError):
                continue
            if candidate != character:
                shown.append(candidate)
                break
        else:
            shown.append("?")
    return "".join(shown), error.end


def _in_child(argv):
    """Check in a child process: a file that ends its process (os._exit) cannot end the check
    without a word."""
    top = sys.modules[_top_package()].__file__
    home = os.path.dirname(os.path.dirname(os.path.abspath(top)))  # the folder holding the package
    path = os.pathsep.join(filter(None, [home, os.environ.get("PYTHONPATH")]))
    # The child writes its report in this process's stdout encoding; its bytes are passed on as they are.
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    done = subprocess.run([sys.executable, "-m", __package__, *argv],
                          env={**os.environ, _CHILD: "1", "PYTHONPATH": path, "PYTHONIOENCODING": encoding},
                          stdout=subprocess.PIPE)
    sys.stdout.buffer.write(done.stdout)
    sys.stdout.flush()
    if done.returncode in (EXIT_ALL_PASSED, EXIT_LOST_POINTS, EXIT_CANNOT_RUN):
        return done.returncode
    print(f"{_top_package()}: 검사 도중 제출 파일이 프로세스를 종료시켰습니다(종료 코드 {done.returncode}). "
          "os._exit나 무한 재귀 같은 코드가 있는지 확인하십시오.", file=sys.stderr)
    return EXIT_CANNOT_RUN


def check_file(path, step_seconds=10.0, only=None):
    """SubmissionResult of the file on the public cases (load notes as the engine writes them);
    `only`: the names of the steps to check (default: every step)."""
    lab, _ = public.load()
    names = [name for name in lab.function_names if not only or name in only]
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return broken(lab, path, "unreadable", error.strerror or str(error), names)
    submission = read_submission(path, data)
    if submission.problem:
        return broken(lab, path, submission.problem, submission.problem_detail, names)
    events = _Events()
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    notebook = any(cell["filename"].startswith("<cell") for cell in submission.cells)
    with _quiet():
        # A .py runs as an imported module, so its `if __name__ == "__main__":` demo stays quiet.
        load(events, namespace, set(), {"cells": submission.cells,
                                        "module_name": "__main__" if notebook else "submission"})
        notes = [load_note(event, submission) for event in events.sent
                 if event.get("ev") in ("load_error", "syntax_error")]
        call = with_deadline(step_seconds)
        results = {}
        # Composed steps last: they run the student's own functions where those passed.
        for name in sorted(names, key=lambda n: lab.steps_by_name[n].needs_helpers):
            result = judge_public(name, namespace, is_stub=name in submission.stubs(lab.function_names),
                                  syntax_suspect=syntax_error_near(name, notes, submission), call=call,
                                  others=None if only else dict(results))
            if result.status == "timeout":
                result = dataclasses.replace(result, detail={**result.detail, "seconds": step_seconds})
            if result.status == "missing":  # as the engine says it (grading._judged)
                similar = similar_definition(name, submission, lab.function_names)
                if similar:
                    result = dataclasses.replace(result, detail={**result.detail, "similar": similar})
            results[name] = result
    return SubmissionResult(path, [results[name] for name in names], notes)


class _Events:
    """Stands in for the sandbox's pipe: keeps what the loader reports."""

    def __init__(self):
        self.sent = []

    def send(self, **event):
        self.sent.append(event)


@contextlib.contextmanager
def _quiet():
    """The file's own prints stay out of the report, as in the grader's sandbox."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


class _OutOfTime(BaseException):
    """Raised inside a call that ran past its deadline (a BaseException: `except Exception` in
    the student's code does not swallow it)."""


def with_deadline(seconds):
    """call_probe that also judges sys.exit() in a step as its error and, where the platform has
    interval timers (not on Windows), stops a call after `seconds`."""
    timed = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()

    timed_out = set()  # functions that ran out of time: their later calls are not run, as in the grader

    def on_alarm(signum, frame):
        raise _OutOfTime()

    def call(function, probe, filenames=None):
        if function in timed_out:
            return Outcome("not_run")
        if timed:
            previous = signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return call_probe(function, probe, filenames)
        except _OutOfTime:
            timed_out.add(function)
            return Outcome("timeout")
        except SystemExit as error:
            if filenames is None:
                filenames = {getattr(getattr(function, "__code__", None), "co_filename", None)}
            return Outcome("raised", error=describe_exception(error, filenames))
        finally:
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)

    return call
