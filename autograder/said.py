"""Sentences as data, and the one family of errors a command refuses with.

A Said is a sentence of the engine catalogs (autograder/core/locale/ko.toml, en.toml): its section, its
key and its parameters. Library code says what it has to say as Saids; the face that shows it (the
command line, report.html) says it with render.messages.Messages in its reader's language. `str()` gives the
English, for logs. A parameter may itself be a Said (said in the same language) or a tuple of them
(said one after another, joined by "; "), or Lines (said one a line).

A Refusal is why a command does not go on: one or more Saids and the exit status the command line
ends with. INVARIANT: only the command line (autograder/cli.py, and the students' kit's own,
autograder/kit/cli.py) turns an error into lines on stderr and an exit status; no module below it
raises SystemExit or reads an argparse.Namespace (tests/faces/test_faces.py reads every module to hold it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # render loads the judge: imported when a sentence is said, so a check starts fast
    from .core.render.messages import Messages

EXIT_CANNOT_RUN = 2  # a refusal's exit status unless it says another
PROGRAM = "autograder"  # what every line the command line prints on stderr starts with

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
        from .core.render.messages import Messages

        return self.text(Messages("en"))


@dataclass(frozen=True)
class Lines:
    """A parameter of a Said said over lines, each indented: problems, paths. At most `most` are
    shown, then how many more there are."""

    items: tuple[Said | str, ...]
    most: int = 20

    def text(self, say: Messages) -> str:
        from .core.render.text import one_line

        shown = [f"  {item.text(say) if isinstance(item, Said) else one_line(item)}" for item in self.items[:self.most]]
        if len(self.items) > self.most:
            shown.append("  " + say("grade", "more", count=len(self.items) - self.most))
        return "\n".join(shown)


def said(key: str, section: str = "export", **params: object) -> Said:
    """A Said of `key` in `section` with its parameters."""
    return Said(key, tuple(sorted(params.items())), section)


def then(first: Said, *rest: Said) -> Said:
    """Sentences said one after another, as one."""
    if not rest:
        return first
    return said("then", "said", first=first, rest=then(*rest))


def _said(name: str, value: object, say: Messages) -> object:
    from .core.render.text import one_line, printable

    if isinstance(value, Said | Lines):
        return value.text(say)
    if isinstance(value, tuple) and all(isinstance(item, Said) for item in value):
        return "; ".join(item.text(say) for item in value if isinstance(item, Said))
    if isinstance(value, str):
        return printable(value) if name in MULTILINE else one_line(value)
    return value


class Refusal(ValueError):
    """Why a command does not go on: its sentences (Saids, str() gives the English) and `status`,
    the exit status the command line ends with (2 unless said: nothing was done)."""

    status: int = EXIT_CANNOT_RUN
    program: str = PROGRAM  # the name each line on stderr starts with

    def __init__(self, *sentences: Said, status: int | None = None) -> None:
        if not sentences:
            raise TypeError("a Refusal says at least one sentence")
        super().__init__(sentences[0])
        self.sentences = sentences
        if status is not None:
            self.status = status

    @property
    def said(self) -> Said:
        """The first sentence: the reason, when the refusal says one."""
        return self.sentences[0]

    def told(self, say: Messages) -> str:
        """What the command line prints on stderr, in the language of `say`: each sentence on a line
        of its own, after the program's name."""
        from .core.render.text import printable

        text: str = printable("\n".join(f"{self.program}: {sentence.text(say)}" for sentence in self.sentences))
        return text

    def __str__(self) -> str:
        return "\n".join(str(sentence) for sentence in self.sentences)
