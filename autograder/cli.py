"""Command line: `autograder check`, `grade`, `export`, `build` and `history`.

The one face that turns argv into a command's options (commands.CheckOptions, ...), prints what the
command returns, and turns a refusal (said.Refusal) into its sentences on stderr, in --lang, and its
exit status. Nothing below this module parses arguments or ends the process (said.py's invariant).
argparse's own usage errors (an unknown flag, a missing argument) are said by argparse, in English.
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import NoReturn

from . import __version__
from .commands import (DEFAULT_LIMITS, EXIT_ALL_PASSED, EXIT_CANNOT_RUN, LANGS, BuildOptions, CheckOptions,
                       ExportOptions, GradeOptions, HistoryOptions, LimitOptions)
from .said import Refusal
from .sandbox.limits import MB


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="autograder", description="Grades the course's labs, step by step.")
    parser.add_argument("--version", action="version", version=f"autograder {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="grade one .py or .ipynb submission, step by step")
    _add_lab_flag(check, other_lab=True)
    check.add_argument("submission", help="path to the student's .py or .ipynb file (or a .zip holding one)")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    check.add_argument("--lang", choices=LANGS, default="ko", help="feedback language (default ko)")
    check.add_argument("--html", metavar="OUT", help="also write the feedback as an HTML page with heat-maps to OUT")
    _add_limit_flags(check)

    grade = commands.add_parser("grade", help="grade a whole class: a folder or an LMS .zip export")
    _add_lab_flag(grade, other_lab=True)
    grade.add_argument("submissions", help="folder (searched recursively) or .zip of submissions")
    grade.add_argument("--out", required=True, help="folder for grades.csv, feedback/, results/, report.html")
    grade.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel graders (default: cores)")
    grade.add_argument("--lang", choices=LANGS, default="ko", help="feedback language (default ko)")
    grade.add_argument("--id-pattern", default=None, metavar="REGEX",
                       help="regular expression whose group 'id' (or first group) is the student id")
    grade.add_argument("--allow-merged-ids", action="store_true",
                       help="exit 0 even when files of differently named students share an id")
    grade.add_argument("--allow-pattern-misses", action="store_true",
                       help="go on (exit 0) when --id-pattern matches some or none of the files")
    grade.add_argument("--move-stale", action="store_true",
                       help="move files in --out that belong to no student of this run to DIR/stale/")
    grade.add_argument("--due", default=None, metavar="DATETIME",
                       help="deadline, ISO 8601 (2024-03-01T23:59+09:00; no offset: --lms-timezone, "
                            "else this computer's zone)")
    grade.add_argument("--allow-unknown-times", action="store_true",
                       help="with --due: count on time the students whose submission time the LMS does not state "
                            "(Moodle, a plain folder); refused otherwise")
    grade.add_argument("--lms-timezone", default=None, metavar="ZONE",
                       help="time zone of the times an LMS writes without one (Blackboard's attempt names): "
                            "Asia/Seoul or +09:00 (default: the offset of --due, else this computer's zone)")
    grade.add_argument("--late-penalty", default=None, metavar="RULE",
                       help="late policy with --due: 10%%/day, 10%%/day,max=50%% (days begun count whole) or 20%% once")
    grade.add_argument("--previous", default=None, metavar="DIR",
                       help="an earlier run's --out folder: each student's feedback says what changed since then")
    _add_limit_flags(grade)

    history = commands.add_parser("history", help="a course's history: one page per student over several labs' runs")
    history.add_argument("course", metavar="COURSE_DIR",
                         help="folder holding the --out folders of several `autograder grade` runs (one per lab)")
    history.add_argument("--out", default=None, help="folder to write into (default: COURSE_DIR/history)")
    history.add_argument("--join-by", choices=("id", "name"), default="id",
                         help="join the labs' students by id (default) or by full name, where the LMS numbers "
                              "students per assignment (Moodle)")
    history.add_argument("--lang", choices=LANGS, default="ko", help="language of the pages (default ko)")

    export = commands.add_parser("export", help="fill the grade sheet downloaded from the LMS with a run's grades")
    export.add_argument("--lab", default=None, metavar="NAME",
                        help="the lab whose grades go into the sheet: the lab the run graded (needed when several "
                             "labs are installed)")
    export.add_argument("lms", choices=("canvas", "moodle", "blackboard"), help="which LMS wrote the sheet")
    export.add_argument("graded", metavar="GRADED_DIR", help="the --out folder of `autograder grade`")
    export.add_argument("--sheet", required=True, help="the grade sheet as downloaded from the LMS")
    export.add_argument("--out", required=True, help="file to write, for the LMS to import as it is")
    export.add_argument("--column", default=None, metavar="NAME",
                        help="the sheet's column to fill (its header, name or id); needed when it has several")
    export.add_argument("--lang", choices=LANGS, default="ko",
                        help="language of Moodle's feedback comment (default ko)")
    export.add_argument("--allow-unmatched", action="store_true",
                        help="exit 0 even when graded students are missing from the sheet")
    export.add_argument("--id-column", default=None, metavar="NAME",
                        help="moodle: the worksheet's identifier column, when not \"Identifier\" (another language)")
    export.add_argument("--max-column", default=None, metavar="NAME",
                        help="moodle: the worksheet's maximum grade column, when not \"Maximum grade\"")
    export.add_argument("--feedback-column", default=None, metavar="NAME",
                        help="moodle: the worksheet's feedback comments column, when not \"Feedback comments\"")

    build = commands.add_parser("build", help="build the student half and the Otter autograder zip")
    build.add_argument("--lab", default=None, metavar="NAME",
                       help="the lab to build, one per build (needed when several labs are installed)")
    build.add_argument("--out", required=True,
                       help="folder to write student/, classroom/ and autograder/ into: a new or empty folder, "
                            "or one holding this lab's earlier build (anything else is refused)")
    build.add_argument("--lang", choices=LANGS, default="ko", help="language of the feedback and of every message (default ko)")
    build.add_argument("--timeout", type=float, default=DEFAULT_LIMITS.step_seconds, metavar="S",
                       help="seconds each step may run on the LMS (default %(default)g)")
    build.add_argument("--memory-mb", type=int, default=DEFAULT_LIMITS.memory_bytes // MB, metavar="MB",
                       help="memory a submission may use on the LMS (default %(default)d)")
    build.add_argument("--visibility", choices=("visible", "after_published", "hidden"),
                       default="after_published",
                       help="when students see each step's score and full feedback: at once, after "
                            "grades are published (default), or never; public feedback is always shown")
    build.add_argument("--requirements", metavar="FILE",
                       help="more pip requirements for the grading image (e.g. packages students may import)")
    build.add_argument("--setup-script", metavar="FILE",
                       help="shell commands setup.sh runs before pip (e.g. apt-get install ...)")
    return parser


def _add_lab_flag(parser: argparse.ArgumentParser, other_lab: bool = False) -> None:
    parser.add_argument("--lab", default=None, metavar="NAME",
                        help="which lab (default: the only one installed, else the one the files are for)")
    if other_lab:
        parser.add_argument("--allow-other-lab", action="store_true",
                            help="grade as --lab even when the files are written for another lab "
                                 "(refused otherwise: exit 2, nothing graded)")


def _add_limit_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=float, default=DEFAULT_LIMITS.step_seconds, metavar="S",
                        help="seconds each step may run (default %(default)g)")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_LIMITS.memory_bytes // MB, metavar="MB",
                        help="memory a submission may use (default %(default)d)")
    parser.add_argument("--processes", type=int, default=DEFAULT_LIMITS.processes, metavar="N",
                        help="processes a submission may start, when graded as root (default %(default)d)")
    parser.add_argument("--disk-mb", type=int, default=DEFAULT_LIMITS.disk_bytes // MB, metavar="MB",
                        help="disk space a submission may write (default %(default)d)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="run student code as yourself, unconfined (debugging only)")


def limit_options(args: argparse.Namespace) -> LimitOptions:
    return LimitOptions(timeout=args.timeout, memory_mb=args.memory_mb, processes=args.processes,
                        disk_mb=args.disk_mb, no_sandbox=args.no_sandbox)


def options_of(args: argparse.Namespace) -> CheckOptions | GradeOptions | ExportOptions | BuildOptions | HistoryOptions:
    """The command's options record, from what argparse read."""
    if args.command == "check":
        return CheckOptions(submission=args.submission, lab=args.lab, allow_other_lab=args.allow_other_lab,
                            lang=args.lang, html=args.html, limits=limit_options(args))
    if args.command == "grade":
        return GradeOptions(submissions=args.submissions, out=args.out, lab=args.lab,
                            allow_other_lab=args.allow_other_lab, jobs=args.jobs, lang=args.lang,
                            id_pattern=args.id_pattern, allow_merged_ids=args.allow_merged_ids,
                            allow_pattern_misses=args.allow_pattern_misses, move_stale=args.move_stale, due=args.due,
                            allow_unknown_times=args.allow_unknown_times,
                            lms_timezone=args.lms_timezone, late_penalty=args.late_penalty, previous=args.previous,
                            limits=limit_options(args))
    if args.command == "export":
        return ExportOptions(lms=args.lms, graded=args.graded, sheet=args.sheet, out=args.out, lab=args.lab,
                             column=args.column, lang=args.lang, allow_unmatched=args.allow_unmatched,
                             id_column=args.id_column, max_column=args.max_column,
                             feedback_column=args.feedback_column)
    if args.command == "build":
        return BuildOptions(out=args.out, lab=args.lab, lang=args.lang, timeout=args.timeout, memory_mb=args.memory_mb,
                            visibility=args.visibility, requirements=args.requirements,
                            setup_script=args.setup_script)
    return HistoryOptions(course=args.course, out=args.out, join_by=args.join_by, lang=args.lang)


