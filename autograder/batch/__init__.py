"""`autograder grade`: a whole class, from a folder or an LMS .zip, into grades, feedback and a report.

Resumable: each student's outputs are written whole, results/<id>.json last, and a later run
skips students whose file, grader version and settings are unchanged.
"""
import hashlib
import os
import re
import sys
import time

from ..render import one_line, printable
from ..submission import MAX_BYTES
from .collect import EXPORT, Source, group_students
from .outputs import fingerprint, load_record, remove_temporaries
from .pool import Pool
from .progress import progress_for
from .report import ReportWriter, grades_table, rows_for, write_grades

EXIT_DONE, EXIT_MERGED_IDS, EXIT_INTERRUPTED = 0, 3, 130


def run_batch(args, limits, zygotes=()):
    if args.jobs < 1:
        raise SystemExit("autograder: --jobs must be at least 1")
    if args.id_pattern:
        try:
            re.compile(args.id_pattern)
        except re.error as error:
            raise SystemExit(f"autograder: --id-pattern is not a valid regular expression: {error}")
    if not os.path.exists(args.submissions):
        raise SystemExit(f"autograder: no such folder or file: {args.submissions}")
    source = Source(args.submissions)
    try:
        return _grade_class(source, args, limits, zygotes)
    finally:
        source.close()


def _grade_class(source, args, limits, zygotes):
    out = args.out
    folders = [out, os.path.join(out, "feedback"), os.path.join(out, "results")]
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
    remove_temporaries(folders)
    started = time.monotonic()
    everyone = group_students(source, args.id_pattern)
    students = [s for s in everyone if s.chosen is not None]
    settings = {"lang": args.lang, "step_seconds": limits.step_seconds, "load_seconds": limits.load_seconds,
                "memory_bytes": limits.memory_bytes}
    records, resumed = {}, []
    reporter = ReportWriter(args.lang)  # loads matplotlib while the class is graded
    try:
        interrupted = _grade_all(source, students, settings, args, limits, records, resumed, reporter,
                                 zygotes)
        if interrupted:
            remove_temporaries(folders)
            print(f"autograder: interrupted after {len(records)} of {len(students)} students; "
                  "run the same command again to continue.", file=sys.stderr)
            return EXIT_INTERRUPTED
        remove_temporaries(folders)  # left by a worker ended mid-write
        ordered = [records[s.id] for s in students]
        table = grades_table([row for s in everyone for row in rows_for(s, records.get(s.id))])
        write_grades(os.path.join(out, "grades.csv"), table)
        report = os.path.join(out, "report.html")
        reporter.write(report, table, ordered, args.lang)
    finally:
        reporter.close()
    print(printable(_summary(ordered, table, len(resumed), time.monotonic() - started, report)))
    merged = [s for s in students if s.merged]
    clashes = case_clashes(s.id for s in students)
    if merged or clashes:
        allowed = getattr(args, "allow_merged_ids", False)
        print(merged_warning(merged, clashes, allowed), file=sys.stderr)
        if not allowed:
            return EXIT_MERGED_IDS
    return EXIT_DONE


def case_clashes(ids):
    """Groups of ids that differ only in case: their feedback files are one file on macOS or Windows."""
    groups = {}
    for student in ids:
        groups.setdefault(student.casefold(), []).append(student)
    return [sorted(group) for group in groups.values() if len(group) > 1]


def merged_warning(students, clashes, allowed):
    """The loud part: files whose names say different students, filed under one id (or under ids
    a case-insensitive disk cannot tell apart)."""
    lines = []
    if students:
        lines.append(f"autograder: WARNING: {len(students)} student id(s) hold files of differently named "
                     "students; one file was graded for each id and the others are listed as 'merged: ...':")
        lines.extend(f"  {student.id}: " + "; ".join(one_line(owner) for owner in student.merged)
                     for student in students)
    if clashes:
        lines.append("autograder: WARNING: ids that differ only in case (their feedback/ and results/ files "
                     "overwrite each other on macOS and Windows disks):")
        lines.extend("  " + ", ".join(group) for group in clashes)
    lines.append("  Check these rows in grades.csv, or give --id-pattern. "
                 + ("--allow-merged-ids was given: exit status 0." if allowed else
                    "Exit status 3; --allow-merged-ids accepts them."))
    return printable("\n".join(lines))


def _grade_all(source, students, settings, args, limits, records, resumed, reporter, zygotes):
    """Grade every student not graded already into `records`; True when interrupted."""
    out = args.out
    pool = Pool(min(args.jobs, len(students)), limits, args.lang, out, zygotes=zygotes)
    progress = progress_for(len(students))

    def on_record(record):
        reporter.prepare()  # grading is under way: the start is no longer slowed by it
        records[record["id"]] = record
        progress.advance(printable(f"{record['id']} {record['total']:g}/{record['max_total']:g}", newlines=False))

    def tasks():
        for student in students:
            task = _task(source, student, settings)
            earlier = load_record(out, student.id)
            if earlier is not None and earlier.get("fingerprint") == task["key"]:
                resumed.append(student.id)
                on_record(earlier)
                continue
            yield task

    try:
        pool.run(tasks(), on_record)
    except KeyboardInterrupt:
        pool.kill()
        progress.close()
        return True
    pool.close()
    progress.close()
    return False


def _task(source, student, settings):
    entry = student.chosen
    superseded = [e.path for e in student.superseded]
    data, problem = None, None
    if entry.refused:
        problem = ("not_regular_file", entry.refused)
    elif entry.path.lower().endswith(EXPORT) and entry.export:
        problem = ("not_otter_export", entry.export)
    elif not entry.gradable:
        problem = ("unreadable", f"{os.path.splitext(entry.path)[1] or entry.path} ≠ .py / .ipynb")
    elif entry.size > MAX_BYTES:
        problem = ("too_large", str(entry.size))
    else:
        try:
            data = source.read(entry)
        except OSError as error:
            problem = ("unreadable", error.strerror or str(error))
        else:
            if len(data) > MAX_BYTES:  # grew since it was listed
                data, problem = None, ("too_large", f"> {MAX_BYTES}")
    content = hashlib.sha256(data if data is not None else repr(problem).encode()).hexdigest()
    return {"student": student.id, "file": entry.path, "data": data, "problem": problem,
            "superseded": superseded, "key": fingerprint(content, entry.path, superseded, settings)}


def _summary(records, table, resumed, seconds, report):
    statuses = table["status"].fillna("")
    graded = len(records) - resumed
    totals = [r["total"] for r in records]
    mean = f"; mean {sum(totals) / len(totals):.2f}/{records[0]['max_total']:g}" if records else ""
    return (f"{len(records)} students ({len(table)} files) in {seconds:.1f} s: {graded} graded"
            f" ({graded / max(seconds, 1e-9):.1f}/s), {resumed} unchanged since the last run,"
            f" {int(statuses.str.startswith('broken').sum())} unreadable,"
            f" {int(statuses.str.startswith('error').sum())} errors,"
            f" {int(statuses.str.startswith('superseded').sum())} superseded{mean}. Report: {report}")
