"""The library apart from its command line (autograder/said.py's invariant).

Only a command line parses arguments and ends the process: autograder/cli.py (`autograder`) and the
students' kit's own, autograder/kit/cli.py (`python -m lab_check`; its __main__.py ends the process
with the status main() returns). Every other module of the engine is a library: no `raise
SystemExit`, no `sys.exit()`, `exit()` or `quit()`, no argparse, no parameter typed argparse.Namespace.
A module run as a program of its own ends it only in its `if __name__ == "__main__":` block (the
Gradescope entry point, setup.sh's lockdown), and the lab authors' `python -m
autograder.authoring.build_notebook` imports argparse inside its main() only, so that the build that
imports that module never does. Read from each module's code (ast), so a new module is held too.

And every command runs from Python with its options record, no parser built: commands.check,
grade, export, build and history.
"""
import ast
import json
import shutil
from pathlib import Path

import pytest

from autograder import commands
from autograder.commands import (BuildOptions, CheckOptions, ExportOptions, GradeOptions, HistoryOptions,
                                 LimitOptions)
from autograder.said import Refusal

from conftest import ROOT

ENGINE = ROOT / "autograder"
COMMAND_LINES = {"cli.py", "kit/cli.py"}
PROGRAMS = {"kit/__main__.py"}  # a package's __main__ is the program itself: it ends with main()'s status
# The lab authors' tool: argparse in its main() alone (otter/student_half.py imports the module for its names).
OWN_PARSER_IN_MAIN = {"authoring/build_notebook.py"}
ENDS_THE_PROCESS = {("sys", "exit"), ("os", "_exit")}


def modules():
    return sorted(path.relative_to(ENGINE).as_posix() for path in ENGINE.rglob("*.py"))


def main_blocks(tree):
    """The statements under `if __name__ == "__main__":` at the top of a module."""
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and \
                isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__":
            yield from node.body


def inside(nodes):
    return {id(child) for node in nodes for child in ast.walk(node)}


def ends_the_process(node):
    """`raise SystemExit(...)`, `sys.exit(...)`, `exit(...)`, `quit(...)`."""
    if isinstance(node, ast.Raise) and node.exc is not None:
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return isinstance(raised, ast.Name) and raised.id == "SystemExit"
    if isinstance(node, ast.Call):
        function = node.func
        if isinstance(function, ast.Name):
            return function.id in ("exit", "quit")
        if isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):
            return (function.value.id, function.attr) == ("sys", "exit")
    return False


def imports_argparse(node):
    if isinstance(node, ast.Import):
        return any(alias.name.split(".")[0] == "argparse" for alias in node.names)
    return isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "argparse"


