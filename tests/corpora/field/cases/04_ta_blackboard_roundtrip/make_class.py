"""Blackboard Learn's 'Download Assignment' zip: attempt files and receipts (Name:, Date Submitted: ... KST),
a student with two attempts, a student who sent only a receipt; Grade Center 'Work Offline' downloads:
.xls (UTF-16LE, tab, every cell quoted) and .csv (UTF-8 BOM, comma)."""
import os, sys, zipfile
subs, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
r = lambda f: open(os.path.join(subs, f), "rb").read()
def receipt(name, user, date, orig, fname):
    files = f"\tOriginal filename: {orig}\n\tFilename: {fname}\n" if orig else "There are no files for this attempt.\n"
    return (f"Name: {name} ({user})\nAssignment: Lab 1\nDate Submitted: {date}\nCurrent Grade: Needs Grading\n\n"
            "Submission Field:\nThere is no student submission text data for this assignment.\n\n"
            "Comments:\nThere are no student comments for this assignment.\n\nFiles:\n" + files)
att = [("Kim Minsu", "kim_ms", "2026-03-01-09-30-45", "Sunday, March 1, 2026 9:30:45 AM KST", "attention.py", "l1_wrong_softmax.py"),
       ("Kim Minsu", "kim_ms", "2026-03-01-12-30-45", "Sunday, March 1, 2026 12:30:45 PM KST", "attention.py", "l1_correct.py"),
       ("이지원", "lee_jw", "2026-03-01-10-00-00", "Sunday, March 1, 2026 10:00:00 AM KST", "self_attention_lab.ipynb", "l1_correct.ipynb"),
       ("최준호", "choi_jh", "2026-03-02-01-00-00", "Monday, March 2, 2026 1:00:00 AM KST", "attention.py", "l1_syntax.py"),
       ("Park Seoyeon", "park_sy", "2026-03-01-11-00-00", "Sunday, March 1, 2026 11:00:00 AM KST", None, None)]
with zipfile.ZipFile(os.path.join(out, "gradebook_TP101_Lab201_2026-03-05-09-00-00.zip"), "w") as z:
    for name, user, stamp, date, orig, src in att:
        base = f"Lab 1_{user}_attempt_{stamp}"
        fname = f"{base}_{orig}" if orig else ""
        z.writestr(base + ".txt", receipt(name, user, date, orig, fname))
        if src:
            z.writestr(fname, r(src))
rows = [["Last Name", "First Name", "Username", "Student ID", "Last Access", "Availability", "Weighted Total [Total Pts: up to 0] |301", "Total [Total Pts: up to 10 Score] |302", "Lab 1 [Total Pts: 10 Score] |1234567"],
        ["Kim", "Minsu", "kim_ms", "2024001", "2026-03-01 9:30:00 AM", "Available", "", "", ""],
        ["이", "지원", "lee_jw", "2024002", "2026-03-01 10:00:00 AM", "Available", "", "", ""],
        ["Park", "Seoyeon", "park_sy", "2024003", "2026-03-01 11:00:00 AM", "Available", "", "", ""],
        ["최", "준호", "choi_jh", "2024004", "2026-03-02 1:00:00 AM", "Available", "", "", ""],
        ["Han", "Mirae", "han_mr", "2024005", "", "Available", "", "", ""]]
xls = "".join("\t".join('"%s"' % c for c in row) + "\r\n" for row in rows)
open(os.path.join(out, "gc_TP101_fullgc_2026-03-05-09-00-00.xls"), "wb").write(b"\xff\xfe" + xls.encode("utf-16-le"))
csv = "".join(",".join('"%s"' % c for c in row) + "\r\n" for row in rows)
open(os.path.join(out, "gc_TP101_fullgc_2026-03-05-09-00-00.csv"), "wb").write(b"\xef\xbb\xbf" + csv.encode("utf-8"))
