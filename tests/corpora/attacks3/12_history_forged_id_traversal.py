"""A record in a course folder whose id is a path ("../../x") or HTML: `history` names pages after ids."""
import json
import shutil

from common import cli, copy_base

FACE = "autograder history"
PROMISE = "ids from records become page names and HTML: no path traversal, no HTML injection"


def attack(work):
    root, out = copy_base(work, "traversal")
    course = work / "traversal" / "course"
    shutil.move(str(out), str(course / "lab1"))
    results = course / "lab1" / "results"
    record = json.loads((results / "s03.json").read_text("utf-8"))
    for n, evil in enumerate(["../../escaped", "<script>alert(1)</script>"]):
        forged = json.loads(json.dumps(record))
        forged["extra_data"]["autograder"]["id"] = evil
        (results / f"forged{n}.json").write_text(json.dumps(forged), "utf-8")
    done = cli("history", course)
    escaped = [p for p in (work / "traversal").rglob("escaped.html")]
    outside = [p for p in escaped if "students" not in p.parent.name]
    pages = "".join(p.read_text("utf-8") for p in (course / "history").rglob("*.html"))
    injected = "<script>alert(1)</script>" in pages
    problems = []
    if outside:
        problems.append(f"page written outside history/students/: {[str(p.relative_to(work)) for p in outside]}")
    if injected:
        problems.append("a raw <script> in a page")
    return not problems, "; ".join(problems) or f"exit {done.returncode}; pages stay in history/students, HTML escaped"
