"""What happened while loading a submission (syntax errors, skipped statements, a file for another
lab, a file that could not be read), as the lines and records a student reads."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cells import NOTEBOOK_CELL
from .messages import Messages, line_place
from .text import one_line, without_paths

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..lab import Lab
    from ..verdict import Note, SubmissionResult

def load_notes(notes: Iterable[Note], lab: Lab | None, lang: str = "ko") -> list[str]:
    """What happened while loading the file (syntax errors, skipped statements), as lines."""
    return [text for _, text in noted(notes, lab, lang)]


def noted(notes: Iterable[Note], lab: Lab | None, lang: str = "ko") -> list[tuple[Note, str]]:
    """(note, its line of text) for each load note a student should read."""
    say = Messages(lang, lab)
    found: list[tuple[Note, str]] = []
    for note in notes:
        text = _note_text(say, note)
        if text:
            found.append((note, text))
    return found


def _note_text(say: Messages, note: Note) -> str | None:
    code = note.code
    if code == "problem":
        key = note.problem if note.problem in say.table["problem"] else "unreadable"
        return say("problem", key, detail=note.detail or "")
    if code == "other_lab":
        return _other_lab_text(say, note)
    place = line_place(say, note.filename if note.filename is not None else "?", note.line or "?")
    if code == "syntax_error":
        in_notebook = NOTEBOOK_CELL.fullmatch(note.filename or "")
        return say("text", "load_syntax_error" if in_notebook else "load_syntax_error_script",
                   place=place, message=note.message if note.message is not None else "")
    if code == "load_error":
        return say("text", "load_error", place=place, type=note.type if note.type is not None else "",
                   message=note.message if note.message is not None else "")
    if code in ("load_timeout", "load_crash"):
        return say("text", code, place=place)
    if code == "time_spent":
        return say("text", "load_time_spent", seconds=note.seconds)
    return None


def _other_lab_text(say: Messages, note: Note) -> str:
    """The file is written for another lab (registry.other_lab decides; judge.written_for_other_lab
    keeps this note alone): which lab, by its title in the student's language, and what shows it."""
    lab = say.lab
    titles = dict(note.titles)
    other = titles.get(say.lang) or titles.get("en") or note.lab
    found = note.found
    key = "other_lab_declared" if note.declared and not found else "other_lab"
    return say("text", key, title=lab.title(say.lang) if lab is not None else "", other=other,
               lab=note.lab, functions=", ".join(lab.function_names) if lab is not None else "",
               found=", ".join(found))


def note_record(note: Note, text: str) -> dict[str, Any]:
    """A load note as `--json` carries it: where, what, and the sentence a student reads."""
    record: dict[str, Any] = {"code": note.code if note.code != "problem" else note.problem}
    if note.code == "other_lab":
        record["lab"] = one_line(note.lab)
    if note.filename is not None:
        record["file"] = one_line(without_paths(note.filename))
    if note.line is not None:
        record["line"] = note.line
    if note.cell is not None and NOTEBOOK_CELL.fullmatch(note.filename or ""):
        record["cell"] = note.cell
    for key, value in (("type", note.type), ("message", note.message)):
        if value:
            record[key] = one_line(without_paths(value))
    record["text"] = text
    return record


def notes_heading(say: Messages, result: SubmissionResult) -> str:
    """The heading above a result's load notes: the file's one problem's own heading when it has
    one ("other_lab_heading"), any other file problem's, else "while loading"."""
    problem = result.file_problem
    if not problem:
        return say("text", "load_heading")
    key = f"{problem}_heading"
    return say("text", key if key in say.table["text"] else "file_problem_heading")
