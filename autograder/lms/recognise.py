"""Which LMS wrote a grade sheet, read from its header alone: a gradebook or worksheet a TA zipped
together with the submissions is listed as what it is, never graded as a student's file."""
from collections.abc import Iterable, Sequence

from . import blackboard, canvas, gradescope, moodle
from ..said import Said, said
from .sheet import SheetError, decode, header_key, header_start, parse_records

KINDS = (("Canvas gradebook", canvas.SIGNATURES), ("Moodle grading worksheet", moodle.SIGNATURES),
         ("Blackboard Grade Center sheet", blackboard.SIGNATURES), ("Gradescope grade sheet", gradescope.SIGNATURES))
SHEET_KINDS = tuple(kind for kind, _ in KINDS)
HEAD_BYTES = 64 * 1024  # of a file, read to recognise it: a header is far shorter


# Which `autograder export` command fills each kind (Gradescope's sheet is filled by none).
COMMANDS = {"Canvas gradebook": "canvas", "Moodle grading worksheet": "moodle",
            "Blackboard Grade Center sheet": "blackboard"}
KIND_OF_COMMAND = {command: kind for kind, command in COMMANDS.items()}


def sheet_kind(head: bytes) -> str:
    """The kind of LMS grade sheet whose first bytes are `head` ("Canvas gradebook", ...), or "".

    Its header row (first line, comma or tab separated, any of the encodings sheets come in) is
    compared with each LMS's own header names, ignoring case and spacing."""
    return header_kind(_header(head))


def header_kind(header: Iterable[object]) -> str:
    """The kind of LMS grade sheet whose header row (a list of titles) this is, or ""."""
    keys = {header_key(title) for title in header}
    for kind, signatures in KINDS:
        if any(signature <= keys for signature in signatures):
            return kind
    return ""


# The catalogs' key ([export]) of each kind's name, for the TA's sentences.
KIND_KEYS = {"Canvas gradebook": "kind_canvas", "Moodle grading worksheet": "kind_moodle",
             "Blackboard Grade Center sheet": "kind_blackboard", "Gradescope grade sheet": "kind_gradescope"}


def wrong_lms(header: Sequence[str], command: str) -> Said | None:
    """Why a sheet of another LMS cannot be filled by `autograder export <command>`, naming what
    its header is, which LMS's sheet it looks like and the command that fits; None when its header
    is not another LMS's (it may be the right LMS's, or nobody's)."""
    kind = header_kind(header)
    wanted = KIND_OF_COMMAND[command]
    if not kind or kind == wanted:
        return None
    fits = COMMANDS.get(kind)
    if fits:
        return said("wrong_lms", wanted=said(KIND_KEYS[wanted]), header=header_start(header),
                    looks_like=said(KIND_KEYS[kind]), fits=fits)
    return said("wrong_lms_gradescope", wanted=said(KIND_KEYS[wanted]), header=header_start(header),
                looks_like=said(KIND_KEYS[kind]))


def _header(head: bytes) -> list[str]:
    for cut in range(4):  # the head may end inside a character
        try:
            text = decode(head[:len(head) - cut] if cut else head)[0]
            break
        except SheetError:
            continue
    else:
        return []
    first = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", 1)[0]
    if "\0" in first:
        return []
    delimiter = "\t" if first.count("\t") > first.count(",") else ","
    try:
        records = parse_records(first, delimiter)
    except SheetError:
        return []
    return records[0][0] if records else []