def main(argv: Sequence[str] | None = None, exit_when_checked: bool = False) -> int:
    """Run one command; its exit code.

    With `exit_when_checked` (the `autograder` command itself), a `check` ends the process as
    soon as its output is flushed: tearing down numpy and pandas would only add tens of ms.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:
        return EXIT_CANNOT_RUN if exit.code else EXIT_ALL_PASSED
    try:
        code = COMMANDS[args.command](args)
    except Refusal as refusal:
        from .core.render.messages import Messages

        print(refusal.told(Messages(args.lang)), file=sys.stderr)
        return refusal.status
    except KeyboardInterrupt:
        return 130
    except Exception:  # a fault of the grader: never reported as the student's lost points (exit 1)
        traceback.print_exc()
        from .core.render.messages import Messages

        print("autograder: " + Messages(args.lang)("said", "internal_error"), file=sys.stderr)
        return EXIT_CANNOT_RUN
    if exit_when_checked and args.command == "check":
        _exit_now(code)
    return code


def script() -> NoReturn:
    """The `autograder` command."""
    sys.exit(main(exit_when_checked=True))


def _exit_now(code: int) -> NoReturn:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or EXIT_CANNOT_RUN  # the verdict did not reach its reader
    os._exit(code)


def _told(summary: str, notes: Sequence[str]) -> None:
    """A command's summary on stdout, its notes on stderr."""
    if summary:
        print(summary)
    for note in notes:
        print(note, file=sys.stderr)


