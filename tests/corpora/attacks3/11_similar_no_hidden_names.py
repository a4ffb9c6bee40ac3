"""similar.csv and the report's section after a class sharing wrong values on every hidden test: no
hidden test's name and no value (nor an expected value's digits) appear."""
import re

from common import CORRECT, RARE, SOFTMAX, with_softmax
from simclass import grade_class

FACE = "autograder grade (similar.csv, report.html)"
PROMISE = "never a hidden value or hidden test's name"


def attack(work):
    from labs.self_attention import LAB

    hidden = [c.name for c in LAB.hidden_cases()]
    groups, out = grade_class(work / "names", (with_softmax(RARE), with_softmax(RARE)))
    text = (out / "similar.csv").read_text("utf-8-sig")
    section = (out / "report.html").read_text("utf-8").split('id="similar"', 1)[1].split("<h2", 1)[0]
    found = [n for n in hidden if n in text or n in section]
    numbers = re.findall(r"\d+\.\d{3,}", text + section)
    if not groups:
        return True, "(setup: the pair was not listed)"
    return not (found or numbers), (f"hidden names {found}, numbers {numbers[:5]}" if found or numbers
                                    else f"listed {list(groups)}; no hidden name ({', '.join(hidden)}) and no value")
