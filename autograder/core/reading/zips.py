"""Zips: Otter's export, or one file zipped by hand. Chosen on the zip's directory; only the chosen
member is decompressed, within the reading's budget."""
from __future__ import annotations

import io
import stat
import zipfile
from collections.abc import Callable
from typing import Literal, cast, overload

from .budget import Reading, Refusal, untrusted
from .names import GRADABLE_SUFFIXES
from .problems import Detail, detail, error_type

# Names `otter.Notebook.export()` writes besides the notebook (otter/check/notebook.py).
OTTER_LOG = ".OTTER_LOG"
OTTER_ZIP_NAME = "__zip_filename__"


class NotAnOtterExport(Refusal):
    """A .zip that is neither the one `otter.Notebook.export()` writes nor one holding a single
    .ipynb or .py, or whose file cannot be read."""

    def __init__(self, detail: Detail, problem: str = "not_otter_export") -> None:
        super().__init__(detail, problem)

# What operating systems and editors add to a zip a student makes by hand.
ZIP_SYSTEM_DIRS = {"__MACOSX", ".ipynb_checkpoints", "__pycache__", ".git"}
ZIP_SYSTEM_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}
# The signature of a zip's central directory entry: one per member (the count can only be too high).
_MEMBER_SIGNATURE = b"PK\x01\x02"


def zipped_submission(data: bytes | bytearray, reading: Reading | None = None) -> tuple[str, bytes]:
    """(name, bytes) of the file to grade inside a submitted .zip: the notebook of the zip Otter's
    export() writes (by Otter's rule, when the zip carries Otter's marker), else the one .ipynb or
    .py a student zipped by hand (at any depth; what operating systems add does not count; other
    files, data or pictures, are never read). Raises NotAnOtterExport with the reason, never
    anything else. Within the reading's budget (see `_zipped`)."""
    return _zip_reading(_zipped, data, reading, otter_only=False)


def otter_export_notebook(data: bytes | bytearray, reading: Reading | None = None) -> tuple[str, bytes]:
    """(name, bytes) of the notebook inside the zip `otter.Notebook(...).export()` writes: the
    notebook nearest the top of the zip (`_export_notebook`), beside `__zip_filename__`, usually `.OTTER_LOG` (a pickle:
    never unpickled, never even read here), maybe a PDF and files the student attached. Raises
    NotAnOtterExport with the reason otherwise, never anything else."""
    return _zip_reading(_zipped, data, reading, otter_only=True)


def hand_zipped_file(data: bytes | bytearray, reading: Reading | None = None) -> tuple[str, bytes]:
    """(name, bytes) of the only .ipynb or .py in a zip a student made by hand (Windows' "send to
    compressed folder", macOS' "compress"). Raises NotAnOtterExport saying what the zip holds when
    it is not exactly one."""
    return _zip_reading(_zipped, data, reading, otter_only=False, hand_only=True)


def zipped_problem(data: bytes | bytearray) -> Detail | Literal[""]:
    """"" when `data` is a zip `zipped_submission` grades, else why not (a Detail; render.messages.detail_text
    says it); told from the zip's directory alone, its file never decompressed. Never raises."""
    read = untrusted(_zipped, data, False, False, False)
    return read.detail if read.problem is not None and read.detail is not None else ""


def otter_export_problem(data: bytes | bytearray) -> Detail | Literal[""]:
    """`zipped_problem` for Otter's export alone."""
    read = untrusted(_zipped, data, True, False, False)
    return read.detail if read.problem is not None and read.detail is not None else ""


def _zip_reading(work: Callable[..., tuple[str, bytes]], data: bytes | bytearray, reading: Reading | None,
                 otter_only: bool, hand_only: bool = False) -> tuple[str, bytes]:
    if reading is not None:  # inside a caller's untrusted()
        return work(data, otter_only, hand_only, True, reading=reading)
    read = untrusted(work, data, otter_only, hand_only, True)
    # untrusted gives a detail with every problem, and the value exactly when there is none
    if read.problem is not None:
        raise NotAnOtterExport(cast(Detail, read.detail), read.problem)
    return cast("tuple[str, bytes]", read.value)


@overload
def _zipped(data: bytes | bytearray, otter_only: bool, hand_only: bool, inflate: Literal[True], *,
            reading: Reading) -> tuple[str, bytes]: ...
@overload
def _zipped(data: bytes | bytearray, otter_only: bool, hand_only: bool, inflate: bool, *,
            reading: Reading) -> tuple[str, bytes | None]: ...
