"""MkDocs hook: what the docs quote of the product's output, written at build time from real runs.

A page quotes what a command prints with a marker on a line of its own:

    <!-- output: kit-softmax-ko -->

and the built page shows, in a text block, what that run (RUNS below) printed during this build.
So a quote is always what the product prints today, like the pictures (pictures.py): no output of
`autograder check`, `grade`, the students' `python -m lab_check` or the report is typed into a page
by hand (tests/docs/test_docs_outputs.py refuses a page that holds one, and a marker that names no run).

| run | what runs, on which bundled file |
| --- | --- |
| `kit-softmax-ko` | `python -m lab_check self_attention_lab.py --step softmax` in the student folder `autograder build` writes, the file being `samples/parkseoyeon_10233_55003_attention.py` (its softmax normalises along the wrong axis: the notebook picture's mistake) |
| `check-softmax-ko` | `autograder check` of the same sample: its softmax step, hidden tests included, as the feedback page says it |
| `check-broken-ko`, `check-broken-en` | `autograder check report.docx --lab self_attention`: a file that is not a notebook or a Python file (a few bytes written here) |

Outputs are kept in `.cache/docs-outputs/<hash of their sources>.json`, so `mkdocs serve` runs them
once; `DOCS_PICTURES_CACHE=off` (the tests) runs them again.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from mkdocs.exceptions import PluginError

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from pictures import ROOT, SOURCES, sources_hash  # noqa: E402  (a hook beside this one)

MARKER = re.compile(r"^<!-- output: ([a-z0-9-]+) -->$", re.M)
WRONG_AXIS_SAMPLE = ROOT / "samples" / "parkseoyeon_10233_55003_attention.py"
NOT_CODE = b"PK\x03\x04 a word processor's file, not a notebook"  # the bytes of the run's report.docx
OWN_SOURCES = (*SOURCES, "docs/hooks/outputs.py")


@dataclass(frozen=True)
class Run:
    face: str  # "kit" (the students' python -m lab_check) or "check" (autograder check)
    file: str  # "wrong-axis" (the sample) or "not-code" (report.docx)
    lang: str
    step: str | None = None  # show only this step's block (check prints every step)


RUNS = {
    "kit-softmax-ko": Run("kit", "wrong-axis", "ko", step="softmax"),
    "check-softmax-ko": Run("check", "wrong-axis", "ko", step="softmax"),
    "check-broken-ko": Run("check", "not-code", "ko"),
    "check-broken-en": Run("check", "not-code", "en"),
}


def on_page_markdown(markdown, page, config, files):
    names = MARKER.findall(markdown)
    unknown = [name for name in names if name not in RUNS]
    if unknown:
        raise PluginError(f"{page.file.src_uri}: no run named {', '.join(unknown)} (known: {', '.join(RUNS)})")
    if not names:
        return markdown
    printed = outputs()
    return MARKER.sub(lambda match: text_block(printed[match.group(1)]), markdown)


def text_block(text):
    """`text` as a fenced block no line of it can close."""
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    return f"{fence}text\n{text.rstrip()}\n{fence}"


def outputs():
    """{run name: what it printed}, run now or found in the cache."""
    cache = ROOT / ".cache" / "docs-outputs" / f"{sources_hash(OWN_SOURCES)}.json"
    if os.environ.get("DOCS_PICTURES_CACHE") != "off" and cache.is_file():
        return json.loads(cache.read_text("utf-8"))
    with tempfile.TemporaryDirectory(prefix="docs-outputs-") as work:
        printed = {name: printed_by(run, pathlib.Path(work) / name) for name, run in RUNS.items()}
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(printed, ensure_ascii=False), "utf-8")
    return printed


def printed_by(run, folder):
    """What `run` prints on stdout, as a student or a TA sees it (exit 0 or 1: passed or lost points)."""
    folder.mkdir(parents=True)
    if run.face == "kit":
        from autograder.authoring.build_notebook import CHECK_PACKAGE
        from autograder.otter.student_half import write_student_half
        from labs.self_attention import LAB

        write_student_half(folder, LAB)
        target = folder / LAB.notebook.replace(".ipynb", ".py")
        shutil.copyfile(WRONG_AXIS_SAMPLE, target)
        command = [sys.executable, "-m", CHECK_PACKAGE, target.name, "--lang", run.lang]
    else:
        if run.file == "not-code":
            target = folder / "report.docx"
            target.write_bytes(NOT_CODE)
        else:
            target = folder / WRONG_AXIS_SAMPLE.name
            shutil.copyfile(WRONG_AXIS_SAMPLE, target)
        command = [sys.executable, "-m", "autograder", "check", target.name, "--lab", "self_attention",
                   "--lang", run.lang]
    if run.step and run.face == "kit":
        command += ["--step", run.step]
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    finished = subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env, timeout=300)
    if finished.returncode not in (0, 1) or not finished.stdout.strip():
        raise PluginError(f"{' '.join(command)} failed (exit {finished.returncode}):\n{finished.stderr[-2000:]}")
    return step_block(finished.stdout, run.step) if run.step and run.face == "check" else finished.stdout


def step_block(text, step):
    """The lines of one step in `autograder check`'s text: its `■` line up to the next blank line."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(f"■ {step} ")), None)
    if start is None:
        raise PluginError(f"autograder check printed no step {step!r}:\n{text[:2000]}")
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return "\n".join(lines[start:end]) + "\n"
