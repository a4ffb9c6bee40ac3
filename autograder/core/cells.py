"""How the pieces of a submission's code are named, one rule for the reader that makes the names,
the sandbox that runs them and the renderer that tells students where a line is.

A notebook's code cells are "<cell N>" (N counts every cell of the notebook from 1, as Jupyter
shows them); they run as `__main__`, as in Jupyter. A .py file keeps its own name and runs as an
imported module. Code the student's own kernel ran is "<kernel cell N>" (In [N]), or "<kernel cell>"
when its number is unknown.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypedDict

from .guard import SafeText

class Cell(TypedDict):
    """One piece of a submission's code as the reader gives it and the sandbox runs it: its text
    and its file name, both made safe where they were read (guard.SafeText)."""

    source: SafeText
    filename: SafeText


NOTEBOOK_CELL = re.compile(r"<cell (\d+)>")
KERNEL_CELL = re.compile(r"<kernel cell( \d+)?>")


def notebook_cell(number: int) -> str:
    """The file name of a notebook's code cell `number`."""
    return f"<cell {number}>"


def kernel_cell(number: int | None) -> str:
    """The file name of code the student's kernel ran as In [number] (None: number unknown)."""
    return "<kernel cell>" if number is None else f"<kernel cell {number}>"


def is_notebook(cells: Iterable[Cell]) -> bool:
    """Whether the cells come from a notebook: it then runs as `__main__`, a .py file as a module."""
    return any(NOTEBOOK_CELL.fullmatch(cell["filename"]) for cell in cells)


def module_name(cells: Iterable[Cell]) -> str:
    """The module name a submission's code runs under."""
    return "__main__" if is_notebook(cells) else "submission"
