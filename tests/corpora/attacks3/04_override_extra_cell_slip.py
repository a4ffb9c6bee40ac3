"""A TA writes a decimal comma (1,5) in overrides.csv: the row has one cell more than the header."""
from common import cli, copy_base, grades, tree

FACE = "autograder grade (DIR/overrides.csv)"
PROMISE = "a TA's slip is refused with the line number and changes nothing"


def attack(work):
    root, out = copy_base(work, "extra_cell")
    before = tree(out)
    (out / "overrides.csv").write_text("id,step,points,comment,by\ns01,softmax,1,5,부분 점수 인정,박조교\n", "utf-8")
    done = cli("grade", root, "--out", out, "--jobs", "2", "--lang", "en")
    if done.returncode == 2 and "line 2" in done.stderr:
        now = tree(out)
        now.pop(__import__("pathlib").Path("overrides.csv"))
        return now == before, f"refused: {done.stderr.strip().splitlines()[1:2]}"
    row = grades(out)["s01"]
    return False, (f"exit {done.returncode}, accepted: s01 softmax = {row['softmax']} (TA meant 1.5), "
                   f"overrides cell {row['overrides']!r}; the sixth cell '박조교' was dropped and the comment is '5'")
