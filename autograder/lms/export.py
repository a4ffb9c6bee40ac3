"""`autograder export {canvas,moodle,blackboard} GRADED_DIR --sheet SHEET --out FILE`: the I/O edge.

Reads the run and the sheet the TA downloaded, fills the grade column (fill.py), writes the sheet
back in its own format, Moodle's feedback zip beside it, and a short report of who matched. Every
sentence is said in --lang from the catalogs' [export] section.

Invariant: export writes nothing when it refuses (every reason is found before the first byte is
written, and the files are written whole, together, or not at all), and it never writes over its
input (the sheet, by any path or link) nor into a run's folder (output_refusals).
"""
from __future__ import annotations

import contextlib
import os
import zipfile
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..batch import run_folder
from ..whole_file import temporary_name
from ..core.lab import Lab
from ..core.reading.files import same_file
from ..core.render.messages import Messages
from ..core.render.text import one_line, printable
from . import blackboard, canvas, moodle
from .fill import Filled, Layout, UsageError, fill
from .graded import Graded, RunError, read_run, run_refusals
from .recognise import wrong_lms
from ..said import Refusal, Said, said
from .sheet import Sheet, SheetError, read_sheet, sheet_bytes
from ..options import ExportOptions, ExportResult

LAYOUTS: dict[str, Callable[[Sheet, str | None], Layout]] = {"canvas": canvas.layout, "moodle": moodle.layout,
                                                            "blackboard": blackboard.layout}
MOODLE_ONLY = ("id_column", "max_column", "feedback_column")
EXIT_DONE, EXIT_UNMATCHED = 0, 3


class ExportRefused(Refusal):
    """export writes nothing: every reason, each a sentence of its own, then that nothing was written."""

    def __init__(self, *sentences: Said, told: bool = True) -> None:
        super().__init__(*sentences)
        self.nothing_written = told

    def told(self, say: Messages) -> str:
        return _said_lines(say, self.sentences, self.nothing_written)


def _lab(options: ExportOptions) -> Lab:
    from ..registry import choose

    return choose(options.lab)


def lab_refusal(lab_name: str | None, run: Mapping[str, Graded], graded_dir: str) -> Said | None:
    """Why the run may not go into a sheet without --lab: with several labs installed, only --lab
    says which lab's column the TA is filling (the run's own lab cannot: a run of the wrong lab
    would name itself). None when --lab is given or one lab is installed."""
    from ..registry import lab_names

    names = lab_names()
    if lab_name is not None or len(names) <= 1:
        return None
    labs = sorted({g.lab for g in run.values() if g.lab})
    if len(labs) == 1:
        return said("lab_missing_one", labs=", ".join(names), folder=graded_dir, graded=labs[0])
    if labs:
        return said("lab_missing_several", labs=", ".join(names), folder=graded_dir, graded=", ".join(labs))
    return said("lab_missing_none", labs=", ".join(names), folder=graded_dir)


