"""Class exports built the way an LMS writes them (tester's helpers)."""
import io
import time
import zipfile

STAMP = (2024, 3, 1, 12, 0, 0)


def add(archive, name, data, stamp=STAMP, compress=zipfile.ZIP_DEFLATED):
    info = zipfile.ZipInfo(name, date_time=stamp)
    info.compress_type = compress
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def zip_bytes(members, compress=zipfile.ZIP_DEFLATED):
    """A zip (bytes) of {name: bytes}."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            add(archive, name, data, compress=compress)
    return buffer.getvalue()
