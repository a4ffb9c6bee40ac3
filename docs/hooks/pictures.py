"""MkDocs hook: the site's pictures, made at build time from real runs of the bundled samples.

Nothing here is drawn by hand, and no picture is committed: each build grades `samples/` with the
installed `autograder` (as `scripts/demo.sh` does), runs a student's notebook check in a real
Jupyter kernel, and photographs the pages the product wrote with headless chromium. So a picture
in the docs is always what the product shows today.

| picture (under `pictures/`)  | what is photographed |
| --- | --- |
| `feedback-ko.png`, `feedback-en.png` | `feedback/10233.html` of `autograder grade samples` (a softmax along the wrong axis: heat-maps) |
| `report-ko.png`, `report-en.png`     | `report.html` of the same run |
| `check-cell-ko.png`                  | the HTML that `grader.check("softmax")` shows in the student's notebook, for the same mistake |

Without chromium (or with `DOCS_PICTURES=placeholder`) every picture is a placeholder that says
so, and the build logs a WARNING: a `--strict` build (the tests, `scripts/docs.sh --build-only`)
then fails, saying why. Pictures are kept in `.cache/docs-pictures/<hash of their sources>/`, so
`mkdocs serve` makes them once; `DOCS_PICTURES_CACHE=off` always makes them again (the tests do).
"""
import hashlib
import html
import logging
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.pictures")

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
FOLDER = "pictures"
# The sample whose feedback is shown: its softmax normalises along the wrong axis.
FEEDBACK_OF = "10233"
PICTURES = ("feedback-ko.png", "feedback-en.png", "report-ko.png", "report-en.png", "check-cell-ko.png")
# What a student who normalised along the wrong axis writes in the notebook's softmax cell.
WRONG_AXIS = ("    e = np.exp(x - x.max(axis=0, keepdims=True))\n"
              "    return e / e.sum(axis=0, keepdims=True)\n")
