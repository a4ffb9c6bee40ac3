"""A grade sheet as the LMS wrote it: rows of cells plus everything needed to write it back the same way.

The encoding (with or without its byte order mark), the delimiter and the line ends are read from
the file and used again when writing. Every cell keeps the exact text it was written with (its
quotes, or none), so the file written back differs from the one read only in the cells we change;
a changed cell is quoted the way the sheet quotes its cells (every cell; cells with spaces, as
PHP's fputcsv does for Moodle; or only where CSV needs it).
"""
import codecs
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

# Tried in order when the file starts with no byte order mark; cp949 is what Korean Excel saves.
PLAIN_ENCODINGS = ("utf-8", "cp949")
BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


# One line of the file: (values as read, the cells' own text as written, the line end).
Record = tuple[list[str], list[str], str]


class SheetError(ValueError):
    """The file is not a sheet we can fill; the message says why, for the TA."""


def header_key(title: object) -> str:
    """A header as compared: case, spacing and a byte order mark do not count ("Maximum Grade" of
    Moodle 3.x is "Maximum grade" of Moodle 4.x)."""
    return " ".join(str(title).replace("\ufeff", "").split()).casefold()


@dataclass
class Sheet:
    rows: list[list[str]]  # every row that is not blank, the header first, each a list of strings
    encoding: str       # codec name without BOM handling ("utf-8", "utf-16-le", "cp949")
    bom: bytes          # the byte order mark the file started with (b"" when none)
    delimiter: str
    quote_all: bool     # every cell was quoted in the header (Blackboard does this)
    line_end: str
    quote_spaces: bool = False  # cells with a space are quoted and no others need be (PHP's fputcsv)
    # The file as written, line by line: (values as read, the cells' own text, the line end).
    records: list[Record] = field(default_factory=list, repr=False)

    @property
    def header(self) -> list[str]:
        return self.rows[0]

    def column(self, name: str) -> int | None:
        """Index of the header cell `name` (exactly, else ignoring case and spacing when that names
        one column), or None."""
        if name in self.header:
            return self.header.index(name)
        found = [i for i, title in enumerate(self.header) if header_key(title) == header_key(name)]
        return found[0] if len(found) == 1 else None


def header_start(header: Sequence[object], shown: int = 6) -> str:
    """The start of a header as a TA reads it: "Identifier, Full name, ... (10 columns)"."""
    titles = [" ".join(str(title).replace("\ufeff", "").split()) for title in header]
    if not titles or titles == [""]:
        return "empty"
    text = ", ".join(titles[:shown])
    return f"{text}, ... ({len(titles)} columns)" if len(titles) > shown else text


def read_sheet(data: bytes) -> Sheet:
    """The sheet in `data` (bytes)."""
    text, encoding, bom = decode(data)
    if not text.strip():
        raise SheetError("the file is empty")
    first_line = re.split(r"\r\n|\r|\n", text, maxsplit=1)[0]
    delimiter = "\t" if first_line.count("\t") > first_line.count(",") else ","
    line_end = "\r\n" if "\r\n" in text else "\n"
    records = parse_records(text, delimiter)
    rows = [list(values) for values, raws, _ in records if raws != [""]]  # blank lines carry nothing
    header_raws = next(raws for _, raws, _ in records if raws != [""])
    quote_all = all(raw.startswith('"') for raw in header_raws)
    cells = [(value, raw) for values, raws, _ in records for value, raw in zip(values, raws)]
    special = re.compile(f"[{re.escape(delimiter)}\"\r\n]")
    quote_spaces = (any(raw.startswith('"') and " " in value and not special.search(value) for value, raw in cells)
                    and not any(not raw.startswith('"') and " " in value for value, raw in cells))
    width = len(rows[0])
    rows = [row + [""] * (width - len(row)) if len(row) < width else row for row in rows]
    return Sheet(rows, encoding, bom, delimiter, quote_all, line_end, quote_spaces, records)


