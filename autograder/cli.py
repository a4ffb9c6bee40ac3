"""Command line: `autograder check`, `grade`, `export` and `build`."""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from . import __version__
from .sandbox.limits import MB, Limits

if TYPE_CHECKING:  # each command imports what it needs when it runs (a check starts fast)
    from .lab import Lab

DEFAULT_LIMITS = Limits()

EXIT_ALL_PASSED, EXIT_LOST_POINTS, EXIT_CANNOT_RUN = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="autograder", description="Grades the course's labs, step by step.")
    parser.add_argument("--version", action="version", version=f"autograder {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="grade one .py or .ipynb submission, step by step")
    _add_lab_flag(check, other_lab=True)
    check.add_argument("submission", help="path to the student's .py or .ipynb file (or a .zip holding one)")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    check.add_argument("--lang", choices=("ko", "en"), default="ko", help="feedback language (default ko)")
    check.add_argument("--html", metavar="OUT", help="also write the feedback as an HTML page with heat-maps to OUT")
    _add_limit_flags(check)

    grade = commands.add_parser("grade", help="grade a whole class: a folder or an LMS .zip export")
    _add_lab_flag(grade, other_lab=True)
    grade.add_argument("submissions", help="folder (searched recursively) or .zip of submissions")
    grade.add_argument("--out", required=True, help="folder for grades.csv, feedback/, results/, report.html")
    grade.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel graders (default: cores)")
    grade.add_argument("--lang", choices=("ko", "en"), default="ko", help="feedback language (default ko)")
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
    history.add_argument("--lang", choices=("ko", "en"), default="ko", help="language of the pages (default ko)")

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
    export.add_argument("--lang", choices=("ko", "en"), default="ko",
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
    build.add_argument("--lang", choices=("ko", "en"), default="ko", help="feedback language (default ko)")
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


def choose_lab(args: argparse.Namespace, datas: Sequence[bytes] = (),
               what: tuple[str, str] = ("submission", "submissions")) -> Lab:
    """The Lab of `--lab`, or the one to default to; exit 2 with the reason when there is none, or
    when --lab names a lab the files are not written for (registry.choose, unless --allow-other-lab)."""
    from .registry import LabMismatch, LabNotFound, choose

    try:
        return choose(args.lab, datas, fit=not getattr(args, "allow_other_lab", False), what=what)
    except LabMismatch as error:
        raise SystemExit(f"autograder: {error} (--allow-other-lab grades as --lab {args.lab} anyway.)")
    except LabNotFound as error:
        raise SystemExit(f"autograder: {error}")


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


def check_limit_flags(args: argparse.Namespace) -> None:
    if args.timeout <= 0 or args.memory_mb < 256 or args.processes < 1 or args.disk_mb < 1:
        raise SystemExit("autograder: --timeout, --processes and --disk-mb must be positive "
                         "and --memory-mb at least 256")


def limits_from(args: argparse.Namespace) -> Limits:
    check_limit_flags(args)
    return Limits.from_options(seconds=args.timeout, memory_mb=args.memory_mb, processes=args.processes,
                               disk_mb=args.disk_mb, isolated=not args.no_sandbox)


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
    except SystemExit as exit:
        if isinstance(exit.code, str):
            print(exit.code, file=sys.stderr)
            return EXIT_CANNOT_RUN
        raise
    except KeyboardInterrupt:
        return 130
    except Exception:  # a fault of the grader: never reported as the student's lost points (exit 1)
        traceback.print_exc()
        print("autograder: internal error; nothing was graded", file=sys.stderr)
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


def run_check(args: argparse.Namespace) -> int:
    check_limit_flags(args)
    if args.html:
        refuse_replacing_a_run(args.html, args.lang)
    from .sandbox.launch import SINGLE_THREADED, start_zygote

    # Judging one submission multiplies small arrays only: BLAS threads would just spin.
    for name, value in SINGLE_THREADED.items():
        os.environ.setdefault(name, value)

    # Started before this process loads anything heavy (numpy, pandas, the reference), so that
    # both load at the same time: a check takes about one import of numpy and pandas, not two.
    launched = start_zygote()
    from .render import one_line

    data = read_for_check(args.submission, one_line(args.submission))
    if data is None:
        process, control = launched
        process.kill()
        process.wait()
        control.close()
        return EXIT_CANNOT_RUN
    from .sandbox.runner import Zygote

    zygote = Zygote()
    try:
        zygote.start(launched)
        limits = limits_from(args)
        from .registry import lab_names

        from .submission import not_code

        if args.lab is None and len(lab_names()) > 1:  # a file that cannot say which lab: what to do instead
            if not data.strip():
                raise SystemExit(f"autograder: {one_line(args.submission)} is empty: there is nothing to grade "
                                 "(save your work, then check the file again; with --lab NAME it is graded as an "
                                 "empty submission)")
            if not_code(args.submission):
                raise SystemExit(f"autograder: {one_line(args.submission)} is not a notebook (.ipynb) or a Python "
                                 "file (.py): give the .ipynb or .py file (with --lab NAME it is graded as such)")
        lab = choose_lab(args, [data], what=("file", "files"))
        from .grading import Plan, SandboxError, grade_bytes
        from .render import as_dict, as_text, fit_to_width, json_text, printable, terminal_width

        try:
            result = grade_bytes(args.submission, data, zygote, Plan.build(lab), limits)
        except SandboxError as error:
            print(f"autograder: {error}; nothing was graded (try --no-sandbox to diagnose)", file=sys.stderr)
            return EXIT_CANNOT_RUN
    finally:
        zygote.stop()
    if args.html:
        from .batch.outputs import feedback_html, write_atomic

        record = {"id": one_line(os.path.basename(result.submission)), "file": one_line(result.submission),
                  "superseded": []}
        try:
            write_atomic(args.html, feedback_html(record, as_text(result, lab, args.lang), lab, args.lang, result))
        except OSError as error:
            print(f"autograder: cannot write {one_line(args.html)}: {one_line(error.strerror or error)}", file=sys.stderr)
            return EXIT_CANNOT_RUN
    if args.json:
        print(json_text(as_dict(result, lab, args.lang), indent=2))
    else:
        print(fit_to_width(printable(as_text(result, lab, args.lang)), terminal_width()), end="")
    return EXIT_ALL_PASSED if result.all_passed else EXIT_LOST_POINTS


def read_for_check(path: str, shown: str) -> bytes | None:
    """The submission's bytes, or None after saying why it cannot be graded.

    Only a regular file is read (a link to one is followed; a FIFO, device or folder is refused
    without blocking), at most MAX_BYTES + 1 bytes; a .zip must hold one file to grade (the zip Otter's
    export() writes, or one zipped by hand: submission.zipped_submission).
    """
    from .render import one_line
    from .submission import MAX_BYTES, NotAnOtterExport, NotARegularFile, read_regular_file, zipped_submission

    try:
        data = read_regular_file(path)
    except FileNotFoundError:
        print(f"autograder: no such file: {shown}", file=sys.stderr)
        return None
    except NotARegularFile as error:
        if os.path.isdir(path):
            print(f"autograder: {shown} is a folder; `check` grades one .py or .ipynb file "
                  f"(a whole class: autograder grade {shown} --out DIR)", file=sys.stderr)
        else:
            print(f"autograder: {shown} is {error.strerror}; give the .py, .ipynb or Otter export .zip file itself",
                  file=sys.stderr)
        return None
    except OSError as error:
        print(f"autograder: cannot read {shown}: {error.strerror or error}", file=sys.stderr)
        return None
    if path.lower().endswith(".zip") and len(data) <= MAX_BYTES:
        try:
            zipped_submission(data)
        except NotAnOtterExport as refusal:
            print(f"autograder: {shown} is neither the zip grader.export() writes nor a zip holding one .ipynb "
                  f"or .py ({one_line(refusal.detail)}); give the .py or .ipynb file itself", file=sys.stderr)
            return None
    return data


def run_grade(args: argparse.Namespace) -> int:
    from .sandbox.runner import Zygote

    limits = limits_from(args)
    # Started before the batch loads its own modules, so that both load at the same time; the
    # workers adopt them.
    early = [Zygote() for _ in range(max(0, min(args.jobs, os.cpu_count() or 1)))]
    try:
        for zygote in early:
            zygote.start()
        from .batch import run_batch

        return run_batch(args, limits, early)
    finally:
        for zygote in early:
            zygote.reap()


def run_build(args: argparse.Namespace) -> int:
    from .registry import lab_names

    names = lab_names()
    if args.lab is None and len(names) > 1:  # a build is of one lab, and nothing but --lab says which
        raise SystemExit(f"autograder build: several labs are installed ({', '.join(names)}): give --lab NAME, "
                         f"the lab to build (one build per lab, each into its own --out folder), e.g. "
                         f"autograder build --lab {names[0]} --out {args.out}")
    from .otter.build import run_build as build

    return build(args)


def refuse_replacing_a_run(path: str, lang: str) -> None:
    """Exit 2 when `path`, a file a command is about to write, is one of a run's outputs: no
    command replaces another run's outputs (batch.run_folder.replaced_output). `export` keeps its
    files out of every run's folder itself (lms.export.output_refusals)."""
    from .batch.run_folder import replaced_output

    refusal = replaced_output(path, lang)
    if refusal:
        raise SystemExit(refusal)


def run_export(args: argparse.Namespace) -> int:
    from .lms.export import run_export as export

    return export(args)


def run_history(args: argparse.Namespace) -> int:
    from .batch.history import run_history as history

    return history(args)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": run_check, "grade": run_grade, "export": run_export, "build": run_build, "history": run_history}
