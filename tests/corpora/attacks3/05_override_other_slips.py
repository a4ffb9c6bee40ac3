"""Other slips a TA makes with a spreadsheet: each must be refused, by line, with nothing changed."""
import pathlib

from common import cli, copy_base, grades, tree

FACE = "autograder grade (DIR/overrides.csv)"
PROMISE = "a TA's slip is refused with the line number and changes nothing"

HEADER = "id,step,points,comment,by\n"
SLIPS = {
    "semicolons (European Excel)": (b"id;step;points;comment;by\ns01;softmax;1.5;x;y\n", "line 1"),
    "nan points": ((HEADER + "s01,softmax,nan,x,y\n").encode(), "line 2"),
    "infinite points": ((HEADER + "s01,softmax,inf,x,y\n").encode(), "line 2"),
    "points with a unit": ((HEADER + "s01,softmax,1.5점,x,y\n").encode(), "line 2"),
    "percent": ((HEADER + "s01,softmax,75%,x,y\n").encode(), "line 2"),
    "step title, not name": ((HEADER + "s01,Softmax,1.5,x,y\n").encode(), "line 2"),
    "same student twice, one with spaces": ((HEADER + "s01,softmax,1.5,x,y\n s01 ,softmax,1,x,y\n").encode(), "line 3"),
    "multi-line comment then a bad row": ((HEADER + 's01,softmax,1.5,"두 줄\n코멘트",y\ns02,mix,9,x,y\n').encode(), "line 4"),
    "underscore digits 1_5": ((HEADER + "s01,softmax,1_5,x,y\n").encode(), "line 2"),
    "a formula cell": ((HEADER + "s01,softmax,=1+0.5,x,y\n").encode(), "line 2"),
}


def attack(work):
    root, out = copy_base(work, "slips")
    before = tree(out)
    broken = []
    for label, (data, where) in SLIPS.items():
        (out / "overrides.csv").write_bytes(data)
        done = cli("grade", root, "--out", out, "--jobs", "2", "--lang", "en")
        now = tree(out)
        now.pop(pathlib.Path("overrides.csv"))
        if done.returncode != 2 or where not in done.stderr or now != before:
            broken.append(f"{label}: exit {done.returncode}, {done.stderr.strip()[-160:]!r}, changed={now != before}")
            before = now
    # UTF-16 with its byte order mark (Excel's "Unicode text", here comma-separated) is no slip: the one
    # reader of the TA's CSV files reads it unambiguously, and the override is applied as written.
    (out / "overrides.csv").write_bytes((HEADER + "s01,softmax,1.5,x,y\n").encode("utf-16"))
    done = cli("grade", root, "--out", out, "--jobs", "2", "--lang", "en")
    if done.returncode != 0 or float(grades(out)["s01"]["softmax"]) != 1.5:
        broken.append(f"UTF-16: exit {done.returncode}, {done.stderr.strip()[-160:]!r}, not applied as written")
    return not broken, "; ".join(broken) or f"{len(SLIPS)} slips, each refused by line with nothing changed; UTF-16 read"
