"""`python -m lab_check FILE`: the public checks of the lab from a terminal (the kit's package
is named by `autograder build`; in the engine's own tree it is `autograder.kit`).

For a student's own .py or .ipynb, in the folder the student half was unpacked in: public cases
only, the same feedback as `autograder check` gives on them. The file runs in this process, as
in the student's own notebook; scores that count are decided by the course's grader.
"""
import argparse
import contextlib
import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Collection, Container, Iterator, Sequence
from types import FrameType
from typing import Any, NoReturn

from ..core.cells import module_name
from ..core.file_facts import broken, notes_of_load, syntax_error_near
from ..core.verdict import StepResult, SubmissionResult
from ..core.lab import Lab
from ..core.render.feedback import as_dict, as_text
from ..core.render.text import fit_to_width, terminal_width
from ..core.child.worker import describe_exception, load
from ..core.reading.problems import os_detail
from ..core.reading.submission import read_submission
from . import public
from .check import FramedProbeCall, Outcome, StepFunction, call_probe, judge_public
from .public import Probe
from .terminal import readable_output, writes_unicode

EXIT_ALL_PASSED, EXIT_LOST_POINTS, EXIT_CANNOT_RUN = 0, 1, 2

# What the command itself says (the feedback comes from the catalogs), in the kit's languages.
WORDS = {
    "ko": {"description": "{title}: 공개 테스트로 제출 파일을 단계별로 검사합니다.",
           "submission": "검사할 .py 또는 .ipynb 파일",
           "lang": "피드백 언어(기본: {lang})",
           "json": "결과를 JSON 객체 하나로 출력",
           "step": "이 단계만 검사(여러 번 쓸 수 있음. 기본: 모든 단계)",
           "timeout": "함수를 한 번 호출할 때 기다릴 시간(초, 기본: 10)",
           "no_file": "파일이 없습니다: {path}",
           "timeout_positive": "--timeout은 0보다 커야 합니다.",
           "ended": "검사 도중 제출 파일이 프로세스를 종료시켰습니다(종료 코드 {code}). "
                    "os._exit나 무한 재귀 같은 코드가 있는지 확인하십시오."},
    "en": {"description": "{title}: checks a submission step by step on the public cases.",
           "submission": "the .py or .ipynb file to check",
           "lang": "feedback language (default: {lang})",
           "json": "print one JSON object",
           "step": "check only this step (may be repeated; default: every step)",
           "timeout": "seconds to wait for one call of a function (default: 10)",
           "no_file": "no such file: {path}",
           "timeout_positive": "--timeout must be greater than 0.",
           "ended": "the submission ended the check's process (exit code {code}). "
                    "Look for os._exit or endless recursion in it."},
}


def build_parser(lab: Lab, lang: str | None = None) -> argparse.ArgumentParser:
    lang = lang or public.lang()
    words = WORDS[lang]
    parser = argparse.ArgumentParser(
        prog=f"python -m {_top_package()}", description=words["description"].format(title=lab.title(lang)))
    parser.add_argument("submission", help=words["submission"])
    parser.add_argument("--lang", choices=("ko", "en"), default=lang, help=words["lang"].format(lang=lang))
    parser.add_argument("--json", action="store_true", help=words["json"])
    parser.add_argument("--step", action="append", choices=lab.function_names, default=None, help=words["step"])
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S", help=words["timeout"])
    return parser


def _top_package() -> str:
    assert __package__ is not None  # set: this module is always imported as part of the kit's package
    return __package__.split(".")[0]


def main(argv: Sequence[str] | None = None) -> int:
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
    words = WORDS[args.lang]
    if not os.path.isfile(args.submission):
        print(f"{_top_package()}: {words['no_file'].format(path=args.submission)}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    if args.timeout <= 0:
        print(f"{_top_package()}: {words['timeout_positive']}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    if os.environ.get(_CHILD) != "1":
        return _in_child(argv if argv is not None else sys.argv[1:], args.lang)
    result = check_file(args.submission, args.timeout, args.step)
    if args.json:
        # Lossless on any stdout: where the encoding lacks a character, JSON's own \u escapes.
        print(json.dumps(as_dict(result, lab, args.lang), ensure_ascii=not writes_unicode(sys.stdout),
                         indent=2))
    else:
        print(fit_to_width(as_text(result, lab, args.lang), terminal_width()), end="")
    return EXIT_ALL_PASSED if result.all_passed else EXIT_LOST_POINTS


_CHILD = "LAB_CHECK_CHILD"


def _in_child(argv: Sequence[str], lang: str) -> int:
    """Check in a child process: a file that ends its process (os._exit) cannot end the check
    without a word."""
    top = sys.modules[_top_package()].__file__
    assert top is not None and __package__ is not None  # the kit is a package imported from its files
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
    print(f"{_top_package()}: {WORDS[lang]['ended'].format(code=done.returncode)}", file=sys.stderr)
    return EXIT_CANNOT_RUN


def check_file(path: str, step_seconds: float = 10.0, only: Collection[str] | None = None) -> SubmissionResult:
    """SubmissionResult of the file on the public cases (load notes as the engine writes them);
    `only`: the names of the steps to check (default: every step)."""
    lab, _ = public.load()
    names = [name for name in lab.function_names if not only or name in only]
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        return broken(lab, path, "unreadable", os_detail(error), names)
    submission = read_submission(path, data)
    if submission.problem:
        return broken(lab, path, submission.problem, submission.problem_detail, names)
    events = _Events()
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    with _quiet():
        # A .py runs as an imported module, so its `if __name__ == "__main__":` demo stays quiet.
        load(events, namespace, set(), {"cells": submission.cells, "module_name": module_name(submission.cells)})
        notes = notes_of_load((event for event in events.sent if event.get("ev") in ("load_error", "syntax_error")),
                              submission)
        call = with_deadline(step_seconds)
        results: dict[str, StepResult] = {}
        # Each step after the steps it calls: a composed step runs the student's own functions
        # where those passed (the lab's grading order, as the engine's).
        for name in [step.name for step in lab.grading_order if step.name in names]:
            result = judge_public(name, namespace, is_stub=name in submission.stubs(lab.function_names),
                                  syntax_suspect=syntax_error_near(name, notes, submission), call=call,
                                  others=None if only else dict(results), submission=submission)
            if result.status == "timeout":
                result = dataclasses.replace(result, seconds=step_seconds)
            results[name] = result
    return SubmissionResult(submission=submission.name, steps=[results[name] for name in names], notes=notes)


class _Events:
    """Stands in for the sandbox's pipe: keeps what the loader reports."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, **event: Any) -> None:
        self.sent.append(event)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """The file's own prints stay out of the report, as in the grader's sandbox."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


class _OutOfTime(BaseException):
    """Raised inside a call that ran past its deadline (a BaseException: `except Exception` in
    the student's code does not swallow it)."""


def with_deadline(seconds: float) -> FramedProbeCall:
    """call_probe that also judges sys.exit() in a step as its error and, where the platform has
    interval timers (not on Windows), stops a call after `seconds`."""
    timed = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()

    timed_out: set[StepFunction] = set()  # functions that ran out of time: their later calls are not run, as in the grader

    def on_alarm(signum: int, frame: FrameType | None) -> NoReturn:
        raise _OutOfTime()

    def call(function: StepFunction, probe: Probe, filenames: Container[str | None] | None = None,
             stand_ins: Sequence[str] = ()) -> Outcome:
        if function in timed_out:
            return Outcome("not_run")
        if timed:
            previous = signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return call_probe(function, probe, filenames, stand_ins)
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
