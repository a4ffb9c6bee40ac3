"""Names and file names from an LMS (a display name the student set) in `history`: HTML in a name,
a spreadsheet formula, a file name with markup, through the course CSV and every page."""
import csv
import io

from common import cli, copy_base

FACE = "autograder history"
PROMISE = "names from LMS exports never inject HTML or formulas"

NAME = '=HYPERLINK("http://x","<img src=x onerror=alert(1)>")'


def attack(work):
    root, out = copy_base(work, "names")
    course = work / "names" / "course"
    course.mkdir()
    out.rename(course / "lab1")
    sheet = course / "lab1" / "grades.csv"
    rows = list(csv.DictReader(io.StringIO(sheet.read_text("utf-8-sig"))))
    for row in rows:
        if row["id"] == "s04":
            row["name"] = NAME
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    sheet.write_text("\ufeff" + buffer.getvalue(), "utf-8")
    done = cli("history", course)
    page = (course / "history" / "students" / "s04.html").read_text("utf-8")
    table = (course / "history" / "course.csv").read_text("utf-8-sig")
    problems = []
    if "<img src=x" in page:
        problems.append("raw <img> in s04.html")
    cells = [r["name"] for r in csv.DictReader(io.StringIO(table)) if r["id"] == "s04"]
    if cells and cells[0].startswith(("=", "+", "-", "@")):
        problems.append(f"course.csv name cell starts a formula: {cells[0][:30]!r}")
    if done.returncode != 0:
        problems.append(f"exit {done.returncode}: {done.stderr[-200:]}")
    return not problems, "; ".join(problems) or f"escaped in the page; course.csv cell {cells[0][:25]!r}"
