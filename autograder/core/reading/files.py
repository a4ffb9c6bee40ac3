"""Reading a file's bytes: a regular file only, never a FIFO, a device or (when refused) a link."""
from __future__ import annotations

import os
import stat

from .budget import MAX_BYTES
from .problems import detail


class NotARegularFile(OSError):
    """The path names a FIFO, device, socket, folder or (when links are refused) a symbolic link;
    `detail` says which (a Detail)."""

    def __init__(self, number: int, text: str, what: str) -> None:
        super().__init__(number, text)
        self.detail = detail(what)


def read_regular_file(path: str | os.PathLike[str], follow_links: bool = True, limit: int = MAX_BYTES,
                      dir_fd: int | None = None) -> bytes:
    """The bytes of a regular file, at most `limit` + 1 of them (so callers can tell "too large").

    Opened non-blocking (a FIFO never hangs the open), checked with fstat on the open descriptor
    (no race between the check and the read). With follow_links=False a symbolic link as the last
    part of the path is refused (O_NOFOLLOW). Raises NotARegularFile or OSError.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= os.O_NOFOLLOW
    try:
        descriptor = os.open(path, flags, dir_fd=dir_fd)
    except OSError as error:
        if not follow_links and error.errno == 40:  # ELOOP: the last part is a link
            raise NotARegularFile(error.errno, "a symbolic link", "link") from None
        raise
    try:
        mode = os.fstat(descriptor).st_mode
        kind = file_kind(mode)
        if kind != "regular file":
            raise NotARegularFile(0, f"a {kind}, not a regular file", kind_detail(mode))
        os.set_blocking(descriptor, True)
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def kind_detail(mode: int) -> str:
    """The detail code of what an inode is, when it is not a regular file."""
    for test, code in ((stat.S_ISDIR, "folder"), (stat.S_ISLNK, "link"), (stat.S_ISFIFO, "fifo"),
                       (stat.S_ISCHR, "device"), (stat.S_ISBLK, "device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return code
    return "special_file"


def file_kind(mode: int) -> str:
    """Words for what an inode is, for messages ("FIFO", "character device", ...)."""
    for test, word in ((stat.S_ISREG, "regular file"), (stat.S_ISDIR, "folder"), (stat.S_ISLNK, "symbolic link"),
                       (stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return word
    return "special file"


def same_file(path: str, other: str) -> bool:
    """Whether two paths name one file: by any spelling, through links, or as hard links."""
    if os.path.realpath(path) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False
