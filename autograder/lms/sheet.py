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

from ..said import Refusal, Said, said

# Tried in order when the file starts with no byte order mark; cp949 is what Korean Excel saves.
PLAIN_ENCODINGS = ("utf-8", "cp949")
BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


# One line of the file: (values as read, the cells' own text as written, the line end).
Record = tuple[list[str], list[str], str]


class SheetError(Refusal):
    """The file is not a sheet we can fill; the sentence says why, for the TA."""


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


def header_start(header: Sequence[object], shown: int = 6) -> Said:
    """The start of a header as a TA reads it: "Identifier, Full name, ... (10 columns)"."""
    titles = [" ".join(str(title).replace("\ufeff", "").split()) for title in header]
    if not titles or titles == [""]:
        return said("header_empty")
    if len(titles) > shown:
        return said("header_start", titles=", ".join(titles[:shown]), count=len(titles))
    return said("header_all", titles=", ".join(titles))


def read_sheet(data: bytes) -> Sheet:
    """The sheet in `data` (bytes)."""
    text, encoding, bom = decode(data)
    if not text.strip():
        raise SheetError(said("sheet_empty"))
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
                        raise SheetError(said("sheet_quote_open", line=line))
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
                    raise SheetError(said("sheet_after_quote", line=line))
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
    """(text, encoding, bom) of a sheet's bytes: a byte order mark decides, else UTF-16 when every
    other byte of the start is a NUL (a Blackboard .xls saved without its mark), else UTF-8, else cp949.
    Bytes both read are UTF-8's: a cp949 sheet is almost never valid UTF-8 (one Hangul syllable in
    a few hundred is, '캠' among them: a sheet of such syllables alone would read as 'ķ')."""
    for bom, encoding in BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(encoding), encoding, bom
            except UnicodeDecodeError as error:
                raise SheetError(said("sheet_not_encoding", encoding=encoding, why=error.reason)) from None
    wide = _utf16_without_mark(data)
    if wide:
        try:
            return data.decode(wide), wide, b""
        except UnicodeDecodeError as error:
            raise SheetError(said("sheet_not_encoding", encoding=wide, why=error.reason)) from None
    for encoding in PLAIN_ENCODINGS:
        try:
            return data.decode(encoding), encoding, b""
        except UnicodeDecodeError:
            continue
    raise SheetError(said("sheet_no_encoding"))


def _utf16_without_mark(data: bytes) -> str:
    """"utf-16-le" or "utf-16-be" when the file's start holds NUL bytes (UTF-8 and cp949 text holds
    none; UTF-16 text holds one beside each ASCII letter), by the side they are on, else ""."""
    head = data[:512 - 512 % 2] if len(data) >= 512 else data[:len(data) - len(data) % 2]
    if b"\0" not in head:
        return ""
    high, low = head[1::2].count(0), head[0::2].count(0)
    return "utf-16-le" if high > low else "utf-16-be" if low > high else ""


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
        raise SheetError(said("sheet_cannot_encode", encoding=sheet.encoding,
                              text=repr(error.object[error.start:error.end]))) from None


def _cell_text(sheet: Sheet, value: str, was_quoted: bool) -> str:
    needs = any(mark in value for mark in (sheet.delimiter, '"', "\r", "\n"))
    spaced = sheet.quote_spaces and (" " in value or "\t" in value)
    if sheet.quote_all or was_quoted or needs or spaced:
        return '"' + value.replace('"', '""') + '"'
    return value


DECIMAL_NUMBER = re.compile(r"^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)$")


def number(text: str, decimal: str = ".") -> float | None:
    """The number in a cell ("10", "10.00"; "7,5" only where the sheet's decimal mark is ","), or None."""
    written = text.strip() if isinstance(text, str) else ""
    other = "," if decimal == "." else "."
    if not DECIMAL_NUMBER.match(written) or other in written:
        return None
    value = float(written.replace(",", "."))
    return value if abs(value) != float("inf") else None


def decimal_mark(cells: Sequence[str]) -> str:
    """The decimal mark the LMS wrote `cells` (numbers) with: "," when some cell is written with a
    decimal comma ("100,00", as Moodle writes numbers in a language that uses one) and none with a
    point, else "."."""
    written = [cell.strip() for cell in cells if DECIMAL_NUMBER.match(cell.strip())]
    comma = any("," in cell for cell in written)
    return "," if comma and not any("." in cell for cell in written) else "."


def points_text(value: float, decimals: int = 2, decimal: str = ".", fixed: bool = False) -> str:
    """A grade as LMSs read it: `decimals` decimals (all of them when `fixed`, as Moodle writes "7.50",
    else no trailing zeros: "7.5", "10"), with the sheet's decimal mark."""
    text = f"{round(value, decimals):.{decimals}f}"
    if not fixed and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", decimal)


def read_csv_text(data: bytes) -> tuple[str, str]:
    """(text, encoding) of a CSV the TA may have re-saved in a spreadsheet: the one reader of the
    run's CSV files (grades.csv, overrides.csv) and the LMS's sheets (decode): a byte order mark
    decides, else UTF-8, else cp949 (what Korean Excel saves); a SheetError when it is neither."""
    text, encoding, _ = decode(data)
    return text, encoding