def namespace_parameters(tree):
    """Parameters (of functions, lambdas excepted) annotated argparse.Namespace or a bare Namespace."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                             *filter(None, [arguments.vararg, arguments.kwarg])]:
                text = ast.unparse(argument.annotation) if argument.annotation is not None else ""
                if "argparse.Namespace" in text or text.strip("'\"") == "Namespace":
                    found.append(f"{node.name}({argument.arg}: {text})")
    return found


def violations(relative, source):
    tree = ast.parse(source)
    found = []
    allowed = inside(main_blocks(tree))
    if relative not in COMMAND_LINES and relative not in PROGRAMS:
        found += [f"{relative}:{node.lineno}: ends the process" for node in ast.walk(tree)
                  if ends_the_process(node) and id(node) not in allowed]
    if relative not in COMMAND_LINES:
        mains = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main"]
        own = inside(mains) if relative in OWN_PARSER_IN_MAIN else set()
        found += [f"{relative}:{node.lineno}: imports argparse" for node in ast.walk(tree)
                  if imports_argparse(node) and id(node) not in own]
        found += [f"{relative}: takes {parameter}" for parameter in namespace_parameters(tree)]
    return found


def test_only_the_command_lines_parse_arguments_and_end_the_process():
    found = [problem for relative in modules()
             for problem in violations(relative, (ENGINE / relative).read_text("utf-8"))]
    assert not found, found


@pytest.mark.parametrize("source", [
    "def f():\n    raise SystemExit('autograder: no')\n",
    "def f():\n    raise SystemExit\n",
    "import sys\ndef f():\n    sys.exit(2)\n",
    "def f():\n    exit(2)\n",
    "import argparse\n",
    "from argparse import Namespace\n",
    "def run(args: 'argparse.Namespace') -> int:\n    return 0\n",
    "def run(*, args: Namespace) -> int:\n    return 0\n",
])
def test_the_rule_catches_a_library_that_parses_or_exits(source):
    assert violations("batch/example.py", source)


@pytest.mark.parametrize("source", [
    "import sys\ndef main():\n    return 0\nif __name__ == '__main__':\n    sys.exit(main())\n",
    "def f(error):\n    try:\n        pass\n    except SystemExit as exit:\n        return exit.code\n",
    "SOURCE = 'import sys; sys.exit(1)'\n",
    "from types import SimpleNamespace\ndef f(trace: SimpleNamespace) -> None:\n    pass\n",
])
def test_the_rule_leaves_a_program_of_its_own_and_a_caught_exit_alone(source):
    assert not violations("batch/example.py", source)


# Every command from Python ------------------------------------------------------------------------

def test_a_refusal_carries_its_status_and_is_said_in_either_language(tmp_path):
    from autograder.core.render.messages import Messages

    with pytest.raises(Refusal) as refused:
        commands.grade(GradeOptions(submissions=str(tmp_path / "nowhere"), out=str(tmp_path / "out"), jobs=1))
    assert refused.value.status == 2
    assert refused.value.told(Messages("en")) == f"autograder: no such folder or file: {tmp_path / 'nowhere'}"
    assert refused.value.told(Messages("ko")) == f"autograder: {tmp_path / 'nowhere'} 경로에 폴더나 파일이 없습니다."
    assert not (tmp_path / "out").exists()
    with pytest.raises(Refusal) as refused:
        LimitOptions(memory_mb=100).limits()
    assert "--memory-mb" in str(refused.value)
    with pytest.raises(TypeError):
        GradeOptions("class", "out")  # keyword-only: a swapped folder cannot slip in


def test_every_command_runs_from_python_with_its_options_record(tmp_path):
    from test_lms_export import canvas_sheet

    solution = ROOT / "solutions" / "self_attention.py"
    stub = ROOT / "assignments" / "self_attention" / "self_attention_lab.py"
    checked = commands.check(CheckOptions(submission=str(solution), lab="self_attention", lang="en"))
    assert checked.status == 0 and checked.result.all_passed and checked.lab.name == "self_attention"

    course = tmp_path / "course"
    class_folder = tmp_path / "class"
    class_folder.mkdir()
    shutil.copy(solution, class_folder / "10231.py")
    shutil.copy(stub, class_folder / "10232.py")
    graded = commands.grade(GradeOptions(submissions=str(class_folder), out=str(course / "lab1"),
                                         lab="self_attention", jobs=1, lang="en"))
    assert graded.status == 0 and graded.grades == str(course / "lab1" / "grades.csv")
    assert Path(graded.grades).is_file() and Path(graded.report or "").is_file()
    assert graded.counts["students"] == 2 and "2 students" in graded.summary
    full = json.loads((course / "lab1" / "results" / "10231.json").read_text("utf-8"))["score"]
    assert full > 0

    sheet = canvas_sheet(tmp_path / "grades.csv")
    exported = commands.export(ExportOptions(lms="canvas", graded=str(course / "lab1"), sheet=str(sheet),
                                             out=str(tmp_path / "import.csv"), lab="self_attention",
                                             column="Lab 1: 셀프 어텐션", lang="ko"))
    assert exported.status == 0 and exported.filled == 2 and str(tmp_path / "import.csv") in exported.written
    assert "시트의 학생" in exported.summary

    told = commands.history(HistoryOptions(course=str(course), lang="en"))
    assert told.status == 0 and told.students == 2 and Path(told.course_csv).is_file()

    built = commands.build(BuildOptions(out=str(tmp_path / "build"), lab="self_attention", lang="en",
                                        self_check=False))
    assert built.status == 0 and Path(built.zip).is_file() and Path(built.student).is_dir()
    assert "student half:" in built.summary