def run_check(args: argparse.Namespace) -> int:
    from .commands import check

    options = options_of(args)
    assert isinstance(options, CheckOptions)
    checked = check(options)  # starts the sandbox before this process loads anything heavy
    from .core.render.feedback import as_dict, as_text
    from .core.render.text import fit_to_width, json_text, printable, terminal_width

    if args.json:
        print(json_text(as_dict(checked.result, checked.lab, options.lang), indent=2))
    else:
        print(fit_to_width(printable(as_text(checked.result, checked.lab, options.lang)), terminal_width()), end="")
    return checked.status


def run_grade(args: argparse.Namespace) -> int:
    from .commands import grade
    from .sandbox.runner import Zygote

    options = options_of(args)
    assert isinstance(options, GradeOptions)
    options.limits.limits()  # refused before anything starts
    # Started before the batch loads its own modules, so that both load at the same time; the
    # workers adopt them.
    early = [Zygote() for _ in range(max(0, min(options.jobs, os.cpu_count() or 1)))]
    try:
        for zygote in early:
            zygote.start()
        result = grade(options, zygotes=early, tell=lambda note: print(note, file=sys.stderr))
    finally:
        for zygote in early:
            zygote.reap()
    _told(result.summary, ())  # its notes were printed as they came
    return result.status


def run_build(args: argparse.Namespace) -> int:
    from .commands import build

    options = options_of(args)
    assert isinstance(options, BuildOptions)
    result = build(options)
    _told(result.summary, ())
    return result.status


def run_export(args: argparse.Namespace) -> int:
    from .commands import export

    options = options_of(args)
    assert isinstance(options, ExportOptions)
    result = export(options)
    # The warnings, the summary, then why the exit status is not 0 (the last note, when it is not).
    reason = result.notes[-1:] if result.status != EXIT_ALL_PASSED else ()
    _told("", result.notes[:len(result.notes) - len(reason)])
    _told(result.summary, reason)
    return result.status


def run_history(args: argparse.Namespace) -> int:
    from .commands import history

    options = options_of(args)
    assert isinstance(options, HistoryOptions)
    result = history(options)
    _told(result.summary, result.notes)
    return result.status


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": run_check, "grade": run_grade, "export": run_export, "build": run_build, "history": run_history}
