"""Build each lab's notebook from its .py twin, the assignment's one source (both live in
assignments/<lab>/).

The script is written in the percent format: `# %%` opens a code cell and `# %% [markdown]` a
markdown cell whose lines are comments. Code cells become notebook cells by these rules:

- a cell that only defines a step function -> code cell tagged "step:<name>", then a code cell
  tagged "check:<name>" holding exactly `grader.check("<name>")`;
- the `if __name__ == "__main__":` cell that makes the grader from the check package
  (exactly `script_grader_init`) -> the cell tagged "grader-init": a short set-up cell
  (`grader_setup_source`: the check package beside the notebook, or on Colab the checks' zip the
  student uploads), its code hidden where the front end allows; any other such cell -> a demo cell
  holding its body; the demo cell right after a step must open with
  `print(grader.check("<name>"))`, which the check cell replaces;
- any other code cell is copied as it is.

INVARIANT: "Run All" on the untouched notebook (and `python` on the untouched twin) reaches the
end. A demo cell that calls a step function, or reads a value an earlier guarded demo cell makes,
is one `try:` whose only handler is `except (NotImplementedError, NameError) as error:
display(error)`: an unfinished step makes its examples say so (kit/ready.py) instead of stopping
the run. The builder refuses a demo cell that is not so guarded (`_demo_names`).

The notebook ends with the cells tagged "check-all" and "export". Steps must appear once each,
in the order the lab declares them. The notebook's metadata names its lab ("autograder_lab").

    .venv/bin/python -m autograder.authoring.build_notebook                      # rewrite every lab's notebook
    .venv/bin/python -m autograder.authoring.build_notebook --lab NAME --check   # exit 1 if it is out of date
"""
import ast
import pathlib
import sys
import textwrap
from collections.abc import Sequence
from typing import cast

import nbformat
from nbformat import NotebookNode

from autograder import registry
from autograder.kit.ready import LANG_VARIABLE
from autograder.core.lab import Lab
from autograder.core.reading.submission import METADATA_KEY

CELL_MARK = "# %%"
MARKDOWN_MARK = "# %% [markdown]"
# The student half's check package (autograder/kit shipped under this name) and, for Colab, the zip
# of it and of tests/ that the student uploads there.
CHECK_PACKAGE = "lab_check"
# What the .py twin says when it runs where the check package is not.
MISSING_KIT_SCRIPT = (f"{CHECK_PACKAGE}/ 폴더가 이 파일과 같은 폴더에 있어야 검사할 수 있습니다. "
                      "나눠 받은 폴더에서 실행하십시오.")


def checks_zip_name(lab: str) -> str:
    """The checks' zip beside a lab's notebook in the student half (named unlike the notebook's
    export, `<notebook>_<time>.zip`, which is what a student submits)."""
    return f"{CHECK_PACKAGE}-{lab}.zip"


def script_grader_init(lab: str) -> str:
    """What the .py twin's grader cell holds: the check package's grader, speaking as the kit does."""
    return (f"try:\n    from {CHECK_PACKAGE}.kit.ready import display, prepare_grader\nexcept ImportError:\n"
            f'    raise SystemExit("{MISSING_KIT_SCRIPT}")\ngrader = prepare_grader("{lab}")')