def run_export(options: ExportOptions) -> ExportResult:
    """commands.export: an ExportRefused (exit 2, nothing written) for every reason not to write."""
    say = Messages(options.lang)
    given = [name for name in MOODLE_ONLY if getattr(options, name) is not None]
    if given and options.lms != "moodle":
        raise ExportRefused(said("moodle_only_option", option="--" + given[0].replace("_", "-"), lms=options.lms))
    if options.lab is not None:
        _lab(options)  # a lab that is not installed: refused with the installed ones
    read_notes: list[Said] = []
    try:
        run = read_run(options.graded, default_max=lambda: _lab(options).total_points, notes=read_notes)
    except RunError as error:
        raise ExportRefused(error.said) from None
    # Every reason not to write is told at once (exit 2, nothing written): --lab, the run, the sheet, --out.
    problems: list[Said] = []
    missing_lab = lab_refusal(options.lab, run, options.graded)
    if missing_lab is not None:
        problems.append(missing_lab)
    refusals = run_refusals(run, options.lab)
    if refusals:
        problems.append(said("refused_run", folder=options.graded, reasons=tuple(refusals)))
    layout: Layout | None = None
    sheet: Sheet | None = None
    try:
        with open(options.sheet, "rb") as handle:
            sheet = read_sheet(handle.read())
        other = wrong_lms(sheet.header, options.lms)
        if other is not None:
            raise SheetError(other)
        if options.lms == "moodle":
            columns = moodle.Columns(id=options.id_column, max=options.max_column, feedback=options.feedback_column)
            layout = moodle.layout(sheet, options.column, columns)
        else:
            layout = LAYOUTS[options.lms](sheet, options.column)
    except IsADirectoryError:
        problems.append(said("sheet_is_a_folder", sheet=options.sheet))
    except OSError as error:
        problems.append(said("sheet_unreadable", sheet=options.sheet, why=error.strerror or str(error)))
    except (SheetError, UsageError) as error:
        problems.append(said("sheet_problem", sheet=options.sheet, problem=error.said))
    problems += output_refusals(outputs(options), sheet=options.sheet, graded=options.graded)
    if problems or sheet is None or layout is None:
        raise ExportRefused(*problems)
    comment = moodle.comment(options.lang, layout.decimal) if options.lms == "moodle" else None
    filled = fill(sheet, layout, run, comment)
    if filled.no_maximum:
        raise ExportRefused(said("no_maximum", count=len(filled.no_maximum), column=layout.title,
                                 who=", ".join(seat.key for seat in filled.no_maximum[:5])))
    if run and not filled.written and not filled.withheld:
        raise ExportRefused(said("nobody_matched", count=len(run), sheet=options.sheet, seats=len(layout.seats),
                                 column=filled.matched_by, folder=options.graded))
    try:
        data = sheet_bytes(sheet)
    except SheetError as error:
        raise ExportRefused(error.said) from None
    try:
        written, zipped = _write_all(options, data, filled, say)
    except OSError as error:
        raise ExportRefused(said("cannot_write", path=error.filename or options.out, why=error.strerror or str(error)),
                            told=False) from None
    warnings = [*("autograder: " + note.text(say) for note in read_notes), *unmatched_lines(filled, say)]
    if zipped:
        warnings.append("autograder: " + said("no_feedback_file", who=", ".join(s.id for s in zipped)).text(say))
    status = EXIT_DONE
    if (filled.not_in_sheet or filled.withheld) and not options.allow_unmatched:
        warnings.append("autograder: " + say("export", "exit_unmatched"))
        status = EXIT_UNMATCHED
    summary = said("summary", written=len(filled.written), seats=len(layout.seats), column=layout.title,
                   matched_by=filled.matched_by, no_submission=len(filled.no_submission),
                   not_in_sheet=len(filled.not_in_sheet), paths=", ".join(written)).text(say)
    return ExportResult(status=status, written=tuple(written), filled=len(filled.written),
                        not_in_sheet=len(filled.not_in_sheet), withheld=len(filled.withheld), summary=summary,
                        notes=tuple(printable(line) for line in warnings))


def _said_lines(say: Messages, sentences: Sequence[Said], told: bool = True) -> str:
    """The refusal printed on exit 2: one line per reason, then that nothing was written."""
    lines = [f"autograder: {_closed(sentence.text(say))}" for sentence in sentences]
    if told:
        lines.append("autograder: " + say("export", "nothing_written"))
    return printable("\n".join(lines))


def _closed(text: str) -> str:
    """A sentence that ends with its full stop (a list of columns ends as it is)."""
    return text if "\n" in text or text.endswith((".", ":")) else text + "."


def outputs(options: ExportOptions) -> list[str]:
    """Every file export writes: --out, Moodle's feedback zip beside it, the report."""
    return [options.out] + ([feedback_zip_path(options.out)] if options.lms == "moodle" else []) \
        + [report_path(options.out)]


def output_refusals(paths: Sequence[str], *, sheet: str, graded: str) -> list[Said]:
    """Why export may not write these files: the one place every output path goes through.

    None may be the sheet (by any path, a link to it, or a hard link), a folder, or any file inside
    a run of `autograder grade` (GRADED_DIR or another: a folder holding grades.csv and results/),
    whose files are that run's."""
    problems: list[Said] = []
    for path in paths:
        if os.path.isdir(path):
            problems.append(said("out_is_a_folder", path=path))
        elif same_file(path, sheet):
            problems.append(said("out_is_the_sheet", path=path, sheet=sheet))
        else:
            run = _run_holding(path)
            if run:
                problems.append(said("out_in_a_run", path=path, folder=run))
    return problems


def _run_holding(path: str) -> str:
    """The run folder (as batch.run_folder tells one) that `path` would be written into, or ""."""
    folder = os.path.dirname(os.path.realpath(path))
    while True:
        if isinstance(run_folder.inspect(folder, infer=False), run_folder.Run | run_folder.Damaged):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return ""
        folder = parent


