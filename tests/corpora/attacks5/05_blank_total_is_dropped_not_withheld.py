"""A TA's slip in grades.csv: a student's total deleted by hand (the cell left empty, as one does
to "take a grade out" in a spreadsheet). A total that is not a number is withheld by `export` and
`history` (exit 3, the LMS cell kept, the lab counted in no course total, the reason said). An
empty one is read as a row of no grade at all: the student becomes "no submission", the LMS cell
keeps the grade it had, and both commands exit 0."""
import csv
import io
import pathlib

from helpers5 import CORRECT, cli, write_class

FACE = "autograder history and autograder export canvas"
PROMISE = ("a row whose total is not a number is a student whose grade is withheld, never dropped "
           "(lms.graded.read_run, withheld_reason: export and history alike)")

NAMES = {"kimminsu_10231_55001_attention.py": CORRECT, "leejiwon_10232_55002_attention.py": CORRECT,
         "parkseoyeon_10233_55003_attention.py": CORRECT}
SHEET = ('Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501),Current Score\n'
         '    Points Possible,,,,,10.00,(read only)\n'
         '"Kim, Minsu",10231,2024001,kimms,TP101,,\n'
         '"Lee, Jiwon",10232,2024002,leejw,TP101,3.00,\n'
         '"Park, Seoyeon",10233,2024003,parksy,TP101,,\n')


def blank_total(path, student):
    text = path.read_text("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    at_id, at_total = rows[0].index("id"), rows[0].index("total")
    for row in rows[1:]:
        if row and row[at_id] == student:
            row[at_total] = ""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    path.write_text("\ufeff" + buffer.getvalue(), "utf-8")


def attack(work):
    work = pathlib.Path(work)
    root = write_class(work / "class", NAMES)
    run = work / "course" / "self_attention"
    done = cli("grade", root, "--out", run, "--lab", "self_attention", "--jobs", "2")
    assert done.returncode == 0, done.stderr[-500:]
    blank_total(run / "grades.csv", "10232")
    history = cli("history", work / "course", "--lang", "en")
    with open(work / "course" / "history" / "course.csv", encoding="utf-8-sig", newline="") as handle:
        course = {row["id"]: row for row in csv.DictReader(handle)}
    (work / "sheet.csv").write_text(SHEET, "utf-8")
    export = cli("export", "canvas", run, "--lab", "self_attention", "--sheet", work / "sheet.csv",
                 "--out", work / "import.csv", "--lang", "en")
    filled = (work / "import.csv").read_text("utf-8") if (work / "import.csv").exists() else ""
    lee = next((line for line in filled.splitlines() if "10232" in line), "")
    said = course.get("10232")
    problems = []
    if history.returncode != 3 or not said or not said.get("self_attention_status", "").startswith("withheld"):
        problems.append(f"history exit {history.returncode}, 10232's row: "
                        f"{ {k: v for k, v in (said or {}).items() if k != 'name'} or 'absent'}")
    if export.returncode != 3:
        problems.append(f"export exit {export.returncode}, 10232's imported line: {lee!r}")
    if problems:
        return False, "the total of 10232 (graded 10/10, status graded) emptied by hand: " + "; ".join(problems) + \
            f"; export said: {' '.join(export.stderr.split())[:220]!r}"
    return True, "withheld by both (exit 3)"