# The sources the pictures depend on: a change to any of them makes them again.
SOURCES = ("autograder", "labs", "solutions", "samples", "assignments", "docs/hooks/pictures.py")
def placeholder_png():
    """A 1x1 grey PNG, drawn in place of each picture when chromium is missing."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xb8\xb8\xb8")) + chunk(b"IEND", b""))


def on_files(files, config):
    for name, path in pictures().items():
        files.append(File.generated(config, f"{FOLDER}/{name}", abs_src_path=str(path)))
    return files


def pictures():
    """{name: path} of every picture, made now or found in the cache."""
    chromium = find_chromium()
    if chromium is None or os.environ.get("DOCS_PICTURES") == "placeholder":
        log.warning("the pictures are placeholders: %s", "DOCS_PICTURES=placeholder" if chromium else
                    "chromium is not installed, so the pages the product writes cannot be photographed "
                    "(apt-get install chromium fonts-noto-cjk)")
        folder = pathlib.Path(tempfile.mkdtemp(prefix="docs-placeholders-"))
        for name in PICTURES:
            (folder / name).write_bytes(placeholder_png())
        return {name: folder / name for name in PICTURES}
    cached = os.environ.get("DOCS_PICTURES_CACHE") != "off"
    folder = ROOT / ".cache" / "docs-pictures" / sources_hash()
    if not (cached and all((folder / name).is_file() for name in PICTURES)):
        with tempfile.TemporaryDirectory(prefix="docs-pictures-") as work:
            made = make(pathlib.Path(work), chromium)
            folder.mkdir(parents=True, exist_ok=True)
            for name, path in made.items():
                shutil.copyfile(path, folder / name)
        log.info("pictures made from the samples into %s", folder)
    return {name: folder / name for name in PICTURES}


def find_chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def sources_hash(sources=SOURCES):
    """A short hash of every file under `sources` (paths from the repository's root)."""
    digest = hashlib.sha256()
    for source in sources:
        path = ROOT / source
        for file in sorted([path] if path.is_file() else path.rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(str(file.relative_to(ROOT)).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def make(work, chromium):
    made = {}
    for lang in ("ko", "en"):
        run = grade_samples(work / f"run-{lang}", lang)
        made[f"feedback-{lang}.png"] = shoot(chromium, run / "feedback" / f"{FEEDBACK_OF}.html",
                                             work / f"feedback-{lang}.png", height=1250)
        made[f"report-{lang}.png"] = shoot(chromium, run / "report.html", work / f"report-{lang}.png", height=2400)
    page = check_cell_page(work / "notebook")
    made["check-cell-ko.png"] = shoot(chromium, page, work / "check-cell-ko.png", height=700)
    return made


def grade_samples(out, lang):
    """`autograder grade samples` as a TA runs it; the folder it wrote."""
    finished = subprocess.run([sys.executable, "-m", "autograder", "grade", str(SAMPLES), "--out", str(out),
                               "--lang", lang, "--jobs", "2"], capture_output=True, text=True, cwd=ROOT)
    if finished.returncode != 0:
        raise PluginError(f"grading the samples for the pictures failed (exit {finished.returncode}):\n"
                          f"{finished.stderr[-2000:]}")
    return out


def shoot(chromium, page, picture, *, width=1280, height=1000):
    """A screenshot of `page` at `width` x `height` pixels, as a reader's browser window shows it."""
    profile = picture.with_suffix(".profile")
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", f"--user-data-dir={profile}",
               f"--window-size={width},{height}", "--run-all-compositor-stages-before-draw",
               "--virtual-time-budget=3000", f"--screenshot={picture}", page.as_uri()]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if finished.returncode != 0 or not picture.is_file():
        raise PluginError(f"chromium could not photograph {page.name}: {finished.stderr[-2000:]}")
    shutil.rmtree(profile, ignore_errors=True)
    return picture


def check_cell_page(folder):
    """A page showing the notebook's softmax check cell as Jupyter shows it: the student half that
    `autograder build` writes, filled up to softmax, softmax along the wrong axis, run in a kernel."""
    import nbformat
    from nbclient import NotebookClient

    from autograder.otter.student_half import write_student_half
    from labs.self_attention import LAB

    student = folder / "student"
    student.mkdir(parents=True)
    write_student_half(student, LAB)
    from autograder.authoring import fill
    notebook = fill.fill_notebook(nbformat.read(student / LAB.notebook, as_version=4), lab=LAB)
    tags = [cell.metadata.get("tags", []) for cell in notebook.cells]
    check = next(i for i, t in enumerate(tags) if "check:softmax" in t)
    for cell, cell_tags in zip(notebook.cells, tags):
        if "step:softmax" in cell_tags:
            end = cell.source.index('"""', cell.source.index('"""') + 3) + 3
            cell.source = cell.source[:end] + "\n" + WRONG_AXIS
    notebook.cells = notebook.cells[:check + 1]
    nbformat.write(notebook, student / LAB.notebook)
    NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(student)}}).execute()
    cell = notebook.cells[check]
    shown = "".join(str(o.get("data", {}).get("text/html", "")) for o in cell.get("outputs", []))
    if "ag-check" not in shown:
        raise PluginError("the notebook's grader.check(\"softmax\") showed no feedback: "
                          + repr([o.get("output_type") for o in cell.get("outputs", [])]))
    page = folder / "check-cell.html"
    page.write_text(JUPYTER_CELL.format(count=cell.get("execution_count"), source=html.escape(cell.source),
                                        output=shown), "utf-8")
    return page


# Only the frame is ours (a Jupyter code cell and its output area); the output is the kernel's, as it came.
JUPYTER_CELL = """<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>grader.check</title>
<style>
body {{ margin: 16px 24px; font-family: "Noto Sans CJK KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif;
       font-size: 14px; background: #fff; }}
.cell {{ display: grid; grid-template-columns: 64px 1fr; row-gap: 6px; }}
.prompt {{ color: #307fc1; font-family: monospace; text-align: right; padding: 6px 8px 0 0; }}
.input {{ background: #f5f5f5; border: 1px solid #e0e0e0; border-radius: 2px; padding: 6px 8px;
          font-family: monospace; white-space: pre; }}
.output {{ grid-column: 2; padding: 4px 0; }}
</style></head><body>
<div class="cell"><div class="prompt">[{count}]:</div><div class="input">{source}</div>
<div class="output">{output}</div></div>
</body></html>
"""