# The language the notebooks are written in: their set-up cell and checks speak it.
NOTEBOOK_LANG = "ko"
# The set-up cell's words, per language: its title, what it says of the checks, the upload prompt
# on Colab, and what it says when the check package is nowhere.
SETUP_WORDS = {
    "ko": {"title": "채점 준비(고치지 말고 실행만 하십시오)",
           "where": "검사 코드는 노트북과 함께 받은 {package}/ 폴더에 있습니다. Colab에서는 함께 받은 {zip}을 올립니다.",
           "upload": "함께 받은 {zip} 파일을 골라 올리십시오.",
           "missing": "검사 코드({package}/)를 찾지 못했습니다. 나눠 받은 폴더에서 노트북을 여십시오. "
                      "Colab에서는 이 셀을 다시 실행해 {zip}을 올리십시오."},
    "en": {"title": "Set-up for the checks (run it, do not edit it)",
           "where": "The checks are in the {package}/ folder you got with this notebook. On Colab, upload {zip}, "
                    "which came with it.",
           "upload": "Choose the file {zip} you got with this notebook, to upload it.",
           "missing": "The checks ({package}/) were not found. Open the notebook in the folder you were given; on "
                      "Colab, run this cell again and upload {zip}."},
}
# A function that returns the grader (`Notebook`): how the course's grader tells the set-up cell
# from a student's code, tagged or not (reading.notebook.does_only_checking).
SETUP_TEMPLATE = '''#@title {title}
def prepare_checks():
    """{where}"""
    import os, sys, zipfile
    said = {said}
    said = said.get(os.environ.get("{lang_variable}", ""), said[{notebook_lang!r}])
    if "google.colab" in sys.modules and not os.path.isdir("{package}"):
        from google.colab import files
        print(said["upload"])
        for name in files.upload():
            if name.endswith(".zip"):
                zipfile.ZipFile(name).extractall()
    try:
        from {package}.kit.ready import Notebook
    except ImportError:
        raise SystemExit(said["missing"])
    return Notebook({lab!r}{lang})


grader = prepare_checks()'''


def grader_setup_source(lang: str = NOTEBOOK_LANG, lab: str | None = None) -> str:
    """The set-up cell of `lab`'s notebook for students reading `lang`: it makes `grader` from the
    check package beside the notebook (on Colab, from the checks' zip the student uploads), whose
    checks and messages speak `lang` unless the student chose another (LAB_CHECK_LANG)."""
    def words(language: str) -> dict[str, str]:
        return {key: text.format(package=CHECK_PACKAGE, zip=checks_zip_name(lab or "lab"))
                for key, text in SETUP_WORDS[language].items()}

    # What the cell prints follows the student's LAB_CHECK_LANG, as the checks do, else the notebook's.
    said = {language: {key: words(language)[key] for key in ("upload", "missing")} for language in SETUP_WORDS}
    return SETUP_TEMPLATE.format(title=words(lang)["title"], where=words(lang)["where"], said=repr(said),
                                 lang_variable=LANG_VARIABLE, notebook_lang=lang, package=CHECK_PACKAGE, lab=lab,
                                 lang="" if lang == NOTEBOOK_LANG else f", lang={lang!r}")


CHECK_ALL = "grader.check_all()"
EXPORT = "grader.export(pdf=False)"
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
CLOSING_MARKDOWN = """## 제출하기

아래 첫 셀은 모든 검사를 한 번에 다시 돌립니다. 둘째 셀은 이 노트북으로 제출용 zip 파일을 만듭니다.
노트북을 저장(Ctrl+S)하고 두 셀을 차례로 실행한 다음, 만들어진 zip 파일을 제출하십시오.

Colab에서는 zip 파일을 만들 수 없습니다. 첫 셀만 실행해 모든 검사를 확인한 뒤, 메뉴의
파일 → 다운로드 → .ipynb 다운로드로 받은 노트북 파일을 그대로 제출하십시오."""


def check_source(name: str) -> str:
    return f'grader.check("{name}")'


def split_cells(text: str) -> list[tuple[str, str]]:
    """[(kind, source)] with kind "code" or "markdown"; text before the first mark must be comments."""
    cells: list[tuple[str, list[str]]] = []
    kind: str | None = None
    lines: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(CELL_MARK):
            if kind is not None:
                cells.append((kind, lines))
            kind = "markdown" if line.strip() == MARKDOWN_MARK else "code"
            lines = []
        elif kind is None:
            if line.strip() and not line.lstrip().startswith("#"):
                raise ValueError(f"line {number}: code before the first '{CELL_MARK}' mark")
        else:
            lines.append(line)
    if kind is not None:
        cells.append((kind, lines))
    return [(kind, _markdown(lines) if kind == "markdown" else _trimmed(lines)) for kind, lines in cells]


