"""A .py as cells: a file that does not compile is cut at its `# %%` marks or its top-level
definitions, so that a syntax error costs only its part of the file."""
from __future__ import annotations

import functools
import re
import tokenize

from ..cells import Cell
from ..guard import SafeText, safe_text
from .budget import Reading

CELL_MARK = re.compile(r"# ?%%")
_WRAP = "(" * 8 + "\n"  # brackets opened around a file while it is tokenized: no indentation is read


def script_cells(text: SafeText, filename: SafeText, reading: Reading | None = None,
                 statements: bool = False) -> list[Cell]:
    """A .py file as cells, so that a syntax error costs only its part of the file: a file that
    compiles stays whole; one that does not is cut at its `# %%` marks (the twin's cells), else
    before each top-level definition (`statements`: before each top-level statement, marks or
    not, for a reader that looks into each part alone). Cuts come from the tokenizer: a mark or a definition
    counts only as a token of its own at column 0, never inside a string (or any token). Each
    cell is padded with blank lines to its place, so every message names the file's own line
    numbers. A file too long, with too long a line, or split too finely stays one cell."""
    reading = reading or Reading()
    budget = reading.budget
    whole: list[Cell] = [{"source": text, "filename": filename}]
    if len(text) > budget.parse_chars:
        return whole
    lines = _lines(text)
    if len(lines) > budget.script_lines \
            or any(len(line) > budget.token_line_chars for line in lines) \
            or "\r" in text.replace("\r\n", "\n"):  # a lone CR ends a line for Python, not here
        return whole
    if reading.compiles(text, filename) is not False:  # it compiles, or may not be tried
        return whole
    kinds = _line_kinds(lines, reading)
    marked = [index for index, kind in sorted(kinds.items()) if kind == "mark"]
    if statements:
        starts = sorted({0, *_definition_starts(kinds, statements=True)})
    else:
        starts = sorted({0, *(marked or _definition_starts(kinds))})
    if len(starts) == 1 or len(starts) > budget.script_cells:
        return whole
    ends = starts[1:] + [len(lines)]
    return [{"source": safe_text("\n" * start + "".join(lines[start:end])), "filename": filename}
            for start, end in zip(starts, ends) if "".join(lines[start:end]).strip()]


def _lines(text: str) -> list[str]:
    """The file's lines as Python counts them (ended by "\\n" only), each with its end."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


_FSTRING_STARTS = {getattr(tokenize, name) for name in ("FSTRING_START", "TSTRING_START") if hasattr(tokenize, name)}
_FSTRING_ENDS = {getattr(tokenize, name) for name in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, name)}
_LAYOUT = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def _line_kinds(lines: list[str], reading: Reading) -> dict[int, str]:
    """{line index: what its first token is} for the lines where a token starts at column 0,
    outside any f-string: "mark" (a `# %%` comment), "comment", "def" (def, async, class),
    "decorator" or "code". The file is tokenized inside brackets it never closes, so a bad
    indentation stops nothing; after an error the tokenizer starts again just past it (a
    few times at most), and an unterminated string ends the reading: nothing after its start
    is cut."""
    kinds: dict[int, str] = {}
    row, column = 0, 0  # where tokenizing (re)starts
    for _ in range(reading.budget.token_restarts + 1):
        fed = [_WRAP, " " * column + lines[row][column:], *lines[row + 1:]]
        reading.tokenized_chars += sum(map(len, fed))
        reading.check_time()
        depth = 0  # of f-strings
        try:
            for token in tokenize.generate_tokens(functools.partial(next, iter(fed), "")):
                if token.type in _FSTRING_STARTS:
                    depth += 1
                elif token.type in _FSTRING_ENDS:
                    depth -= 1
                if token.start[1] == 0 and token.start[0] >= 2 and depth == 0 and token.type not in _LAYOUT:
                    kinds.setdefault(row + token.start[0] - 2, _kind(token))
            return kinds
        except (tokenize.TokenError, SyntaxError) as error:
            message, (line, offset) = _token_error(error)
            if line is None or "EOF" in message or "triple-quoted" in message:
                return kinds  # the end of the file, or a string that never ends
            at = (row + line - 2, max(offset, 0))
            if at <= (row, column):
                at = (row, column + 1)
            row, column = at
            if row >= len(lines):
                return kinds
            if column >= len(lines[row]):
                row, column = row + 1, 0
            if row >= len(lines):
                return kinds
    return kinds


def _token_error(error: tokenize.TokenError | SyntaxError) -> tuple[str, tuple[int | None, int]]:
    """(message, (fed line, column just past the error)) of a tokenizer error."""
    if isinstance(error, tokenize.TokenError):
        message = str(error.args[0]) if error.args else ""
        position = error.args[1] if len(error.args) > 1 and isinstance(error.args[1], tuple) else (None, 0)
        line, column = (position + (0,))[:2]
        return message, (line, (column or 0))  # 1-based offsets on 3.12+: past the bad character
    return str(error.msg or ""), (error.lineno, (error.offset or 0))


def _kind(token: tokenize.TokenInfo) -> str:
    if token.type == tokenize.COMMENT:
        return "mark" if CELL_MARK.match(token.string) else "comment"
    if token.type == tokenize.NAME and token.string in ("def", "async", "class"):
        return "def"
    if token.type == tokenize.OP and token.string == "@":
        return "decorator"
    return "code"


def _definition_starts(kinds: dict[int, str], statements: bool = False) -> list[int]:
    """Line indexes where a top-level definition (with its decorators) begins; with `statements`,
    where any top-level statement begins (a line of code at column 0 not after a decorator)."""
    starts: list[int] = []
    previous_decorator = False
    for index, kind in sorted(kinds.items()):
        if kind in ("def", "decorator") or (statements and kind == "code"):
            if not previous_decorator:
                starts.append(index)
            previous_decorator = kind == "decorator"
        elif kind == "code":
            previous_decorator = False
    return starts

