"""`autograder export {canvas,moodle,blackboard} GRADED_DIR --sheet SHEET --out FILE`: the I/O edge.

Reads the run and the sheet the TA downloaded, fills the grade column (fill.py), writes the sheet
back in its own format, Moodle's feedback zip beside it, and a short report of who matched.
"""
import argparse
import os
import sys
import zipfile
from collections.abc import Callable, Mapping, Sequence

from ..batch.outputs import write_atomic
from ..lab import Lab
from ..render import one_line, printable
from . import blackboard, canvas, moodle
from .fill import Filled, Layout, UsageError, fill
from .graded import Graded, RunError, read_run, run_refusals
from .recognise import wrong_lms
from .sheet import Sheet, SheetError, read_sheet, sheet_bytes

LAYOUTS: dict[str, Callable[[Sheet, str | None], Layout]] = {"canvas": canvas.layout, "moodle": moodle.layout,
                                                            "blackboard": blackboard.layout}
MOODLE_ONLY = ("id_column", "max_column", "feedback_column")
EXIT_DONE, EXIT_UNMATCHED = 0, 3


def _lab(args: argparse.Namespace) -> Lab:
    from ..registry import LabNotFound, choose

    try:
        return choose(getattr(args, "lab", None))
    except LabNotFound as error:
        raise SystemExit(f"autograder: {error}") from None


def lab_refusal(lab_name: str | None, run: Mapping[str, Graded], graded_dir: str) -> str:
    """Why the run may not go into a sheet without --lab: with several labs installed, only --lab
    says which lab's column the TA is filling (the run's own lab cannot: a run of the wrong lab
    would name itself). "" when --lab is given or one lab is installed."""
    from ..registry import lab_names

    names = lab_names()
    if lab_name is not None or len(names) <= 1:
        return ""
    labs = sorted({g.lab for g in run.values() if g.lab})
    graded = (f"the run in {one_line(graded_dir)} graded {', '.join(labs)}" if labs else
              f"grades.csv of {one_line(graded_dir)} names no lab")
    fits = f" (--lab {labs[0]} if the column is that lab's)" if len(labs) == 1 else ""
    return (f"several labs are installed ({', '.join(names)}): give --lab NAME, the lab whose grades go into this "
            f"sheet's column; {graded}{fits}")


def run_export(args: argparse.Namespace) -> int:
    given = [name for name in MOODLE_ONLY if getattr(args, name, None) is not None]
    if given and args.lms != "moodle":
        raise SystemExit(f"autograder: --{given[0].replace('_', '-')} names a column of Moodle's worksheet; "
                         f"{args.lms}'s sheet is read by its own headers (--column names the column to fill)")
    lab_name = getattr(args, "lab", None)
    if lab_name is not None:
        _lab(args)  # a lab that is not installed: exit 2 with the installed ones
    try:
        run = read_run(args.graded, default_max=lambda: _lab(args).total_points)
    except RunError as error:
        raise SystemExit(f"autograder: {error}") from None
    # Every reason not to write is told at once (exit 2, nothing written): --lab, the run, the sheet.
    problems: list[str] = []
    missing_lab = lab_refusal(lab_name, run, args.graded)
    if missing_lab:
        problems.append(missing_lab)
    refusals = run_refusals(run, lab_name)
    if refusals:
        problems.append(f"refused: the grades of {one_line(args.graded)} cannot be right: " + "; ".join(refusals))
    try:
        with open(args.sheet, "rb") as handle:
            sheet = read_sheet(handle.read())
        other = wrong_lms(sheet.header, args.lms)
        if other:
            raise SheetError(other)
        if args.lms == "moodle":
            columns = moodle.Columns(id=getattr(args, "id_column", None), max=getattr(args, "max_column", None),
                                     feedback=getattr(args, "feedback_column", None))
            layout = moodle.layout(sheet, args.column, columns)
        else:
            layout = LAYOUTS[args.lms](sheet, args.column)
    except OSError as error:
        problems.append(f"cannot read {one_line(args.sheet)}: {error.strerror or error}")
    except (SheetError, UsageError) as error:
        problems.append(f"{one_line(args.sheet)}: {error}")
    if problems:
        raise SystemExit(printable("\n".join(f"autograder: {problem}" for problem in problems)
                                   + ("" if problems[-1].endswith(".") else ".") + " Nothing was written."))
    comment = moodle.comment(args.lang) if args.lms == "moodle" else None
    filled = fill(sheet, layout, run, comment)
    if filled.no_maximum:
        raise SystemExit(printable(
            f"autograder: no maximum grade in the sheet for {len(filled.no_maximum)} student(s) "
            f"({', '.join(seat.key for seat in filled.no_maximum[:5])}); is {layout.title!r} graded in points? "
            "Nothing was written."))
    try:
        data = sheet_bytes(sheet)
    except SheetError as error:
        raise SystemExit(f"autograder: {error}") from None
    try:
        written, zipped = _write_all(args, data, filled)
    except OSError as error:
        raise SystemExit(f"autograder: cannot write {one_line(error.filename or args.out)}: "
                         f"{error.strerror or error}") from None
    warnings = unmatched_lines(filled)
    if zipped:
        warnings.append("autograder: no feedback file in the run (so none in the zip) for: "
                        + ", ".join(s.id for s in zipped))
    if warnings:
        print(printable("\n".join(warnings)), file=sys.stderr)
    print(printable(f"{len(filled.written)} of {len(layout.seats)} students in the sheet filled in "
                    f"{layout.title!r} (matched by {filled.matched_by}); {len(filled.no_submission)} without a submission, "
                    f"{len(filled.not_in_sheet)} graded but not in the sheet. Wrote: " + ", ".join(written)))
    if (filled.not_in_sheet or filled.withheld) and not args.allow_unmatched:
        print("autograder: exit status 3: graded students' grades are not in the sheet (missing from it, or "
              "withheld); --allow-unmatched exits 0.", file=sys.stderr)
        return EXIT_UNMATCHED
    return EXIT_DONE


