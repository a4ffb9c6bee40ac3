"""`attention.py -> /proc/self/cwd/labs/self_attention/hidden.py`, checked with --lab and --html
from the grader's folder: no seed or size of the hidden cases in the page, the text or the JSON."""
import pathlib

from helpers10 import cli, write_class

FACE = "autograder check --html"
PROMISE = "a submission never learns the hidden tests' inputs"
SECRETS = ("seed=", "hidden-1", "d_model=8", "random_case", "from .cases import", "hidden_cases")


def attack(work):
    work = pathlib.Path(work)
    repo = write_class(work / "kim-repo", {})
    link = repo / "attention.py"
    link.symlink_to("/proc/self/cwd/labs/self_attention/hidden.py")
    page = work / "feedback.html"
    shown = cli("check", link, "--lab", "self_attention", "--html", page, "--lang", "en")
    data = cli("check", link, "--lab", "self_attention", "--json", "--lang", "en")
    text = shown.stdout + shown.stderr + data.stdout + (page.read_text("utf-8") if page.exists() else "")
    quoted = [s for s in SECRETS if s in text]
    if quoted:
        return False, f"the feedback quotes hidden.py: {quoted} (exit {shown.returncode})"
    return True, f"nothing of hidden.py quoted (exit {shown.returncode}: {shown.stderr.strip()[:120]!r})"
