"""Removing overrides.csv (or one row of it) must give exactly the clean run's grades: no override
outlives its row, and no student's row touches another student."""
import shutil

from common import cli, copy_base, grades

FACE = "autograder grade, export (overrides)"
PROMISE = "a rerun equals a clean run; a student never influences another student's override or grade"


def attack(work):
    root, out = copy_base(work, "removed")
    clean = grades(out)
    (out / "overrides.csv").write_text("id,step,points,comment,by\ns01,softmax,2,ok,김조교\ns09,self_attention,3,ok,김조교\n",
                                       "utf-8")
    assert cli("grade", root, "--out", out, "--jobs", "2").returncode == 0
    applied = grades(out)
    # s01 resubmits: only s01's override goes to review; s09's stays applied.
    (root / "s01.py").write_text((root / "s03.py").read_text("utf-8"), "utf-8")
    done = cli("grade", root, "--out", out, "--jobs", "2")
    after = grades(out)
    problems = []
    if "s09" not in applied or float(after["s09"]["self_attention"]) != 3.0:
        problems.append(f"s09's override lost after s01 resubmitted: {after['s09']['self_attention']}")
    if "review" not in after["s01"]["overrides"]:
        problems.append(f"s01's stale override not in review: {after['s01']['overrides']!r}")
    (out / "overrides.csv").unlink()
    done = cli("grade", root, "--out", out, "--jobs", "2")
    final = grades(out)
    fresh = work / "removed" / "fresh"
    cli("grade", root, "--out", fresh, "--jobs", "2")
    clean_now = grades(fresh)
    for student, row in final.items():
        keep = {k: v for k, v in row.items() if k not in ("graded_at",)}
        ref = {k: v for k, v in clean_now[student].items() if k not in ("graded_at",)}
        diff = {k: (keep.get(k), ref.get(k)) for k in ref if keep.get(k) != ref.get(k)}
        if diff:
            problems.append(f"{student} differs from a clean run once overrides.csv is gone: {diff}")
    shutil.rmtree(fresh)
    return not problems, "; ".join(problems) or "review only for the resubmitter; without the file, every row equals a clean run"
