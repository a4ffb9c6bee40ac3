"""Why a submission cannot be read, as data: a `Detail` (a code of the catalogs' [detail] section
and its parameters), never words of a language; the catalogs say it (render.messages.Messages)."""
from __future__ import annotations

import errno
from dataclasses import dataclass

from ..guard import error_name


@dataclass(frozen=True)
class Detail:
    """The reason behind a problem, as data: a code of the catalogs' [detail] section and its
    parameters (numbers, file names, Python's names for errors: never words of a language).
    The catalogs say it in the reader's language (render.messages.Messages; render.messages.detail_text in
    English for the TAs' files), so this record stays free of any language."""

    code: str
    params: tuple[tuple[str, object], ...] = ()  # ((name, value), ...), sorted by name

    @property
    def parameters(self) -> dict[str, object]:
        return dict(self.params)


def detail(code: str, **params: object) -> Detail:
    """A Detail of `code` (one of DETAILS) with its parameters."""
    if DETAILS.get(code) != tuple(sorted(params)):
        raise ValueError(f"detail {code!r} takes {DETAILS.get(code)}, not {tuple(sorted(params))}")
    return Detail(code, tuple(sorted(params.items())))


# Every detail code and its parameters. Numbers: size, most, count, cell, line, column, position,
# seconds; outside text (shown without folders, see render.text.OUTSIDE_TEXT): filename, member, files,
# type, error, reason.
DETAILS: dict[str, tuple[str, ...]] = {
    "size": ("size",),  # the file's size in bytes
    "size_over": ("most",),  # larger than `most` bytes
    "inflate_over": ("most", "size"),
    "reading_time": ("seconds",),
    "code_cells_over": ("count", "most"),
    "code_lines_over": ("most",),
    "json_containers_over": ("count", "most"),
    "json_items_over": ("count", "most"),
    "json_keys_over": ("count", "most"),
    "json_error_at": ("column", "line"),
    "json_invalid": (),
    "too_deep": (),
    "byte_at": ("position",),  # counted from 1
    "no_cell_list": (),
    "cell_without_text": ("cell",),
    "exception": ("type",),  # a failure while reading, by its Python type ("zlib.error")
    "filename": ("filename",),
    "files": ("files",),  # names of the files submitted
    "same_standing": ("submitted",),  # relative names in a submission, shown with their folders
    "no_files": (),
    "zip_unreadable": ("type",),
    "zip_members_over": ("count", "most"),
    "zip_export_notebooks": ("count",),
    "zip_not_export": (),
    "zip_no_gradable": (),
    "zip_several_gradable": ("count", "files"),
    "zip_member_special": ("member",),
    "zip_member_encrypted": ("member",),
    "zip_member_unreadable": ("member", "type"),
    "os_error": ("error",),  # the system's name for it ("EACCES")
    "link": (),
    "folder": (),
    "fifo": (),
    "device": (),
    "socket": (),
    "special_file": (),
    "grader_error": ("type",),
    "grader_reading": (),
    "unsafe_name": (),  # a name in an archive that would leave its folder
    "folder_unreadable": ("error",),
    "zips_budget_spent": ("size",),
    "metadata_unreadable": ("most",),  # an LMS metadata file not read: unreadable, or larger than `most` bytes
    "zip_ratio_over": ("most",),  # a zip in the class that would decompress to more than `most` times its size  # this student's zips already decompressed `size` bytes
}


def as_detail(value: object) -> Detail | None:
    """A problem's detail as a Detail, or None when there is none. Every reason a student reads is
    a Detail, so the catalogs say it in the student's language; text is refused (a ValueError), so
    no sentence of one language can reach feedback in another."""
    if isinstance(value, Detail):
        return value  # a dataclass without __bool__ or __len__: always true
    if value is None or value == "":
        return None
    raise ValueError(f"a problem's reason must be a submission.Detail, not {type(value).__name__}: {value!r}")


def os_detail(error: BaseException) -> Detail:
    """Why the system could not give a file's bytes, as a Detail."""
    for given in (getattr(error, "detail", None), getattr(error, "strerror", None)):
        if isinstance(given, Detail):  # NotARegularFile, or a reader's refusal passed on
            return given
    name = errno.errorcode.get(getattr(error, "errno", None) or 0)
    return detail("os_error", error=name or type(error).__name__)


def failure_detail(error: BaseException) -> Detail:
    """An exception as a reason: its Python type ("zlib.error"); its message is in English (or
    quotes the file) and is never shown to a student."""
    return detail("exception", type=error_type(error))


error_type = error_name  # an exception's type as Python names it: "KeyError", "zlib.error"