def _trimmed(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n")


def _markdown(lines: list[str]) -> str:
    text: list[str] = []
    for line in _trimmed(lines).splitlines():
        if line == "#":
            text.append("")
        elif line.startswith("# "):
            text.append(line[2:])
        else:
            raise ValueError(f"markdown cell line is not a '# ' comment: {line!r}")
    return "\n".join(text)


def _main_guard_body(tree: ast.Module, source: str) -> str | None:
    """The dedented body of a cell that is one `if __name__ == "__main__":` block, else None."""
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.If):
        return None
    guard = tree.body[0]
    test = ast.unparse(guard.test).replace("'", '"')
    if test != '__name__ == "__main__"' or guard.orelse:
        return None
    lines = source.splitlines()[guard.lineno:]
    return textwrap.dedent("\n".join(lines)).strip("\n")


def _step_name(tree: ast.Module, function_names: Sequence[str]) -> str | None:
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.FunctionDef):
        if tree.body[0].name in function_names:
            return tree.body[0].name
    return None


def _opening_check(body: str) -> tuple[object, str]:
    """(name, rest of the body) when the body opens with print(grader.check("name")); (None, body) otherwise."""
    tree = ast.parse(body)
    first = tree.body[0] if tree.body else None
    call = first.value if isinstance(first, ast.Expr) else None
    if isinstance(call, ast.Call) and ast.unparse(call.func) == "print" and len(call.args) == 1:
        call = call.args[0]
    if (isinstance(call, ast.Call) and ast.unparse(call.func) == "grader.check"
            and len(call.args) == 1 and isinstance(call.args[0], ast.Constant)):
        rest = body.splitlines()[cast(ast.Expr, first).end_lineno:]  # the call is the first statement's
        return call.args[0].value, "\n".join(rest).strip("\n")
    return None, body


DEMO_HANDLER = "except (NotImplementedError, NameError) as error:\n    display(error)"


def _demo_names(source: str, function_names: Sequence[str], may_be_missing: set[str]) -> set[str]:
    """The names a demo cell makes that may be missing later. A cell that calls a step function or
    reads a value that may be missing must be one `try:` whose only handler is DEMO_HANDLER (so an
    unfinished step's example says so and the run goes on); else ValueError."""
    tree = ast.parse(source)
    read = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    needs = sorted(read & (set(function_names) | may_be_missing))
    if not needs:
        return set()
    guard = tree.body[0] if len(tree.body) == 1 else None
    if not (isinstance(guard, ast.Try) and len(guard.handlers) == 1 and not guard.orelse and not guard.finalbody
            and ast.unparse(guard.handlers[0]) == DEMO_HANDLER):
        raise ValueError(f"a demo cell that uses {', '.join(needs)} must be one try: statement ending in\n"
                         f"{DEMO_HANDLER}\n(so an unfinished step does not stop Run All):\n{source}")
    return {node.id for node in ast.walk(guard) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}


def _setup_cell(source: str) -> NotebookNode:
    """The set-up cell: its code folded or hidden where the front end allows (Colab's form shows the
    #@title; Jupyter and VS Code read jupyter.source_hidden)."""
    cell = _cell("code", source, "grader-init")
    cell.metadata["cellView"] = "form"
    cell.metadata["jupyter"] = {"source_hidden": True}
    return cell


