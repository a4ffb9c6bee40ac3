"""After a rerun ended by a closed terminal (SIGHUP) once every student was graded, the TA, reading
"graded 6 of 6", exports to Canvas: a student who resubmitted a worse file must not get the old
total. Control: the same export after the rerun is run again to its end."""
import csv
import io
import json
import pathlib
import signal

from helpers10 import CORRECT, LAST_STUDENT, WORSE, cli, grade_signalled, write_class

FACE = "autograder export canvas (after grade ended by a signal)"
PROMISE = "no grade goes into the LMS that the student's results and feedback contradict"


def _exported(out, sheet, target):
    done = cli("export", "canvas", out, "--lab", "self_attention", "--sheet", sheet, "--out", target, "--lang", "en")
    if not target.exists():
        return done, None
    rows = list(csv.reader(io.StringIO(target.read_text("utf-8-sig"), newline="")))
    return done, {row[1]: row[5] for row in rows[2:]}


def attack(work):
    work = pathlib.Path(work)
    ids = [10231 + k for k in range(6)]
    root = write_class(work / "class", {f"stu{n}_{n}_{n + 40000}_attention.py": CORRECT for n in ids})
    out = work / "out"
    first = cli("grade", root, "--out", out, "--lang", "en")
    assert first.returncode == 0, first.stderr[-300:]
    victim = ids[-1]
    (root / f"stu{victim}_{victim}_{victim + 40000}_attention.py").write_text(WORSE, "utf-8")
    code, _ = grade_signalled(root, out, signal.SIGHUP, LAST_STUDENT)
    sheet = work / "sheet.csv"
    table = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 1 (5501)"],
             ["    Points Possible", "", "", "", "", "10"], *([f"학생{n}", str(n), "", "", "", ""] for n in ids)]
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n").writerows(table)
    sheet.write_bytes(b"\xef\xbb\xbf" + buffer.getvalue().encode())
    done, got = _exported(out, sheet, work / "import.csv")
    recorded = json.loads((out / "results" / f"{victim}.json").read_text("utf-8"))["score"]
    again = cli("grade", root, "--out", out, "--lang", "en")
    _, control = _exported(out, sheet, work / "import-after.csv")
    if got and got.get(str(victim)) not in (None, "") and float(got[str(victim)]) != recorded:
        return False, f"export (exit {done.returncode}) wrote {got[str(victim)]} for {victim}, whose results say " \
                      f"{recorded} (grade ended with {code})"
    if again.returncode != 0 or not control or float(control[str(victim)]) != recorded:
        return True, f"(setup: the export after a whole rerun wrote {control and control.get(str(victim))})"
    return True, f"export after the interrupted rerun: exit {done.returncode} ({done.stderr.strip()[-120:]!r}); " \
                 f"after the whole rerun: {control[str(victim)]}"
