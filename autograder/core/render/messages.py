"""The catalogs (the engine's `locale/*.toml` with a lab's merged in) and `Messages`, which says a
sentence in the reader's language with every parameter shown safely; the wordings every part of
the feedback shares (a place in a file, points, a case's name)."""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..cells import KERNEL_CELL, NOTEBOOK_CELL
from ..parsed_toml import parsed_toml
from ..reading.problems import Detail
from ..rubric import JOIN, parts
from ..verdict import rounded_points
from .text import MULTILINE_OUTSIDE_TEXT, OUTSIDE_TEXT, printable, without_paths

if TYPE_CHECKING:
    from ..lab import Lab

LANGUAGES = ("ko", "en")
# The engine's package (this module is its render.messages); the kit ships it under another name.
_ENGINE = __name__.rsplit(".", 2)[0]
# Messages by section, then key: the engine's catalog with a lab's merged in (every value a text).
Catalog = dict[str, dict[str, str]]


@lru_cache(maxsize=None)
def engine_catalog(lang: str) -> dict[str, Any]:
    """The engine's general messages in `lang`: statuses, layout, load problems, generic codes."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return parsed_toml(resources.files(_ENGINE + ".locale").joinpath(f"{lang}.toml").read_text("utf-8"))


def catalog(lang: str, lab: Lab | None = None) -> Catalog:
    """The engine's messages with the lab's own added; a key the lab also has takes the lab's text."""
    table: Catalog = {section: dict(keys) for section, keys in engine_catalog(lang).items()}
    if lab is not None:
        for section, keys in lab.catalog(lang).items():
            table.setdefault(section, {}).update(keys)
    return table


class Messages:
    """`say(section, key, **params)`: the catalog's sentence in `lang`, its parameters shown safely."""

    def __init__(self, lang: str, lab: Lab | None = None) -> None:
        self.lang = lang
        self.lab = lab
        self.table = _merged(lang, lab)

    def __call__(self, section: str, key: str, **params: object) -> str:
        if self.lab is not None:
            params.setdefault("notebook", self.lab.notebook)
        return self.table[section][key].format(**{
            name: self.detail(value) if isinstance(value, Detail) else _shown(name, value)
            for name, value in params.items()})

    def detail(self, detail: Detail) -> str:
        """A problem's reason (submission.Detail) in this language."""
        return self("detail", detail.code, **detail.parameters)

    def stepwise(self, section: str, step: str, code: str, **params: object) -> str:
        """A step's own wording of a code when it has one, else the general one; a combined
        code ("a+b", see autograder.error_model) is told as its two mistakes."""
        key = f"{step}.{code}" if f"{step}.{code}" in self.table[section] else code
        if key in self.table[section]:
            return self(section, key, **params)
        if section in ("title", "cause") and code.count(JOIN) == 1:
            first, second = (self.stepwise(section, step, part, **params) for part in parts(code))
            return self("text", f"combined_{section}", first=first, second=second)
        return code


def detail_text(detail: Detail, lang: str) -> str:
    """A submission.Detail in `lang`, from the engine's catalog."""
    return Messages(lang).detail(detail)


def _shown(name: str, value: object) -> object:
    """A parameter as a sentence shows it: outside text without its paths' folders and on one line
    (a value printed over lines, `preview`, keeps its lines); every string made printable."""
    if not isinstance(value, str):
        return value  # a number keeps its format ("{got:g}")
    if name in OUTSIDE_TEXT:
        return printable(without_paths(value), newlines=name in MULTILINE_OUTSIDE_TEXT)
    return printable(value)


_merged_tables: dict[tuple[str, str | None, int], tuple[Lab | None, Catalog]] = {}


def _merged(lang: str, lab: Lab | None) -> Catalog:
    key = (lang, None if lab is None else lab.name, id(lab))
    if key not in _merged_tables:
        _merged_tables[key] = (lab, catalog(lang, lab))  # the lab is held so its id stays its own
    return _merged_tables[key][1]


def points_text(value: float) -> str:
    """Points as every face shows them: rounded as the verdict rounds them, no trailing zeros."""
    return f"{rounded_points(value):g}"


def line_place(say: Messages, filename: str, line: object) -> str:
    """Where a line is: in a notebook, its cell's number (notebook cells are named "<cell N>")."""
    cell = NOTEBOOK_CELL.fullmatch(filename)
    if cell:
        return say("text", "place_cell", cell=int(cell.group(1)), line=line)
    cell = KERNEL_CELL.fullmatch(filename)
    if cell:
        if cell.group(1):
            return say("text", "place_kernel_cell", cell=int(cell.group(1)), line=line)
        return say("text", "place_kernel_cell_unnumbered", line=line)
    return say("text", "place_line", filename=filename, line=line)


def place_in_own_file(say: Messages, filename: str, line: int) -> str:
    """A place in the student's own file: a notebook's cell and line, a script's line alone (the
    feedback is about that one file, and its name, read through another locale, could come out
    garbled)."""
    if NOTEBOOK_CELL.fullmatch(filename):
        return line_place(say, filename, line)
    return say("text", "place_line_only", line=line)


def case_label(say: Messages, name: str) -> str:
    """How a case is named to students: the lab catalog's [case] name for it, else its id."""
    return say.table.get("case", {}).get(name, name)


def case_names(lab: Lab, lang: str) -> dict[str, str]:
    """{case id: its name in `lang`} of every case the lab's catalog names."""
    return dict(Messages(lang, lab).table.get("case", {}))
