"""A TA confirms an override by writing, in its `automatic` cell, the automatic points exactly as
grades.csv (and the report) show them: to hundredths. Where the exact points sit halfway between
two hundredths (mix right on 3 of its 8 counted tests: 0.375, shown 0.38), the shown value is
0.005 (and a float's hair) away, SAME_POINTS is `< 0.005`, and the override is held for review:
not applied, and `export` withholds the student (exit 3)."""
import csv
import pathlib

from helpers5 import CORRECT, cli, grades, write_class

FACE = "autograder grade (overrides.csv) and autograder export"
PROMISE = ("an override is applied when written against the automatic points the run shows (its `automatic` "
           "cell); points are shown to hundredths: closer than that is the same result")

HALFWAY_MIX = CORRECT.replace("def mix(weights, V):\n    return weights @ V",
                              "def mix(weights, V):\n    out = weights @ V\n    if weights.shape[0] in (1, 4, 5):\n"
                              "        return out\n    return out + 1.0")
SHEET = ('Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (5501)\n'
         '    Points Possible,,,,,10.00\n'
         '"Kim, Minsu",10231,2024001,kimms,TP101,\n'
         '"Lee, Jiwon",10232,2024002,leejw,TP101,\n')


def attack(work):
    work = pathlib.Path(work)
    assert HALFWAY_MIX != CORRECT
    root = write_class(work / "class", {"kimminsu_10231_55001_attention.py": HALFWAY_MIX,
                                        "leejiwon_10232_55002_attention.py": CORRECT})
    out = work / "run"
    done = cli("grade", root, "--out", out, "--lab", "self_attention", "--jobs", "2")
    assert done.returncode == 0, done.stderr[-500:]
    shown = grades(out)["10231"]["mix"]
    (out / "overrides.csv").write_text("id,step,points,comment,by,automatic\n"
                                       f"10231,mix,0.5,부분 점수 인정,김조교,{shown}\n", "utf-8")
    again = cli("grade", root, "--out", out, "--lab", "self_attention", "--jobs", "2", "--lang", "en")
    row = grades(out)["10231"]
    (work / "sheet.csv").write_text(SHEET, "utf-8")
    export = cli("export", "canvas", out, "--lab", "self_attention", "--sheet", work / "sheet.csv",
                 "--out", work / "import.csv", "--lang", "en")
    if row["mix"] != "0.5" or export.returncode != 0:
        return False, (f"grades.csv showed mix {shown}; the override written against {shown} is "
                       f"{'applied' if row['mix'] == '0.5' else 'not applied'} (mix {row['mix']}, overrides "
                       f"{row.get('overrides')!r}); grade exit {again.returncode}, stderr "
                       f"{' '.join(again.stderr.split())[:200]!r}; export exit {export.returncode}")
    return True, f"applied: mix {row['mix']}, export exit 0"