def _write_all(args: ExportOptions, data: bytes, filled: Filled,
               say: Messages) -> tuple[list[str], list[Graded]]:
    """The filled sheet, Moodle's feedback zip, the report, written whole and together: each to a
    temporary file first, then all renamed; a failure removes every temporary and renames none.
    Returns (paths written, students left out of the zip)."""
    staged: list[tuple[str, str]] = []
    zipped: list[Graded] = []
    try:
        staged.append((_staged_bytes(args.out, data), args.out))
        if args.lms == "moodle":
            archive = feedback_zip_path(args.out)
            temporary = _temporary(archive)
            staged.append((temporary, archive))
            zipped = write_feedback_zip(temporary, filled)
        report = report_path(args.out)
        text = printable(export_report(args, filled, zipped, say)).encode("utf-8")
        staged.append((_staged_bytes(report, text), report))
        for temporary, path in staged:
            os.replace(temporary, path)
    finally:
        for temporary, _ in staged:
            with contextlib.suppress(OSError):
                os.remove(temporary)
    return [path for _, path in staged], zipped


def _temporary(path: str) -> str:
    folder = os.path.dirname(os.path.abspath(path))
    return os.path.join(folder, temporary_name())


def _staged_bytes(path: str, data: bytes) -> str:
    temporary = _temporary(path)
    with open(temporary, "xb") as handle:
        handle.write(data)
    return temporary


def feedback_zip_path(out: str) -> str:
    """Beside --out: a name with "feedback" in it, ending in .zip."""
    stem = os.path.splitext(out)[0]
    return f"{stem}-feedback.zip"


def report_path(out: str) -> str:
    return f"{os.path.splitext(out)[0]}-report.txt"


def write_feedback_zip(path: str, filled: Filled) -> list[Graded]:
    """One folder per filled participant, named as Moodle names it, holding the HTML feedback.

    Returns the students left out because the run has no feedback file for them.
    """
    missing: list[Graded] = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for seat, student, _ in filled.written:
            if not student.feedback:
                missing.append(student)
                continue
            folder = moodle.feedback_folder(seat.name, seat.key, student.file)
            with open(student.feedback, "rb") as handle:
                archive.writestr(f"{folder}/{moodle.FEEDBACK_FILE}", handle.read())
    return missing


def unmatched_lines(filled: Filled, say: Messages) -> list[str]:
    lines: list[str] = []
    if filled.withheld:
        lines.append("autograder: " + say("export", "withheld_heading", count=len(filled.withheld)))
        lines += [f"  {one_line(seat.key)}  {one_line(seat.name)}: {(student.withheld or said('withheld_grader_failed')).text(say)}"
                  for seat, student in filled.withheld]
    if filled.not_in_sheet:
        lines.append("autograder: " + say("export", "not_in_sheet_heading", count=len(filled.not_in_sheet)))
        lines += [f"  {one_line(s.id)}  {s.total:g}/{s.max_total:g}  {one_line(s.name or s.file)}"
                  for s in filled.not_in_sheet]
    if filled.no_submission:
        lines.append("autograder: " + say("export", "no_submission_heading", count=len(filled.no_submission)))
        lines += [f"  {one_line(seat.key)}  {one_line(seat.name)}" for seat in filled.no_submission]
    if filled.replaced:
        lines.append("autograder: " + say("export", "replaced_heading", count=len(filled.replaced)))
        lines += [f"  {one_line(seat.key)}  {one_line(seat.name)}: {one_line(old)} → {new}"
                  for seat, old, new in filled.replaced]
    return lines


def export_report(args: ExportOptions, filled: Filled, zipped: Sequence[Graded], say: Messages) -> str:
    lines = [f"autograder export {args.lms}",
             said("report_head", run=args.graded, sheet=args.sheet, out=args.out, column=filled.title,
                  matched_by=filled.matched_by, filled=len(filled.written), no_submission=len(filled.no_submission),
                  not_in_sheet=len(filled.not_in_sheet), withheld=len(filled.withheld)).text(say), ""]
    lines += [line.removeprefix("autograder: ") for line in unmatched_lines(filled, say)]
    if args.lms == "moodle":
        lines.append(said("report_zip", path=feedback_zip_path(args.out),
                          folders=len(filled.written) - len(zipped)).text(say))
        if zipped:
            lines.append(said("no_feedback_file", who=", ".join(s.id for s in zipped)).text(say))
    return "\n".join(lines) + "\n"
