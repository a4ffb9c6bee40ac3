"""`check`: one student's file graded step by step in a sandbox (commands.check)."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .said import Refusal, said
from .options import EXIT_ALL_PASSED, EXIT_LOST_POINTS, CheckOptions, CheckResult

if TYPE_CHECKING:
    from .core.lab import Lab


def check_file(options: CheckOptions) -> CheckResult:
    """The file of `options` graded as its lab; a Refusal when it cannot be."""
    limits = options.limits.limits()
    if options.html:
        from .batch.run_folder import replaced_output
        from .core.reading.files import same_file

        if same_file(options.html, options.submission):
            raise Refusal(said("html_is_the_submission", "check", path=options.html))
        refusal = replaced_output(options.html)
        if refusal is not None:
            raise Refusal(refusal)
    from .sandbox.launch import SINGLE_THREADED, started_zygote

    # Judging one submission multiplies small arrays only: BLAS threads would just spin.
    for name, value in SINGLE_THREADED.items():
        os.environ.setdefault(name, value)

    # Started before this process loads anything heavy (numpy, the reference; it loads no pandas,
    # which only students' code needs), by `autograder check` before the command line is read
    # (entry.py): the zygote's import of numpy and pandas is the longest part of a check.
    launched = started_zygote()
    try:
        data = read_for_check(options.submission)
    except BaseException:
        process, control = launched
        process.kill()
        process.wait()
        control.close()
        raise
    from .sandbox.runner import Zygote

    zygote = Zygote()
    try:
        zygote.start(launched)
        lab = _lab(options, data)
        from .grading import grade_bytes
        from .grading.plan import Plan
        from .grading.runs import SandboxError

        try:
            result = grade_bytes(options.submission, data, zygote, Plan.build(lab), limits)
        except SandboxError as error:
            raise Refusal(said("sandbox", "check", problem=str(error))) from None
    finally:
        zygote.stop()
    if options.html:
        _write_html(options, result, lab)
    return CheckResult(status=EXIT_ALL_PASSED if result.all_passed else EXIT_LOST_POINTS, result=result, lab=lab,
                       html=options.html)


def _lab(options: CheckOptions, data: bytes) -> Lab:
    """The lab to grade the file as (registry.choose_lab), or why a file that cannot say which lab
    cannot be graded: what to give instead."""
    from .registry import choose_lab, lab_names
    from .core.reading.names import not_code

    if options.lab is None and len(lab_names()) > 1:
        if not data.strip():
            raise Refusal(said("empty", "check", path=options.submission))
        if not_code(options.submission):
            raise Refusal(said("not_code", "check", path=options.submission))
    return choose_lab(options.lab, [data], fit=not options.allow_other_lab, what="file")


def _write_html(options: CheckOptions, result: object, lab: Lab) -> None:
    from .batch.outputs import feedback_html
    from .whole_file import write_atomic
    from .core.verdict import SubmissionResult
    from .core.render.feedback import as_text
    from .core.render.text import one_line

    assert isinstance(result, SubmissionResult) and options.html is not None
    record = {"id": one_line(os.path.basename(result.submission)), "file": one_line(result.submission),
              "superseded": []}
    try:
        write_atomic(options.html, feedback_html(record, as_text(result, lab, options.lang), lab, options.lang,
                                                 result))
    except OSError as error:
        raise Refusal(said("cannot_write", "check", path=options.html, why=error.strerror or str(error))) from None


def read_for_check(path: str) -> bytes:
    """The submission's bytes; a Refusal saying why it cannot be graded.

    Only a regular file is read, as `grade` reads one: a symbolic link is refused, as are a FIFO, a
    device or a folder (without blocking); so is a path that reaches the grader's own files through a
    link in a folder on the way (`grader_file_through_a_link`). At most MAX_BYTES + 1 bytes are
    read; a .zip must hold one file to grade (the zip Otter's export() writes, or one zipped by
    hand: reading.zips.zipped_submission).
    """
    from .core.reading.budget import MAX_BYTES
    from .core.reading.files import NotARegularFile, read_regular_file
    from .core.reading.zips import NotAnOtterExport, zipped_submission

    if grader_file_through_a_link(path) is not None:
        raise Refusal(said("grader_file", "check", path=path))
    try:
        data = read_regular_file(path, follow_links=False)
    except FileNotFoundError:
        raise Refusal(said("no_file", "check", path=path)) from None
    except NotARegularFile as error:
        if os.path.isdir(path):
            raise Refusal(said("is_a_folder", "check", path=path)) from None
        raise Refusal(said("not_a_file", "check", path=path, what=_what_it_is(path, error))) from None
    except OSError as error:
        raise Refusal(said("unreadable", "check", path=path, why=error.strerror or str(error))) from None
    if path.lower().endswith(".zip") and len(data) <= MAX_BYTES:
        try:
            zipped_submission(data)
        except NotAnOtterExport as refusal:
            raise Refusal(said("not_an_export", "check", path=path, why=refusal.detail)) from None
    return data


GRADER_PACKAGES = ("autograder", "labs", "solutions", "assignments")


def grader_file_through_a_link(path: str) -> str | None:
    """Where `path` lands when a symbolic link on its way leads into the grader's own files (its
    packages: the engine, the labs and their hidden cases, the references; or the checkout it runs
    from), else None. A student's link (`/proc/self/cwd/solutions/...` names the grader's folder
    without knowing it) never makes the reference their submission; a path typed to a file of the
    checkout, with no link on the way, is the TA's own choice."""
    import importlib.util

    real = os.path.realpath(path)
    if real == os.path.normpath(os.path.abspath(path)):
        return None  # no link on the way
    roots: list[str] = []
    for package in GRADER_PACKAGES:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            continue
        roots += [os.path.realpath(location) for location in (spec.submodule_search_locations or [])] \
            if spec is not None else []
    engine = os.path.dirname(os.path.realpath(os.path.dirname(__file__)))
    if os.path.isfile(os.path.join(engine, "pyproject.toml")) and os.path.isdir(os.path.join(engine, "solutions")):
        roots.append(engine)  # run from its checkout: the samples and the tests' corpora hold right answers too
    return real if any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots) else None


def _what_it_is(path: str, error: OSError) -> object:
    """What a path that is no regular file names (a FIFO, a character device, ...), to say; the
    reader's Detail when it is gone by now."""
    from .core.reading.files import file_kind

    try:
        kind = file_kind(os.lstat(path).st_mode)
    except OSError:
        return getattr(error, "detail", str(error))
    return said("kind_" + kind.lower().replace(" ", "_"), "check")
