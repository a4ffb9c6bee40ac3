"""Every command the README and the documentation pages (docs/**/*.md) show is one their reader can
type: each `autograder ...` line of their code blocks parses with the CLI's own parser, `build` and `export` name their lab (two labs are installed),
`python -m lab_check ...` parses with the students' kit's parser, and an `otter run -o DIR`
comes after the command that makes DIR. (tests/corpora/field/cases/14_* and 17_* run the build and otter
commands themselves in a fresh folder.)"""
import pathlib
import re
import shlex

import pytest

from autograder.cli import build_parser
from autograder.registry import lab_names
from conftest import ROOT

README = ROOT / "README.md"
# The README and every page of the documentation site: the commands a reader copies.
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]


def shown_text():
    return "\n".join(page.read_text("utf-8") for page in PAGES)
# A synopsis, not a command: [optional parts], placeholders in capitals, alternatives.
SYNOPSIS = re.compile(r"\[|\b(?:SUBMISSIONS|DIR|NAME|FILE)\b|\|")


def blocks(text):
    """The shell code blocks, each as its command lines (continuations joined, comments cut)."""
    found = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        lines = []
        for line in block.replace("\\\n", " ").splitlines():
            command = shlex.split(line, comments=True)
            if command:
                lines.append((line.strip(), command))
        found.append(lines)
    return found


def commands(program):
    return [(line, words) for block in blocks(shown_text()) for line, words in block
            if words[:len(program)] == program and not SYNOPSIS.search(line)]


AUTOGRADER = commands(["autograder"])


def test_the_readme_shows_commands_of_every_kind():
    import argparse

    from autograder.cli import build_parser

    subcommands = next(action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction))
    kinds = {words[1] for _, words in AUTOGRADER}
    assert kinds == set(subcommands.choices), kinds
    assert len(AUTOGRADER) >= 15


@pytest.mark.parametrize("line, words", AUTOGRADER, ids=[line[:70] for line, _ in AUTOGRADER])
def test_each_autograder_command_parses_and_names_the_lab_where_several_are_installed(line, words):
    args = build_parser().parse_args(words[1:])  # argparse exits (a test failure) on anything it refuses
    assert len(lab_names()) > 1
    if args.command in ("build", "export"):
        assert args.lab in lab_names(), f"{line}: `{args.command}` needs --lab while several labs are installed"
    if args.command == "grade" and args.late_penalty:
        assert args.due, line


def test_the_synopses_name_only_options_the_parser_knows():
    text = shown_text()
    parser = build_parser()
    subcommands = next(action for action in parser._actions if action.dest == "command").choices.values()
    known = {option for sub in subcommands for action in sub._actions for option in action.option_strings}
    shown = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", text))
    # Options of other programs the pages show (pytest's plugin, otter, pip, the students' kit,
    # scripts/docs.sh and mkdocs).
    others = {"--submission", "--submission-lang", "--submission-step", "--submission-lab", "--junitxml",
              "--collect-only", "--step", "--fresh", "--no-sandbox", "--force-reinstall", "--no-deps",
              "--build-only", "--strict", "--noconftest"}
    assert shown - known - others == set()


def test_student_check_commands_parse_with_the_kits_parser():
    from autograder.kit.cli import build_parser as kit_parser
    from labs.self_attention import LAB

    shown = commands(["python", "-m", "lab_check"])
    assert len(shown) >= 3
    for line, words in shown:
        kit_parser(LAB).parse_args(words[3:])


def test_otter_run_writes_into_a_folder_made_before_it_in_the_same_block():
    checked = 0
    for block in blocks(shown_text()):
        made = set()
        for line, words in block:
            if words[:2] == ["mkdir", "-p"]:
                made.update(word.rstrip("/") for word in words[2:])
            if words[:2] == ["otter", "run"]:
                output = words[words.index("-o") + 1].rstrip("/")
                assert output in made, f"{line}: otter run needs {output}/ to exist (mkdir -p {output} first)"
                checked += 1
    assert checked >= 1


def test_build_without_lab_says_to_give_it_and_writes_nothing(tmp_path, capsys):
    """A build reads no submissions: without --lab (several labs installed) it names the labs and the flag."""
    from autograder.cli import main

    out = tmp_path / "dist"
    assert main(["build", "--out", str(out), "--lang", "en"]) == 2
    message = capsys.readouterr().err
    assert not out.exists()
    assert "give --lab NAME" in message and all(name in message for name in lab_names())
    assert "submission" not in message


# Where commands write: everything a command of the README or the docs writes goes under `out/`,
# which .gitignore lists, so a clone that a TA or an instructor works in stays clean.
OUTPUTS = "out/"


def written_paths(words):
    """The paths a shown command writes to (its output options), as typed."""
    if words[0] == "autograder" and not SYNOPSIS.search(shlex.join(words)):
        args = build_parser().parse_args(words[1:])
        if args.command == "history":
            return [args.out or args.course.rstrip("/") + "/history"]
        return [path for path in (getattr(args, "out", None), getattr(args, "html", None)) if path]
    if words[:2] == ["otter", "run"]:
        return [words[words.index("-o") + 1]]
    if words[:2] == ["mkdir", "-p"]:
        return words[2:]
    if words[0] == "pytest":
        return [word.split("=", 1)[1] for word in words if word.startswith("--junitxml=")]
    return []


def test_every_command_shown_writes_under_out_which_a_clone_ignores():
    """INVARIANT: the commands the README and the docs show (and scripts/demo.sh, which they run)
    write only under out/ (in .gitignore), so a clone they are typed in keeps `git status` clean."""
    assert "/out/" in (ROOT / ".gitignore").read_text("utf-8").splitlines()
    demo = [shlex.split(line) for line in (ROOT / "scripts" / "demo.sh").read_text("utf-8").splitlines()
            if line.startswith(".venv/bin/autograder ")]
    shown = [(line, words) for block in blocks(shown_text()) for line, words in block]
    shown += [(shlex.join(words), ["autograder", *words[1:]]) for words in demo]
    checked = 0
    for line, words in shown:
        for path in written_paths(words):
            assert path.startswith(OUTPUTS), f"{line}: writes {path}, outside {OUTPUTS} (a clone would show it untracked)"
            checked += 1
    assert checked >= 25 and demo
