"""Writing an LMS export zip the way an LMS would, member names exactly as given (a student's
original file name may hold a backslash: on POSIX, zipfile keeps it as a character)."""
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def text(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as handle:
        return handle.read()


def write_zip(path, members):
    """members: [(name, date_time tuple, text)]."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, when, data in members:
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            archive.writestr(info, data)
    return path