def _zipped(data: bytes | bytearray, otter_only: bool, hand_only: bool, inflate: bool, *,
            reading: Reading) -> tuple[str, bytes | None]:
    """The member to grade of a submitted zip, chosen on its directory: its members counted before
    it is opened (at most `export_members`), the member a regular, unencrypted file declaring at
    most `file_bytes`. That one member alone is decompressed (when `inflate`), within the
    reading's budget of decompressed bytes; a zip inside is never opened. Every member is
    addressed by its ZipInfo, never by name."""
    budget = reading.budget
    counted = data.count(_MEMBER_SIGNATURE)
    if counted > budget.export_members:
        raise NotAnOtterExport(detail("zip_members_over", count=counted, most=budget.export_members))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except Exception as error:  # noqa: BLE001 (zipfile raises many kinds on a damaged directory)
        raise NotAnOtterExport(detail("zip_unreadable", type=error_type(error)), "unreadable") from None
    with archive:
        members = archive.infolist()
        if len(members) > budget.export_members:
            raise NotAnOtterExport(detail("zip_members_over", count=len(members), most=budget.export_members))
        marked = any(info.filename in (OTTER_LOG, OTTER_ZIP_NAME) for info in members)
        if marked and not hand_only:  # Otter's rule
            member = _export_notebook(members)
        elif otter_only:
            raise NotAnOtterExport(detail("zip_not_export"))
        else:  # zipped by hand
            gradable = [info for info in members if not info.is_dir() and not _zip_system_member(info.filename)
                        and info.filename.lower().endswith(GRADABLE_SUFFIXES)]
            if not gradable:
                raise NotAnOtterExport(detail("zip_no_gradable"))
            if len(gradable) > 1:
                shown = ", ".join(info.filename for info in gradable[:3]) + (", ..." if len(gradable) > 3 else "")
                raise NotAnOtterExport(detail("zip_several_gradable", count=len(gradable), files=shown))
            member = gradable[0]
        what = member.filename
        if not zip_member_is_regular(member):
            raise NotAnOtterExport(detail("zip_member_special", member=what))
        if member.flag_bits & 0x1:
            raise NotAnOtterExport(detail("zip_member_encrypted", member=what), "unreadable")
        if member.file_size > budget.file_bytes:
            raise NotAnOtterExport(detail("size", size=member.file_size), "too_large")
        name = member.filename.replace("\\", "/")
        if not inflate:
            return name, None
        reading.inflate(member.file_size)  # zipfile never yields more than the size declared
        try:
            with archive.open(member) as handle:
                content = handle.read(budget.file_bytes + 1)
        except Exception as error:  # noqa: BLE001 (zlib.error, BadZipFile, EOFError, ...)
            raise NotAnOtterExport(detail("zip_member_unreadable", member=what, type=error_type(error)),
                                   "unreadable") from None
        if len(content) > budget.file_bytes:
            raise NotAnOtterExport(detail("size_over", most=budget.file_bytes), "too_large")
        return name, content


def _export_notebook(members: list[zipfile.ZipInfo]) -> zipfile.ZipInfo:
    """The notebook of an Otter export: the one .ipynb nearest the top of the zip, at any depth.
    Otter's `export()` stores the notebook under the path it was given, and JupyterLab and VS Code
    give an absolute one (`tmp/work/lab/self_attention_lab.ipynb`); several at that depth are a
    named problem, never a guess."""
    notebooks = [info for info in members if not info.is_dir() and not _zip_system_member(info.filename)
                 and info.filename.lower().endswith(".ipynb")]
    depth = min((_zip_depth(info.filename) for info in notebooks), default=0)
    nearest = [info for info in notebooks if _zip_depth(info.filename) == depth]
    if len(nearest) != 1:
        raise NotAnOtterExport(detail("zip_export_notebooks", count=len(nearest)))
    return nearest[0]


def _zip_depth(name: str) -> int:
    return len([part for part in name.replace("\\", "/").split("/") if part]) - 1


def _zip_system_member(name: str) -> bool:
    parts = [part for part in name.replace("\\", "/").split("/") if part]
    return (not parts or any(part in ZIP_SYSTEM_DIRS for part in parts[:-1])
            or parts[-1] in ZIP_SYSTEM_FILES or parts[-1].startswith("._"))


def zip_member_is_regular(info: zipfile.ZipInfo) -> bool:
    """False for members a Unix zip tool stored as symbolic links, FIFOs or devices."""
    kind = stat.S_IFMT(info.external_attr >> 16)
    return kind in (0, stat.S_IFREG, stat.S_IFDIR)  # 0: a zip tool that records no file type