def parse_records(text: str, delimiter: str) -> list[Record]:
    """CSV records, each (values, the cells' text as written, its line end), strictly: a quote
    opened is closed, and only a delimiter or a line end follows it."""
    unquoted = re.compile(f"[^{re.escape(delimiter)}\r\n]*")
    records: list[Record] = []
    position, size, line = 0, len(text), 1
    while position < size:
        values: list[str] = []
        raws: list[str] = []
        while True:
            start = position
            if text.startswith('"', position):
                parts: list[str] = []
                cursor = position + 1
                while True:
                    close = text.find('"', cursor)
                    if close < 0:
                        raise SheetError(f"not a readable CSV file (a quote opened on line {line} is never closed)")
                    parts.append(text[cursor:close])
                    if text.startswith('"', close + 1):
                        parts.append('"')
                        cursor = close + 2
                        continue
                    position = close + 1
                    break
                value = "".join(parts)
                line += value.count("\n")
                if position < size and text[position] not in (delimiter, "\r", "\n"):
                    raise SheetError(f"not a readable CSV file (text after a closing quote on line {line})")
            else:
                position = unquoted.match(text, position).end()  # type: ignore[union-attr]  # "[^…]*" always matches
                value = text[start:position]
            values.append(value)
            raws.append(text[start:position])
            if position < size and text[position] == delimiter:
                position += 1
                continue
            break
        end = "\r\n" if text.startswith("\r\n", position) else text[position:position + 1]
        position += len(end)
        line += 1
        records.append((values, raws, end))
    return records


def decode(data: bytes) -> tuple[str, str, bytes]:
    """(text, encoding, bom) of a sheet's bytes: a byte order mark decides, else UTF-8, else cp949."""
    for bom, encoding in BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(encoding), encoding, bom
            except UnicodeDecodeError as error:
                raise SheetError(f"starts as {encoding} but is not ({error.reason})") from None
    for encoding in PLAIN_ENCODINGS:
        try:
            return data.decode(encoding), encoding, b""
        except UnicodeDecodeError:
            continue
    raise SheetError("neither UTF-8, UTF-16 nor cp949 text")


def sheet_bytes(sheet: Sheet) -> bytes:
    """The sheet written back: every line, line end and unchanged cell exactly as read; the cells
    that changed in the sheet's own quoting; in its encoding with its BOM."""
    rows = iter(sheet.rows)
    lines: list[str] = []
    for values, raws, end in sheet.records:
        if raws == [""]:
            lines.append(end)
            continue
        current = next(rows)
        used = max([len(raws)] + [i + 1 for i, value in enumerate(current) if value != ""])
        cells: list[str] = []
        for index in range(used):
            value = current[index] if index < len(current) else ""
            if index < len(raws) and value == values[index]:
                cells.append(raws[index])
            else:
                cells.append(_cell_text(sheet, value, index < len(raws) and raws[index].startswith('"')))
        line = sheet.delimiter.join(cells)
        lines.append((line or '""') + end)  # a row of one empty cell, not a blank line
    try:
        return sheet.bom + "".join(lines).encode(sheet.encoding)
    except UnicodeEncodeError as error:
        raise SheetError(f"a cell cannot be written in the sheet's encoding {sheet.encoding}: "
                         f"{error.object[error.start:error.end]!r}") from None


def _cell_text(sheet: Sheet, value: str, was_quoted: bool) -> str:
    needs = any(mark in value for mark in (sheet.delimiter, '"', "\r", "\n"))
    spaced = sheet.quote_spaces and (" " in value or "\t" in value)
    if sheet.quote_all or was_quoted or needs or spaced:
        return '"' + value.replace('"', '""') + '"'
    return value


def number(text: str) -> float | None:
    """The number in a cell ("10", "10.00", " 7,5 " is not one), or None."""
    try:
        value = float(text.strip())
    except (ValueError, AttributeError):
        return None
    return value if value == value and abs(value) != float("inf") else None


def points_text(value: float, decimals: int = 2) -> str:
    """A grade as LMSs read it: at most `decimals` decimals, no trailing zeros ("7.5", "10")."""
    text = f"{round(value, decimals):.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
