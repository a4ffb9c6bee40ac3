"""A Gradescope submission holding the assignment's file twice at the same depth: a folder upload
with `old/self_attention_lab.py` (a first draft) and `new/self_attention_lab.py`. The rule takes
the one with the assignment's name, "the shallowest"; both are, so which is graded is the order
the folder is listed in, reversed by the walk's stack (old/ before new/), and the other is told
as left out for being "in an outer folder". Never a problem named: a guess."""
import pathlib

from helpers5 import CORRECT, STUB, gradescope

FACE = "the Gradescope entry point (python -I -m autograder.otter.gradescope)"
PROMISE = ("which file is graded: among several of a kind, the one with the assignment's file name (the "
           "shallowest); several others are told as a problem, never guessed (gradescope.file_choice)")


def attack(work):
    work = pathlib.Path(work)
    code, results, output = gradescope(work / "root", {"new/self_attention_lab.py": CORRECT,
                                                       "old/self_attention_lab.py": STUB})
    told = results.get("output", "")
    first = " ".join(told.split("\n\n")[0].split())[:260]
    graded_one = told.startswith(("Graded file:", "채점한 파일"))  # a file was chosen, no problem named
    if graded_one and results.get("score", 0) < 10:
        return False, (f"exit {code}, score {results.get('score')} / 10: the draft old/ was graded over new/ "
                       f"(same name, same depth) with no problem named; told at once: {first!r}")
    return True, f"score {results.get('score')}; told: {first!r}"