def _write_all(args: argparse.Namespace, data: bytes, filled: Filled) -> tuple[list[str], list[Graded]]:
    """The filled sheet, Moodle's feedback zip, the report: (paths written, students left out of the zip)."""
    _write_bytes(args.out, data)
    written: list[str] = [args.out]
    zipped: list[Graded] = []
    if args.lms == "moodle":
        archive = feedback_zip_path(args.out)
        zipped = write_feedback_zip(archive, filled)
        written.append(archive)
    report = report_path(args.out)
    write_atomic(report, printable(export_report(args, filled, zipped)))
    written.append(report)
    return written, zipped


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
    temporary = f"{path}.{os.getpid()}.partial"
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
        for seat, student, _ in filled.written:
            if not student.feedback:
                missing.append(student)
                continue
            folder = moodle.feedback_folder(seat.name, seat.key)
            with open(student.feedback, "rb") as handle:
                archive.writestr(f"{folder}/{moodle.FEEDBACK_FILE}", handle.read())
    os.replace(temporary, path)
    return missing


def _write_bytes(path: str, data: bytes) -> None:
    temporary = f"{path}.{os.getpid()}.partial"
    with open(temporary, "wb") as handle:
        handle.write(data)
    os.replace(temporary, path)


def unmatched_lines(filled: Filled) -> list[str]:
    lines: list[str] = []
    if filled.withheld:
        lines.append(f"autograder: WARNING: {len(filled.withheld)} grade(s) not written (their cells are left as "
                     "they were):")
        lines += [f"  {seat.key}  {one_line(seat.name)}: {student.withheld}" for seat, student in filled.withheld]
    if filled.not_in_sheet:
        lines.append(f"autograder: WARNING: {len(filled.not_in_sheet)} graded student(s) are not in the sheet "
                     "(their grades are not in the file):")
        lines += [f"  {s.id}  {s.total:g}/{s.max_total:g}  {one_line(s.name or s.file)}" for s in filled.not_in_sheet]
    if filled.no_submission:
        lines.append(f"autograder: {len(filled.no_submission)} student(s) in the sheet have no graded "
                     "submission (their cells are left as they were):")
        lines += [f"  {seat.key}  {one_line(seat.name)}" for seat in filled.no_submission]
    if filled.replaced:
        lines.append(f"autograder: {len(filled.replaced)} grade(s) already in the sheet were replaced:")
        lines += [f"  {seat.key}  {one_line(seat.name)}: {one_line(old)} → {new}" for seat, old, new in filled.replaced]
    return lines


def export_report(args: argparse.Namespace, filled: Filled, zipped: Sequence[Graded]) -> str:
    lines = [f"autograder export {args.lms}", f"run: {args.graded}", f"sheet: {args.sheet}", f"written: {args.out}",
             f"column: {filled.title}", f"matched by: {filled.matched_by}", f"filled: {len(filled.written)}",
             f"in the sheet without a submission: {len(filled.no_submission)}",
             f"graded but not in the sheet: {len(filled.not_in_sheet)}", f"withheld: {len(filled.withheld)}", ""]
    lines += [line.removeprefix("autograder: ") for line in unmatched_lines(filled)]
    if args.lms == "moodle":
        lines.append(f"feedback zip: {feedback_zip_path(args.out)} "
                     f"({len(filled.written) - len(zipped)} participant folders)")
        if zipped:
            lines.append("no feedback file in the run for: " + ", ".join(s.id for s in zipped))
    return "\n".join(lines) + "\n"
