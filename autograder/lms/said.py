"""What `autograder export` and `autograder history` tell the TA, as data said in the TA's language.

A Said is a key of a section of the engine catalogs (autograder/locale/ko.toml, en.toml: [export],
[history_cli]) and its parameters; the command's edge says it with render.Messages(--lang). `str()`
gives the English, for errors that reach a log. A parameter may itself be a Said (said in the same
language) or a tuple of them (said one after another, joined by "; ").
"""
from __future__ import annotations

from dataclasses import dataclass

from ..render import Messages, one_line, printable

# Parameters built over several lines by the code (a list of columns, one per line, each on its own line).
MULTILINE = frozenset({"choices", "lines"})


@dataclass(frozen=True)
class Said:
    """A sentence of the catalogs' `section`, by its key, with its parameters (sorted by name)."""

    key: str
    params: tuple[tuple[str, object], ...] = ()
    section: str = "export"

    def text(self, say: Messages) -> str:
        """This sentence in the language of `say`: every text parameter on one line (a value read from
        a sheet or a file name cannot start a line of its own), but those built over lines."""
        values = {name: _said(name, value, say) for name, value in self.params}
        return say(self.section, self.key, **values)

    def __str__(self) -> str:
        return self.text(Messages("en"))


def said(key: str, section: str = "export", **params: object) -> Said:
    """A Said of `key` in `section` with its parameters."""
    return Said(key, tuple(sorted(params.items())), section)


def _said(name: str, value: object, say: Messages) -> object:
    if isinstance(value, Said):
        return value.text(say)
    if isinstance(value, tuple) and all(isinstance(item, Said) for item in value):
        return "; ".join(item.text(say) for item in value if isinstance(item, Said))
    if isinstance(value, str):
        return printable(value) if name in MULTILINE else one_line(value)
    return value


class Refusal(ValueError):
    """Why a command does not go on, as a Said (str() gives the English)."""

    def __init__(self, sentence: Said) -> None:
        super().__init__(sentence)
        self.said = sentence

    def __str__(self) -> str:
        return str(self.said)
