"""What happened while loading a submission (syntax errors, skipped statements, a file for another
lab, a file that could not be read), as the lines and records a student reads."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cells import NOTEBOOK_CELL
from .messages import Messages, line_place
from .text import one_line, without_paths

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..lab import Lab
    from ..verdict import SubmissionResult

def load_notes(notes: Iterable[dict[str, Any]], lab: Lab | None, lang: str = "ko") -> list[str]:
    """What happened while loading the file (syntax errors, skipped statements), as lines."""
    return [text for _, text in noted(notes, lab, lang)]


def noted(notes: Iterable[dict[str, Any]], lab: Lab | None, lang: str = "ko") -> list[tuple[dict[str, Any], str]]:
    """(note, its line of text) for each load note a student should read."""
    say = Messages(lang, lab)
    found: list[tuple[dict[str, Any], str]] = []
    for note in notes:
        text = _note_text(say, note)
        if text:
            found.append((note, text))
    return found


def _note_text(say: Messages, note: Mapping[str, Any]) -> str | None:
    code = note["code"]
    if code == "problem":
        key = note["problem"] if note["problem"] in say.table["problem"] else "unreadable"
        return say("problem", key, detail=note.get("detail") or "")
    if code == "other_lab":
        return _other_lab_text(say, note)
    place = line_place(say, str(note.get("filename", "?")), note.get("line") or "?")
    if code == "syntax_error":
        in_notebook = NOTEBOOK_CELL.fullmatch(str(note.get("filename", "")))
        return say("text", "load_syntax_error" if in_notebook else "load_syntax_error_script",
                   place=place, message=note.get("message", ""))
    if code == "load_error":
        return say("text", "load_error", place=place, type=note.get("type", ""),
                   message=note.get("message", ""))
    if code in ("load_timeout", "load_crash"):
        return say("text", code, place=place)
    if code == "time_spent":
        return say("text", "load_time_spent", seconds=note.get("seconds", 0))
    return None


def _other_lab_text(say: Messages, note: Mapping[str, Any]) -> str:
    """The file is written for another lab (registry.other_lab decides; judge.written_for_other_lab
    keeps this note alone): which lab, by its title in the student's language, and what shows it."""
    lab = say.lab
    titles = note.get("titles") or {}
    other = titles.get(say.lang) or titles.get("en") or note.get("lab", "?")
    found = note.get("found") or []
    key = "other_lab_declared" if note.get("declared") and not found else "other_lab"
    return say("text", key, title=lab.title(say.lang) if lab is not None else "", other=other,
               lab=note.get("lab", "?"), functions=", ".join(lab.function_names) if lab is not None else "",
               found=", ".join(found))


def note_record(note: Mapping[str, Any], text: str) -> dict[str, Any]:
    """A load note as `--json` carries it: where, what, and the sentence a student reads."""
    record: dict[str, Any] = {"code": note["code"] if note["code"] != "problem" else note.get("problem", "problem")}
    if note["code"] == "other_lab":
        record["lab"] = one_line(note.get("lab", ""))
    if note.get("filename") is not None:
        record["file"] = one_line(without_paths(note["filename"]))
    if isinstance(note.get("line"), int):
        record["line"] = note["line"]
    if isinstance(note.get("cell"), int) and NOTEBOOK_CELL.fullmatch(str(note.get("filename", ""))):
        record["cell"] = note["cell"]
    for key in ("type", "message"):
        if note.get(key):
            record[key] = one_line(without_paths(note[key]))
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
