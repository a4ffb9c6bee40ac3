"""A grade sheet as the LMS wrote it: rows of cells plus everything needed to write it back the same way.

The encoding (with or without its byte order mark), the delimiter, the quoting and the line ends
are read from the file and used again when writing, so the LMS reads our file as it reads its own.
"""
import codecs
import csv
import io
import re
from dataclasses import dataclass

# Tried in order when the file starts with no byte order mark; cp949 is what Korean Excel saves.
PLAIN_ENCODINGS = ("utf-8", "cp949")
BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


class SheetError(ValueError):
    """The file is not a sheet we can fill; the message says why, for the TA."""


@dataclass
class Sheet:
    rows: list          # every row, the header first, each a list of strings
    encoding: str       # codec name without BOM handling ("utf-8", "utf-16-le", "cp949")
    bom: bytes          # the byte order mark the file started with (b"" when none)
    delimiter: str
    quote_all: bool     # every cell was quoted in the header (Blackboard does this)
    line_end: str

    @property
    def header(self):
        return self.rows[0]

    def column(self, name):
        """Index of the header cell `name`, or None."""
        return self.header.index(name) if name in self.header else None


def read_sheet(data):
    """The sheet in `data` (bytes)."""
    text, encoding, bom = decode(data)
    if not text.strip():
        raise SheetError("the file is empty")
    first_line = text.split("\n", 1)[0]
    delimiter = "\t" if first_line.count("\t") > first_line.count(",") else ","
    line_end = "\r\n" if "\r\n" in text else "\n"
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as error:
        raise SheetError(f"not a readable CSV file ({error})") from None
    rows = [row for row in rows if row]  # blank lines carry nothing
    quoted = '"(?:[^"]|"")*"'
    quote_all = re.fullmatch(f"{quoted}(?:{re.escape(delimiter)}{quoted})*", first_line.rstrip("\r")) is not None
    width = len(rows[0])
    rows = [row + [""] * (width - len(row)) if len(row) < width else row for row in rows]
    return Sheet(rows, encoding, bom, delimiter, quote_all, line_end)


def decode(data):
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


def sheet_bytes(sheet):
    """The sheet written back in its own encoding, BOM, delimiter, quoting and line ends."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=sheet.delimiter, lineterminator=sheet.line_end,
                        quoting=csv.QUOTE_ALL if sheet.quote_all else csv.QUOTE_MINIMAL)
    writer.writerows(sheet.rows)
    try:
        return sheet.bom + buffer.getvalue().encode(sheet.encoding)
    except UnicodeEncodeError as error:
        raise SheetError(f"a cell cannot be written in the sheet's encoding {sheet.encoding}: "
                         f"{error.object[error.start:error.end]!r}") from None


def number(text):
    """The number in a cell ("10", "10.00", " 7,5 " is not one), or None."""
    try:
        value = float(text.strip())
    except (ValueError, AttributeError):
        return None
    return value if value == value and abs(value) != float("inf") else None


def points_text(value, decimals=2):
    """A grade as LMSs read it: at most `decimals` decimals, no trailing zeros ("7.5", "10")."""
    text = f"{round(value, decimals):.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
