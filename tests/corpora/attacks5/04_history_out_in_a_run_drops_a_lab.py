"""A TA's slip: `autograder history COURSE --out COURSE/lab1` (the output folder given as one of
the runs). The history's own output folder is passed over when the runs are looked for, so the
lab graded there drops out of every course total; and the history writes its pages into that
run's folder."""
import csv
import pathlib

from helpers5 import CORRECT, ROOT, cli, write_class

FACE = "autograder history"
PROMISE = ("the course history is the runs' grades: a lab folder is never dropped from the course totals "
           "without a word; no command writes into another run's folder")

MASKED_STUB = (ROOT / "assignments" / "masked_attention" / "masked_attention_lab.py").read_text("utf-8")


def attack(work):
    work = pathlib.Path(work)
    course = work / "course"
    lab1 = write_class(work / "lab1-class", {f"s{n:02d}": CORRECT for n in range(1, 4)})
    lab2 = write_class(work / "lab2-class", {f"s{n:02d}": MASKED_STUB for n in range(1, 4)})
    for lab, source in (("self_attention", lab1), ("masked_attention", lab2)):
        done = cli("grade", source, "--out", course / lab, "--lab", lab, "--jobs", "2")
        assert done.returncode == 0, done.stderr[-500:]
    before = sorted(p.relative_to(course / "self_attention").as_posix()
                    for p in (course / "self_attention").rglob("*"))
    done = cli("history", course, "--out", course / "self_attention", "--lang", "en")
    written = course / "self_attention" / "course.csv"
    if done.returncode == 2:
        return True, f"refused (exit 2): {done.stderr.strip()[-300:]}"
    if not written.exists():
        return True, f"exit {done.returncode}, nothing written into the run: {done.stderr.strip()[-300:]}"
    with open(written, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    columns = list(rows[0]) if rows else []
    after = sorted(p.relative_to(course / "self_attention").as_posix() for p in (course / "self_attention").rglob("*"))
    added = [name for name in after if name not in before]
    if "self_attention_total" not in columns:
        return False, (f"exit {done.returncode}; course.csv columns {columns} (s01's course_total "
                       f"{rows[0]['course_total']} of {rows[0]['course_max']}): the self_attention run, graded "
                       f"10/10 for everyone, is not in the history; stdout: {done.stdout.strip()[-200:]!r}; "
                       f"written into the run's folder: {added[:5]}")
    return True, f"self_attention kept (columns {columns})"
