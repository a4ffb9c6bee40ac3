"""Text no face may print raw, and its layout: controls shown as escapes (`printable`, `one_line`,
`json_text`), paths without their folders (`without_paths`), lines wrapped to the terminal
(`fit_to_width`), positions counted the way each language counts them (`position`)."""
from __future__ import annotations

import re
import unicodedata
from typing import Any, TextIO

# Characters a terminal, an editor or a browser acts on instead of showing: C0 and C1 controls
# (ANSI escape sequences start with ESC or CSI), DEL, bidirectional overrides, line separators.
INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                        "\u202a-\u202e\u2066-\u2069\ufeff]")
_LINE_BREAKS = re.compile("[\n\r\t\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                          "\u202a-\u202e\u2066-\u2069\ufeff]")


def printable(text: object, newlines: bool = True) -> str:
    """`text` with every control character shown as an escape (ESC as \\x1b), never acted on.

    newlines=True keeps line feeds and tabs (multi-line feedback); False escapes them too, for a
    value that must stay on its line (a file name, an exception message, a CSV cell).
    """
    pattern = INVISIBLE if newlines else _LINE_BREAKS
    return pattern.sub(_escape, str(text))


_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    if match.group() in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[match.group()]
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def json_text(data: object, **options: Any) -> str:
    """JSON of `data` (Unicode kept readable) in which no character a terminal, an editor or a
    browser acts on appears raw: JSON escapes C0 controls itself; C1 controls and bidirectional
    marks are escaped here too. Loads back to exactly `data`."""
    import json

    text = json.dumps(data, ensure_ascii=False, **options)
    return INVISIBLE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def fit_to_width(text: str, width: int | None) -> str:
    """`text` with every line wider than `width` terminal columns wrapped here, each further row
    indented four columns past its line's own: the terminal then never wraps a line itself, so no
    text a submission sent (padded to the edge of the screen) can start a row of its own and pass
    for the grader's ("Total 10 / 10 points"). Hangul and other wide characters count two columns."""
    if not width or width < 20:
        return text
    return "\n".join(row for line in text.split("\n") for row in _rows(line, width))


def _rows(line: str, width: int) -> list[str]:
    indent = line[:len(line) - len(line.lstrip(" "))]
    rows: list[str]
    prefix, rows, start = indent + "    ", [], 0
    while True:
        room = width - (_columns(prefix) if rows else 0)
        end, used = start, 0
        while end < len(line) and used + _columns(line[end]) <= room:
            used += _columns(line[end])
            end += 1
        if end >= len(line):
            rows.append((prefix if rows else "") + line[start:])
            return rows
        space = line.rfind(" ", start, end)
        if space > start + (end - start) // 2:
            end = space + 1
        rows.append((prefix if rows else "") + line[start:end].rstrip(" "))
        start = end
        while start < len(line) and line[start] == " ":
            start += 1
        if start >= len(line):
            return rows


def terminal_width(stream: TextIO | None = None) -> int | None:
    """The columns of the terminal `stream` (stdout) writes to; None when it writes elsewhere."""
    import shutil
    import sys

    stream = stream or sys.stdout
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return shutil.get_terminal_size().columns


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def one_line(value: object) -> str:
    """A value the student controls, in a line of feedback: it cannot start a line of its own."""
    return printable(value, newlines=False)


# Text from outside the catalogs (an exception's message, a file name, a value the student's code
# returned) reaches a sentence only through these parameters; each is shown without the folders of
# any path in it (see without_paths). `line`, a line of the student's own code, is quoted as written.
OUTSIDE_TEXT = frozenset({"type", "message", "detail", "filename", "function", "module", "kind",
                          "got", "word", "keys", "similar", "preview", "member", "files", "error", "reason",
                          "names"})
MULTILINE_OUTSIDE_TEXT = frozenset({"preview"})  # arrays printed over lines
# A run of characters that can make a path: everything but blanks, quotes, brackets, separators
# of a list, and ":" (so "C:" and "for /:" end a run). A run with a folder in it is a path.
# Slashes and the characters that look like one (a student's code can print the machine's folders
# with "∕" or "／" in them to pass for text).
SLASHES = "/\\\u2215\u2044\uff0f\u29f8\u2571\u29f9\uff3c\u2216\u29f5\u2572"
_PATH_RUN = re.compile(rf"[^\s'\"`<>()\[\]{{}},;:|]*[{re.escape(SLASHES)}][^\s'\"`<>()\[\]{{}},;:|]*")
_SEPARATORS = re.compile(rf"[{re.escape(SLASHES)}]+")
PATH_ELIDED = "…"


def without_paths(text: object) -> str:
    """`text` with every path shown by its last part only ("…/data.csv" for
    "/usr/lib/python3.11/site-packages/data.csv", "C:\\Users\\kim\\a.py" or "~/x/data.csv"),
    so no folder of the machine that ran the code (interpreter, site-packages, temporary folders,
    home) reaches a student. Separators alone ("for /:", " / ") are not paths."""
    return _PATH_RUN.sub(_last_part, str(text))


def _last_part(match: re.Match[str]) -> str:
    run = match.group()
    parts = _SEPARATORS.split(run)
    if not any(parts[:-1]):
        return run  # "/", "/x": a separator, or a single name after one (a division, a root name)
    return f"{PATH_ELIDED}/{parts[-1]}"


# Korean counts positions from one, in words: 첫 번째, 두 번째, … 열 번째, then 11번째.
KOREAN_ORDINALS = ("첫", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열")


ENGLISH_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def position(index: object, lang: str) -> str:
    """How a 0-based column or position reads: Korean says the ordinal counted from one
    ("두 번째" for index 1); English gives the index NumPy uses and the ordinal ("1 (the second)"),
    so that neither reader counts from the other end."""
    if not isinstance(index, int):
        return str(index)
    if lang != "ko":
        return f"{index} (the {ENGLISH_ORDINALS[index]})" if 0 <= index < len(ENGLISH_ORDINALS) else str(index)
    number = index + 1
    if 1 <= number <= len(KOREAN_ORDINALS):
        return f"{KOREAN_ORDINALS[number - 1]} 번째"
    return f"{number}번째"