def cells_from_source(text: str, function_names: Sequence[str], lab_name: str | None = None) -> list[NotebookNode]:
    """Notebook cells (nbformat nodes) for the percent-format source text of a lab with these steps
    (`lab_name`: the lab whose notebook it is, for its set-up cell)."""
    cells: list[NotebookNode] = []
    steps: list[str] = []
    waiting_check: str | None = None
    may_be_missing: set[str] = set()  # values made by demo cells, missing while their step is unfinished
    for kind, source in split_cells(text):
        if kind == "markdown":
            cells.append(_cell("markdown", source))
            continue
        tree = ast.parse(source)
        body = _main_guard_body(tree, source)
        if waiting_check and body is None:
            raise ValueError(f"the cell after {waiting_check} must be a __main__ block that checks it")
        name = _step_name(tree, function_names)
        if name:
            steps.append(name)
            cells.append(_cell("code", source, f"step:{name}"))
            cells.append(_cell("code", check_source(name), f"check:{name}"))
            waiting_check = name
        elif body is None:
            cells.append(_cell("code", source))
        elif "prepare_grader" in body or "otter" in body:
            expected = script_grader_init(lab_name or "lab")
            if body != expected:
                raise ValueError(f"the grader cell must hold exactly:\n{expected}")
            cells.append(_setup_cell(grader_setup_source(lab=lab_name)))
        else:
            checked, rest = _opening_check(body)
            if checked != waiting_check:
                expected = f"print(grader.check({waiting_check!r}))" if waiting_check else "no check"
                raise ValueError(f"a __main__ block checks {checked!r}; expected {expected} here")
            waiting_check = None
            if rest:
                may_be_missing |= _demo_names(rest, function_names, may_be_missing)
                cells.append(_cell("code", rest))
    if waiting_check:
        raise ValueError(f"{waiting_check} is never checked")
    if tuple(steps) != tuple(function_names):
        raise ValueError(f"step functions {steps} must be exactly {list(function_names)}, in order")
    if not any(cell.metadata.get("tags") == ["grader-init"] for cell in cells):
        raise ValueError("no __main__ block creates the Otter grader")
    cells += [_cell("markdown", CLOSING_MARKDOWN), _cell("code", CHECK_ALL, "check-all"),
              _cell("code", EXPORT, "export")]
    for index, cell in enumerate(cells):
        cell.id = f"cell-{index:02d}"  # fixed ids keep the build byte-for-byte repeatable
    return cells


def _cell(kind: str, source: str, tag: str | None = None) -> NotebookNode:
    # nbformat's constructors are untyped: each gives a NotebookNode.
    cell: NotebookNode
    if kind == "markdown":
        cell = nbformat.v4.new_markdown_cell(source)
        return cell
    cell = nbformat.v4.new_code_cell(source)
    if tag:
        cell.metadata["tags"] = [tag]
    return cell


def build(text: str, lab: Lab) -> NotebookNode:
    """The notebook (a validated NotebookNode) for the source text of `lab`'s assignment."""
    notebook: NotebookNode = nbformat.v4.new_notebook(cells=cells_from_source(text, lab.function_names, lab.name))
    notebook.metadata = {"kernelspec": dict(KERNELSPEC),
                         "language_info": {"name": "python"},
                         METADATA_KEY: lab.name}
    nbformat.validate(notebook)
    return notebook


def render(text: str, lab: Lab) -> str:
    """The notebook file's exact text for the source text."""
    written: str = nbformat.writes(build(text, lab))
    return written + "\n"


def assignment_paths(lab: Lab) -> tuple[pathlib.Path, pathlib.Path]:
    """(the .py twin, the notebook) of a lab, in its package's folder."""
    return (pathlib.Path(str(lab.assignment_file(lab.script))),
            pathlib.Path(str(lab.assignment_file(lab.notebook))))


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m autograder.authoring.build_notebook`: the lab authors' own command line."""
    import argparse  # a command line of its own: imported by it alone, never by the library importing this module

    parser = argparse.ArgumentParser(description="Build each lab's notebook from its .py twin.")
    parser.add_argument("--lab", action="append", default=None, metavar="NAME",
                        help="only this lab (repeatable; default: every installed lab)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a notebook is out of date")
    args = parser.parse_args(argv)
    status = 0
    for name in args.lab or registry.lab_names():
        lab = registry.load(name)
        source, notebook = assignment_paths(lab)
        fresh = render(source.read_text(encoding="utf-8"), lab)
        current = notebook.read_text(encoding="utf-8") if notebook.exists() else None
        if args.check:
            if fresh != current:
                print(f"{notebook.name} is out of date: run python -m autograder.authoring.build_notebook",
                      file=sys.stderr)
                status = 1
            continue
        if fresh != current:
            notebook.write_text(fresh, encoding="utf-8")
        print(f"wrote {notebook.name}" if fresh != current else f"{notebook.name} is up to date")
    return status


if __name__ == "__main__":
    sys.exit(main())
