"""MkDocs hook: the command-line reference, written at build time from the real argument parsers.

A page asks for a parser's reference with a marker on a line of its own:

    <!-- cli: autograder -->          every `autograder` subcommand (autograder.cli.build_parser)
    <!-- cli: lab_check -->     the students' `python -m lab_check` (autograder.kit.cli)
    <!-- cli: pytest -->              the pytest plugin's options (autograder.pytest_plugin)

So every option, its type, default, choices and help come from the code that parses them.
"""
import argparse
import re

from mkdocs.exceptions import PluginError

MARKER = re.compile(r"^<!-- cli: ([a-z_]+) -->$", re.M)


def on_page_markdown(markdown, page, config, files):
    def replace(match):
        name = match.group(1)
        if name not in RENDERERS:
            raise PluginError(f"{page.file.src_uri}: no command-line reference named {name!r} "
                              f"(known: {', '.join(sorted(RENDERERS))})")
        return RENDERERS[name]()
    return MARKER.sub(replace, markdown)


def _autograder():
    from autograder.cli import build_parser

    parser = build_parser()
    sections = [_usage(parser), parser.description or ""]
    for name, sub in _subcommands(parser).items():
        sections.append(f"## `autograder {name}`\n\n{_help_of(parser, name)}\n\n{_usage(sub)}\n\n{_table(sub)}")
    return "\n\n".join(sections)


def _lab_check():
    from autograder.kit.cli import build_parser
    from autograder.authoring.build_notebook import CHECK_PACKAGE
    from labs.self_attention import LAB

    parts = []
    for lang, heading in (("ko", "한국어로 짓는 학생 폴더 (기본)"), ("en", "A student half built with `--lang en`")):
        parser = build_parser(LAB, lang=lang)
        parser.prog = f"python -m {CHECK_PACKAGE}"
        parts.append(f"### {heading}\n\n{parser.description}\n\n{_usage(parser)}\n\n{_table(parser)}")
    return "\n\n".join(parts)


def _pytest():
    from autograder import pytest_plugin

    parser = argparse.ArgumentParser(prog="pytest", add_help=False)

    class Group:
        def addoption(self, *names, **keywords):
            parser.add_argument(*names, **keywords)

    class Options:
        def getgroup(self, name, description=""):
            return Group()

    pytest_plugin.pytest_addoption(Options())
    return _table(parser)


RENDERERS = {"autograder": _autograder, "lab_check": _lab_check, "pytest": _pytest}


def _subcommands(parser):
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def _help_of(parser, name):
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return next((choice.help for choice in action._choices_actions if choice.dest == name), "") or ""


def _usage(parser):
    usage = parser.format_usage().strip()
    return f"```text\n{usage}\n```"


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(parser):
    formatter = parser._get_formatter()
    rows = ["| argument | what | default |", "| --- | --- | --- |"]
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)) or action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            shown = ", ".join(action.option_strings)
            if action.nargs != 0:
                shown += " " + formatter._format_args(action, formatter._get_default_metavar_for_optional(action))
        else:
            shown = formatter._format_args(action, formatter._get_default_metavar_for_positional(action))
        what = formatter._expand_help(action) if action.help else ""
        if action.choices and not isinstance(action, argparse._SubParsersAction):
            what += " (one of: " + ", ".join(f"`{c}`" for c in action.choices) + ")"
        if action.required and action.option_strings:
            what += " **Required.**"
        if (action.option_strings and action.nargs == 0) or "default" in what:
            default = ""  # a flag, or the help already says it (in words where it depends on the machine)
        elif action.default in (None, argparse.SUPPRESS) or not action.option_strings:
            default = ""
        else:
            default = f"`{action.default}`"
        rows.append(f"| `{_cell(shown)}` | {_cell(what)} | {default} |")
    return "\n".join(rows)
